# Source on a multi-GPU machine of the device tool, in the repo root, with
# .devkit carried (.devkit/min.tar.xz: tle-opt and libLLVM.so, made by
# `scripts/devkit.sh --min`): TLE from this checkout's python/ with its passes
# run by that tle-opt (TLE_OPT), NVLink multicast off everywhere.
#   . scripts/dist-device.sh
set -e
mkdir -p /tmp/tlekit
if [ ! -x /tmp/tlekit/tle-opt ] || [ .devkit/min.tar.xz -nt /tmp/tlekit/tle-opt ]; then
  tar xJf .devkit/min.tar.xz -C /tmp/tlekit
  touch /tmp/tlekit/tle-opt
fi
set +e
export LD_LIBRARY_PATH=/tmp/tlekit${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export TLE_OPT=/tmp/tlekit/tle-opt
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
