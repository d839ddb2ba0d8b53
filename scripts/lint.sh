#!/usr/bin/env bash
# Lint: clang-format (.clang-format) on the C/C++ files (.c, .cpp, .h) and
# `ruff check` (pyproject.toml's [tool.ruff]) on the Python files (.py) among
# the files git tracks or would track (new files not yet added included, so
# that they are checked before their first commit) under the paths listed in
# .lint-scope, with the versions
# requirements.txt pins (bootstrap.sh installs them into .venv). Needs no
# network: .pre-commit-config.yaml runs this same script.
#
#   scripts/lint.sh                   fix: reformat in place, apply ruff's safe fixes
#   scripts/lint.sh --check           report only; exits 1 on any finding (test.sh, CI)
#   scripts/lint.sh [--check] FILE... only the FILEs that are in scope (pre-commit)
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi

# A tool at requirements.txt's pin: the one on PATH, else .venv's. Another
# version formats differently, so it is refused rather than used.
tool() {
  local name=$1 want candidate
  want=$(sed -n "s/^$name==\([^ ]*\).*/\1/p" requirements.txt)
  for candidate in "$(command -v "$name" || true)" ".venv/bin/$name"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] &&
      "$candidate" --version 2>/dev/null | grep -qw -- "$want"; then
      echo "$candidate"
      return
    fi
  done
  echo "lint.sh: $name==$want (requirements.txt) not found on PATH or in .venv;" \
    "run scripts/bootstrap.sh or pip install -r requirements.txt" >&2
  exit 2
}
CLANG_FORMAT=$(tool clang-format)
RUFF=$(tool ruff)

mapfile -t scope < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' .lint-scope)
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${scope[@]}" | sort -u)
if [ $# -gt 0 ]; then
  # pre-commit passes the files it checks: keep those in scope.
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -Fx -f <(printf '%s\n' "$@") || true)
fi
cxx=() py=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue # deleted in the work tree, not yet in the index
  case $f in
  *.c | *.cpp | *.h) cxx+=("$f") ;;
  *.py) py+=("$f") ;;
  esac
done

status=0
if [ ${#cxx[@]} -gt 0 ]; then
  if [ $check = 1 ]; then
    "$CLANG_FORMAT" --dry-run -Werror "${cxx[@]}" || {
      status=1
      echo "lint.sh: clang-format would change the files above; scripts/lint.sh reformats them" >&2
    }
  else
    "$CLANG_FORMAT" -i "${cxx[@]}"
  fi
fi
if [ ${#py[@]} -gt 0 ]; then
  if [ $check = 1 ]; then
    "$RUFF" check --no-cache --quiet "${py[@]}" || status=1
  else
    "$RUFF" check --no-cache --quiet --fix "${py[@]}" || status=1
  fi
fi
[ $check = 1 ] && [ $status = 0 ] && echo "lint.sh: ${#cxx[@]} C++ and ${#py[@]} Python files clean"
exit $status
