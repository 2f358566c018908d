"""Reported durations and phase markers."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.phases import PhaseDuration, PhaseMarker
from trtlog.parse.transform.context import RecordTransformer


def _hms(text: str) -> float:
    hours, minutes, seconds = (int(part) for part in text.split(":"))
    return hours * 3600.0 + minutes * 60.0 + seconds


def _elapsed(text: str) -> float:
    """Python's ``timedelta`` as text ("0:00:04.808916", "1 day, 2:03:04") in seconds."""
    days = 0
    if "," in text:
        day_text, text = text.split(",", 1)
        days = int(day_text.split()[0])
    hours, minutes, seconds = text.strip().split(":")
    return days * 86400.0 + int(hours) * 3600.0 + int(minutes) * 60.0 + float(seconds)


def phase_duration_fields(phase: str, seconds: str) -> dict[str, Any]:
    """The fields of ``phase_duration`` past the head, from its tokens' text (shared with the
    native core's records, ``trtlog.parse.claimed``)."""
    return {"phase": phase.strip(), "seconds": float(seconds)}


@v_args(inline=True)
class PhaseRules(RecordTransformer):
    def _duration(self, phase: str, seconds: float) -> PhaseDuration:
        return PhaseDuration(**self.fields(), phase=phase, seconds=seconds)

    def phase_duration(self, phase: Token, seconds: Token) -> PhaseDuration:
        return PhaseDuration(**self.fields(), **phase_duration_fields(str(phase), str(seconds)))

    def graph_optimization_time(self, seconds: Token) -> PhaseDuration:
        return self._duration("Graph optimization", float(seconds))

    def trtexec_phase_time(self, phase: Token, seconds: Token) -> PhaseDuration:
        return self._duration(str(phase), float(seconds))

    def parse_time(self, seconds: Token) -> PhaseDuration:
        return self._duration("Parse", float(seconds))

    def deserialization_time(self, microseconds: Token) -> PhaseDuration:
        return self._duration("Deserialization", int(microseconds) / 1e6)

    def polygraphy_build_time(self, seconds: Token) -> PhaseDuration:
        return self._duration("Engine building", float(seconds))

    def build_trt_engine_elapsed_time(self, elapsed: Token) -> PhaseDuration:
        return self._duration("Build TRT engine", _elapsed(str(elapsed)))

    def trt_inetwork_construction_elapsed_time(self, elapsed: Token) -> PhaseDuration:
        return self._duration("TRT INetwork construction", _elapsed(str(elapsed)))

    def trtllm_build_time(self, network: Token, hms: Token) -> PhaseDuration:
        return self._duration(f"Building {network}", _hms(str(hms)))

    def trtllm_serialize_time(self, hms: Token) -> PhaseDuration:
        return self._duration("Engine serialization", _hms(str(hms)))

    def trtllm_total_build_time(self, hms: Token) -> PhaseDuration:
        return self._duration("Building all engines", _hms(str(hms)))

    def phase_marker(self, marker: Token) -> PhaseMarker:
        return PhaseMarker(**self.fields(), text=str(marker))
