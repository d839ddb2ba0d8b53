#!/usr/bin/env bash
# Tests the wheel as a user gets it: builds it (scripts/build-wheels.sh, .venv's
# Python, incremental in build/), installs it into a new clean venv,
# .venv-wheel, with its pinned dependencies and the test ones, checks that the
# installed package holds exactly the checkout's python/tle files and the two
# binaries, that the extension and tle-opt find libLLVM.so there, and runs the
# example and pytest against it from python/test, so the checkout's sources
# are not importable: a file missing from the wheel fails here.
# --quick: pytest runs only QUICK_TESTS (below: the extension's bindings, the
# package's structure, and TLE's stages in process on the kernels of every
# primitive's CPU tests, ~1/6 of the suite's time); CI runs it so, after
# scripts/test.sh ran the whole suite on the checkout.
# --sanitized-opt PATH: pytest runs TLE's stages with PATH (a tle-opt built by
# scripts/sanitize.sh under ASan + UBSan: TLE_OPT) instead of the wheel's
# extension, and fails on any sanitizer report. The checks before pytest
# (imports, ldd, the wheel's tle-opt, the example) use the wheel's own
# binaries.
#   scripts/test-wheel.sh [--quick] [--sanitized-opt build-asan/bin/tle-opt]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
sanitized=
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --sanitized-opt)
      sanitized=$(realpath "$2")
      [ -x "$sanitized" ] || { echo "test-wheel.sh: no tle-opt at $2 (run scripts/sanitize.sh)" >&2; exit 2; }
      shift 2 ;;
    *) echo "test-wheel.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
# The files of python/test that --quick runs.
QUICK_TESTS=(test_bindings.py test_import_structure.py test_version.py
  test_knobs.py test_cache_key.py test_doc_examples.py test_cumsum.py
  test_tiles.py test_barriers.py test_prims.py test_pipe.py
  test_local_memory.py test_async_load.py test_tensor_maps.py test_raw.py
  test_raw_dialect.py test_distributed.py test_pipeline_group.py
  test_finish_llir.py test_dump_ir.py test_mlir_dump.py test_bad_input.py
  test_targets.py test_autotune.py test_iluvatar.py test_dsa.py
  test_traced_errors.py)
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
"$py" - "$site" "$repo" <<'PY'
import os, subprocess, sys, sysconfig
import tle
from tle import _driver, opt
site = os.path.realpath(sys.argv[1])
# The installed package is the checkout's python/tle, file for file, and the
# two binaries the build adds.
tracked = subprocess.run(["git", "-C", sys.argv[2], "ls-files", "python/tle"], check=True,
                         capture_output=True, text=True).stdout.split()
want = {os.path.relpath(f, "python/tle") for f in tracked}
want |= {"_tle" + sysconfig.get_config_var("EXT_SUFFIX"), "bin/tle-opt"}
pkg = os.path.join(site, "tle")
have = {os.path.relpath(os.path.join(d, f), pkg) for d, dirs, files in os.walk(pkg) for f in files
        if "__pycache__" not in d.split(os.sep)}
assert have == want, f"installed tle/ differs from python/tle: missing {sorted(want - have)}, extra {sorted(have - want)}"
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
"$py" "$repo/python/examples/tle_example.py" --stages ttgir
echo "wheel: extension, tle-opt (console script, python -m tle.opt) and example OK"
# Two test files check the source tree rather than the package: the ODS
# reference in docs/reference (needs the kit's mlir-tblgen) and the generated
# bench/README.md (needs matplotlib). test.sh ran them on this checkout.
run=(env TLE_TEST_INSTALLED=1)
if [ -n "$sanitized" ]; then
  . "$repo/scripts/sanitizer-env.sh"
  logs=$repo/build-asan/sanitizer-logs
  sanitizer_logs_fresh "$logs"
  mapfile -t sanitized_env < <(sanitized_opt_env "$sanitized" "$logs")
  run+=("${sanitized_env[@]}")
fi
if [ "$quick" = 1 ]; then
  "${run[@]}" "$py" -m pytest -q -p no:cacheprovider $("$repo/scripts/pytest-jobs.sh") "${QUICK_TESTS[@]}"
else
  "${run[@]}" "$py" -m pytest -q -p no:cacheprovider $("$repo/scripts/pytest-jobs.sh") . \
    --ignore=test_reference_docs.py --ignore=test_bench_report.py
fi
if [ -n "$sanitized" ]; then
  sanitizer_logs_check "$logs" test-wheel.sh pytest
fi
