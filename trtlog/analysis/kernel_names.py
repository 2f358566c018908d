"""What a kernel (tactic) name says: architecture, library, operation, precisions, layout, tile.

TensorRT names each tactic's kernel ("Tactic Name:" lines 8.6+, "Set Tactic Name:" 7.x-8.5,
"TacticName" in detailed layer records and ``--exportLayerInfo``). The names are built from
underscore-separated tokens that NVIDIA's kernel libraries use consistently; this module reads
them with a table of documented tokens (``_TOKENS``) and keeps the tokens it does not know:

- ``sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x64x32_stage4_
  warpsize2x2x1_g1_tensor16x8x16``: TensorRT's XMMA kernels (8.x-10.x). ``sm80`` the GPU
  architecture; ``fprop``/``dgrad``/``wgrad`` the convolution pass (``gemm``, ``gemvx``,
  ``pooling`` other operations); the first pair of types is the input's and the output's, the
  second the math type and the accumulator's (``tf32`` math: TF32 tensor cores), a single type
  after them the epilogue's; ``nhwckrsc_nhwc`` activation, filter and output layouts
  (``nchw_vect_c_32``: NC/32HW32); ``tilesize``, ``stage``, ``warpsize``, ``cgasize`` and
  ``warpgroupsize`` (Hopper) the CTA tile, pipeline stages, warps and thread-block cluster;
  ``tensor16x8x16`` the tensor-core MMA shape, ``ffma``/``simt`` CUDA cores.
- ``ampere_h16816cudnn_256x128_ldg8_relu_exp_stages_64x3_large_nhwc_tn_v1``,
  ``volta_scudnn_128x128_relu_medium_nn_v1``, ``ampere_sgemm_128x64_nn``: cuDNN and cuBLAS
  kernels (7.x-8.x): the architecture by name, ``s``/``h``/``i`` FP32/FP16/INT8, digits after
  them the tensor-core MMA shape (``16816``: 16x8x16), the tile, ``stages_64x3`` a K block of
  64 in 3 stages, ``nn``/``tn`` the GEMM's transposes.
- ``__myl_MoveMeanSubMulMeanAddSqrtDivMulMulAdd_myl3_5``: a kernel Myelin generated, fusing the
  operations its name strings together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

# Compute capability -> GPU generation.
_GENERATIONS = {
    50: "Maxwell", 52: "Maxwell", 53: "Maxwell",
    60: "Pascal", 61: "Pascal", 62: "Pascal",
    70: "Volta", 72: "Volta", 75: "Turing",
    80: "Ampere", 86: "Ampere", 87: "Ampere", 89: "Ada",
    90: "Hopper", 100: "Blackwell", 101: "Blackwell", 103: "Blackwell",
    110: "Blackwell", 120: "Blackwell", 121: "Blackwell",
}  # fmt: skip
_NAMED_GENERATIONS = {
    "maxwell": "Maxwell", "pascal": "Pascal", "volta": "Volta", "turing": "Turing",
    "ampere": "Ampere", "ada": "Ada", "hopper": "Hopper", "blackwell": "Blackwell",
}  # fmt: skip
# Data type spellings -> the precision names of the layers table.
_TYPES = {
    "f32": "fp32", "tf32": "tf32", "f16": "fp16", "bf16": "bf16", "f8": "fp8", "e4m3": "fp8",
    "e5m2": "fp8", "i8": "int8", "i32": "int32", "i4": "int4", "f4": "fp4",
}  # fmt: skip
_TYPE = r"(?:tf32|bf16|f32|f16|f8|e4m3|e5m2|i8|i32|i4|f4)"
_PAIR = re.compile(rf"^({_TYPE})({_TYPE})$")
_TRIPLE = re.compile(rf"^({_TYPE})({_TYPE})({_TYPE})$")
_SINGLE = re.compile(rf"^({_TYPE})$")
# Whole-name rewrites that join tokens the underscores split: "nchw_vect_c_32" (NC/32HW32).
_VECTORISED = re.compile(r"(nchw|kcrs)_vect_c_(\d+)")
# cuDNN/cuBLAS kernels: s/h/i precision, optional MMA digits, then the library ("h16816cudnn",
# "scudnn", "hgemm", "s1688gemm", "fp16x2_hcudnn_fp16x2" apart).
_CUDNN = re.compile(r"^(?P<kind>[shi])(?P<mma>\d{3,5})?(?P<library>cudnn|gemm)$")
_LAYOUTS = {
    "nhwc": "NHWC", "nchw": "NCHW", "nhwckrsc": "NHWC", "nchwkcrs": "NCHW", "nchwkrsc": "NCHW",
    "ndhwc": "NDHWC", "ncdhw": "NCDHW",
}  # fmt: skip
_OPERATIONS = {
    "fprop": "convolution", "dgrad": "deconvolution", "wgrad": "weight gradient",
    "gemm": "gemm", "gemvx": "gemv", "gemv": "gemv", "pooling": "pooling", "winograd":
    "convolution", "conv": "convolution", "reformat": "reformat", "softmax": "softmax",
    "depthwise": "depthwise convolution", "deconv": "deconvolution",
}  # fmt: skip
_FAMILIES = {
    "trt": "tensorrt", "xmma": "xmma", "cublas": "cublas", "cutlass": "cutlass", "cudnn": "cudnn",
}  # fmt: skip
# A library named after the kernel generator that wraps it says more ("sm80_xmma_cublas_gemvx",
# "trt_turing_cutlass_...").
_WRAPPERS = {"tensorrt", "xmma"}
# Tokens that are understood but not kept as a column: groups (g1), filter sizes (t1r3s3, r3s3),
# alignments, memory access variants, cuDNN's size variants and versions, pooling parameters,
# epilogue and fusion flags.
_KNOWN = re.compile(
    r"^(g\d+|t\d+r\d+s\d+|r\d+s\d+|u\d+v\d+|hw\d+|c\d+|k\d+r\d+s\d+c\d+|align[ac]?\d+|"
    r"calign\d+|ldg\d+|v\d+|implicit|indexed|interleaved|simple|linkable|wo|smem|beta|relu|bias|"
    r"exp|interior|small|medium|large|xregs|singlebuffer|sliced\d+x\d+|launch|param\d+x\d+x\d+|"
    r"unit|strided|stride|stride\d+x\d+|copyx|int\d+|batch|scalebias|epifadd|aaccess|"
    r"kmax|kaverage|kmin|max|average|avg|tp\d+|tq\d+|tr\d+|ts\d+|tu\d+|tv\d+|tunroll\d+|"
    r"tthreads\d+|propagate|not|nan|windowsize|\d+d|fastdiv|coalescedc|false|true|fw|tiled|"
    r"tile\d+t|tile|rows|cols|as|first|layer|image|network|n|t|act|pool|smallk|conv\d+x\d+|"
    r"warptilesize\d+x\d+|tensorop|\d+|myl\d+|fp\d+x\d+|int\d+x\d+|fp\d+|beta\d*|"
    r"kcrsvc\d+|chwpacked|packed|k[a-z]+|mode|generic|nd|custom|t[a-z]+\d+|gap\w*)$"
)


@dataclass(slots=True)
class KernelAnatomy:
    """What a kernel's name says; None where it does not say. ``unknown``: its tokens this
    module does not know."""

    arch: str | None = None
    generation: str | None = None
    family: str | None = None
    operation: str | None = None
    input: str | None = None
    output: str | None = None
    math: str | None = None
    accumulator: str | None = None
    layout: str | None = None
    tile: str | None = None
    stages: int | None = None
    warps: str | None = None
    cluster: str | None = None
    tensor_cores: bool | None = None
    split_k: bool | None = None
    unknown: tuple[str, ...] = field(default=())


# The columns ``kernel_columns`` adds to a table, in order.
KERNEL_COLUMNS = [f"kernel_{item.name}" for item in fields(KernelAnatomy)]


def _arch(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    number = int(match.group(1))
    anatomy.arch = f"sm{number}"
    anatomy.generation = _GENERATIONS.get(number)


def _generation(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.generation = _NAMED_GENERATIONS[match.group(0)]


def _family(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    if anatomy.family is None or anatomy.family in _WRAPPERS:
        anatomy.family = _FAMILIES[match.group(0)]


def _operation(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    operation = _OPERATIONS[match.group(0)]
    # "implicit_gemm" of a convolution stays a convolution; "gemm_as_conv" a gemm.
    if anatomy.operation is None or (anatomy.operation == "gemm" and operation != "convolution"):
        anatomy.operation = operation


def _types(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    first, second = _TYPES[match.group(1)], _TYPES[match.group(2)]
    if anatomy.input is None:
        anatomy.input, anatomy.output = first, second
    elif anatomy.math is None:
        anatomy.math, anatomy.accumulator = first, second


def _three_types(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # "f16f16f32" (CUTLASS first-layer kernels): input, output, accumulator.
    anatomy.input, anatomy.output = _TYPES[match.group(1)], _TYPES[match.group(2)]
    anatomy.accumulator = _TYPES[match.group(3)]


def _single_type(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # After the input/output pair: the accumulator (cuBLAS's gemvx "f16f16_f32_f32"); after
    # the math pair: the epilogue's type, not kept.
    if anatomy.input is not None and anatomy.math is None:
        anatomy.math = anatomy.accumulator = _TYPES[match.group(1)]


def _layout(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # The first names the activations (output layouts follow the filter's).
    anatomy.layout = anatomy.layout or _LAYOUTS[match.group(0)]


def _vectorised(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    width = match.group(1)
    anatomy.layout = anatomy.layout or f"NC/{width}HW{width}"


def _transposes(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # A GEMM's operands, transposed or not; cuDNN's convolutions end in them too ("_nn_v1").
    if anatomy.operation in (None, "gemm", "gemv"):
        anatomy.layout = anatomy.layout or match.group(0).upper()


def _tile(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.tile = anatomy.tile or match.group(1)


def _stages(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.stages = int(match.group(1))


def _warps(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.warps = match.group(2)
    if match.group(1) == "warpgroupsize":
        # Hopper's warp groups issue wgmma: tensor cores.
        anatomy.tensor_cores = True


def _cluster(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.cluster = match.group(1)


def _tensor(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.tensor_cores = True


def _cuda_cores(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.tensor_cores = False


def _split_k(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    anatomy.split_k = True


def _cudnn(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    precision = {"s": "fp32", "h": "fp16", "i": "int8"}[match.group("kind")]
    anatomy.input = anatomy.input or precision
    anatomy.family = "cudnn" if match.group("library") == "cudnn" else "cublas"
    if anatomy.operation is None:
        anatomy.operation = "convolution" if match.group("library") == "cudnn" else "gemm"
    anatomy.tensor_cores = match.group("mma") is not None


def _pooling_types(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # Pooling kernels: "FP16NCHW", "INT8NCxHW32", "FP16FP16NHWC", "FP16FP16".
    text = match.group(0).upper()
    types = [f"{kind.lower()}{bits}" for kind, bits in re.findall(r"(FP|INT)(\d+)", text)]
    anatomy.input = anatomy.input or types[0]
    anatomy.output = anatomy.output or types[-1]
    layout = match.group("layout")
    if layout:
        layout = layout.upper()
        vectorised = layout.startswith("NCXHW")
        anatomy.layout = anatomy.layout or (
            f"NC/{layout[5:]}HW{layout[5:]}" if vectorised else layout
        )


def _imma(anatomy: KernelAnatomy, match: re.Match[str]) -> None:
    # INT8 tensor-core kernels: CASK's "kIMMA_V2_TILE_64x32" convolutions (7.x-8.x), XMMA's
    # "sm72_xmma_pooling_IMMA_NCxHW32_gap".
    anatomy.tensor_cores = True
    anatomy.input = anatomy.input or "int8"
    if match.group(0).lower() == "kimma":
        anatomy.family = anatomy.family or "cask"
        anatomy.operation = anatomy.operation or "convolution"


# (pattern of one token, what it says); tried in order, the first that matches wins.
_Handler = Callable[[KernelAnatomy, re.Match[str]], None]
_TOKENS: list[tuple[re.Pattern[str], _Handler]] = [
    (re.compile(r"^sm(\d+)a?$"), _arch),
    (re.compile("^(" + "|".join(_NAMED_GENERATIONS) + ")$"), _generation),
    (re.compile("^(" + "|".join(_FAMILIES) + ")$"), _family),
    (_CUDNN, _cudnn),
    (re.compile("^(" + "|".join(_OPERATIONS) + ")$"), _operation),
    (_PAIR, _types),
    (_TRIPLE, _three_types),
    (_SINGLE, _single_type),
    (re.compile("^(" + "|".join(_LAYOUTS) + ")$"), _layout),
    (re.compile(r"^(?:nchwvc|ncxhw)(\d+)$"), _vectorised),
    (re.compile(r"^(tn|nt|nn|tt)$"), _transposes),
    (re.compile(r"^tilesize(\d+x\d+(?:x\d+)?)$"), _tile),
    (re.compile(r"^(\d+x\d+)$"), _tile),
    (re.compile(r"^stages?(\d+)$"), _stages),
    (re.compile(r"^(warpsize|warpgroupsize)(\d+x\d+x\d+)$"), _warps),
    (re.compile(r"^cgasize(\d+x\d+x\d+)$"), _cluster),
    (re.compile(r"^(tensor\d+x\d+x\d+|hmma|gmma|wgmma)$"), _tensor),
    (re.compile(r"^k?imma$"), _imma),
    (re.compile(r"^(ffma|simt|fma|hfma2)$"), _cuda_cores),
    (re.compile(r"^split_?k\d*$", re.IGNORECASE), _split_k),
    (
        re.compile(
            r"^(FP\d+|INT\d+)(FP\d+|INT\d+)?(?P<layout>NCHW|NHWC|NCxHW\d+)?$", re.IGNORECASE
        ),
        _pooling_types,
    ),
]


@lru_cache(maxsize=65536)
def decode_kernel(name: str) -> KernelAnatomy:
    """The anatomy of a kernel's name (a fresh object each name: do not change it)."""
    anatomy = KernelAnatomy()
    text = name.strip()
    if text.startswith("__myl_"):
        anatomy.family, anatomy.operation = "myelin", "fused"
        return anatomy
    text = _VECTORISED.sub(r"\1vc\2_", text)
    # cuDNN's "stages_64x3" names the K block and the stages in the next token.
    tokens = text.split("_")
    unknown: list[str] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        following = tokens[position + 1] if position + 1 < len(tokens) else ""
        lowered = token.lower()
        if lowered == "stages" and re.fullmatch(r"\d+x\d+", following):
            anatomy.stages = int(following.split("x")[1])
            position += 2
            continue
        if _read(anatomy, token, lowered):
            pass
        elif token:
            unknown.append(token)
        position += 1
    anatomy.unknown = tuple(unknown)
    if anatomy.tensor_cores is None and anatomy.generation in ("Maxwell", "Pascal"):
        # Built for GPUs without tensor cores (TensorRT 10.x's generic sm50 pooling, gemv).
        anatomy.tensor_cores = False
    return anatomy


