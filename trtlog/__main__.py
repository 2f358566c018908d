"""``python -m trtlog``: the same as the ``trtlog`` command."""

from trtlog.cli.app import main

main()
