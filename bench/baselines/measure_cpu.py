#!/usr/bin/python3
"""The baselines on this machine's CPU: every method of methods.py on every workload of
workloads.py, at each batch, float64 and float32, 1 and 2 threads; each checked against a
float64 nested-autograd reference, then timed. Writes results/cpu-<UTC time>.json.

  /usr/bin/python3 bench/baselines/measure_cpu.py            (make bench-baselines-measure)
  ... --quick   few repetitions (development on a loaded machine)
"""
import argparse
import json
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
from methods import METHODS, build  # noqa: E402
from workloads import all_workloads, by_name  # noqa: E402


def parse():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default=None, help="comma-separated names (default: all)")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--quick", action="store_true", help="1 warm-up, 3 runs, 1 s budget, 5 s cap")
    ap.add_argument("--out", default=None, help="result file (default results/cpu-<UTC time>.json)")
    harness.add_timing_args(ap, max_run_s=20.0, budget_s=10.0, min_runs=5, max_runs=50)
    a = ap.parse_args()
    if a.quick:
        a.warmup, a.min_runs, a.max_runs, a.budget_s, a.max_run_s = 1, 3, 3, 1.0, 5.0
    try:
        a.batch_list = [int(b) for b in a.batches.split(",")]
        a.thread_list = [int(t) for t in a.threads.split(",")]
    except ValueError:
        ap.error("--batches and --threads take comma-separated integers")
    bad = [d for d in a.dtypes.split(",") if d not in harness.DTYPES]
    if bad:
        ap.error(f"--dtypes: unknown {bad} (float64, float32)")
    return a


def main():
    a = parse()
    wls = all_workloads() if not a.workloads else [by_name(n) for n in a.workloads.split(",")]
    methods = a.methods.split(",")
    for m in methods:
        if m not in METHODS:
            raise SystemExit(f"--methods: unknown '{m}' (known: {', '.join(METHODS)})")
    out = a.out or os.path.join(HERE, "results", time.strftime("cpu-%Y%m%dT%H%M%SZ.json", time.gmtime()))
    meta = dict(harness.machine(), device="cpu", command=" ".join([os.path.relpath(sys.argv[0], os.getcwd())] + sys.argv[1:]),
                load_start=harness.load1(), options={k: v for k, v in vars(a).items() if k != "out"},
                check_rows=harness.CHECK_ROWS)
    refs = {wl.name: harness.reference(wl, harness.CHECK_ROWS) for wl in wls}
    records = []
    t_start = time.time()
    meta["matmul_gflops"] = {}
    for threads in a.thread_list:
        torch.set_num_threads(threads)
        meta["matmul_gflops"][str(threads)] = {d: harness.matmul_gflops(harness.DTYPES[d]) for d in harness.DTYPES}
        for dname in a.dtypes.split(","):
            dtype = harness.DTYPES[dname]
            for wl in wls:
                for m in methods:
                    run = build(m, wl, dtype)
                    base = {"method": m, "threads": threads, "device": "cpu"}
                    for rec in harness.measure_series(run, wl, dtype, a.batch_list, refs[wl.name], a, base=base):
                        records.append(rec)
                        print(json.dumps({k: rec.get(k) for k in ("method", "workload", "batch", "dtype", "threads",
                                                                   "status", "median_s", "max_rel_err", "reason")}),
                              flush=True)
    meta.update(load_end=harness.load1(), seconds=time.time() - t_start)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".part"
    with open(tmp, "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)
    os.replace(tmp, out)       # never a half-written result file
    print(f"wrote {os.path.relpath(out)} ({len(records)} records, {meta['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
