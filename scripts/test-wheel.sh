#!/usr/bin/env bash
# Tests the wheel as a user gets it: builds it (scripts/build-wheels.sh, .venv's
# Python, incremental in build/), installs it into a new clean venv,
# .venv-wheel, with its pinned dependencies and the test ones, checks that the
# extension and tle-opt find libLLVM.so there, and runs the example and pytest
# against it from python/test, so the checkout's sources are not importable: a
# file missing from the wheel fails here.
# --sanitized-opt PATH: pytest runs TLE's stages with PATH (a tle-opt built by
# scripts/sanitize.sh under ASan + UBSan: TLE_OPT) instead of the wheel's
# extension, and fails on any sanitizer report; CI runs it so, one pytest run
# for the wheel and the sanitizers both. The checks before pytest (imports,
# ldd, the wheel's tle-opt, the example) use the wheel's own binaries.
#   scripts/test-wheel.sh [--sanitized-opt build-asan/bin/tle-opt]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
sanitized=
if [ "${1:-}" = --sanitized-opt ]; then
  sanitized=$(realpath "$2")
  [ -x "$sanitized" ] || { echo "test-wheel.sh: no tle-opt at $2 (run scripts/sanitize.sh)" >&2; exit 2; }
fi
./scripts/build-wheels.sh
tag=$(.venv/bin/python -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
wheel=$(ls "$repo"/dist/tle-*-"$tag"-*.whl)
rm -rf .venv-wheel
.venv/bin/python -m venv .venv-wheel   # a venv of .venv's base interpreter, nothing installed
py="$repo/.venv-wheel/bin/python"
start=$(date +%s)
# The wheel pins its own dependencies; torch (the GPU tests import it),
# pytest (with pytest-xdist) and numpy (Triton's interpreter, which test_interpret.py runs) at
# requirements.txt's pins.
"$py" -m pip install -q "$wheel[raw]" $(grep -E '^(torch|pytest|pytest-xdist|execnet|numpy)==' requirements.txt)
echo "wheel venv installed in $(( $(date +%s) - start )) s"

cd "$repo/python/test"
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
"$py" - "$site" <<'PY'
import os, sys
import tle
from tle import _driver, opt
site = os.path.realpath(sys.argv[1])
assert os.path.realpath(tle.__file__).startswith(site + os.sep), f"tle imported from {tle.__file__}, not {site}"
assert _driver._tle is not None, f"tle._tle does not load: {_driver._import_error}"
assert str(opt.path()).startswith(site + os.sep), opt.path()
print(f"tle {tle.__file__}; extension {_driver._tle.__file__}; tle-opt {opt.path()}")
PY
# The binaries' NEEDED libraries all resolve, libLLVM.so to the venv's kit.
for binary in "$site"/tle/_tle.*.so "$site"/tle/bin/tle-opt; do
  llvm=$(ldd "$binary" | awk '$1 == "libLLVM.so" { print $3 }')
  if ldd "$binary" | grep -q "not found" || [ -z "$llvm" ] \
     || [ "$(realpath "$llvm")" != "$(realpath "$site/llvm/lib/libLLVM.so")" ]; then
    echo "$binary does not load the venv's libraries:" >&2; ldd "$binary" >&2; exit 1
  fi
done
help=$("$repo/.venv-wheel/bin/tle-opt" --help)
grep -q triton-tle-lower-exclusive-cumsum <<<"$help"
"$py" -m tle.opt --version >/dev/null
"$py" "$repo/python/examples/tle_example.py" --stages tle-ttgir
echo "wheel: extension, tle-opt (console script, python -m tle.opt) and example OK"
# Two test files check the source tree rather than the package: the ODS
# reference in docs/reference (needs the kit's mlir-tblgen) and the generated
# bench/README.md (needs matplotlib). test.sh ran them on this checkout.
run=(env TLE_TEST_INSTALLED=1)
if [ -n "$sanitized" ]; then
  . "$repo/scripts/sanitizer-env.sh"
  logs=$repo/build-asan/sanitizer-logs
  sanitizer_logs_fresh "$logs"
  run+=(TLE_OPT="$sanitized"
        ASAN_OPTIONS="$TLE_ASAN_OPTIONS:log_path=$logs/asan"
        UBSAN_OPTIONS="$TLE_UBSAN_OPTIONS:log_path=$logs/ubsan")
fi
"${run[@]}" "$py" -m pytest -q -p no:cacheprovider $("$repo/scripts/pytest-jobs.sh") . \
  --ignore=test_reference_docs.py --ignore=test_bench_report.py
if [ -n "$sanitized" ]; then
  sanitizer_logs_check "$logs" test-wheel.sh pytest
fi
