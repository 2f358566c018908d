"""Live progress on standard error while a build runs, and ``--tee``'s echo of the raw log.

The progress line is redrawn four times a second by rich's own refresh thread from the state
the stream readers keep up to date; the readers never wait for the terminal. When standard
error is not a terminal nothing is drawn (a CI log wants the summary, not redraws).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.live import Live
from rich.text import Text

from trtlog.build.progress import ProgressState

Echo = Callable[[bytes], None]


@contextmanager
def live_progress(progress: ProgressState, *, quiet: bool, tee: bool) -> Iterator[Echo | None]:
    """Shows ``progress`` until the block ends; yields the echo for ``--tee`` (or None)."""
    console = Console(stderr=True)
    live = None
    if not quiet and console.is_terminal:
        live = Live(
            get_renderable=lambda: Text(progress.describe(), style="bold cyan"),
            console=console,
            refresh_per_second=4,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
    echo = _echo(live) if tee else None
    if live is None:
        yield echo
        return
    with live:
        yield echo


def _echo(live: Live | None) -> Echo:
    lock = threading.Lock()
    if live is not None and sys.stdout.isatty():
        # Stdout and the progress line share the terminal: print above the progress line.
        def above(raw: bytes) -> None:
            text = raw.decode("utf-8", errors="replace").rstrip("\n")
            with lock:
                live.console.print(Text(text), soft_wrap=True, highlight=False, markup=False)

        return above

    def raw_echo(raw: bytes) -> None:
        with lock:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()

    return raw_echo


__all__ = ["Echo", "live_progress"]
