#!/usr/bin/env bash
# Packs the FlashMLA-class peer of bench/sparse_mla.py into .peer/ (git-ignored),
# to carry to the GPU machine with the device tool (docs: bench/README.md,
# "A FlashMLA-class peer").
#
# FlashMLA's sparse prefill kernel (flash_mla_sparse_fwd) is on PyPI inside
# sglang-kernel. Its wheel is ~370 MB (every SGLang kernel), far over what the
# device tool carries, but the sparse prefill lives in one library,
# sgl_kernel/flashmla_ops.abi3.so (13 MB), which registers the op
# torch.ops.sgl_kernel.sparse_prefill_fwd when torch loads it. sglang-kernel
# 0.4.3 is built for torch 2.11 and CUDA 13 (libcudart.so.13, libnvrtc.so.13),
# as the GPU machine's torch is; later releases need torch 2.13 or 2.14.
#
# Writes .peer/flashmla_ops.abi3.so and .peer/SOURCE (wheel, version, sha256).
# bench/sparse_mla.py offers the provider `flashmla` when that file (or the
# file TLE_FLASHMLA_OPS names) exists.
# Usage: scripts/flashmla-peer.sh      then carry .peer with the device tool
set -euo pipefail
cd "$(dirname "$0")/.."
pin=0.4.3
mkdir -p .peer dist/deps
.venv/bin/python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 -d dist/deps "sglang-kernel==$pin"
.venv/bin/python - "dist/deps/sglang_kernel-$pin-cp310-abi3-manylinux2014_x86_64.whl" "$pin" <<'PY'
import hashlib, sys, zipfile
from pathlib import Path

wheel, pin = Path(sys.argv[1]), sys.argv[2]
member = "sgl_kernel/flashmla_ops.abi3.so"
with zipfile.ZipFile(wheel) as z:
    data = z.read(member)
out = Path(".peer/flashmla_ops.abi3.so")
out.write_bytes(data)
Path(".peer/SOURCE").write_text(
    f"{out.name}: {member} of {wheel.name} (PyPI sglang-kernel=={pin}), "
    f"sha256 {hashlib.sha256(data).hexdigest()}\n")
print(f"flashmla-peer.sh: wrote {out} ({len(data) // 2**20} MiB) from {wheel.name}")
PY
