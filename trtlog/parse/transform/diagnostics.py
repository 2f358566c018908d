"""Warnings and errors in their generic form."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.diagnostics import AffectedWeights, Diagnostic
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class DiagnosticRules(RecordTransformer):
    def diagnostic(self, location: Token | None, message: Token, *continuation: Any) -> Diagnostic:
        parts: dict[str, Any] = {}
        if isinstance(message, dict):
            parts = message
            message_text = parts.pop("text")
        else:
            message_text = str(message)
        lines = tuple("" if line is None else str(line) for line in continuation)
        return Diagnostic(
            **self.fields(),
            text=message_text.strip(),
            location=None if location is None else str(location).rstrip(": "),
            continuation=lines,
            **parts,
        )

    def relayed_error(self, location: Token | None, message: Token) -> Diagnostic:
        return self.diagnostic(location, message)

    def error_code_message(
        self, origin: Token | None, code: Token, category: Token, detail: Token | None
    ) -> dict[str, Any]:
        origin_text = (text(origin) or "").strip().rstrip(":").strip() or None
        detail_text = text(detail)
        message = f"Error Code {code}: {category} ({detail_text or ''})"
        return {
            # As printed: the origin keeps its separator ("IBuilder::f: ", "[x.cpp::f::1] ").
            "text": f"{origin}{message}" if origin_text else message,
            "origin": origin_text,
            "error_code": int(code),
            "category": str(category).strip(),
            "detail": detail_text,
        }

    def onnx_parser_error(
        self,
        prefix: Token | None,
        node: Token,
        names: Token | None,
        function: Token,
        kind: Token,
        detail: Token | None,
    ) -> Diagnostic:
        fields = dict(self.fields())
        # Printed by a program without an envelope, or in its own: the form says it is an error.
        if fields["severity"] is None:
            fields["severity"] = "error"
        # As printed, with the words before it ("Error[3]: ", "RuntimeError: ... onnx, ").
        message = f"{prefix or ''}In node {node}{names or ''} ({function}): {kind}"
        return Diagnostic(
            **fields,
            text=message if detail is None else f"{message}: {detail}",
            category=str(kind),
            origin=str(function),
            detail=text(detail),
        )

    def affected_weights(self, weights: Token) -> AffectedWeights:
        return AffectedWeights(
            **self.fields(), weights=tuple(part.strip() for part in str(weights).split(", "))
        )
