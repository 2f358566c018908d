"""Link tactic-tuning events to the layer, format combination and timing runner they belong to.

TensorRT prints a layer's tuning as nested headers: the layer's format combination
("*************** Autotuning format combination: ..."), then per runner "--------------- Timing
Runner: <layer> (<runner>)", then one line per tactic timed. Each event under a header learns the
header's context here; 7.x-8.5 kernel names (``Set Tactic Name`` lines) are joined to the timing
of the same tactic. ``trtlog.parse.fold`` keeps one context per log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from trtlog.events.autotuning import (
    AutotuningEvent,
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    RunnerSkipped,
    SetTacticName,
    TacticTiming,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import Event, TacticId
from trtlog.parse.items import LineBlock

E = TypeVar("E", bound=Event)
_set_field = object.__setattr__


# The autotuning fields the fold sets, each through its slot's descriptor: ``replace`` builds a
# dict of keywords and looks each name up on every call, and a large 8.6 log has millions of
# format combinations, timing runners and fastest tactics to link.
_Setter = Callable[[Any, Any], None]
_set_layer: _Setter = AutotuningEvent.__dict__["layer"].__set__
_set_formats: _Setter = AutotuningEvent.__dict__["formats"].__set__
_set_runner: _Setter = AutotuningEvent.__dict__["runner"].__set__
_set_runner_id: _Setter = AutotuningEvent.__dict__["runner_id"].__set__


def replace(event: E, **values: Any) -> E:
    """Set the fields only the order of the log can tell (layer, build, section...). Events are
    frozen for everyone who reads them; the fold finishes each one before it is yielded, while
    nothing else holds it, so it sets the fields in place rather than copying the event."""
    for name, value in values.items():
        _set_field(event, name, value)
    return event


class AutotuningContext:
    """Where the builder is in its tactic search."""

    def __init__(self) -> None:
        # (run, build, strategy) of the items being linked (``_Place``).
        self.place: tuple[int | None, int | None, int | None] = (0, None, None)
        self.layer: str | None = None
        self.runner_layer: str | None = None
        self.formats: str | None = None
        self.runner: str | None = None
        self.runner_id: int | None = None
        self.runner_ids: dict[str, int | None] = {}
        self.kernels: dict[TacticId, tuple[str, str | None]] = {}
        self.unnumbered_kernel: str | None = None

    def reset_runner(self) -> None:
        self.runner = self.runner_id = self.runner_layer = None
        self.kernels.clear()
        self.unnumbered_kernel = None

    def enter_combination(self, inputs: tuple[str, ...], outputs: tuple[str, ...]) -> None:
        """A format combination starts: its formats, and no runner yet."""
        self.formats = f"{', '.join(inputs)} -> {', '.join(outputs)}"
        self.runner_ids.clear()
        self.reset_runner()

    def enter_runner(self, layer: str | None, runner: str | None, runner_id: int | None) -> None:
        """A timing runner starts (the layer it names, where it names one)."""
        self.reset_runner()
        self.runner, self.runner_id, self.runner_layer = runner, runner_id, layer
        if runner is not None:
            self.runner_ids[runner] = runner_id

    def link(self, event: AutotuningEvent) -> AutotuningEvent:
        if isinstance(event, ComputingCosts):
            self.layer = event.layer
            self.formats = None
            self.runner_ids.clear()
            self.reset_runner()
            return event
        if isinstance(event, FormatCombination):
            self.enter_combination(event.inputs, event.outputs)
            _set_layer(event, self.layer)
            _set_formats(event, self.formats)
            return event
        if isinstance(event, TimingRunner):
            self.enter_runner(event.layer, event.runner, event.runner_id)
            _set_formats(event, self.formats)
            return event
        if isinstance(event, SetTacticName):
            if event.tactic is None:
                self.unnumbered_kernel = event.kernel
            else:
                self.kernels[event.tactic] = (event.kernel, event.kernel_parameters)
            return self._with_context(event)
        if isinstance(event, TacticTiming) and event.kernel is None:
            kernel, parameters = self._kernel_of(event.tactic)
            if kernel is not None:
                event = replace(event, kernel=kernel, kernel_parameters=parameters)
        if isinstance(event, FastestTactic) and event.runner is not None:
            # 8.6+ name layer and runner on the fastest-tactic line itself.
            _set_formats(event, self.formats)
            return event
        if isinstance(event, RunnerSkipped) and event.layer is not None:
            _set_formats(event, self.formats)
            _set_runner(event, event.skipped_runner)
            return event
        if isinstance(event, RunnerSkipped):
            self._with_context(event)
            _set_runner(event, event.skipped_runner)
            _set_runner_id(event, self.runner_ids.get(event.skipped_runner))
            return event
        if isinstance(event, ChoseRunner):
            self._with_context(event)
            _set_runner(event, event.chosen_runner)
            _set_runner_id(event, self.runner_ids.get(event.chosen_runner))
            return event
        if isinstance(event, TimingCacheHit):
            return replace(event, layer=event.subject)
        return self._with_context(event)

    def link_block(self, block: LineBlock) -> None:
        """``link`` for each tactic timing of a block, in place."""
        if block.kernels is None and (self.kernels or self.unnumbered_kernel is not None):
            kernels: list[str | None] = []
            parameters: list[str | None] = []
            for tactic in block.tactics:
                kernel, parameter = self._kernel_of(tactic)
                kernels.append(kernel)
                parameters.append(parameter)
            block.kernels, block.parameters = kernels, parameters
        block.layer = self.runner_layer or self.layer
        block.formats, block.runner, block.runner_id = self.formats, self.runner, self.runner_id
        block.run, block.build, block.strategy = self.place

    def _kernel_of(self, tactic: int) -> tuple[str | None, str | None]:
        """The kernel named for a timed tactic (by its id, else the last unnumbered name)."""
        kernel, parameters = self.kernels.pop(TacticId(tactic), (None, None))
        if kernel is None and self.unnumbered_kernel is not None:
            kernel, self.unnumbered_kernel = self.unnumbered_kernel, None
        return kernel, parameters

    def _with_context(self, event: AutotuningEvent) -> AutotuningEvent:
        _set_layer(event, self.runner_layer or self.layer)
        _set_formats(event, self.formats)
        _set_runner(event, self.runner)
        _set_runner_id(event, self.runner_id)
        return event


__all__ = ["AutotuningContext", "replace"]
