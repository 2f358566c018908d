"""Option echoes, section titles, device information."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.options import (
    BUILDER_CONFIGURATION,
    DeviceProperty,
    DynamicShapeOverride,
    OptionLine,
    SectionHeader,
)
from trtlog.parse.transform.context import RecordTransformer, text


def option_fields(key: str, value: str | None) -> dict[str, Any]:
    """An option line's key and value (empty where none is printed), as printed less the
    white space around them."""
    return {"key": str(key).strip(), "value": (value or "").strip()}


@v_args(inline=True)
class OptionRules(RecordTransformer):
    def section_header(self, title: Token) -> SectionHeader:
        return SectionHeader(**self.fields(), title=str(title).strip())

    def option_line(self, key: Token, value: Token | None) -> OptionLine:
        return OptionLine(**self.fields(), **option_fields(key, text(value)))

    def builder_configuration(self, *settings: OptionLine) -> list[SectionHeader | OptionLine]:
        header = SectionHeader(
            **{**self.fields(), "end_line": self._line}, title=BUILDER_CONFIGURATION
        )
        return [header, *settings]

    def builder_configuration_line(self, value: Token) -> list[SectionHeader | OptionLine]:
        setting = OptionLine(
            **self.fields(), section=BUILDER_CONFIGURATION, key="Configuration", value=value.strip()
        )
        return self.builder_configuration(setting)

    def builder_setting(self, key: Token, value: Token | None) -> OptionLine:
        return OptionLine(
            **self.fields_at(key), section=BUILDER_CONFIGURATION, **option_fields(key, text(value))
        )

    def device_property(self, key: Token, value: Token | None) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=str(key), value=(text(value) or "").strip())

    def available_device(self, index: Token, value: Token) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=f"Device {index}", value=str(value).strip())

    def dynamic_shape_override(self, name: Token, shape: Token) -> DynamicShapeOverride:
        return DynamicShapeOverride(**self.fields(), input=str(name), shape=str(shape).strip())
