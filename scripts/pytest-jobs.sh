#!/usr/bin/env bash
# Prints the pytest-xdist arguments the test scripts run pytest with: one
# worker per core, at most 4 (each worker imports torch and Triton), or
# TLE_PYTEST_JOBS workers (0: no xdist, one process).
#   python -m pytest $(scripts/pytest-jobs.sh) python/test
n=${TLE_PYTEST_JOBS:-$(nproc)}
[ "$n" -gt 4 ] && [ -z "${TLE_PYTEST_JOBS:-}" ] && n=4
if [ "$n" -gt 1 ]; then echo "-n $n"; else echo "-p no:xdist"; fi
