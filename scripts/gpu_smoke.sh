#!/usr/bin/env bash
# Runs the tests that need a GPU and TensorRT itself (pytest -m gpu), then the whole suite, on a
# machine with an NVIDIA GPU and driver. Elsewhere those tests are skipped with their reason.
#
#   scripts/gpu_smoke.sh                 # the tensorrt package from NVIDIA's index
#   scripts/gpu_smoke.sh /opt/TensorRT/bin   # also test the trtexec backend with that trtexec
set -euo pipefail
cd "$(dirname "$0")/.."

nvidia-smi -L
if [ $# -ge 1 ]; then
    export PATH="$1:$PATH"
fi
python3 -m venv .venv-gpu
.venv-gpu/bin/pip install -e '.[test]' onnx
.venv-gpu/bin/pip install tensorrt --extra-index-url https://pypi.nvidia.com

# Builds a one-layer ONNX model with each backend that is there, with real TensorRT on the GPU.
.venv-gpu/bin/pytest -m gpu -v -rs tests/test_build_python.py
.venv-gpu/bin/pytest -q
