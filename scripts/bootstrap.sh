#!/usr/bin/env bash
# One-command set-up: a venv with the pinned PyPI dependencies (MLIR kit,
# Triton 3.6.0, CPU torch), TLE built and installed in editable mode, then the
# example run. Re-run it after changing C++ or TableGen sources to rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
. .venv/bin/activate
python -m pip install -q -r requirements.txt
# --no-build-isolation: the build uses the MLIR kit installed just above.
build_start=$(date +%s)
python -m pip install -q --no-build-isolation -e .
echo "TLE build + install took $(( $(date +%s) - build_start )) s"
python python/examples/tle_example.py
