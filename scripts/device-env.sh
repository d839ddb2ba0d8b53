# Source on the GPU machine, in the repo root (carried: .devkit):
#   . scripts/device-env.sh
# Unpacks tle-opt + libLLVM.so from .devkit/ into /tmp/tlekit and points TLE at them.
set -e
if [ ! -x /tmp/tlekit/bin/tle-opt ]; then
  mkdir -p /tmp/tlekit/bin /tmp/tlekit/lib
  python3 - <<'PY'
import lzma, shutil
for src, dst in ((".devkit/libLLVM.so.xz", "/tmp/tlekit/lib/libLLVM.so"), (".devkit/tle-opt.xz", "/tmp/tlekit/bin/tle-opt")):
    with lzma.open(src) as f, open(dst, "wb") as g:
        shutil.copyfileobj(f, g)
PY
  chmod +x /tmp/tlekit/bin/tle-opt
fi
export TLE_OPT=/tmp/tlekit/bin/tle-opt
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
set +e
