"""Run a build as a child process, read its streams as they come, and stop it cleanly.

The child gets its own session, so a Ctrl-C in the terminal reaches trtlog alone; trtlog then
asks the child to stop (SIGTERM to its process group), waits a grace period, and kills it if it
is still there. Every line read before that stays written. Arguments go as a list, never
through a shell.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import IO

from trtlog.processes import child_setup

# Called with each raw line (bytes, "\n" included unless the stream ended without one) and the
# monotonic time in ns at which it was read.
LineHandler = Callable[[bytes, int], None]
_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@dataclass
class ChildOutcome:
    """How the child ended."""

    returncode: int | None = None
    # The signal that ended the child ("SIGSEGV", "SIGKILL", ...), if one did.
    signal: str | None = None
    # The signal trtlog received and passed on ("SIGINT", "SIGTERM"), if any.
    interrupted_by: str | None = None
    # Whether the child outlived the grace period and was killed.
    killed: bool = False
    error: str | None = None
    pid: int | None = None
    readers_left: list[str] = field(default_factory=list)

    @property
    def exit_status(self) -> int | None:
        return self.returncode if self.returncode is not None and self.returncode >= 0 else None


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class Supervisor:
    """Starts ``command``, feeds each output stream to its handler, and waits for the end."""

    def __init__(
        self,
        handlers: Mapping[str, LineHandler],
        *,
        grace_seconds: float = 10.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``handlers`` maps "stdout", "stderr" and the names given to ``open_pipe`` to the
        handler of that stream's lines."""
        self.handlers = handlers
        self.grace_seconds = grace_seconds
        self.env = dict(env) if env is not None else None
        self.errors: list[str] = []
        self._pipes: dict[str, tuple[int, int]] = {}
        self._interrupt: int | None = None
        self._interrupted_at: float | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def open_pipe(self, name: str) -> int:
        """A pipe the child writes to besides stdout and stderr; returns the descriptor the
        child inherits (its number is the same in the child)."""
        read_end, write_end = os.pipe()
        self._pipes[name] = (read_end, write_end)
        return write_end

    def run(self, command: Sequence[str]) -> ChildOutcome:
        outcome = ChildOutcome()
        previous = self._install_handlers()
        write_ends = tuple(write_end for _, write_end in self._pipes.values())
        try:
            try:
                self._process = subprocess.Popen(
                    list(command),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=self.env,
                    start_new_session=True,
                    pass_fds=write_ends,
                    # The build ends with trtlog, even killed with SIGKILL.
                    preexec_fn=child_setup(),
                )
            except OSError as error:
                for read_end, _ in self._pipes.values():
                    os.close(read_end)
                outcome.error = f"{command[0]}: cannot start ({error.strerror or error})"
                return outcome
            finally:
                for fd in write_ends:
                    os.close(fd)
            outcome.pid = self._process.pid
            if self._interrupt is not None:
                # Interrupted while the child was starting.
                self._signal_group(self._process, signal.SIGTERM)
            readers = self._start_readers(self._process)
            self._wait(self._process, outcome)
            for reader in readers:
                # A grandchild that kept a pipe open must not hold trtlog forever.
                reader.join(timeout=5)
            outcome.readers_left = [reader.name for reader in readers if reader.is_alive()]
        finally:
            self._restore_handlers(previous)
        return outcome

    def _start_readers(self, process: subprocess.Popen[bytes]) -> list[threading.Thread]:
        assert process.stdout is not None and process.stderr is not None
        streams: dict[str, IO[bytes]] = {"stdout": process.stdout, "stderr": process.stderr}
        for name, (read_end, _) in self._pipes.items():
            streams[name] = os.fdopen(read_end, "rb")
        readers = []
        for name, stream in streams.items():
            handler = self.handlers.get(name)
            reader = threading.Thread(
                target=self._read_lines, args=(stream, handler), name=name, daemon=True
            )
            reader.start()
            readers.append(reader)
        return readers

    def _wait(self, process: subprocess.Popen[bytes], outcome: ChildOutcome) -> None:
        while True:
            try:
                returncode = process.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                pass
            interrupted_at = self._interrupted_at
            if interrupted_at is not None and not outcome.killed:
                if time.monotonic() - interrupted_at >= self.grace_seconds:
                    self._signal_group(process, signal.SIGKILL)
                    outcome.killed = True
        outcome.returncode = returncode
        if returncode < 0:
            outcome.signal = signal_name(-returncode)
        if self._interrupt is not None:
            outcome.interrupted_by = signal_name(self._interrupt)

    def _install_handlers(self) -> dict[int, object]:
        if threading.current_thread() is not threading.main_thread():
            return {}
        previous: dict[int, object] = {}
        for number in _STOP_SIGNALS:
            previous[number] = signal.signal(number, self._on_signal)
        return previous

    def _restore_handlers(self, previous: dict[int, object]) -> None:
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        process = self._process
        if self._interrupt is not None:
            # A second interrupt: the user does not want to wait for the grace period.
            self._interrupted_at = time.monotonic() - self.grace_seconds
            return
        self._interrupt = number
        self._interrupted_at = time.monotonic()
        if process is not None:
            self._signal_group(process, signal.SIGTERM)

    @staticmethod
    def _signal_group(process: subprocess.Popen[bytes], number: int) -> None:
        try:
            os.killpg(process.pid, number)
        except (ProcessLookupError, PermissionError):
            pass

    def _read_lines(self, stream: IO[bytes], handler: LineHandler | None) -> None:
        # The stream is drained to its end whatever the handler does, so that the child never
        # blocks on a full pipe; the handler's first failure is kept for the report.
        with stream:
            for raw in iter(stream.readline, b""):
                if handler is None:
                    continue
                try:
                    handler(raw, time.monotonic_ns())
                except Exception as error:
                    if not self.errors:
                        self.errors.append(f"{type(error).__name__}: {error}")
                    handler = None


__all__ = ["ChildOutcome", "LineHandler", "Supervisor", "signal_name"]
