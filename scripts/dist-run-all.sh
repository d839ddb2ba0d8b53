#!/usr/bin/env bash
# On a 4-GPU machine of the device tool (kind nvidia-h100-x4), repo root,
# .devkit carried: the torchrun suite on 4 and 2 GPUs (CUDA backend), on 2
# with torch's NVSHMEM backend, the debug mode's bounded wait, then the three
# distributed benchmarks on 4 and 2 GPUs. Logs and results under $OUT.
#   scripts/dist-run-all.sh [suite|bench|all]   (default all)
what=${1:-all}
. scripts/dist-device.sh
OUT=${OUT:-/tmp/out}
LOGS=/tmp/dist-logs  # everything, archived into $OUT/dist-run.tgz after every step (the tool returns 8 files)
mkdir -p "$OUT" "$LOGS/results"
export TLE_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
run() {  # name timeout cmd...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" > "$LOGS/$name.log" 2>&1
  local rc=$?
  { echo "== $name: rc $rc, $(( $(date +%s) - t0 )) s"
    grep -E "^(PASS|FAIL)|passed|failed|timed out|M=|KiB:|MiB:" "$LOGS/$name.log" | tail -30; } | tee -a "$OUT/summary.log"
  tar czf "$OUT/dist-run.tgz" -C "$LOGS" .
}
TR="torchrun --standalone"
gpus=$(nvidia-smi -L | wc -l)
if [ "$what" = suite ] || [ "$what" = all ]; then
  [ "$gpus" -ge 4 ] && TLE_DEVICE_WAIT_LIMIT=50000000 run suite-w4 150 $TR --nproc-per-node 4 python/test/dist_worker.py
  CUDA_VISIBLE_DEVICES=0,1 TLE_DEVICE_WAIT_LIMIT=50000000 run suite-w2 110 $TR --nproc-per-node 2 python/test/dist_worker.py
  CUDA_VISIBLE_DEVICES=$([ "$gpus" -ge 4 ] && echo 2,3 || echo 0,1) TLE_SYMM_BACKEND=NVSHMEM TLE_DEVICE_WAIT_LIMIT=50000000 run suite-w2-nvshmem 90 \
    $TR --nproc-per-node 2 python/test/dist_worker.py all_gather_1d all_reduce_1d remote_load_store_atomic barrier_rounds all_reduce_api
  if [ "$what" = all ] || [ -n "$TLE_RUN_TIMEOUT_CASE" ]; then
    CUDA_VISIBLE_DEVICES=0,1 TLE_DEVICE_WAIT_LIMIT=200000 run timeout-w2 120 $TR --nproc-per-node 2 python/test/dist_worker.py timeout
  fi
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  for w in $([ "$gpus" -ge 4 ] && echo 4) 2; do
    vis=$([ $w = 2 ] && echo 0,1 || echo 0,1,2,3)
    CUDA_VISIBLE_DEVICES=$vis run allreduce-w$w 80 $TR --nproc-per-node $w bench/dist_allreduce.py --csv "$LOGS/results/dist_allreduce_w$w.csv"
    CUDA_VISIBLE_DEVICES=$vis run ag-gemm-w$w 110 $TR --nproc-per-node $w bench/dist_ag_gemm.py --iters 10 --csv "$LOGS/results/dist_ag_gemm_w$w.csv"
    CUDA_VISIBLE_DEVICES=$vis run gemm-rs-w$w 80 $TR --nproc-per-node $w bench/dist_gemm_rs.py --iters 10 --csv "$LOGS/results/dist_gemm_rs_w$w.csv"
  done
fi

