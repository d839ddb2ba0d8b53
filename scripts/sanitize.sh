#!/usr/bin/env bash
# Host-side sanitizers: builds tle-opt with AddressSanitizer (leaks included)
# and UndefinedBehaviorSanitizer (CMake option TLE_SANITIZE) in build-asan,
# then runs every lit suite with it (the fuzzing smoke among them), the
# pytest suite with TLE's stages run by it (TLE_OPT: every kernel the tests
# compile, the benchmarks' among them, goes through the sanitized passes)
# and, with --fuzz N, N more fuzzing mutants. Any report aborts the run it is
# in, so `not tle-opt` lines and the fuzzer see a crash, not an exit code;
# under pytest the reports also go to build-asan/sanitizer-logs, which must
# stay empty (a test expecting a compile error could pass over an abort).
# --in-process runs the pytest suite once more with the sanitized _tle
# extension (the nanobind bindings included) in place of the venv's, the
# sanitizer runtimes preloaded into Python (leak detection off: the
# interpreter's own allocations), and puts the venv's extension back after.
# --no-pytest stops after lit: CI runs the sanitized pytest once, as README's
# test command (scripts/test.sh --sanitized-opt).
#   scripts/sanitize.sh                 build + lit + pytest
#   scripts/sanitize.sh --no-pytest     build + lit (CI runs this)
#   scripts/sanitize.sh --fuzz 4000 [--seed S] [--in-process]
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
fuzz=0
seed=1
inproc=0
pytest=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-pytest) pytest=0; shift ;;
    --fuzz) fuzz=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --in-process) inproc=1; shift ;;
    *) echo "sanitize.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
if [ ! -f build-asan/build.ninja ]; then
  # -O0: instrumented code at -O1 takes 1.7x as long to compile (ODS's
  # generated ops: 97 s against 58 s for one translation unit), the bulk of
  # CI's sanitizer step, while tle-opt's run time is a small part of lit's.
  cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O0 \
    -DPython_EXECUTABLE="$(command -v python)" -DTLE_SANITIZE=address,undefined >/dev/null
fi
ninja -C build-asan tle-opt
echo "sanitize.sh: build took $(( $(date +%s) - start )) s"
. scripts/sanitizer-env.sh
export ASAN_OPTIONS=$TLE_ASAN_OPTIONS
export UBSAN_OPTIONS=$TLE_UBSAN_OPTIONS
lit -sv build-asan/test
echo "sanitize.sh: lit done at $(( $(date +%s) - start )) s"
logs=$PWD/build-asan/sanitizer-logs
# run_pytest WHAT VAR=VALUE...: the pytest suite with those variables set
# (the sanitizer options among them, logging into $logs); fails on any log.
run_pytest() {
  local what=$1
  shift
  sanitizer_logs_fresh "$logs"
  env "$@" python -m pytest -q -p no:cacheprovider $(scripts/pytest-jobs.sh) python/test
  sanitizer_logs_check "$logs" sanitize.sh "$what"
  echo "sanitize.sh: $what done at $(( $(date +%s) - start )) s"
}
if [ "$pytest" = 1 ]; then
  mapfile -t sanitized_env < <(sanitized_opt_env "$PWD/build-asan/bin/tle-opt" "$logs")
  run_pytest pytest "${sanitized_env[@]}"
fi
if [ "$inproc" = 1 ]; then
  ext=_tle$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  ninja -C build-asan "python_packages/tle/$ext"
  installed=$(python -c 'import tle._tle; print(tle._tle.__file__)')
  cp "$installed" build-asan/venv-extension.so
  trap 'cp build-asan/venv-extension.so "$installed"' EXIT
  cp "build-asan/python_packages/tle/$ext" "$installed"
  run_pytest "in-process pytest" \
    LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" \
    ASAN_OPTIONS="abort_on_error=1:detect_leaks=0:log_path=$logs/asan" \
    UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$logs/ubsan"
fi
if [ "$fuzz" -gt 0 ]; then
  python scripts/fuzz_tle_opt.py --tle-opt build-asan/bin/tle-opt --seed "$seed" --count "$fuzz" \
    --jobs "$(nproc)" --out build-asan/fuzz-regressions
fi
echo "sanitize.sh took $(( $(date +%s) - start )) s"
