"""Kernel names decoded into their anatomy (``trtlog.analysis.kernel_names``), the kernel_*
columns of the tables, and ``trtlog kernels``.

The names are quoted from the corpus logs and exports (their versions in the comments); each
expectation was read off the name by hand."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from typer.testing import CliRunner

from tests.conftest import corpus_dir, needs_corpus
from tests.test_builds import THREE_BUILDS
from trtlog.analysis.buildlog import parse_build_log
from trtlog.analysis.kernel_names import KERNEL_COLUMNS, decode_kernel, kernel_columns
from trtlog.cli.app import app

CASES = [
    # 8.5 INT8 QAT (lix rtx2000ada): int8 in and out, int8 math into int32, NC/32HW32.
    (
        "sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_tilesize64x32x64_stage6_warpsize2x1x1_g1_tensor16x8x32",
        {"arch": "sm80", "generation": "Ampere", "family": "xmma", "operation": "convolution",
         "input": "int8", "output": "int8", "math": "int8", "accumulator": "int32",
         "layout": "NC/32HW32", "tile": "64x32x64", "stages": 6, "warps": "2x1x1",
         "tensor_cores": True},
    ),
    # 10.16 on H100: Hopper's warp groups and thread-block clusters, no stages in the name.
    (
        "sm90_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32_cgasize1x1x1_warpgroupsize1x1x1_g1",
        {"arch": "sm90", "generation": "Hopper", "input": "fp16", "output": "fp16",
         "accumulator": "fp16", "layout": "NHWC", "tile": "128x128x32", "stages": None,
         "cluster": "1x1x1", "warps": "1x1x1", "tensor_cores": True},
    ),
    # 8.6 FP32 with TF32 math on tensor cores.
    (
        "sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_t1r3s3",
        {"input": "fp32", "math": "tf32", "accumulator": "fp32", "tensor_cores": True},
    ),
    # FP32 on CUDA cores (ffma).
    (
        "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize64x64x8_stage3_warpsize1x4x1_g1_ffma_aligna4_alignc4",
        {"layout": "NCHW", "tensor_cores": False, "math": "fp32"},
    ),
    # An INT8 convolution writing FP32 on CUDA cores (kalfazed 8.6.1 resnet50 int8).
    (
        "sm70_xmma_fprop_conv1x1_i8f32_f32_f32_nchw_vect_c_4kcrs_vect_c_4_nchw_simt_small_batch_bias_relu",
        {"generation": "Volta", "input": "int8", "output": "fp32", "layout": "NC/4HW4",
         "tensor_cores": False},
    ),
    # cuBLAS's GEMV through XMMA: f16 in and out, f32 accumulation, transposes.
    (
        "sm80_xmma_cublas_gemvx_f16f16_f32_f32_tn_n_int32_unit_n_launch_param8x32x32_strided_unit_stride",
        {"family": "cublas", "operation": "gemv", "input": "fp16", "accumulator": "fp32",
         "layout": "TN"},
    ),
    # cuDNN (8.x on Ampere): FP16 with the 16x8x16 MMA, a K block of 64 in 3 stages.
    (
        "ampere_h16816cudnn_256x128_ldg8_relu_exp_stages_64x3_large_nhwc_tn_v1",
        {"arch": None, "generation": "Ampere", "family": "cudnn", "operation": "convolution",
         "input": "fp16", "tile": "256x128", "stages": 3, "layout": "NHWC", "tensor_cores": True},
    ),
    # 7.x cuDNN FP32 SIMT and Winograd kernels.
    ("volta_scudnn_128x128_relu_medium_nn_v1",
     {"generation": "Volta", "family": "cudnn", "input": "fp32", "tile": "128x128",
      "tensor_cores": False, "layout": None}),
    ("ampere_sgemm_128x64_sliced1x2_relu_nn_v1",
     {"family": "cublas", "operation": "gemm", "input": "fp32", "layout": "NN",
      "tensor_cores": False}),
    # 7.x's CASK INT8 kernels.
    ("kIMMA_V2_TILE_16x120",
     {"family": "cask", "input": "int8", "tile": "16x120", "tensor_cores": True}),
    # Pooling kernels name their types and layout in one token.
    ("sm86_xmma_pooling_tiled_INT8NCxHW32_kMAX_tP2_tQ2_tR3_tS3_tU2_tV2_tUnroll1_tThreads256",
     {"operation": "pooling", "input": "int8", "layout": "NC/32HW32"}),
    ("sm50_xmma_pooling_fw_4d_FP16FP32NHWC_Max_CAlign4",
     {"input": "fp16", "output": "fp32", "layout": "NHWC", "tensor_cores": False}),
    # Myelin's generated kernels (10.x).
    ("__myl_MoveMeanSubMulMeanAddSqrtDivMulMulAdd_myl3_5", {"family": "myelin", "operation": "fused"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "expected"), CASES, ids=[case[0][:40] for case in CASES])
def test_kernel_names_are_read(name: str, expected: dict[str, object]) -> None:
    anatomy = decode_kernel(name)
    assert {key: getattr(anatomy, key) for key in expected} == expected
    assert anatomy.unknown == ()


def test_unknown_tokens_are_kept() -> None:
    anatomy = decode_kernel(
        "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64_frobnicate_splitK"
    )
    assert anatomy.unknown == ("frobnicate",)
    assert (anatomy.operation, anatomy.split_k, anatomy.tile) == ("gemm", True, "64x64x64")


@needs_corpus
def test_every_corpus_kernel_name_is_read() -> None:
    names: set[str] = set()
    pattern = re.compile(r"(?:Tactic Name|TacticName): ([^\s,]+)")
    for path in sorted((corpus_dir() / "logs").glob("*.log")):
        names.update(pattern.findall(path.read_text(errors="replace")))
    assert len(names) > 1000
    decoded = {name: decode_kernel(name) for name in names}
    assert [name for name, anatomy in decoded.items() if anatomy.unknown] == []
    assert [name for name, anatomy in decoded.items() if anatomy.family is None] == []
    assert [name for name, anatomy in decoded.items() if anatomy.operation is None] == []


def test_the_tables_carry_the_kernel_columns() -> None:
    log = parse_build_log(THREE_BUILDS)
    for table in (log.tactics, log.choices, log.layers):
        assert table.columns[-len(KERNEL_COLUMNS) :].tolist() == KERNEL_COLUMNS
    # Line 108: "Tactic Name: sm80_xmma_fprop_implicit_gemm_tilesize64x32x8 Tactic: ...".
    timing = log.tactics.set_index("line").loc[108]
    assert (timing["kernel_arch"], timing["kernel_operation"], timing["kernel_tile"]) == (
        "sm80",
        "convolution",
        "64x32x8",
    )


def test_kernel_columns_decode_each_name_once_and_keep_missing() -> None:
    kernels = pd.Series(["ampere_sgemm_128x64_nn_v1", None, "ampere_sgemm_128x64_nn_v1"])
    columns = kernel_columns(kernels)
    assert columns["kernel_family"].tolist()[0] == "cublas"
    assert pd.isna(columns["kernel_family"].tolist()[1])
    assert columns["kernel_tensor_cores"].tolist() == [False, pd.NA, False]


def test_kernel_text_columns_have_their_categories_sorted() -> None:
    kernels = pd.Series(
        ["sm80_xmma_fprop_implicit_gemm_tilesize64x32x8", None, "ampere_sgemm_128x64_nn_v1"]
    )
    family = kernel_columns(kernels)["kernel_family"]
    assert family.cat.categories.tolist() == ["cublas", "xmma"]
    assert family.cat.codes.tolist() == [1, -1, 0]


@pytest.mark.slow
@needs_corpus
def test_kernels_command_groups_the_engines_kernels() -> None:
    log = corpus_dir() / "logs" / "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log"
    result = CliRunner().invoke(app, ["kernels", "--log", str(log), "-f", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    # 21 of the 26 detailed records name a TacticName; conv1.weight + QuantizeLinear_7 + Conv_9 +
    # MaxPool_12's kernel, kIMMA_V2_TILE_16x120, is its chosen tactic's (tuning's name for it).
    assert sum(row["layers"] for row in rows) == 22
    int8 = [row for row in rows if row["input"] == "int8" and row["family"] == "xmma"]
    assert int8 and all(row["operation"] in ("convolution", "pooling") for row in int8)
    # Sorted by profiled time, the slowest group first.
    times = [row["time_ms"] for row in rows if row["time_ms"] is not None]
    assert times == sorted(times, reverse=True)