def _read(anatomy: KernelAnatomy, token: str, lowered: str) -> bool:
    for pattern, handler in _TOKENS:
        match = pattern.match(token) or pattern.match(lowered)
        if match:
            handler(anatomy, match)
            return True
    return bool(_KNOWN.match(lowered))


# Columns that are not text.
_COLUMN_TYPES = {
    "kernel_stages": "Int64",
    "kernel_tensor_cores": "boolean",
    "kernel_split_k": "boolean",
}


def _column_values(name: str) -> tuple[object, ...]:
    """The ``KERNEL_COLUMNS`` values of a kernel name: ``kernel_unknown`` joins the unknown
    tokens with spaces."""
    anatomy = decode_kernel(name)
    values = [getattr(anatomy, item.name) for item in fields(KernelAnatomy)]
    values[-1] = " ".join(anatomy.unknown) or None
    return tuple(values)


def _sorted_codes(values: list[object]) -> tuple[np.ndarray, list[object]]:
    """``pd.factorize(values, sort=True)`` of text values (None: missing), without a Series."""
    import numpy as np
    import pandas as pd

    if not all(value is None or type(value) is str for value in values):
        value_codes, uniques = pd.factorize(pd.Series(values, dtype=object), sort=True)
        return value_codes, list(uniques)
    texts = cast("list[str | None]", values)
    distinct = sorted({text for text in texts if text is not None})
    place = {text: code for code, text in enumerate(distinct)}
    codes = [-1 if text is None else place[text] for text in texts]
    return np.array(codes, dtype=np.intp), list(distinct)


