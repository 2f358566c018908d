"""Run header and footer, TensorRT version."""

from __future__ import annotations

from lark import Token, v_args

from trtlog.events.run import LoadedModule, RunFooter, RunHeader, TensorrtVersion, version_from_code
from trtlog.parse.transform.context import RecordTransformer, text


def _version(tag: Token | None) -> str | None:
    # " [TensorRT v8502]"
    if tag is None:
        return None
    return version_from_code(int(tag.strip()[len("[TensorRT v") : -1]))


def _build(tag: Token | None) -> str | None:
    return None if tag is None else tag.strip()[1:-1]


@v_args(inline=True)
class RunRules(RecordTransformer):
    def run_header(
        self, program: Token, version: Token | None, build: Token | None, command: Token | None
    ) -> RunHeader:
        return RunHeader(
            **self.fields(),
            program=str(program),
            command=(text(command) or "").strip(),
            version=_version(version),
            version_build=_build(build),
        )

    def polygraphy_run_header(self, command: Token) -> RunHeader:
        return RunHeader(**self.fields(), program="polygraphy", command=str(command))

    def run_footer(
        self,
        status: Token,
        program: Token,
        version: Token | None,
        build: Token | None,
        command: Token | None,
    ) -> RunFooter:
        return RunFooter(
            **self.fields(),
            status=str(status),
            program=str(program),
            command=(text(command) or "").strip(),
            version=_version(version),
            version_build=_build(build),
        )

    def polygraphy_run_footer(
        self, status: Token, runtime: Token | None, command: Token
    ) -> RunFooter:
        return RunFooter(
            **self.fields(),
            status=str(status),
            program="polygraphy",
            command=str(command),
            runtime_seconds=None if runtime is None else float(runtime),
        )

    def tensorrt_version(self, version: Token) -> TensorrtVersion:
        # 8.0.3 prints the integer code (8003); later versions print "8.2.3".
        value = str(version)
        if "." not in value:
            value = version_from_code(int(value))
        return TensorrtVersion(**self.fields(), version=value)

    def loaded_module(self, module: Token, version: Token | None, path: Token) -> LoadedModule:
        return LoadedModule(
            **self.fields(), module=str(module), version=text(version), path=str(path).strip()
        )
