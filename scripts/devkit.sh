#!/usr/bin/env bash
# Pack what the GPU machine needs to run TLE into .devkit/ (git-ignored; carry it
# with the device tool): tle-opt and the libLLVM.so it links, xz-compressed.
# The GPU machine's Python (3.12) cannot load the extension built here (3.11), so
# there TLE's stages run through tle-opt (TLE_OPT); scripts/device-env.sh unpacks.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
ninja -C build tle-opt >/dev/null
mkdir -p .devkit
llvm_lib="$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/llvm/lib/libLLVM.so"
if [ ! -f .devkit/libLLVM.so.xz ] || [ "$llvm_lib" -nt .devkit/libLLVM.so.xz ]; then
  xz -T2 -3 -c "$llvm_lib" > .devkit/libLLVM.so.xz
fi
xz -T2 -3 -c build/bin/tle-opt > .devkit/tle-opt.xz
du -sh .devkit
