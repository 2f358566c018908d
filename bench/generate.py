"""Build a large, realistic verbose log from a real one, for the benchmark.

A real build log is cut in three: what comes before its first build's autotuning, the
autotuning section (from the first "Computing costs for" / "Autotuning Reformat" / "Autotuning
format combination" / "Timing Runner" line up to "Formats and tactics selection completed"),
and the rest. The output is the head, the autotuning section repeated until the file reaches
the wanted size with every layer name renamed in each copy (``conv1`` -> ``conv1_r7``; TensorRT's
numbered ``(Unnamed Layer* 12)`` renumbered past every number the log uses), then the rest.
Tactic timing lines stay the bulk of the file, as in real logs of large models.

    python bench/generate.py CORPUS_LOG OUT.log --size 100M
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

_SECTION_START = re.compile(
    rb"Computing costs for|Autotuning Reformat|Autotuning format combination|Timing Runner:"
)
_SECTION_END = b"Formats and tactics selection completed"
# Where layer names appear in an autotuning section.
_NAMES = (
    re.compile(rb"Computing costs for (.+?)\r?$"),
    re.compile(rb"Timing Runner: (.+?) \([\w]+(?:\[0x[0-9a-f]+\])?\)\r?$"),
    re.compile(rb"\] (.+?) \([\w]+(?:\[0x[0-9a-f]+\])?\) profiling completed in"),
    re.compile(rb"\] (.+?) \([\w]+\) Set Tactic Name:"),
)
_SIZES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
# Layers an API-built network leaves unnamed: TensorRT numbers them across the network.
_UNNAMED = re.compile(rb"\(Unnamed Layer\* (\d+)\)")


def parse_size(text: str) -> int:
    unit = text[-1].upper()
    return int(float(text[:-1]) * _SIZES[unit]) if unit in _SIZES else int(text)


def split_log(lines: list[bytes]) -> tuple[list[bytes], list[bytes], list[bytes]]:
    start = next((i for i, line in enumerate(lines) if _SECTION_START.search(line)), None)
    if start is None:
        raise SystemExit("the log has no autotuning section")
    # A "Computing costs for" header may sit a line above the first runner of its layer.
    end = next((i for i in range(start, len(lines)) if _SECTION_END in lines[i]), len(lines))
    return lines[:start], lines[start:end], lines[end:]


# The names inside a fused layer's name ("conv1 + relu1", "PWN(a, b)", "{ForeignNode[a...b]}")
# that look like node names (a digit, "_", "." or "/" in them) are renamed; words such as
# "Unnamed", "Layer" or "Shuffle" that TensorRT also prints elsewhere are left alone.
_ATOM = re.compile(rb"[A-Za-z_/][\w./:\-]*")
_NODE_LIKE = re.compile(rb"[\d_./]")


def layer_names(section: list[bytes]) -> list[bytes]:
    atoms = set()
    for line in section:
        for pattern in _NAMES:
            if match := pattern.search(line):
                name = match.group(1).strip()
                if name.startswith(b"Optimizer Reformat("):
                    # Named after the tensors around it: "Optimizer Reformat(<in> -> x_out)".
                    name = name[len(b"Optimizer Reformat(") : -1]
                for part in name.split(b"..."):
                    atoms.update(
                        atom.rstrip(b".:-")
                        for atom in _ATOM.findall(part)
                        if _NODE_LIKE.search(atom) and atom != b"ForeignNode"
                    )
    return sorted(atoms, key=len, reverse=True)


def renumber_unnamed(text: bytes, offset: int) -> bytes:
    """``text`` with each ``(Unnamed Layer* N)`` made ``(Unnamed Layer* N + offset)``."""
    return _UNNAMED.sub(lambda match: b"(Unnamed Layer* %d)" % (int(match[1]) + offset), text)


def names_pattern(names: list[bytes]) -> re.Pattern[bytes] | None:
    """Any of ``names`` as a whole name (not inside a longer one)."""
    if not names:
        return None
    either = b"|".join(re.escape(name) for name in names)
    return re.compile(rb"(?<![\w./])(" + either + rb")(?![\w/])")


def renamed_copy(
    text: bytes, names: re.Pattern[bytes] | None, copy: int, unnamed_stride: int
) -> bytes:
    """Copy number ``copy`` of an autotuning section: the ``names`` suffixed with
    ``_r<copy>``, unnamed layers numbered ``unnamed_stride`` above the copy before."""
    if names is not None:
        text = names.sub(rb"\g<1>_r%d" % copy, text)
    return renumber_unnamed(text, (copy + 1) * unnamed_stride)


def generate(source: Path, target: Path, size: int) -> int:
    data = source.read_bytes()
    lines = data.splitlines(keepends=True)
    head, section, tail = split_log(lines)
    names = names_pattern(layer_names(section))
    text = b"".join(section)
    # Every copy's unnamed layers get numbers no other copy (nor the head and tail) uses.
    stride = 1 + max((int(number) for number in _UNNAMED.findall(data)), default=-1)
    written = 0
    copies = 0
    with target.open("wb") as out:
        for part in head:
            out.write(part)
        written = sum(map(len, head)) + sum(map(len, tail))
        while written < size or copies == 0:
            copy = renamed_copy(text, names, copies, stride)
            out.write(copy)
            written += len(copy)
            copies += 1
        for part in tail:
            out.write(part)
    return copies


def main(argv: list[str] | None = None) -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("source", type=Path, help="a real verbose build log")
    arguments.add_argument("target", type=Path, help="the log to write")
    arguments.add_argument("--size", default="100M", help="e.g. 100M, 1G (default 100M)")
    options = arguments.parse_args(argv)
    copies = generate(options.source, options.target, parse_size(options.size))
    size = options.target.stat().st_size
    print(f"{options.target}: {size / 1e6:.1f} MB, {copies} copies of the autotuning section")
    return 0


if __name__ == "__main__":
    sys.exit(main())
