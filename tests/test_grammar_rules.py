"""One case per grammar rule (and per version variant), with real TensorRT lines.

Each case names the rule the line must match, the start symbol it is parsed with (trtexec's own
messages use ``trtexec_message``), the event class built, and field values read off the line by
hand. A meta-test checks that every rule of the grammar has a case here.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

import pytest
from lark import Lark, Tree

from trtlog.events import Diagnostic, LayerCount
from trtlog.events.base import TacticId, Tensor
from trtlog.parse import parse_text
from trtlog.parse.envelope import NO_ENVELOPE
from trtlog.parse.grammar import MESSAGE_START_RULES, message_grammar, message_parser

M, T, D, F = "message", "trtexec_message", "diagnostic", "foreign_message"
# trtexec's own warnings and errors.
TW = "trtexec_warning"

CASES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    # --- run ---------------------------------------------------------------------------------
    ("run_header", M, "&&&& RUNNING TensorRT.trtexec # /usr/src/tensorrt/bin/trtexec --avgRuns=3 --int8",
     "RunHeader", {"program": "TensorRT.trtexec", "version": None, "command": "/usr/src/tensorrt/bin/trtexec --avgRuns=3 --int8"}),
    ("run_header", M, "&&&& RUNNING TensorRT.trtexec [TensorRT v8502] # /usr/src/tensorrt/bin/trtexec --int8 --onnx=yolo.onnx",
     "RunHeader", {"version": "8.5.2", "version_build": None}),
    ("run_header", M, "&&&& RUNNING TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=model.onnx",
     "RunHeader", {"version": "10.16.1", "version_build": "b11", "command": "trtexec --onnx=model.onnx"}),
    ("polygraphy_run_header", M, "RUNNING | Command: /usr/local/bin/polygraphy run model.onnx --trt",
     "RunHeader", {"program": "polygraphy", "command": "/usr/local/bin/polygraphy run model.onnx --trt"}),
    ("run_footer", M, "&&&& PASSED TensorRT.trtexec [TensorRT v8510] # trtexec --onnx=mnist.onnx",
     "RunFooter", {"status": "PASSED", "version": "8.5.10"}),
    ("run_footer", M, "&&&& FAILED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=bad.onnx",
     "RunFooter", {"status": "FAILED", "version": "10.3.0"}),
    ("polygraphy_run_footer", M, "PASSED | Runtime: 16.888s | Command: /usr/local/bin/polygraphy run model.onnx",
     "RunFooter", {"status": "PASSED", "program": "polygraphy", "runtime_seconds": 16.888}),
    ("polygraphy_run_footer", M, "PASSED | Command: /usr/local/bin/polygraphy run model.onnx --trt",
     "RunFooter", {"runtime_seconds": None}),
    ("tensorrt_version", T, "TensorRT version: 8003", "TensorrtVersion", {"version": "8.0.3"}),
    ("tensorrt_version", T, "TensorRT version: 10.16.1", "TensorrtVersion", {"version": "10.16.1"}),
    ("loaded_module", M, "Loaded Module: tensorrt | Version: 10.16.2.5 | Path: ['/usr/lib/python3/tensorrt']",
     "LoadedModule", {"module": "tensorrt", "version": "10.16.2.5"}),
    ("loaded_module", M, "Loaded Module: tensorrt           | Version: 8.0.3.4  | Path: ['/usr/lib/tensorrt']",
     "LoadedModule", {"module": "tensorrt", "version": "8.0.3.4"}),
    # --- options and device ------------------------------------------------------------------
    ("section_header", T, "=== Build Options ===", "SectionHeader", {"title": "Build Options"}),
    ("option_line", T, "Memory Pools: workspace: default, dlaSRAM: default, dlaLocalDRAM: default",
     "OptionLine", {"key": "Memory Pools", "value": "workspace: default, dlaSRAM: default, dlaLocalDRAM: default"}),
    ("option_line", T, "Dump refittable layers:Disabled", "OptionLine", {"key": "Dump refittable layers", "value": "Disabled"}),
    ("option_line", T, "Calibration: ", "OptionLine", {"key": "Calibration", "value": ""}),
    ("device_property", T, "Selected Device: NVIDIA GeForce RTX 3080", "DeviceProperty",
     {"key": "Selected Device", "value": "NVIDIA GeForce RTX 3080"}),
    ("device_property", T, "Memory Bus Width: 192 bits (ECC disabled)", "DeviceProperty",
     {"key": "Memory Bus Width", "value": "192 bits (ECC disabled)"}),
    ("available_device", T, '  Device 0: "Orin" UUID: GPU-425399dc-1234', "DeviceProperty",
     {"key": "Device 0", "value": '"Orin" UUID: GPU-425399dc-1234'}),
    # --- ONNX parser ---------------------------------------------------------------------------
    ("onnx_model_banner", M, "-" * 64, "OnnxModelBanner", {}),
    ("onnx_model_info", M, "Opset version:    17", "OnnxModelInfo", {"key": "Opset version", "value": "17"}),
    ("onnx_model_info", M, "Domain:           ", "OnnxModelInfo", {"key": "Domain", "value": ""}),
    ("network_input", M, "Adding network input: input with dtype: float16, dimensions: (-1, 3, 224, 224)",
     "NetworkInput", {"name": "input", "dtype": "float16", "dims": (-1, 3, 224, 224)}),
    ("network_output", M, "Marking output_7 as output: output", "NetworkOutput", {"tensor": "output_7", "name": "output"}),
    ("onnx_importer_trace", M, "Parsing node: Conv__25 [Conv]", "OnnxImporterTrace",
     {"step": "Parsing node", "subject": "Conv__25 [Conv]"}),
    ("onnx_importer_trace", M, "Registering tensor: x:0 for ONNX tensor: x:0", "OnnxImporterTrace",
     {"step": "Registering tensor", "subject": "x:0 for ONNX tensor: x:0"}),
    ("onnx_node_io", M, "Conv__25 [Conv] inputs: [x:0 -> (-1, 1, 28, 28)[FLOAT]], [w1/read:0 -> (32, 1, 5, 5)[FLOAT]], ",
     "OnnxImporterTrace", {"step": "node inputs", "subject": "Conv__25 [Conv]"}),
    # 7.0's importer: its source position first, unnamed nodes (lines from a public 7.0 log).
    ("onnx_importer_trace", M, "ModelImporter.cpp:103: Parsing node:  [MaxPool]", "OnnxImporterTrace",
     {"step": "Parsing node", "subject": "[MaxPool]", "location": "ModelImporter.cpp:103"}),
    ("onnx_importer_trace", M, "ImporterContext.hpp:116: Registering tensor: 276 for ONNX tensor: 276",
     "OnnxImporterTrace", {"step": "Registering tensor", "subject": "276 for ONNX tensor: 276",
                           "location": "ImporterContext.hpp:116"}),
    ("onnx_importer_trace", M, "builtin_op_importers.cpp:450: Convolution input dimensions: (1, 64, 112, 168)",
     "OnnxImporterTrace", {"step": "Convolution input dimensions", "subject": "(1, 64, 112, 168)"}),
    ("onnx_node_io", M, "ModelImporter.cpp:125:  [MaxPool] inputs: [275 -> (1, 64, 224, 336)], ", "OnnxImporterTrace",
     {"step": "node inputs", "subject": "[MaxPool]", "detail": "[275 -> (1, 64, 224, 336)]",
      "location": "ModelImporter.cpp:125"}),
    ("onnx_node_io", M, "Conv_0 [Conv] outputs: [123 -> (1, 64, 112, 112)[FLOAT]], ", "OnnxImporterTrace",
     {"subject": "Conv_0 [Conv]", "location": None}),
    ("onnx_importer_note", M, "GEMM: using FC layer instead of MM because all criteria were met.", "OnnxImporterTrace",
     {"step": "note"}),
    ("onnx_importer_broadcast", M, "MatMul_0: broadcasting input1 to make tensors conform, dims(input0)=[1,3,512,512][NONE] dims(input1)=[1,1,512,512][NONE].",
     "OnnxImporterTrace", {"step": "broadcasting", "subject": "MatMul_0"}),
    ("onnx_importer_clamp", M, "Weight at index 0: 9223372036854775807 is out of range. Clamping to: 2147483647",
     "OnnxImporterTrace", {"step": "Weight out of range"}),
    ("onnx_importer_resize", M, "Running resize layer with: \nTransformation mode: asymmetric\nResize mode: nearest",
     "OnnxImporterTrace", {"detail": "Transformation mode: asymmetric; Resize mode: nearest"}),
    # Constructed from onnx-tensorrt's source (8.2-GA builtin_op_importers.cpp): the settings on bare lines.
    ("onnx_importer_deconvolution", M, "Running deconvolution with: \nPadding mode: NOTSET\nPre-padding: (1, 1)\nPost-padding: (1, 1)",
     "OnnxImporterTrace", {"step": "Running deconvolution with", "end_line": 4,
                           "detail": "Padding mode: NOTSET; Pre-padding: (1, 1); Post-padding: (1, 1)"}),
    # --- graph optimisation ----------------------------------------------------------------------
    ("layer_count", M, "Original: 24 layers", "LayerCount", {"stage": "Original", "count": 24}),
    ("layer_count", M, "After dead-layer removal: 24 layers", "LayerCount", {"stage": "dead-layer removal", "count": 24}),
    ("layer_count", M, "After adding DebugOutput nodes: 24 layers", "LayerCount", {"stage": "adding DebugOutput nodes"}),
    ("fusion_pass_running", M, "Running: ConstShuffleFusion", "FusionPassRunning", {"pass_name": "ConstShuffleFusion", "target": None}),
    ("fusion_pass_running", M, "Running: ConstShuffleFusion on constant1024", "FusionPassRunning", {"target": "constant1024"}),
    ("layers_fused", M, "ConvReluFusion: Fusing Conv_15 with Relu_16", "LayersFused",
     {"pass_name": "ConvReluFusion", "first": "Conv_15", "second": "Relu_16", "relation": "with"}),
    ("layers_fused", M, "PointWiseFusion: Fusing PWN(a) with PWN(b, c)", "LayersFused", {"first": "PWN(a)", "second": "PWN(b, c)"}),
    ("layers_fused_into", M, "QuantizeDoubleInputNodes: fusing (DequantizeLinear_30 and DequantizeLinear_33) into Conv_34",
     "LayersFused", {"pass_name": "QuantizeDoubleInputNodes", "first": "(DequantizeLinear_30 and DequantizeLinear_33)",
                     "second": "Conv_34", "relation": "into"}),
    ("weights_fused", M, "Fusing convolution weights from MatMul_243 with scale BatchNormalization_244", "LayersFused",
     {"pass_name": None, "first": "MatMul_243", "second": "BatchNormalization_244", "relation": "weights"}),
    ("layers_fused_unnamed", M, "Fusing (Unnamed Layer* 0) [Scale] with (Unnamed Layer* 1) [Scale]", "LayersFused",
     {"pass_name": None, "first": "(Unnamed Layer* 0) [Scale]", "second": "(Unnamed Layer* 1) [Scale]"}),
    ("layer_removed", M, "Removing (Unnamed Layer* 44) [Shuffle]", "LayerRemoved", {"layer": "(Unnamed Layer* 44) [Shuffle]"}),
    ("layer_type_converted", M, "Convert layer type of /fc/Gemm from MATRIX_MULTIPLY to CONVOLUTION", "LayerTypeConverted",
     {"layer": "/fc/Gemm", "from_type": "MATRIX_MULTIPLY", "to_type": "CONVOLUTION"}),
    ("layer_type_converted", M, "Swap the layer type of QuantizeLinear_2 from QUANTIZE to kQDQ", "LayerTypeConverted",
     {"layer": "QuantizeLinear_2", "to_type": "kQDQ"}),
    ("layer_eliminated", M, "Eliminating concatenation Concat_59", "LayerEliminated", {"layer": "Concat_59", "what": "concatenation"}),
    ("layer_eliminated", M, "Eliminating QuantizeLinear_38 which duplicates (Q) QuantizeLinear_15", "LayerEliminated",
     {"layer": "QuantizeLinear_38", "what": None, "detail": "which duplicates (Q) QuantizeLinear_15"}),
    ("layers_merged", M, "Merging layers: inception_5b/1x1 + inception_5b/relu_1x1 || inception_5b/3x3_reduce",
     "LayersMerged", {"layers": ("inception_5b/1x1 + inception_5b/relu_1x1", "inception_5b/3x3_reduce")}),
    ("graph_rewrite", M, "-----------SqueezePushDown kSQUEEZE_JOIN case: MatMul --> (Unnamed Layer* 19) [Shuffle] --> add_2",
     "GraphRewrite", {"pass_name": "SqueezePushDown", "detail": "kSQUEEZE_JOIN case: MatMul --> (Unnamed Layer* 19) [Shuffle] --> add_2"}),
    ("layers_swapped", M, "Swapping Add_22 + Relu_23 with QuantizeLinear_25", "LayersSwapped",
     {"first": "Add_22 + Relu_23", "second": "QuantizeLinear_25"}),
    ("tensor_retargeted", M, "Retargeting /model.22/Sigmoid_output_0 to output0", "TensorRetargeted",
     {"tensor": "/model.22/Sigmoid_output_0", "target": "output0", "copied": False}),
    # 8.4 (NVIDIA/trt-samples-for-hackathon-cn, cookbook/10-BestPractice/ComputationInAdvance/result.log).
    ("input_replaced", M, "Replacing input 0 of MatMul_298 with reshape_before_MatMul_141_out_tensor (output of reshape_before_MatMul_141)",
     "InputReplaced", {"layer": "MatMul_298", "index": 0, "tensor": "reshape_before_MatMul_141_out_tensor",
                       "producer_layer": "reshape_before_MatMul_141"}),
    ("copy_generated", M, "Generating copy before reshape_before_MatMul_141", "CopyGenerated",
     {"place": "before", "layer": "reshape_before_MatMul_141"}),
    ("tensor_copied", M, "Generating copy for /model.22/Mul_2_output_0 to output0 because of stomping hazard.", "TensorRetargeted",
     {"tensor": "/model.22/Mul_2_output_0", "target": "output0", "copied": True, "reason": "of stomping hazard."}),
    ("quantization_params", M, "Setting a default quantization params because quantization data is missing for ",
     "QuantizationParams", {"step": "Setting a default quantization params because quantization data is missing for", "detail": ""}),
    ("quantization_params", M, "Setting dynamic range for (Unnamed Layer* 0) [Constant]_output to [-4,4]",
     "QuantizationParams", {"step": "Setting dynamic range for", "detail": "(Unnamed Layer* 0) [Constant]_output to [-4,4]"}),
    ("quantization_params", M, "using Times212_Output_0 scale and zero-point Quantization(scale: {0.0314961,}, zero-point: {0,})",
     "QuantizationParams", {"step": "using"}),
    ("quantization_params", M, "User overriding scale with scale and zero-point Quantization(scale: {0.015748,}, zero-point: {0,})",
     "QuantizationParams", {"step": "User overriding scale with"}),
    ("dynamic_shape_override", T, "Dynamic dimensions required for input: inputT0, but no shapes were provided. Automatically overriding shape to: 1",
     "DynamicShapeOverride", {"input": "inputT0", "shape": "1"}),
    # trtexec 10.x echoes the ONNX parser flags as options, this one like the others.
    ("option_line", T, "ONNX kREPORT_CAPABILITY_DLA flag: Disabled", "OptionLine",
     {"key": "ONNX kREPORT_CAPABILITY_DLA flag", "value": "Disabled"}),
    # 10.16, the second profile (NVIDIA/trt-samples-for-hackathon-cn, cookbook/04-Feature/ProfilingVerbosity/log-main.py.log).
    ("foreign_node_metadata", M, "ForeignNode {ForeignNode[gemm1.weight...ONNXTRT_castHelper_9]} [profile 1] metadata: [ONNX Layer: node_view][ONNX Layer: node_linear][ONNX Layer: node_relu_2][ONNX Layer: node_linear_1][ONNX Layer: node_softmax][ONNX Layer: node_argmax]",
     "ForeignNodeMetadata", {"node": "{ForeignNode[gemm1.weight...ONNXTRT_castHelper_9]}", "profile": 1,
                             "onnx_layers": ("node_view", "node_linear", "node_relu_2", "node_linear_1", "node_softmax", "node_argmax")}),
    ("foreign_node_metadata", M, "ForeignNode {ForeignNode[node_conv2d...node_relu]} metadata: [ONNX Layer: node_conv2d][ONNX Layer: node_relu]",
     "ForeignNodeMetadata", {"node": "{ForeignNode[node_conv2d...node_relu]}", "onnx_layers": ("node_conv2d", "node_relu")}),
    ("symbolic_shape", M, "CONVOLUTION node_conv2d", "SymbolicShape", {"item": "layer", "name": "CONVOLUTION node_conv2d"}),
    ("symbolic_shape_tensor", M, "    Output 0", "SymbolicShape", {"item": "output", "name": "0"}),
    ("symbolic_shape_dimension", M, "        [1,16]\tnBS", "SymbolicShape", {"item": "dimension", "value": "[1,16]", "symbol": "nBS"}),
    # --- autotuning -----------------------------------------------------------------------------
    ("optimization_profile", M, "Constructing optimization profile number 0 [1/1].", "OptimizationProfile",
     {"profile": 0, "index": 1, "total": 1}),
    ("optimization_profile_out_of", M, "Constructing optimization profile number 0 out of 1", "OptimizationProfile",
     {"profile": 0, "total": 1}),
    ("computing_costs", M, "=============== Computing costs for node_conv2d + node_relu", "ComputingCosts",
     {"layer": "node_conv2d + node_relu", "reformatting": False}),
    ("computing_costs", M, "=============== Computing costs for ", "ComputingCosts", {"layer": None}),
    ("computing_reformatting_costs", M, "=============== Computing reformatting costs: ", "ComputingCosts", {"reformatting": True}),
    ("format_combination", M, "*************** Autotuning format combination: Float(1,56,3136,401408) -> Float(1,56,3136,802816) ***************",
     "FormatCombination", {"inputs": ("Float(1,56,3136,401408)",), "outputs": ("Float(1,56,3136,802816)",), "reformat": False}),
    ("format_combination", M, "*************** Autotuning format combination: Float(3,1), Int32(512,1) -> Float(1536,3,1) ***************",
     "FormatCombination", {"inputs": ("Float(3,1)", "Int32(512,1)"), "outputs": ("Float(1536,3,1)",)}),
    ("format_combination", M, "*************** Autotuning format combination:  ->  ***************",
     "FormatCombination", {"inputs": (), "outputs": ()}),
    ("reformat_combination", M, "*************** Autotuning Reformat:Float(784,784,28,1) -> Float(784,1,28,1) ***************",
     "FormatCombination", {"inputs": ("Float(784,784,28,1)",), "outputs": ("Float(784,1,28,1)",), "reformat": True}),
    ("reformat_combination", M, "*************** Autotuning Reformat: Int8(150528,50176,224,1) -> Int8(6272,3136:32,56,1) ***************",
     "FormatCombination", {"outputs": ("Int8(6272,3136:32,56,1)",), "reformat": True}),
    ("timing_runner", M, "--------------- Timing Runner: <reformat> (Reformat)", "TimingRunner",
     {"layer": "<reformat>", "runner": "Reformat", "runner_id": None}),
    ("timing_runner", M, "--------------- Timing Runner: Optimizer Reformat(x:0 -> <out>) (Reformat)", "TimingRunner",
     {"layer": "Optimizer Reformat(x:0 -> <out>)", "runner": "Reformat"}),
    ("timing_runner", M, "--------------- Timing Runner: node_conv2d + node_relu (CaskConvolution[0x80000009])", "TimingRunner",
     {"layer": "node_conv2d + node_relu", "runner": "CaskConvolution", "runner_id": 0x80000009}),
    ("legacy_timing_runner", M, "--------------- Timing module/slice3/conv3/Conv2D(14)", "TimingRunner",
     {"layer": "module/slice3/conv3/Conv2D", "runner": None, "runner_id": 14}),
    ("tactic_timing", M, "Tactic 313790760974845026 time 8.02246", "TacticTiming",
     {"tactic": TacticId(313790760974845026), "time_ms": 8.02246}),
    ("tactic_timing", M, "Tactic: 1002 time 0.064928", "TacticTiming", {"tactic": TacticId(1002), "time_ms": 0.064928}),
    ("tactic_timing", M, "Tactic: -9153228964338181824 Time: 0.00452", "TacticTiming",
     {"tactic": TacticId(-9153228964338181824 & 0xFFFFFFFFFFFFFFFF), "time_ms": 0.00452}),
    ("tactic_timing", M, "Tactic: 0x00000000000003e8 Time: 0.00193877", "TacticTiming", {"tactic": TacticId(1000), "time_ms": 0.00193877}),
    ("named_tactic_timing", M, "Tactic Name: ampere_scudnn_128x128_relu_medium_nn_v1 Tactic: 0xf067e6205da31c2e Time: 0.0129196",
     "TacticTiming", {"kernel": "ampere_scudnn_128x128_relu_medium_nn_v1", "tactic": TacticId(0xF067E6205DA31C2E), "time_ms": 0.0129196}),
    ("named_tactic_timing", M, "Tactic Name: sm80_xmma_gemm_f16f16 numSplitK: 2 numBuffers: 1 numKernels: 1 Tactic: 0x00000000000204d8 Time: 0.0201",
     "TacticTiming", {"kernel_parameters": "numSplitK: 2 numBuffers: 1 numKernels: 1"}),
    ("named_tactic_timing", M, "Tactic Name: sm80_xmma_fprop Tactic: 0xd15ea5edd15ea5ed Time: inf", "TacticTiming", {"time_ms": None}),
    ("tactic_skipped", M, "Tactic: 0 skipped. Scratch requested: 672, available: 0", "TacticSkipped",
     {"reason": "scratch", "scratch_requested": 672, "scratch_available": 0}),
    ("tactic_skipped", M, "Tactic 2 scratch requested: 301989888, available: 16777216", "TacticSkipped",
     {"tactic": TacticId(2), "scratch_requested": 301989888, "scratch_available": 16777216}),
    ("only_tactic", M, "Tactic: 0 is the only option, timing skipped", "TacticSkipped", {"reason": "only option"}),
    ("tactic_skipped_for_memory", M, "UNSUPPORTED_STATE: Skipping tactic 0 due to insufficient memory on requested size of 2688 detected for tactic 0x0000000000000000.",
     "TacticSkipped", {"reason": "insufficient memory", "scratch_requested": 2688}),
    ("tactic_skipped_for_memory", M, "UNSUPPORTED_STATESkipping tactic 4 due to insufficient memory on requested size of 66048 detected for tactic 0x000000000000001f.",
     "TacticSkipped", {"tactic": TacticId(0x1F), "reason": "insufficient memory", "scratch_requested": 66048}),
    ("tactic_skipped_for_device_memory", M, "Skipping tactic 3 due to insuficient memory on requested size of 449 detected for tactic 4.\nTry decreasing the workspace size with IBuilderConfig::setMaxWorkspaceSize().",
     "TacticSkipped", {"tactic": TacticId(4), "reason": "insufficient memory", "scratch_requested": None, "end_line": 2}),
    ("tactic_skipped_for_device_memory", M, "Skipping tactic 0 due to insuficient memory on requested size of 26931712 detected for tactic 0.",
     "TacticSkipped", {"tactic": TacticId(0), "scratch_requested": None}),
    # 8.6 (dusty-nv/jetson-inference issue 1855).
    ("tactic_fast_skipped", M, "Fast skip Tactic:0x58d98689a7f663f8 which exceed time limit during pre-run",
     "TacticSkipped", {"tactic": TacticId(0x58D98689A7F663F8), "reason": "time limit"}),
    ("tactic_device_request", M, "Tactic Device request: 448MB Available: 425MB. Device memory is insufficient to use tactic.",
     "TacticDeviceRequest", {"requested_bytes": 448 * 2**20, "available_bytes": 425 * 2**20}),
    ("set_tactic_name", M, "vgg0_conv4_fwd + vgg0_relu4_fwd (scudnn) Set Tactic Name: volta_scudnn_128x128_relu_medium_nn_v1",
     "SetTacticName", {"subject": "vgg0_conv4_fwd + vgg0_relu4_fwd", "variant": "scudnn", "tactic": None}),
    ("set_tactic_name", M, "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_medium_nn_v1 Tactic: 1062367460111450758",
     "SetTacticName", {"subject": "Conv__25 + Relu", "kernel": "maxwell_scudnn_128x32_relu_medium_nn_v1", "tactic": TacticId(1062367460111450758)}),
    ("set_tactic_name", M, "Conv-1 + ReLU-2 Set Tactic Name: maxwell_scudnn_128x32_relu_medium_nn_v1 Tactic: 0x0ebe499388e08286",
     "SetTacticName", {"tactic": TacticId(0x0EBE499388E08286)}),
    ("set_tactic_name", M, "Set Tactic Name: ampere_sgemm_32x32_sliced1x4_relu_tn_v1 Tactic: 0x0000000000020457 numSplitK: 1 numBuffers: 0 numKernels: 1",
     "SetTacticName", {"subject": None, "kernel_parameters": "numSplitK: 1 numBuffers: 0 numKernels: 1"}),
    ("set_tactic_name_only", M, "Tactic Name: kIMMA_V1_TILE_32x64 ", "SetTacticName", {"kernel": "kIMMA_V1_TILE_32x64"}),
    ("fastest_tactic", M, "Fastest Tactic: -3360065831133338131 Time: 3.40282e+38", "FastestTactic",
     {"tactic": TacticId(-3360065831133338131 & 0xFFFFFFFFFFFFFFFF), "time_ms": None}),
    ("fastest_tactic", M, "Fastest Tactic: 0x00000000000003e8 Time: 0.00193877", "FastestTactic", {"time_ms": 0.00193877}),
    ("runner_profiled", M, "Conv-1 + ReLU-2 (CaskConvolution[0x80000009]) profiling completed in 0.112085 seconds. Fastest Tactic: 0x5b8bf1b8028629d9 Time: 0.00569811",
     "FastestTactic", {"layer": "Conv-1 + ReLU-2", "runner": "CaskConvolution", "runner_id": 0x80000009,
                       "profiling_seconds": 0.112085, "tactic": TacticId(0x5B8BF1B8028629D9), "time_ms": 0.00569811}),
    ("runner_skipped", M, "CudaDepthwiseConvolution has no valid tactics for this config, skipping", "RunnerSkipped",
     {"skipped_runner": "CudaDepthwiseConvolution"}),
    ("runner_skipped_for_layer", M, "Skipping CaskFlattenConvolution: No valid tactics for node_conv2d + node_relu", "RunnerSkipped",
     {"skipped_runner": "CaskFlattenConvolution", "layer": "node_conv2d + node_relu"}),
    ("chose_runner", M, ">>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 7144526460361122478", "ChoseRunner",
     {"chosen_runner": "CaskConvolution", "tactic": TacticId(7144526460361122478)}),
    ("chose_runner", M, ">>>>>>>>>>>>>>> Chose Runner Type: Myelin Tactic: 0x0000000000000000", "ChoseRunner", {"tactic": TacticId(0)}),
    # 10.16 (NVIDIA/trt-samples-for-hackathon-cn, cookbook/04-Feature/Sparsity/log-main.py.log).
    ("sparse_tactics", M, "(Sparsity) Found 2 layer(s) eligible to use sparse tactics: node_conv2d + node_relu, node_conv2d_1 + node_relu_1",
     "SparseTactics", {"choice": "eligible", "count": 2, "layers": ("node_conv2d + node_relu", "node_conv2d_1 + node_relu_1")}),
    ("sparse_tactics_chosen", M, "(Sparsity) Chose 0 layer(s) using sparse tactics:", "SparseTactics",
     {"choice": "chosen", "count": 0, "layers": ()}),
    # 8.4 (the same repository, cookbook/09-Advance/Sparsity/result.log); then a constructed list of
    # a real fused name that holds ", " (Linaom1214/TensorRT-For-YOLO-Series#56) and another.
    ("sparse_math_eligible", M, "(Sparsity) Layers eligible for sparse math: (Unnamed Layer* 0) [Convolution], (Unnamed Layer* 1) [Convolution]",
     "SparseTactics", {"choice": "eligible", "count": None, "layers": ("(Unnamed Layer* 0) [Convolution]", "(Unnamed Layer* 1) [Convolution]")}),
    ("sparse_math_eligible", M, "(Sparsity) Layers eligible for sparse math: Conv_620 + PWN(PWN(Sigmoid_621), Mul_622), Conv_22",
     "SparseTactics", {"layers": ("Conv_620 + PWN(PWN(Sigmoid_621), Mul_622)", "Conv_22")}),
    ("sparse_implementation_picked", M, "(Sparsity) TRT inference plan picked sparse implementation for layers:",
     "SparseTactics", {"choice": "chosen", "layers": ()}),
    ("tactic_pruning", M, "MatMul-9: 69 available tactics, 44 unparsable, 11 pruned, 14 remaining after tactic pruning.",
     "TacticPruning", {"layer": "MatMul-9", "available": 69, "unparsable": 44, "pruned": 11, "remaining": 14}),
    ("non_conforming_implementation", M, "For layer Conv__25 + Relu a non-conforming implementation was chosen than was requested i.e. requested layer computation precision and output precision types were ignored because it resulted in faster network performance. Enable strict mode to try force choose a conforming implementation.",
     "NonConformingImplementation", {"layer": "Conv__25 + Relu", "strict": False}),
    ("no_conforming_implementation", M, "No implementation of layer 417 obeys the requested constraints in strict mode. No conforming implementation was found i.e. requested layer computation precision and output precision types are ignored, using the fastest implementation.",
     "NonConformingImplementation", {"layer": "417", "strict": True}),
    ("missing_quantization_scale", M, "Missing scale and zero-point for tensor (Unnamed Layer* 284) [Constant]_output, expect fall back to non-int8 implementation for any layer consuming or producing given tensor",
     "MissingQuantizationScale", {"tensor": "(Unnamed Layer* 284) [Constant]_output"}),
    ("backend_strategy", M, "Building graph using backend strategy 4", "BackendStrategy", {"strategy": 4, "action": "building"}),
    ("backend_strategy_initial", M, "Use backend strategy 4 with estimated inference time (0.3344) as the initial choice.",
     "BackendStrategy", {"strategy": 4, "action": "initial", "estimated_time": 0.3344}),
    ("backend_strategy_chosen", M, "Chose this engine with backend strategy 3 since its estimated inference time (0.310688) is faster than the previous engine with estimated inference time (0.3344).",
     "BackendStrategy", {"strategy": 3, "action": "chosen", "estimated_time": 0.310688, "previous_time": 0.3344}),
    ("backend_strategy_skipped", M, "Skip backend strategy 2since its estimated inference time (0.32816) is not faster than the previous engine with estimated inference time (0.310688).",
     "BackendStrategy", {"strategy": 2, "action": "skipped", "estimated_time": 0.32816}),
    ("reformat_layer_added", M, "Adding reformat layer: Reformatted Input Tensor 0 to node_conv2d_1 + node_relu_1 (max_pool2d) from Float(6272,196,14,1) to Half(784,1:8,56,4)",
     "ReformatLayerAdded", {"tensor": "Reformatted Input Tensor 0 to node_conv2d_1 + node_relu_1", "source": "max_pool2d",
                            "from_format": "Float(6272,196,14,1)", "to_format": "Half(784,1:8,56,4)"}),
    ("kernel_selected", M, "Kernel: 4 TRT_SERIALIZABLE:generatedNativePointwise", "KernelSelected",
     {"index": 4, "kernel_kind": "TRT_SERIALIZABLE:generatedNativePointwise"}),
    ("kernel_index_assigned", M, "Finalize: node_conv2d + node_relu Set kernel index: 0", "KernelSelected",
     {"index": 0, "layer": "node_conv2d + node_relu"}),
    ("generated_kernel_count", M, "Total number of generated kernels selected for the engine: 6", "GeneratedKernelCount", {"count": 6}),
    ("tactic_source", M, "Using cublas a tactic source", "TacticSource", {"source": "cublas", "role": "a tactic source"}),
    ("tactic_source", M, "Using cuDNN as plugin tactic source", "TacticSource", {"source": "cuDNN", "role": "plugin tactic source"}),
    ("tactic_source_disabled", M, "Disabling unused tactic source: JIT_CONVOLUTIONS", "TacticSource",
     {"source": "JIT_CONVOLUTIONS", "enabled": False}),
    ("timing_cache", M, "Local timing cache in use. Profiling results in this builder pass will not be stored.", "TimingCache",
     {"action": "in use", "scope": "local"}),
    ("timing_cache", M, "Global timing cache in use. Profiling results in this builder pass will be stored.", "TimingCache",
     {"scope": "global"}),
    ("timing_cache_deleted", M, "Deleting timing cache: 65 entries, 0 hits", "TimingCache", {"action": "deleted", "entries": 65, "hits": 0}),
    # 7.x, "[TensorRT] VERBOSE: Builder timing cache: created 115 entries, 415 hit(s)" in a public log.
    ("timing_cache_created", M, "Builder timing cache: created 115 entries, 415 hit(s)", "TimingCache",
     {"action": "created", "entries": 115, "hits": 415}),
    ("timing_cache_deleted", M, "Deleting timing cache: 214 entries, served 528 hits since creation.", "TimingCache",
     {"entries": 214, "hits": 528}),
    ("timing_cache_unreadable", T, "Could not read timing cache from: ./timing.cache. A new timing cache will be generated and written.",
     "TimingCache", {"action": "unreadable", "path": "./timing.cache"}),
    ("timing_cache_unreadable", M, "Could not read cache from: model-trained.TimingCache. A new cache will be generated and written.",
     "TimingCache", {"path": "model-trained.TimingCache"}),
    ("timing_cache_invalid", M, "Detected invalid timing cache, setup a local cache instead", "TimingCache", {"action": "invalid"}),
    ("timing_cache_serialized", M, "Serialized 170 timing cache entries", "TimingCache", {"action": "serialized", "entries": 170}),
    ("timing_cache_file", M, "Saved 107579 bytes of timing cache to model-trained.TimingCache", "TimingCache",
     {"action": "saved", "size_bytes": 107579, "path": "model-trained.TimingCache"}),
    ("timing_cache_file", T, "Loaded 107579 bytes of timing cache from model-trained.TimingCache", "TimingCache", {"action": "loaded"}),
    ("timing_cache_hit", M, "Optimizer Reformat(relu_2 -> <out>) [Float(1024,1) -> Half(1024,1)] got cached result: Reformat, tactic 0x00000000000003e8, 0.00294288 ms",
     "TimingCacheHit", {"subject": "Optimizer Reformat(relu_2 -> <out>)", "formats": "Float(1024,1) -> Half(1024,1)",
                        "cached_runner": "Reformat", "tactic": TacticId(1000), "time_ms": 0.00294288}),
    # --- memory ---------------------------------------------------------------------------------
    ("layer_memory", M, "Layer: Conv__25 + Relu HostPersistent: 1664 DevicePersistent: 8192", "LayerMemory",
     {"layer": "Conv__25 + Relu", "host_persistent": 1664, "device_persistent": 8192, "scratch": None}),
    ("layer_memory", M, "Layer: Conv__25 + Relu Host Persistent: 1664 Device Persistent: 8192 Scratch Memory: 0", "LayerMemory",
     {"host_persistent": 1664, "device_persistent": 8192, "scratch": 0}),
    ("layer_memory", M, "Layer: node_conv2d + node_relu Host Persistent: 5664 bytes Device Persistent: 0 bytes Scratch Memory: 512 bytes",
     "LayerMemory", {"layer": "node_conv2d + node_relu", "host_persistent": 5664, "scratch": 512}),
    ("memory_total", M, "Total Activation Memory: 24064", "MemoryTotal", {"what": "activation", "size_bytes": 24064}),
    ("memory_total", M, "Total Weights Memory: 6553364 bytes", "MemoryTotal", {"what": "weights", "size_bytes": 6553364}),
    ("memory_total", M, "Max Scratch Memory: 512 bytes", "MemoryTotal", {"what": "max scratch", "size_bytes": 512}),
    ("per_runner_memory_total", M, "Total per-runner device persistent memory is 94720", "MemoryTotal",
     {"what": "per-runner device persistent", "size_bytes": 94720}),
    ("per_runner_memory_total", M, "Total per-runner host memory is 4032", "MemoryTotal", {"what": "per-runner host persistent"}),
    ("memory_allocation", M, "Allocated activation device memory of size 2409472", "MemoryAllocation",
     {"what": "Allocated activation device memory", "size_bytes": 2409472}),
    ("runner_scratch_allocation", M, "- Runner scratch: 2007552 bytes", "MemoryAllocation", {"what": "Runner scratch", "size_bytes": 2007552}),
    ("memory_reservation", M, "Reserving memory for activation tensors. Host: 0 bytes Device: 88883200 bytes", "MemoryAllocation",
     {"size_bytes": 88883200, "host_bytes": 0}),
    ("engine_size", M, "Loaded engine size: 21 MiB", "MemoryAllocation", {"what": "Loaded engine size", "size_bytes": 21 * 1024 * 1024}),
    ("engine_size", M, "Loaded engine size: 245 MB", "MemoryAllocation", {"size_bytes": 245 * 1024 * 1024}),
    ("engine_size", T, "Created engine with size: 12.8201 MiB", "MemoryAllocation", {"size_bytes": round(12.8201 * 1024 * 1024)}),
    ("block_size", M, "Block size 1073741824", "BlockSize", {"size_bytes": 1073741824}),
    ("mem_usage_change", M, "[MemUsageChange] Init CUDA: CPU +157, GPU +0, now: CPU 164, GPU 506 (MiB)", "MemUsageChange",
     {"what": "Init CUDA", "cpu_delta": 157 << 20, "gpu_delta": 0, "cpu_now": 164 << 20, "gpu_now": 506 << 20}),
    ("mem_usage_change", M, "[MemUsageChange] TensorRT-managed allocation in building engine: CPU -2, GPU +19, now: CPU 18, GPU 19 (MiB)",
     "MemUsageChange", {"what": "TensorRT-managed allocation in building engine", "cpu_delta": -2 << 20}),
    ("mem_usage_snapshot", M, "[MemUsageSnapshot] Begin constructing builder kernel library: CPU 189 MiB, GPU 629 MiB", "MemUsageSnapshot",
     {"what": "Begin constructing builder kernel library", "cpu": 189 << 20, "gpu": 629 << 20}),
    ("mem_usage_stats", M, "[MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU 18 MiB, GPU 463 MiB", "MemUsageStats",
     {"cpu": 18 << 20, "gpu": 463 << 20}),
    ("mem_usage_stats_cpu", M, "[MemUsageStats] Peak memory usage during Engine building and serialization: CPU: 2522 MiB", "MemUsageStats",
     {"what": "Peak memory usage during Engine building and serialization", "cpu": 2522 << 20, "gpu": None}),
    ("block_assignment", M, "[BlockAssignment] Started assigning block shifts. This will take 164 steps to complete.", "BlockAssignment",
     {"phase": "started", "steps": 164}),
    ("block_assignment_done", M, "[BlockAssignment] Algorithm ShiftNTopDown took 10.2071ms to assign 9 blocks to 164 nodes requiring 88883712 bytes.",
     "BlockAssignment", {"phase": "done", "algorithm": "ShiftNTopDown", "milliseconds": 10.2071, "blocks": 9, "nodes": 164, "size_bytes": 88883712}),
    ("block_count", M, "Total number of blocks in pre-optimized block assignment: 13", "BlockAssignment", {"phase": "pre-optimized", "blocks": 13}),
    # --- engine layers ----------------------------------------------------------------------------
    ("engine_layer_information", M, "Engine Layer Information:\nLayer(CaskConvolution): Conv__25 + Relu, Tactic: 7144526460361122478, x:0[Float(-2,1,28,28)] -> Relu:0[Float(-2,32,28,28)]",
     "EngineLayerInformation", {"layer_count": 1}),
    ("engine_layer", M, "Layer(FusedConvActDirect): (Unnamed Layer* 0) [Convolution] + (Unnamed Layer* 1) [Activation], Tactic: 141, data[Float(1,32,32)] -> (Unnamed Layer* 1) [Activation]_output[Float(6,28,28)]",
     "EngineLayer", {"name": "(Unnamed Layer* 0) [Convolution] + (Unnamed Layer* 1) [Activation]", "layer_type": "FusedConvActDirect", "tactic": TacticId(141)}),
    ("engine_layer", M, "Layer(CaskConvolution): Conv-1 + ReLU-2, Tactic: 0x98e92db98836b738, Reformatted Input Tensor 0 to Conv-1 + ReLU-2 (Half[-1,1:2,28,28]) -> tensor-2 (Half[-1,32:2,28,28])",
     "EngineLayer", {"name": "Conv-1 + ReLU-2", "tactic": TacticId(0x98E92DB98836B738)}),
    ("engine_layer", M, "Layer(TrainStation): [trainStation1], Tactic: 0x0000000000000000,  -> ", "EngineLayer",
     {"name": "[trainStation1]", "inputs": (), "outputs": ()}),
    ("engine_layer_detailed", M, "Name: /conv1/Conv + /relu/Relu, LayerType: CaskConvolution, Inputs: [ { Name: input0, Location: Device, Dimensions: [1,3,224,224], Format/Datatype: Row major linear FP32 }], Outputs: [ { Name: /relu/Relu_output_0, Location: Device, Dimensions: [1,64,112,112], Format/Datatype: Row major linear FP32 }], ParameterType: Convolution, Kernel: [7,7], Weights: {\"Type\": \"Float\", \"Count\": 9408}, TacticName: ampere_scudnn_128x64_relu_xregs_large_nn_v1, TacticValue: 0x5deb29b7a8e275f7",
     "EngineLayer", {"name": "/conv1/Conv + /relu/Relu", "layer_type": "CaskConvolution", "kernel": "ampere_scudnn_128x64_relu_xregs_large_nn_v1",
                     "tactic": TacticId(0x5DEB29B7A8E275F7)}),
    # 10.16: Myelin's shape_call layers have an empty kernel, and the line ends with a bare key
    # (NVIDIA/trt-samples-for-hackathon-cn, cookbook/04-Feature/EngineInspector/log-main.py.log).
    ("engine_layer_detailed", M, "Name: __mye260_0_myl5_0, LayerType: shape_call, Inputs: [], Outputs: [], TacticName: , StreamId: 0, Metadata:",
     "EngineLayer", {"name": "__mye260_0_myl5_0", "layer_type": "shape_call", "kernel": None, "tactic": None,
                     "attributes": (("StreamId", "0"), ("Metadata", ""))}),
    # 10.x: Myelin's layers name no location.
    ("engine_layer_detailed", M, "Name: __myl_GathGathMulAdd_myl0_0, LayerType: kgen, Inputs: [ { Name: pos_ids, Dimensions: [1,40], Format/Datatype: Int32 }, { Name: sent_ids, Dimensions: [1,40], Format/Datatype: Int32 }], Outputs: [ { Name: __myln_k_arg__bb1_2, Dimensions: [1,40,768], Format/Datatype: Half }], StreamId: 0",
     "EngineLayer", {"name": "__myl_GathGathMulAdd_myl0_0", "layer_type": "kgen",
                     "inputs": (Tensor("pos_ids", "Int32", (1, 40), format="Int32"), Tensor("sent_ids", "Int32", (1, 40), format="Int32")),
                     "outputs": (Tensor("__myln_k_arg__bb1_2", "Half", (1, 40, 768), format="Half"),)}),
    ("layer_information", T, "Layer Information:", "LayerInformation", {"title": "Layer Information"}),
    ("layer_listing", T, "Layers:\nConv-1 + ReLU-2\nMaxPool-3\n\nBindings:\ntensor-0\ntensor-15", "LayerInformation", {"title": "Layers"}),
    ("layers_running_on", M, "--------------- Layers running on DLA: ", "LayersRunningOn", {"device": "DLA"}),
    ("layers_running_on_8x", M, "---------- Layers Running on GPU ----------", "LayersRunningOn", {"device": "GPU"}),
    ("layer_placement", M, "[GpuLayer] CONVOLUTION: Convolution28 + Parameter6 + (Unnamed Layer* 4) [Shuffle] + Plus30 + ReLU32",
     "LayerPlacement", {"device": "GPU", "layer_kind": "CONVOLUTION", "layer": "Convolution28 + Parameter6 + (Unnamed Layer* 4) [Shuffle] + Plus30 + ReLU32"}),
    ("no_layer_placement", M, "No layer is running on DLA", "LayerPlacement", {"device": "DLA", "layer": None}),
    # --- reported durations -----------------------------------------------------------------------
    ("phase_duration", M, "Graph construction and optimization completed in 0.14637 seconds.", "PhaseDuration",
     {"phase": "Graph construction and optimization", "seconds": 0.14637}),
    ("phase_duration", M, "Formats and tactics selection completed in 309.95 seconds.", "PhaseDuration", {"seconds": 309.95}),
    ("graph_optimization_time", M, "Graph optimization time: 0.558842 seconds.", "PhaseDuration", {"phase": "Graph optimization", "seconds": 0.558842}),
    ("trtexec_phase_time", T, "Engine built in 1033.79 sec.", "PhaseDuration", {"phase": "Engine built", "seconds": 1033.79}),
    ("trtexec_phase_time", T, "Engine deserialized in 0.145963 sec.", "PhaseDuration", {"phase": "Engine deserialized"}),
    ("parse_time", T, "Finished parsing network model. Parse time: 0.0943502", "PhaseDuration", {"phase": "Parse", "seconds": 0.0943502}),
    ("deserialization_time", M, "Deserialization required 3436767 microseconds.", "PhaseDuration", {"phase": "Deserialization", "seconds": 3.436767}),
    ("polygraphy_build_time", M, "Finished engine building in 13.793 seconds", "PhaseDuration", {"seconds": 13.793}),
    ("build_trt_engine_elapsed_time", "torch_tensorrt_message", "Build TRT engine elapsed time: 0:00:04.808916",
     "PhaseDuration", {"phase": "Build TRT engine", "seconds": 4.808916}),
    ("trt_inetwork_construction_elapsed_time", "torch_tensorrt_message", "TRT INetwork construction elapsed time: 0:00:08.304947",
     "PhaseDuration", {"phase": "TRT INetwork construction", "seconds": 8.304947}),
    ("trtllm_build_time", M, "Total time of building Unnamed Network 0: 00:00:36", "PhaseDuration",
     {"phase": "Building Unnamed Network 0", "seconds": 36.0}),
    ("trtllm_serialize_time", M, "Engine serialized. Total time: 00:00:28", "PhaseDuration", {"seconds": 28.0}),
    ("trtllm_total_build_time", M, "Total time of building all engines: 00:01:59", "PhaseDuration", {"seconds": 119.0}),
    ("phase_marker", T, "Start parsing network model.", "PhaseMarker", {"text": "Start parsing network model."}),
    ("phase_marker", T, "Skipped inference phase since --skipInference is added.", "PhaseMarker", {}),
    # --- performance ------------------------------------------------------------------------------
    ("perf_statistic", T, "Latency: min = 0.156128 ms, max = 0.428467 ms, mean = 0.159595 ms, median = 0.15918 ms, percentile(99%) = 0.164795 ms",
     "PerfStatistic", {"metric": "Latency", "min": 0.156128, "max": 0.428467, "mean": 0.159595, "median": 0.15918, "percentiles": ((99.0, 0.164795),)}),
    ("perf_statistic", T, "GPU Compute Time: min = 0.491211 ms, max = 0.506836 ms, mean = 0.498791 ms, median = 0.499023 ms, percentile(90%) = 0.501465 ms, percentile(95%) = 0.501953 ms, percentile(99%) = 0.503418 ms",
     "PerfStatistic", {"metric": "GPU Compute Time", "percentiles": ((90.0, 0.501465), (95.0, 0.501953), (99.0, 0.503418))}),
    ("perf_value", T, "Throughput: 6199.99 qps", "PerfValue", {"metric": "Throughput", "value": 6199.99, "unit": "qps"}),
    ("perf_value", T, "Total GPU Compute Time: 2.8484 s", "PerfValue", {"metric": "Total GPU Compute Time", "value": 2.8484, "unit": "s"}),
    ("trace_average", T, "Average on 10 runs - GPU latency: 2.21112 ms - Host latency: 3.39229 ms (enqueue 0.935721 ms)", "TraceAverage",
     {"runs": 10, "gpu_latency_ms": 2.21112, "host_latency_ms": 3.39229, "enqueue_ms": 0.935721, "end_to_end_ms": None}),
    ("trace_average", T, "Average on 3 runs - GPU latency: 1.96852 ms - Host latency: 2.10776 ms (end to end 2.12201 ms, enqueue 1.98582 ms)",
     "TraceAverage", {"end_to_end_ms": 2.12201, "enqueue_ms": 1.98582}),
    ("legacy_perf_header", T, "Host Latency", "LegacyPerfHeader", {"metric": "Host Latency"}),
    ("legacy_perf_statistic", T, "min: 1.99762 ms (end to end 2.00641 ms)", "LegacyPerfStatistic",
     {"stat": "min", "value": 1.99762, "end_to_end": 2.00641}),
    ("legacy_perf_statistic", T, "median: 1.97266 ms", "LegacyPerfStatistic", {"stat": "median", "value": 1.97266, "end_to_end": None}),
    ("legacy_perf_percentile", T, "percentile: 2.5329 ms at 99% (end to end 2.59641 ms at 99%)", "LegacyPerfStatistic",
     {"stat": "percentile", "value": 2.5329, "percentile": 99.0, "end_to_end": 2.59641}),
    ("legacy_perf_value", T, "throughput: 479.452 qps", "LegacyPerfStatistic", {"stat": "throughput", "value": 479.452, "unit": "qps"}),
    ("inference_progress", T, "Warmup completed 96 queries over 200 ms", "InferenceProgress", {"what": "warmup", "count": 96, "value": 0.2}),
    ("timing_trace", T, "Timing trace has 1457 queries over 3.00635 s", "InferenceProgress", {"count": 1457, "value": 3.00635}),
    ("trace_averages_header", T, "Trace averages of 10 runs:", "InferenceProgress", {"count": 10}),
    ("inference_binding", T, "Created input binding for tensor-0 with dimensions 4x1x28x28", "InferenceProgress",
     {"what": "Created input binding for", "detail": "tensor-0 with dimensions 4x1x28x28"}),
    ("trace_lines_omitted", T, "... Omitting 98196 lines", "InferenceProgress", {"count": 98196}),
    ("perf_advice", TW, "* GPU compute time is unstable, with coefficient of variance = 76.9519%.", "PerfAdvice",
     {"text": "GPU compute time is unstable, with coefficient of variance = 76.9519%."}),
    ("perf_advice", T, "* GPU compute time is unstable, with coefficient of variance = 76.9519%.", "PerfAdvice",
     {"text": "GPU compute time is unstable, with coefficient of variance = 76.9519%."}),
    ("perf_advice_detail", T, "  If not already in use, locking GPU clock frequency or adding --useSpinWait may improve the stability.",
     "PerfAdviceDetail", {"text": "If not already in use, locking GPU clock frequency or adding --useSpinWait may improve the stability."}),
    ("profile_header", T, "=== Profile (1941 iterations ) ===", "ProfileHeader", {"iterations": 1941}),
    ("profile_columns", T, "    Layer   Time (ms)   Avg. Time (ms)   Time %", "ProfileColumns", {"layout": "name-first"}),
    ("profile_columns", T, "            Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %", "ProfileColumns", {"layout": "name-first-median"}),
    ("profile_columns", T, "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer", "ProfileColumns", {"layout": "numbers-first"}),
    ("profile_row", T, "   /conv1/Conv + /relu/Relu       54.23           0.0279             0.0276      1.9", "ProfileRow",
     {"layer": "/conv1/Conv + /relu/Relu", "total_ms": 54.23, "average_ms": 0.0279, "median_ms": 0.0276, "percent": 1.9}),
    ("profile_row", T, "Reformatting CopyNode for Input Tensor 0 to Conv_0       58.18           0.4247      6.6", "ProfileRow",
     {"layer": "Reformatting CopyNode for Input Tensor 0 to Conv_0", "total_ms": 58.18, "average_ms": 0.4247, "median_ms": None, "percent": 6.6}),
    ("profile_row_numbers_first", T, "    3078.36       0.8925       0.8929      99.5   {ForeignNode[CLIPTextTransformer/...ELEMENTWISE_SUM_0]}",
     "ProfileRow", {"layer": "{ForeignNode[CLIPTextTransformer/...ELEMENTWISE_SUM_0]}", "total_ms": 3078.36, "median_ms": 0.8929, "percent": 99.5}),
    ("output_dump", T, "Output Tensors:", "OutputDump", {"what": "title"}),
    ("output_tensor", T, "output0: (1x1000)", "OutputDump", {"what": "tensor", "tensor": "output0", "shape": "1x1000"}),
    ("output_values", T, "-3.61514 20.5864 11.0214 10.9955 0.469871 ", "OutputDump", {"what": "values", "value_count": 5}),
    # --- notes --------------------------------------------------------------------------------------
    ("plugin_registration", M, "Registered plugin creator - ::BatchedNMS_TRT version 1", "PluginRegistration",
     {"plugin": "BatchedNMS_TRT", "version": "1", "namespace": "", "already": False}),
    ("plugin_registration", M, "Plugin creator already registered - ::GridAnchor_TRT version 1", "PluginRegistration", {"already": True}),
    ("progress_update", M, "    [=---------] Timing graph nodes 23/229", "ProgressUpdate",
     {"phase": "Timing graph nodes", "done": 23, "total": 229, "indent": 4}),
    ("myelin_trace", M, " (foreignNode) Pass fuse_conv_padding is currently skipped for dynamic shapes", "MyelinTrace",
     {"text": "Pass fuse_conv_padding is currently skipped for dynamic shapes"}),
    ("empty_message", M, "    ", "EmptyMessage", {}),
    ("builder_note", M, "Applying generic optimizations to the graph for inference.", "BuilderNote", {}),
    ("builder_note", M, "Detected 1 inputs and 3 output network tensors.", "BuilderNote", {}),
    ("builder_note", M, "[runner] Allocating resources for 1 graphs.", "BuilderNote", {}),
    ("builder_note", M, "[GraphReduction] The approximate region cut reduction algorithm is called.",
     "BuilderNote", {}),
    ("builder_note", M, "BuilderFlag::kTF32 is set but hardware does not support TF32. Disabling TF32.",
     "BuilderNote", {}),
    ("builder_note", M, "{ForeignNode[/conv1/Conv.../layer4/layer4.2/relu_2/Relu]} successfully offloaded to DLA.",
     "BuilderNote", {"text": "{ForeignNode[/conv1/Conv.../layer4/layer4.2/relu_2/Relu]} successfully offloaded to DLA."}),
    # 8.4 (NVIDIA/trt-samples-for-hackathon-cn, cookbook/09-Advance/Sparsity/result.log).
    ("builder_note", M, "The logger passed into createInferBuilder differs from one already provided for an existing builder, runtime, or refitter. Uses of the global logger, returned by nvinfer1::getLogger(), will return the existing value.",
     "BuilderNote", {}),
    ("builder_note", M, "The logger passed into createInferRuntime differs from one already provided for an existing builder, runtime, or refitter. Uses of the global logger, returned by nvinfer1::getLogger(), will return the existing value.",
     "BuilderNote", {}),
    # --- diagnostics ----------------------------------------------------------------------------------
    # Torch-TensorRT's (TRTorch's) own error: a list under a heading, on bare lines (pytorch/TensorRT#511).
    ("diagnostic", D, "Method requested cannot be compiled by TRTorch.\nUnsupported operators listed below:\n  -  aten::__contains__.str_list(str[] l, str item) -> (bool)\n  -  aten::dict() -> (Dict(str, Tensor))",
     "Diagnostic", {"text": "Method requested cannot be compiled by TRTorch.", "end_line": 4,
                    "continuation": ("Unsupported operators listed below:", "  -  aten::__contains__.str_list(str[] l, str item) -> (bool)", "  -  aten::dict() -> (Dict(str, Tensor))")}),
    ("diagnostic", D, "onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights, while TensorRT does not natively support INT64. Attempting to cast down to INT32.",
     "Diagnostic", {"location": "onnx2trt_utils.cpp:374", "error_code": None}),
    # trtexec relays the library's errors with its own prefix (8.x-10.x).
    ("diagnostic", D, "Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node {ForeignNode[Unsqueeze_93...Softmax_2088]}.)",
     "Diagnostic", {"origin": "Error[10]: [optimizer.cpp::computeCosts::2011]", "error_code": 10, "category": "Internal Error",
                    "text": "Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node {ForeignNode[Unsqueeze_93...Softmax_2088]}.)"}),
    ("diagnostic", D, "IRefitter::setNamedWeightsWithLocation: Error Code 3: API Usage Error (conv1.weight: The weights cannot be refitted. In getWeightsPrototypeInternal at /_src/runtime/refit/refit.cpp:275)",
     "Diagnostic", {"origin": "IRefitter::setNamedWeightsWithLocation", "error_code": 3, "category": "API Usage Error",
                    "detail": "conv1.weight: The weights cannot be refitted. In getWeightsPrototypeInternal at /_src/runtime/refit/refit.cpp:275"}),
    ("diagnostic", D, "ModelImporter.cpp:149: ERROR: onnxOpCheckers.cpp:923 In function checkFallbackPluginImporter:\n[6] creator && \"Plugin not found, are the plugin name, version, and namespace correct?\"",
     "Diagnostic", {"location": "ModelImporter.cpp:149",
                    "continuation": ('[6] creator && "Plugin not found, are the plugin name, version, and namespace correct?"',)}),
    ("affected_weights", M, "  List of affected weights: Conv-4 + ReLU-5.weight, MatMul-9 + ReLU-11.weight", "AffectedWeights",
     {"weights": ("Conv-4 + ReLU-5.weight", "MatMul-9 + ReLU-11.weight")}),
    # --- other programs' reports (Polygraphy) ----------------------------------------------------------
    ("foreign_message", F, "onnxrt-runner-N0-07/07/26-02:08:48  | Activating and starting inference", "Foreign", {"producer": "polygraphy"}),
]  # fmt: skip

# Rules that only build parts of a message, not an event of their own.
HELPER_RULES = {
    "message",
    "trtexec_message",
    "trtexec_warning",
    "tensor",
    "tensor_list",
    "detailed_attribute",
    "detailed_tensor",
    "error_code_message",
}


@cache
def tree_parser() -> Lark:
    return Lark(
        message_grammar(), start=list(MESSAGE_START_RULES), parser="lalr", maybe_placeholders=True
    )


def matched_rule(line: str, start: str) -> str:
    tree = tree_parser().parse(line, start=start)
    if start in ("message", "trtexec_message", "trtexec_warning"):
        node = tree.children[0]
        assert isinstance(node, Tree)
        return str(node.data)
    return str(tree.data)


def events_of(line: str, start: str) -> list[Any]:
    parser = message_parser()
    parser.options.transformer.begin(NO_ENVELOPE, 1, 1 + line.count("\n"), line)
    result = parser.parse(line, start=start)
    return result if isinstance(result, list) else [result]


@pytest.mark.parametrize(
    ("rule", "start", "line", "event_class", "fields"),
    CASES,
    ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)],
)
def test_rule_matches_its_line(
    rule: str, start: str, line: str, event_class: str, fields: dict[str, Any]
) -> None:
    assert matched_rule(line, start) == rule
    event = events_of(line, start)[0]
    assert type(event).__name__ == event_class
    for name, expected in fields.items():
        assert getattr(event, name) == expected, name


def test_every_grammar_rule_has_a_case() -> None:
    rules = {str(rule.alias or rule.origin.name) for rule in tree_parser().rules}
    rules = {name for name in rules if not name.startswith("_")} - HELPER_RULES
    covered: set[str] = set()
    for _rule, start, line, _cls, _fields in CASES:
        covered.update(
            str(node.data) for node in tree_parser().parse(line, start=start).iter_subtrees()
        )
    assert sorted(rules - covered) == []


def test_event_classes_are_named_after_rules() -> None:
    # The primary rule of every event class exists in the grammar under the class's own name.
    from trtlog.events import EVENTS_BY_KIND

    rules = {str(rule.alias or rule.origin.name) for rule in tree_parser().rules}
    # Records the parser builds without a rule (by their place: a list announced on the line
    # before), and iterations read from --exportTimes JSON.
    elsewhere = ("unrecognized", "foreign", "announced_nodes", "iteration_timing")
    built_by_parser = {kind for kind in EVENTS_BY_KIND if kind not in elsewhere}
    assert sorted(built_by_parser - rules) == []


def test_engine_layer_tensors_in_each_layout() -> None:
    layer = events_of(
        "Layer(CaskConvolution): Conv-1 + ReLU-2, Tactic: 0x98e92db98836b738, "
        "Reformatted Input Tensor 0 to Conv-1 + ReLU-2 (Half[-1,1:2,28,28]) -> tensor-2 (Half[-1,32:2,28,28])",
        M,
    )[0]
    (source,) = layer.inputs
    assert source.name == "Reformatted Input Tensor 0 to Conv-1 + ReLU-2"
    assert (source.dtype, source.dims, source.vectorized) == ("Half", (-1, 1, 28, 28), ((1, 2),))
    old = events_of(
        "Layer(LogSoftmaxTopK): y + z, Tactic: 1001, add_3:0[Float(-2,10)] -> "
        "(Unnamed Layer* 48) [TopK]_output_1[Float(-2,1)], (Unnamed Layer* 48) [TopK]_output_2[Int32(-2,1)]",
        M,
    )[0]
    assert [t.name for t in old.outputs] == [
        "(Unnamed Layer* 48) [TopK]_output_1",
        "(Unnamed Layer* 48) [TopK]_output_2",
    ]
    assert [t.dtype for t in old.outputs] == ["Float", "Int32"]
    scalar = events_of(
        "Layer(Constant): (Unnamed Layer* 714) [Constant], Tactic: 0x0000000000000000,  -> "
        "(Unnamed Layer* 714) [Constant]_output (Int32[])",
        M,
    )[0]
    assert scalar.inputs == () and scalar.outputs[0].dims == ()


def test_detailed_layer_keeps_tensor_formats_and_attributes() -> None:
    line = CASES[[case[0] for case in CASES].index("engine_layer_detailed")][2]
    layer = events_of(line, M)[0]
    assert layer.inputs[0].format == "Row major linear FP32" and layer.inputs[0].dtype == "Float"
    assert layer.outputs[0].dims == (1, 64, 112, 112)
    assert dict(layer.attributes)["Weights"] == '{"Type": "Float", "Count": 9408}'
    assert dict(layer.attributes)["Kernel"] == "[7,7]"


def test_layer_listing_builds_layers_and_bindings() -> None:
    events = events_of("Layers:\nConv-1 + ReLU-2\nMaxPool-3\n\nBindings:\ntensor-0\ntensor-15", T)
    names = [
        (type(e).__name__, getattr(e, "name", getattr(e, "title", None)), e.line) for e in events
    ]
    assert names == [
        ("LayerInformation", "Layers", 1), ("EngineLayer", "Conv-1 + ReLU-2", 2), ("EngineLayer", "MaxPool-3", 3),
        ("LayerInformation", "Bindings", 5), ("EngineBinding", "tensor-0", 6), ("EngineBinding", "tensor-15", 7),
    ]  # fmt: skip


def test_timestamps_are_local_wall_clock() -> None:
    from trtlog.parse.envelope import split_envelope

    envelope, body = split_envelope("[01/01/2022-16:13:43] [V] [TRT] Original: 18 layers")
    assert envelope.timestamp == datetime(2022, 1, 1, 16, 13, 43)
    assert (envelope.severity, envelope.producer, body) == ("verbose", "trt", "Original: 18 layers")


@pytest.mark.parametrize(
    ("line", "severity", "producer", "body"),
    [
        # TensorRT's own messages through TensorRT-Edge-LLM's logger (VERBOSE printed as DEBUG).
        ("[13:47:39.127] [DEBUG] [TensorRT] Original: 18 layers", "verbose", "trt",
         "Original: 18 layers"),
        ("[13:47:39.127] [UNKNOWN] [TensorRT] x", "internal_error", "trt", "x"),
        # Its own messages name their source: never TensorRT's.
        ("[13:48:27.826] [INFO] [builderUtils.cpp:328:buildAndSerializeEngine] Engine saved to /e",
         "info", "edgellm", "Engine saved to /e"),
    ],
)  # fmt: skip
def test_edge_llm_stamps_are_a_time_of_day(
    line: str, severity: str, producer: str, body: str
) -> None:
    from trtlog.parse.envelope import UNDATED, split_envelope
    from trtlog.parse.envelope_cache import EnvelopeCache

    envelope, rest = split_envelope(line)
    assert EnvelopeCache().split(line) == (envelope, rest)
    assert envelope.timestamp is not None and envelope.timestamp.date() == UNDATED
    assert envelope.timestamp.time().isoformat() == line[1:13] + "000"
    assert (envelope.style, envelope.severity, envelope.producer, rest) == (
        "edge-llm",
        severity,
        producer,
        body,
    )


def test_a_7x_internal_error_keeps_the_source_and_abort_lines_under_it() -> None:
    # TensorRT's own Python logger writes "INTERNAL ERROR" (lines from a public 7.2 log).
    text = (
        "[TensorRT] INTERNAL ERROR: Assertion failed: cublasStatus == CUBLAS_STATUS_SUCCESS\n"
        "../rtSafe/cublas/cublasLtWrapper.cpp:279\n"
        "Aborting...\n"
        "[TensorRT] ERROR: ../rtSafe/cublas/cublasLtWrapper.cpp (279) - Assertion Error in "
        "getCublasLtHeuristic: 0 (cublasStatus == CUBLAS_STATUS_SUCCESS)\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (4, 0, 0)
        first, second = log.of(Diagnostic)
        assert (first.severity, first.line, first.end_line) == ("internal_error", 1, 3)
        assert first.text == "Assertion failed: cublasStatus == CUBLAS_STATUS_SUCCESS"
        assert first.continuation == ("../rtSafe/cublas/cublasLtWrapper.cpp:279", "Aborting...")
        assert (second.severity, second.line) == ("error", 4)


@pytest.mark.parametrize("level", ["INTERNAL ERROR", "INTERNAL_ERROR"])
def test_both_spellings_of_the_internal_error_level_are_envelopes(level: str) -> None:
    from trtlog.parse.envelope import split_envelope
    from trtlog.parse.envelope_cache import EnvelopeCache

    line = f"[TensorRT] {level}: Assertion failed: x"
    envelope, body = split_envelope(line)
    assert EnvelopeCache().split(line) == (envelope, body)
    assert (envelope.style, envelope.severity, envelope.producer, body) == (
        "python-legacy",
        "internal_error",
        "trt",
        "Assertion failed: x",
    )


def test_a_clock_stamp_and_level_without_a_source_are_not_an_envelope() -> None:
    # Many programs print "[HH:MM:SS.mmm] [INFO] " before their own lines; TensorRT-Edge-LLM
    # always names the source.
    from trtlog.parse.envelope import split_envelope
    from trtlog.parse.envelope_cache import EnvelopeCache

    line = "[13:48:27.826] [INFO] Some program's message"
    assert split_envelope(line) == (NO_ENVELOPE, line)
    assert EnvelopeCache().split(line) in (None, (NO_ENVELOPE, line))


@pytest.mark.parametrize(
    ("line", "style", "severity", "producer", "body"),
    [
        # DeepStream's nvinfer prints TensorRT's VERBOSE as DEBUG.
        ("DEBUG: [TRT]: Original: 18 layers", "deepstream", "verbose", "trt", "Original: 18 layers"),
        ("WARNING: [TRT]: Unknown embedded device detected.", "deepstream", "warning", "trt",
         "Unknown embedded device detected."),
        # onnx2trt: a UTC stamp, the level right-aligned to seven characters.
        ("[2023-08-14 10:00:00   ERROR] 4: Error Code 4", "onnx-tensorrt", "error", "trt",
         "4: Error Code 4"),
        ("[2023-08-14 10:00:00    BUG] x", "onnx-tensorrt", "internal_error", "trt", "x"),
        # ONNX Runtime relaying TensorRT: it prints VERBOSE as UNKNOWN.
        ("2021-10-15 14:49:00.677340570 [W:onnxruntime:log, tensorrt_execution_provider.h:53 log] "
         "[2021-10-15 06:49:00 UNKNOWN] Original: 18 layers", "onnxruntime", "verbose", "trt",
         "Original: 18 layers"),
        # ONNX Runtime's own message: no stamp of TensorRT's logger after its prefix.
        ("2021-10-15 14:48:59.515349260 [W:onnxruntime:log, tensorrt_execution_provider.cc:1195 "
         "Compile] [TensorRT EP] ORT_TENSORRT_FP16_ENABLE is set", "onnxruntime", "warning",
         "onnxruntime", "[TensorRT EP] ORT_TENSORRT_FP16_ENABLE is set"),
        # Triton: its TensorRT backend's logger is logging.cc; other sources speak for Triton.
        ("I0511 01:22:37.728144 1 logging.cc:52] Using cublasLt as a tactic source", "triton",
         "info", "trt", "Using cublasLt as a tactic source"),
        ("E0511 01:22:37.728144 1 logging.cc:40] 1: [stdArchiveReader.cpp::x::58] Error Code 1",
         "triton", "error", "trt", "1: [stdArchiveReader.cpp::x::58] Error Code 1"),
        ("I0511 01:22:37.728954 1 tensorrt.cc:3193] Detected images as execution binding",
         "triton", "info", "triton", "Detected images as execution binding"),
    ],
)  # fmt: skip
def test_deepstream_onnx2trt_onnxruntime_and_triton_envelopes(
    line: str, style: str, severity: str, producer: str, body: str
) -> None:
    from trtlog.parse.envelope import split_envelope
    from trtlog.parse.envelope_cache import EnvelopeCache

    envelope, rest = split_envelope(line)
    assert EnvelopeCache().split(line) == (envelope, rest)
    assert (envelope.style, envelope.severity, envelope.producer, rest) == (
        style,
        severity,
        producer,
        body,
    )


def test_onnxruntime_stamps_its_lines_to_the_microsecond_and_onnx2trt_to_the_second() -> None:
    from trtlog.parse.envelope import split_envelope

    relayed = (
        "2021-10-15 14:49:00.677340570 [W:onnxruntime:log, tensorrt_execution_provider.h:53 log] "
        "[2021-10-15 06:49:00 WARNING] Detected invalid timing cache, setup a local cache instead"
    )
    # ONNX Runtime's own stamp is local time and finer than its TensorRT logger's UTC one.
    assert split_envelope(relayed)[0].timestamp == datetime(2021, 10, 15, 14, 49, 0, 677340)
    onnx2trt = "[2023-08-14 10:00:01 WARNING] Your ONNX model has been generated with INT64"
    assert split_envelope(onnx2trt)[0].timestamp == datetime(2023, 8, 14, 10, 0, 1)


def test_deepstream_and_onnxruntime_logs_keep_their_own_lines_apart() -> None:
    # DeepStream's GStreamer lines and nvdsinfer's own messages, and ONNX Runtime's own
    # messages, are foreign; TensorRT's messages through either are parsed.
    deepstream = (
        "0:00:03.873130954    54      0x4445af0 INFO                 nvinfer gstnvinfer.cpp:682:"
        "gst_nvinfer_logger:<primary-inference> NvDsInferContext[UID 1]: Info from "
        "NvDsInferContextImpl::buildModel() <nvdsinfer_context_impl.cpp:2002> [UID = 1]: Trying "
        "to create engine from model files\n"
        "INFO: [TRT]: [MemUsageChange] Init CUDA: CPU +0, GPU +0, now: CPU 300, GPU 4080 (MiB)\n"
        "WARNING: Deserialize engine failed because file path: /m/model.engine open error\n"
        "INFO: [TRT]: Total Activation Memory: 27443712\n"
    )
    onnxruntime = (
        "2021-10-15 14:48:59.515349260 [W:onnxruntime:log, tensorrt_execution_provider.cc:1195 "
        "Compile] [TensorRT EP] ORT_TENSORRT_FP16_ENABLE is set\n"
        "2021-10-15 14:49:01.100000000 [W:onnxruntime:log, tensorrt_execution_provider.h:53 log] "
        "[2021-10-15 06:49:01 UNKNOWN] Original: 10 layers\n"
    )
    for fast in (True, False):
        log = parse_text(deepstream, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (2, 2, 0)
        assert [(type(e).__name__, e.line) for e in log.events if e.producer == "trt"] == [
            ("MemUsageChange", 2),
            ("MemoryTotal", 4),
        ]
        log = parse_text(onnxruntime, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (1, 1, 0)
        (count,) = log.of(LayerCount)
        assert (count.stage, count.count, count.severity, count.line) == (
            "Original",
            10,
            "verbose",
            2,
        )


def test_triton_stamps_have_a_day_but_no_year() -> None:
    from trtlog.parse.envelope import UNDATED, split_envelope

    envelope, _ = split_envelope("I0511 01:22:37.728144 1 logging.cc:52] x")
    assert envelope.timestamp == datetime(UNDATED.year, 5, 11, 1, 22, 37, 728144)
    # 29 February is not a day of that year: no timestamp rather than a wrong one.
    assert split_envelope("I0229 01:22:37.728144 1 logging.cc:52] x")[0].timestamp is None


def test_a_triton_log_keeps_tritons_own_lines_apart() -> None:
    text = (
        "I0323 05:12:18.382437 1 tensorrt.cc:1483] Zero copy optimization is disabled\n"
        "I0323 05:12:18.843337 1 logging.cc:49] [MemUsageChange] Init CUDA: CPU +313, GPU +0, "
        "now: CPU 378, GPU 310 (MiB)\n"
        "I0323 05:12:19.057787 1 logging.cc:49] Loaded engine size: 126 MiB\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (2, 1, 0)
        assert [(type(e).__name__, e.producer, e.line) for e in log.events] == [
            ("Foreign", "triton", 1),
            ("MemUsageChange", "trt", 2),
            ("MemoryAllocation", "trt", 3),
        ]
