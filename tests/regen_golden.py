"""Write the golden files: ``python tests/regen_golden.py [NAME ...]``.

Each NAME is a golden log's file name (or a part of it that names one log); without any, every
golden log. A file is written only when its figures changed, so that ``git diff tests/golden``
shows exactly what changed in trtlog's output; review that diff before committing it. Corpus
logs that are not there ($TRTLOG_CORPUS, default ../shared/corpus) are skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script: the repository's root is where `tests` is imported from.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.golden_figures import GOLDEN_DIR, figures, golden_logs, golden_path, render


def chosen(names: list[str]) -> list[Path]:
    """The golden logs named; exits with status 2 when a name matches none or several."""
    logs = golden_logs()
    if not names:
        return logs
    picked = []
    for name in names:
        matches = [log for log in logs if log.name == name] or [
            log for log in logs if name in log.name
        ]
        if len(matches) != 1:
            found = "no golden log" if not matches else f"{len(matches)} golden logs"
            known = ", ".join(log.name for log in logs)
            print(f"regen_golden: {name!r} matches {found}; names: {known}", file=sys.stderr)
            sys.exit(2)
        picked.extend(matches)
    return picked


def regenerate(log: Path, directory: Path = GOLDEN_DIR) -> str:
    """Write ``log``'s golden file in ``directory`` if its figures changed; says what was done."""
    if not log.exists():
        return f"skipped {log.name} (not found: {log})"
    text = render(figures(log))
    target = golden_path(log, directory)
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return f"unchanged {target.name}"
    directory.mkdir(parents=True, exist_ok=True)
    existed = target.exists()
    target.write_text(text, encoding="utf-8")
    return f"{'updated' if existed else 'created'} {target.name}"


def main(argv: list[str]) -> int:
    for log in chosen(argv):
        print(regenerate(log))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
