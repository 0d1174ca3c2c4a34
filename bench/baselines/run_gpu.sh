#!/bin/sh
# The GPU part of the baselines as one command on a CUDA machine with PyTorch 2.x (and JAX, if
# installed): measure_gpu.py's phases until DEADLINE_S seconds, then OUTDIR holds gpu.json (the
# result, rewritten after every record, so a run cut short keeps what it measured), log.txt
# and nvidia-smi.txt. Copy gpu.json to bench/baselines/results/gpu-<UTC time>.json and run
# `make bench-baselines` (docs/benchmarks.md "Baselines", GPU).
#
#   sh bench/baselines/run_gpu.sh OUTDIR [DEADLINE_S]      (default 400)
set -u
out=${1:?usage: run_gpu.sh OUTDIR [DEADLINE_S]}
deadline=${2:-400}
here=$(dirname "$0")
mkdir -p "$out"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || { echo "run_gpu.sh: nvidia-smi failed: no NVIDIA GPU here" >&2; exit 1; }
PYTHONUNBUFFERED=1 python3 "$here/measure_gpu.py" --device cuda --deadline-s "$deadline" --out "$out/gpu.json" \
  >"$out/log.txt" 2>&1
rc=$?
tail -n 25 "$out/log.txt"
exit $rc
