#!/usr/bin/env bash
# Runs the lint check (scripts/lint.sh: clang-format and ruff on the paths in
# .lint-scope) and every suite: lit/FileCheck (test/) and pytest (python/test).
# Fails if the lint check or any suite fails, or a suite discovers no tests.
# --sanitized-opt PATH: pytest runs TLE's stages with PATH (a tle-opt built by
# scripts/sanitize.sh under ASan + UBSan: TLE_OPT) instead of the in-process
# extension, and fails on any sanitizer report. CI runs it so: the whole
# pytest corpus goes through the sanitized passes once, and
# scripts/test-wheel.sh --quick checks the wheel and the in-process path.
#   scripts/test.sh [--sanitized-opt build-asan/bin/tle-opt]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitized=
if [ "${1:-}" = --sanitized-opt ]; then
  sanitized=$(realpath "$2")
  [ -x "$sanitized" ] || { echo "test.sh: no tle-opt at $2 (run scripts/sanitize.sh)" >&2; exit 2; }
fi
. .venv/bin/activate
scripts/lint.sh --check
# Bring the build (and the installed extension) up to date with the sources.
python -m pip install -q --no-build-isolation -e .
lit -sv build/test
run=(env)
if [ -n "$sanitized" ]; then
  . scripts/sanitizer-env.sh
  logs=$PWD/build-asan/sanitizer-logs
  sanitizer_logs_fresh "$logs"
  mapfile -t sanitized_env < <(sanitized_opt_env "$sanitized" "$logs")
  run+=("${sanitized_env[@]}")
fi
"${run[@]}" python -m pytest -q $(scripts/pytest-jobs.sh) python/test
if [ -n "$sanitized" ]; then
  sanitizer_logs_check "$logs" test.sh pytest
fi
