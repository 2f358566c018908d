"""Option echoes, section titles, device information."""

from __future__ import annotations

from lark import v_args

from trtlog.events.options import DeviceProperty, OptionLine, SectionHeader
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class OptionRules(RecordTransformer):
    def section_header(self, title) -> SectionHeader:
        return SectionHeader(**self.fields(), title=str(title).strip())

    def option_line(self, key, value) -> OptionLine:
        return OptionLine(**self.fields(), key=str(key).strip(), value=(text(value) or "").strip())

    def device_property(self, key, value) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=str(key), value=(text(value) or "").strip())

    def available_device(self, index, value) -> DeviceProperty:
        return DeviceProperty(**self.fields(), key=f"Device {index}", value=str(value).strip())
