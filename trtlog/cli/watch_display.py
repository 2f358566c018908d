"""What ``trtlog watch`` draws on standard error while it follows a log.

On a terminal, a few lines redrawn in place (rich's Live) with each warning and error printed
above them as it appears; elsewhere (a CI log), the warnings and errors alone, one per line.
"""

from __future__ import annotations

import sys
from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.text import Text

from trtlog.build.watch import WatchState


class WatchDisplay:
    def __init__(self, quiet: bool) -> None:
        self._console = Console(stderr=True)
        self._quiet = quiet
        self._live: Live | None = None

    def __enter__(self) -> WatchDisplay:
        if not self._quiet and self._console.is_terminal:
            self._live = Live(
                Text("waiting for the log..."),
                console=self._console,
                refresh_per_second=4,
                transient=True,
            )
            self._live.__enter__()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self._live.__exit__(kind, error, trace)

    def update(self, state: WatchState) -> None:
        if self._live is not None:
            self._live.update(Text("\n".join(state.describe()), style="bold cyan"))

    def diagnostic(self, line: str, state: WatchState) -> None:
        if self._quiet:
            return
        text = line.strip()
        if self._live is not None:
            self._live.console.print(Text(text), soft_wrap=True, highlight=False, markup=False)
        else:
            print(text, file=sys.stderr, flush=True)
