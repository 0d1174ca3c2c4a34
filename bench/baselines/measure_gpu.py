#!/usr/bin/python3
"""The baselines on a GPU (docs/benchmarks.md "Baselines", GPU): methods.py's methods with a
device argument, plus gpu_methods.py's (CUDA graph replay, torch.compile on PyTorch 2.x, JAX
jit(vmap(jacfwd)) and jax.experimental.jet when JAX imports); each checked against the
float64 nested-autograd reference on the CPU before it is timed; board power sampled by
`nvidia-smi --query-gpu=power.draw` during the timed runs. Writes results/gpu-<UTC time>.json.

  python3 bench/baselines/measure_gpu.py --device cuda
  /usr/bin/python3 bench/baselines/measure_gpu.py --device cpu --out /tmp/gpu-path.json --quick
      (the device-independent part on this CPU; it may not write results/gpu-*.json)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
from gpu_methods import GPU_METHODS, Unavailable  # noqa: E402
from methods import METHODS, build  # noqa: E402
from workloads import all_workloads, by_name  # noqa: E402


class PowerMonitor:
    """nvidia-smi sampling board power every interval_ms while the timed runs go."""

    def __init__(self, index, interval_ms):
        self.cmd = ["nvidia-smi", f"--id={index}", "--query-gpu=power.draw", "--format=csv,noheader,nounits",
                    f"-lms={interval_ms}"]
        self.proc, self.samples, self.reader = None, [], None

    def start(self):
        self.samples = []
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.samples.append(float(line.strip()))
            except ValueError:
                pass

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.reader.join(timeout=2)
        s = self.samples
        return {"power_w_mean": sum(s) / len(s) if s else None, "power_w_max": max(s) if s else None,
                "power_samples": len(s)}


def smi(query, index):
    if not shutil.which("nvidia-smi"):
        return None
    out = subprocess.run(["nvidia-smi", f"--id={index}", f"--query-gpu={query}", "--format=csv,noheader"],
                         capture_output=True, text=True)
    return out.stdout.strip() or None


def device_meta(device):
    meta = dict(harness.machine(), device=str(device), cuda=torch.version.cuda)
    try:
        import jax
        meta["jax"] = jax.__version__
    except ImportError:
        meta["jax"] = None
    if device.type == "cuda":
        idx = device.index or 0
        meta.update(device_name=torch.cuda.get_device_name(idx), driver=smi("driver_version", idx),
                    power_limit=smi("power.limit", idx))
    else:
        meta["device_name"] = f"CPU ({meta['cpu']}), device-independent path only"
    return meta


def parse():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--workloads", default=None)
    ap.add_argument("--methods", default=",".join(list(METHODS) + list(GPU_METHODS)))
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--power-interval-ms", type=int, default=100)
    ap.add_argument("--quick", action="store_true", help="1 warm-up, 3 runs, 1 s budget, 5 s cap")
    ap.add_argument("--out", default=None)
    harness.add_timing_args(ap, max_run_s=20.0, budget_s=5.0, min_runs=10, max_runs=200)
    a = ap.parse_args()
    if a.quick:
        a.warmup, a.min_runs, a.max_runs, a.budget_s, a.max_run_s = 1, 3, 3, 1.0, 5.0
    a.device = torch.device(a.device)
    if a.device.type != "cuda" and a.out is None:
        ap.error("--device cpu: give --out FILE (results/gpu-*.json is for GPU measurements only)")
    if a.device.type == "cuda" and not torch.cuda.is_available():
        raise SystemExit("measure_gpu.py: --device cuda but torch.cuda.is_available() is False")
    a.batch_list = [int(b) for b in a.batches.split(",")]
    return a


def make(method, wl, dtype, device):
    if method in GPU_METHODS:
        return GPU_METHODS[method](wl, dtype, device), method.endswith("compile") or method.startswith("jax")
    return build(method, wl, dtype, device), False


def main():
    a = parse()
    wls = all_workloads() if not a.workloads else [by_name(n) for n in a.workloads.split(",")]
    out = a.out or os.path.join(HERE, "results", time.strftime("gpu-%Y%m%dT%H%M%SZ.json", time.gmtime()))
    cuda = a.device.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    monitor = PowerMonitor(a.device.index or 0, a.power_interval_ms) if cuda and shutil.which("nvidia-smi") else None
    meta = dict(device_meta(a.device), command=" ".join(sys.argv), load_start=harness.load1(),
                options={k: str(v) for k, v in vars(a).items()}, check_rows=harness.CHECK_ROWS)
    refs = {wl.name: harness.reference(wl, harness.CHECK_ROWS) for wl in wls}
    records = []
    t0 = time.time()
    for dname in a.dtypes.split(","):
        dtype = harness.DTYPES[dname]
        for wl in wls:
            for m in a.methods.split(","):
                base = {"method": m, "device": str(a.device), "threads": torch.get_num_threads()}
                try:
                    run, prime = make(m, wl, dtype, a.device)
                except Unavailable as e:
                    records.append(dict(base, workload=wl.name, dtype=dname, batch=None, status="unavailable",
                                        reason=str(e)))
                    print(f"{m}: unavailable: {e}", flush=True)
                    continue
                for rec in harness.measure_series(run, wl, dtype, a.batch_list, refs[wl.name], a, device=a.device,
                                                  sync=sync, base=base, prime=prime, monitor=monitor):
                    records.append(rec)
                    print(json.dumps({k: rec.get(k) for k in ("method", "workload", "batch", "dtype", "status",
                                                               "median_s", "power_w_mean", "reason")}), flush=True)
    meta.update(load_end=harness.load1(), seconds=time.time() - t0)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out + ".part", "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)
    os.replace(out + ".part", out)
    print(f"wrote {out} ({len(records)} records)")


if __name__ == "__main__":
    main()
