# Sourced by scripts/sanitize.sh and scripts/test-wheel.sh: the sanitizer
# options TLE's sanitized runs use, and the check of their report logs.
# Any report aborts the run it is in (abort_on_error), so a `not tle-opt`
# lit line or the fuzzer sees a crash, not an exit code; under pytest the
# reports also go to log files, which must stay empty (a test expecting a
# compile error could pass over an abort).
TLE_ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
TLE_UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1

# sanitized_opt_env OPT LOGS: what a pytest run sets to run TLE's stages with
# the sanitized tle-opt OPT (TLE_OPT), its reports logged under LOGS; one
# VAR=VALUE a line, for `mapfile -t`.
sanitized_opt_env() {
  printf '%s\n' "TLE_OPT=$1" "ASAN_OPTIONS=$TLE_ASAN_OPTIONS:log_path=$2/asan" \
    "UBSAN_OPTIONS=$TLE_UBSAN_OPTIONS:log_path=$2/ubsan"
}

# sanitizer_logs_fresh DIR: an empty report directory.
sanitizer_logs_fresh() {
  rm -rf "$1" && mkdir -p "$1"
}

# sanitizer_logs_check DIR WHO WHAT: prints the reports in DIR and exits 1
# when there are any ("WHO: sanitizer reports under WHAT (above)").
sanitizer_logs_check() {
  if [ -n "$(ls -A "$1")" ]; then
    cat "$1"/* >&2
    echo "$2: sanitizer reports under $3 (above)" >&2
    exit 1
  fi
}
