#!/usr/bin/env bash
# Runs every suite: lit/FileCheck (test/) and pytest (python/test).
# Fails if any suite fails or discovers no tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
# Bring the build (and the installed extension) up to date with the sources.
python -m pip install -q --no-build-isolation -e .
lit -sv build/test
python -m pytest -q python/test
