#!/usr/bin/env bash
# Runs the lint check (scripts/lint.sh: clang-format and ruff on the paths in
# .lint-scope) and every suite: lit/FileCheck (test/) and pytest (python/test).
# Fails if the lint check or any suite fails, or a suite discovers no tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
scripts/lint.sh --check
# Bring the build (and the installed extension) up to date with the sources.
python -m pip install -q --no-build-isolation -e .
lit -sv build/test
python -m pytest -q $(scripts/pytest-jobs.sh) python/test
