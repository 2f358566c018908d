"""Autotuning: costs, format combinations, runners, tactics, choices, timing cache."""

from __future__ import annotations

import re
from typing import Any

from lark import Token, v_args

from trtlog.events.autotuning import (
    BackendStrategy,
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    GeneratedKernelCount,
    KernelSelected,
    MissingQuantizationScale,
    NonConformingImplementation,
    OptimizationProfile,
    ReformatLayerAdded,
    RunnerSkipped,
    SetTacticName,
    SparseTactics,
    TacticDeviceRequest,
    TacticPruning,
    TacticSkipped,
    TacticSource,
    TacticTiming,
    TimingCache,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import TacticId, time_ms
from trtlog.parse.transform.context import RecordTransformer, split_formats, text

# 7.x: "<layer> (<variant>) Set Tactic Name: ..." names a cuDNN variant in parentheses.
_SUBJECT_VARIANT = re.compile(r"^(?P<layer>.*) \((?P<variant>\w+)\)$")


def reformat_layer_fields(
    tensor: str, source: str, from_format: str, to_format: str
) -> dict[str, Any]:
    """The fields of ``reformat_layer_added`` past the head, from its tokens' text (shared with
    the native core's records, ``trtlog.parse.claimed``)."""
    return {
        "tensor": tensor,
        "source": source,
        "from_format": from_format,
        "to_format": to_format.strip(),
    }


def layer_and_variant(subject: str | None) -> tuple[str | None, str | None]:
    """The layer and cuDNN variant of a "Set Tactic Name" line's subject without a tactic id:
    "conv1 (CUDNN)" -> ("conv1", "CUDNN"); a subject without one is the layer alone."""
    match = _SUBJECT_VARIANT.match(subject or "")
    if match is None:
        return subject, None
    return match.group("layer"), match.group("variant")


def runner_parts(suffix: str) -> tuple[str, int | None]:
    """The runner and runner id of a RUNNER_SUFFIX the grammar matched: " (CaskConvolution)" or,
    8.6 and later, " (CaskConvolution[0x80000009])"."""
    runner, _, runner_id = suffix[len(" (") : -len(")")].partition("[")
    return runner, int(runner_id[: -len("]")], 16) if runner_id else None


@v_args(inline=True)
class AutotuningRules(RecordTransformer):
    def optimization_profile(
        self, profile: Token, index: Token, total: Token
    ) -> OptimizationProfile:
        return OptimizationProfile(
            **self.fields(), profile=int(profile), index=int(index), total=int(total)
        )

    def optimization_profile_out_of(self, profile: Token, total: Token) -> OptimizationProfile:
        return OptimizationProfile(
            **self.fields(), profile=int(profile), index=int(profile) + 1, total=int(total)
        )

    def computing_costs(self, subject: Token | None) -> ComputingCosts:
        # 8.0-8.5 print the line with an empty layer name.
        layer = (text(subject) or "").strip() or None
        return ComputingCosts(**self.fields(), layer=layer)

    def computing_reformatting_costs(self, _subject: Token) -> ComputingCosts:
        return ComputingCosts(**self.fields(), reformatting=True)

    def format_combination(self, inputs: Token, outputs: Token) -> FormatCombination:
        return FormatCombination(
            **self.fields(), inputs=split_formats(inputs), outputs=split_formats(outputs)
        )

    def reformat_combination(self, inputs: Token, outputs: Token) -> FormatCombination:
        return FormatCombination(
            **self.fields(),
            inputs=split_formats(inputs),
            outputs=split_formats(outputs),
            reformat=True,
        )

    def timing_runner(self, subject: Token | None, suffix: Token) -> TimingRunner:
        runner, runner_id = runner_parts(suffix)
        return TimingRunner(
            **self.fields(), layer=text(subject), runner=runner, runner_id=runner_id
        )

    def legacy_timing_runner(self, subject: Token, code: Token) -> TimingRunner:
        # 5.x prints a numeric runner code instead of the runner's name: the code names it.
        return TimingRunner(
            **self.fields(), layer=str(subject), runner=str(code), runner_id=int(code)
        )

    def tactic_timing(self, tactic: Token, time: Token) -> TacticTiming:
        return TacticTiming(**self.fields(), tactic=TacticId.parse(tactic), time_ms=time_ms(time))

    def named_tactic_timing(
        self, kernel: Token, parameters: Token | None, tactic: Token, time: Token
    ) -> TacticTiming:
        return TacticTiming(
            **self.fields(),
            tactic=TacticId.parse(tactic),
            time_ms=time_ms(time),
            kernel=str(kernel),
            kernel_parameters=_parameters(parameters),
        )

    def tactic_skipped(self, tactic: Token, requested: Token, available: Token) -> TacticSkipped:
        return TacticSkipped(
            **self.fields(),
            tactic=TacticId.parse(tactic),
            reason="scratch",
            scratch_requested=int(requested),
            scratch_available=int(available),
        )

    def only_tactic(self, tactic: Token) -> TacticSkipped:
        return TacticSkipped(**self.fields(), tactic=TacticId.parse(tactic), reason="only option")

    def tactic_skipped_for_memory(
        self, _index: Token, requested: Token, tactic: Token
    ) -> TacticSkipped:
        return TacticSkipped(
            **self.fields(),
            tactic=TacticId.parse(tactic),
            reason="insufficient memory",
            scratch_requested=int(requested),
        )

    def tactic_skipped_for_device_memory(
        self, _index: Token, _size: Token, tactic: Token
    ) -> TacticSkipped:
        return TacticSkipped(
            **self.fields(), tactic=TacticId.parse(tactic), reason="insufficient memory"
        )

    def tactic_fast_skipped(self, tactic: Token) -> TacticSkipped:
        return TacticSkipped(**self.fields(), tactic=TacticId.parse(tactic), reason="time limit")

    def tactic_device_request(self, requested: Token, available: Token) -> TacticDeviceRequest:
        return TacticDeviceRequest(
            **self.fields(),
            requested_bytes=int(requested) << 20,
            available_bytes=int(available) << 20,
        )

    def set_tactic_name(
        self, subject: Token | None, kernel: Token, tactic: Token | None, parameters: Token | None
    ) -> SetTacticName:
        layer, variant = text(subject), None
        if tactic is None:
            layer, variant = layer_and_variant(layer)
        return SetTacticName(
            **self.fields(),
            subject=layer,
            variant=variant,
            kernel=str(kernel),
            tactic=None if tactic is None else TacticId.parse(tactic),
            kernel_parameters=_parameters(parameters),
        )

    def set_tactic_name_only(self, kernel: Token) -> SetTacticName:
        return SetTacticName(**self.fields(), subject=None, kernel=str(kernel))

    def fastest_tactic(self, tactic: Token, time: Token) -> FastestTactic:
        return FastestTactic(**self.fields(), tactic=TacticId.parse(tactic), time_ms=time_ms(time))

    def runner_profiled(
        self, subject: Token, suffix: Token, seconds: Token, tactic: Token, time: Token
    ) -> FastestTactic:
        runner, runner_id = runner_parts(suffix)
        return FastestTactic(
            **self.fields(),
            layer=str(subject),
            runner=runner,
            runner_id=runner_id,
            tactic=TacticId.parse(tactic),
            time_ms=time_ms(time),
            profiling_seconds=float(seconds),
        )

    def runner_skipped(self, runner: Token) -> RunnerSkipped:
        return RunnerSkipped(**self.fields(), skipped_runner=str(runner))

    def runner_skipped_for_layer(self, runner: Token, layer: Token) -> RunnerSkipped:
        return RunnerSkipped(**self.fields(), skipped_runner=str(runner), layer=str(layer).strip())

    def legacy_chose_runner(self, code: Token, tactic: Token) -> ChoseRunner:
        return ChoseRunner(**self.fields(), chosen_runner=str(code), tactic=TacticId.parse(tactic))

    def chose_runner(self, runner: Token, tactic: Token) -> ChoseRunner:
        return ChoseRunner(
            **self.fields(), chosen_runner=str(runner), tactic=TacticId.parse(tactic)
        )

    def reformat_layer_added(
        self, tensor: Token, source: Token, from_format: Token, to_format: Token
    ) -> ReformatLayerAdded:
        return ReformatLayerAdded(
            **self.fields(),
            **reformat_layer_fields(str(tensor), str(source), str(from_format), str(to_format)),
        )

    def kernel_selected(self, index: Token, kind: Token) -> KernelSelected:
        return KernelSelected(**self.fields(), index=int(index), kernel_kind=str(kind))

    def kernel_index_assigned(self, layer: Token, index: Token) -> KernelSelected:
        return KernelSelected(**self.fields(), index=int(index), layer=str(layer))

    def sparse_tactics(self, count: Token, layers: Token | None) -> SparseTactics:
        return self._sparse("eligible", layers, count)

    def sparse_tactics_chosen(self, count: Token, layers: Token | None) -> SparseTactics:
        return self._sparse("chosen", layers, count)

    def sparse_math_eligible(self, layers: Token | None) -> SparseTactics:
        return self._sparse("eligible", layers)

    def sparse_implementation_picked(self, layers: Token | None) -> SparseTactics:
        return self._sparse("chosen", layers)

    def _sparse(
        self, choice: str, layers: Token | None, count: Token | None = None
    ) -> SparseTactics:
        return SparseTactics(
            **self.fields(),
            choice=choice,
            layers=_layer_list(str(layers or "")),
            count=None if count is None else int(count),
        )

    def tactic_pruning(
        self, layer: Token, available: Token, unparsable: Token, pruned: Token, remaining: Token
    ) -> TacticPruning:
        return TacticPruning(
            **self.fields(),
            layer=str(layer),
            available=int(available),
            unparsable=int(unparsable),
            pruned=int(pruned),
            remaining=int(remaining),
        )

    def non_conforming_implementation(
        self, layer: Token, detail: Token | None
    ) -> NonConformingImplementation:
        return NonConformingImplementation(
            **self.fields(), layer=str(layer), detail=(text(detail) or "").strip() or None
        )

    def backend_strategy(self, strategy: Token) -> BackendStrategy:
        return BackendStrategy(**self.fields(), strategy=int(strategy), action="building")

    def backend_strategy_initial(self, strategy: Token, estimate: Token) -> BackendStrategy:
        return BackendStrategy(
            **self.fields(),
            strategy=int(strategy),
            action="initial",
            estimated_time=float(estimate),
        )

    def backend_strategy_chosen(
        self, strategy: Token, estimate: Token, previous: Token
    ) -> BackendStrategy:
        return BackendStrategy(
            **self.fields(),
            strategy=int(strategy),
            action="chosen",
            estimated_time=float(estimate),
            previous_time=float(previous),
        )

    def backend_strategy_skipped(
        self, strategy: Token, estimate: Token, previous: Token
    ) -> BackendStrategy:
        return BackendStrategy(
            **self.fields(),
            strategy=int(strategy),
            action="skipped",
            estimated_time=float(estimate),
            previous_time=float(previous),
        )

    def no_conforming_implementation(
        self, layer: Token, detail: Token | None
    ) -> NonConformingImplementation:
        return NonConformingImplementation(
            **self.fields(),
            layer=str(layer),
            detail=(text(detail) or "").strip() or None,
            strict=True,
        )

    def missing_quantization_scale(self, tensor: Token, _detail: Token) -> MissingQuantizationScale:
        return MissingQuantizationScale(**self.fields(), tensor=str(tensor))

    def generated_kernel_count(self, count: Token) -> GeneratedKernelCount:
        return GeneratedKernelCount(**self.fields(), count=int(count))

    def tactic_source(self, source: Token, role: Token) -> TacticSource:
        role_text = str(role).strip()
        role_text = role_text[3:] if role_text.startswith("as ") else role_text
        return TacticSource(**self.fields(), source=str(source), role=role_text)

    def tactic_source_disabled(self, source: Token) -> TacticSource:
        return TacticSource(**self.fields(), source=str(source).strip(), role=None, enabled=False)

    def timing_cache(self, scope: Token) -> TimingCache:
        return TimingCache(**self.fields(), action="in use", scope=str(scope).lower())

    def timing_cache_deleted(self, entries: Token, hits: Token) -> TimingCache:
        return TimingCache(**self.fields(), action="deleted", entries=int(entries), hits=int(hits))

    def timing_cache_created(self, entries: Token, hits: Token) -> TimingCache:
        return TimingCache(**self.fields(), action="created", entries=int(entries), hits=int(hits))

    def timing_cache_unreadable(self, path: Token) -> TimingCache:
        return TimingCache(**self.fields(), action="unreadable", path=str(path))

    def timing_cache_serialized(self, entries: Token) -> TimingCache:
        return TimingCache(**self.fields(), action="serialized", entries=int(entries))

    def timing_cache_file(
        self, verb: Token, size: Token, _direction: Token, path: Token
    ) -> TimingCache:
        return TimingCache(
            **self.fields(), action=str(verb).lower(), size_bytes=int(size), path=str(path).strip()
        )

    def timing_cache_invalid(self) -> TimingCache:
        return TimingCache(**self.fields(), action="invalid")

    def timing_cache_disabled(self) -> TimingCache:
        return TimingCache(**self.fields(), action="disabled")

    def timing_cache_hit(
        self,
        subject: Token,
        inputs: Token | None,
        outputs: Token | None,
        runner: Token,
        tactic: Token,
        time: Token,
    ) -> TimingCacheHit:
        formats = f"{text(inputs) or ''} -> {text(outputs) or ''}"
        return TimingCacheHit(
            **self.fields(),
            subject=str(subject),
            formats=formats,
            cached_runner=str(runner),
            tactic=TacticId.parse(tactic),
            time_ms=time_ms(time),
        )


def _parameters(token: Token | None) -> str | None:
    return None if token is None else str(token).strip()


def _layer_list(text: str) -> tuple[str, ...]:
    """Layer names separated by ", ", where a name may hold ", " inside brackets of its own
    ("PWN(PWN(Sigmoid_621), Mul_622)")."""
    names: list[str] = []
    depth = start = 0
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0 and text.startswith(", ", index):
            names.append(text[start:index])
            start = index + 2
    names.append(text[start:])
    return tuple(name.strip() for name in names if name.strip())