def with_kernel_columns(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (with a ``kernel`` column) with the ``KERNEL_COLUMNS`` added at its end."""
    from trtlog.analysis.columns import of_empty

    return of_empty(table, _with_kernel_columns)


def _with_kernel_columns(table: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    return pd.concat([table, kernel_columns(table["kernel"])], axis=1)


def kernel_columns(kernels: pd.Series) -> pd.DataFrame:
    """The ``KERNEL_COLUMNS`` of each of ``kernels`` (names, or missing), each distinct name
    decoded once: a large build times millions of tactics with a few thousand kernels. Text
    columns are categorical; ``kernel_unknown`` joins the unknown tokens with spaces."""
    import numpy as np
    import pandas as pd

    categorical = (
        kernels if isinstance(kernels.dtype, pd.CategoricalDtype) else kernels.astype("category")
    )
    names = [str(name) for name in categorical.cat.categories]
    codes = categorical.cat.codes.to_numpy()
    decoded = [_column_values(name) for name in names]
    columns: dict[str, object] = {}
    for position, column in enumerate(KERNEL_COLUMNS):
        values = [row[position] for row in decoded]
        kind = _COLUMN_TYPES.get(column)
        if kind is None:
            value_codes, uniques = _sorted_codes(values)
            row_codes = np.where(codes >= 0, value_codes[codes] if len(value_codes) else -1, -1)
            # Text categories, sorted, as the tables' other text columns have them.
            columns[column] = pd.Categorical.from_codes(
                row_codes, categories=[str(value) for value in uniques], validate=False
            )
        else:
            per_name = pd.array(values, dtype=kind)
            taken = (
                per_name.take(codes, allow_fill=True)
                if len(per_name)
                else pd.array([pd.NA] * len(codes), dtype=kind)
            )
            columns[column] = taken
    return pd.DataFrame(columns, index=kernels.index)
