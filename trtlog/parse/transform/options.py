"""Option echoes, section titles, device information."""

from __future__ import annotations

from lark import Token, v_args

from trtlog.events.options import (
    DeviceProperty,
    DynamicShapeOverride,
    OptionLine,
    SectionHeader,
)
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class OptionRules(RecordTransformer):
    def section_header(self, title: Token) -> SectionHeader:
        return SectionHeader(**self.fields(), title=str(title).strip())

    def option_line(self, key: Token, value: Token | None) -> OptionLine:
        return OptionLine(**self.fields(), key=str(key).strip(), value=(text(value) or "").strip())

    def device_property(self, key: Token, value: Token | None) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=str(key), value=(text(value) or "").strip())

    def available_device(self, index: Token, value: Token) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=f"Device {index}", value=str(value).strip())

    def dynamic_shape_override(self, name: Token, shape: Token) -> DynamicShapeOverride:
        return DynamicShapeOverride(**self.fields(), input=str(name), shape=str(shape).strip())
