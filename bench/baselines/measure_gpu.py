#!/usr/bin/python3
"""The baselines on a GPU machine (docs/benchmarks.md "Baselines", GPU): methods.py's methods
on the device, gpu_methods.py's (each replayed as a CUDA graph, torch.compile on PyTorch 2.x,
JAX jit(vmap(jacfwd)) and jax.experimental.jet when JAX imports) and, if time is left, the
host's own CPU at all its cores. Each method is checked against the float64 nested-autograd
reference before it is timed; board power is sampled by `nvidia-smi --query-gpu=power.draw`
during the timed runs. The phases run in the order of PHASES (most telling first) until
--deadline-s; the result file is rewritten after every record, so a run cut short keeps what
it measured. Writes results/gpu-<UTC time>.json (or --out).

  python3 bench/baselines/measure_gpu.py --device cuda --deadline-s 400 --out $OUT/gpu.json
  /usr/bin/python3 bench/baselines/measure_gpu.py --device cpu --out /tmp/gpu-path.json --quick
      (the device-independent part on this CPU; it may not write results/gpu-*.json)
"""
import argparse
import json
import os
import shutil
import sys
import time

import torch

# JAX takes 75 % of the GPU's memory at its first import unless told not to; PyTorch shares it.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
from gpu_power import PowerMonitor, idle_power, smi  # noqa: E402
from gpu_methods import GPU_METHODS, Unavailable  # noqa: E402
from methods import build  # noqa: E402
from workloads import all_workloads, by_name  # noqa: E402


def device_meta(device):
    meta = dict(harness.machine(), device=str(device), cuda=torch.version.cuda,
                tf32_matmul=torch.backends.cuda.matmul.allow_tf32)
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


# (name, dtype, methods, on the host CPU): the order a time-limited run measures them in.
EAGER = ("nested", "taylor", "functorch")
PHASES = [
    ("device-float32", "float32", EAGER + ("jax-jacfwd", "jax-jet"), False),
    ("cudagraph-float32", "float32", ("taylor+cudagraph", "functorch+cudagraph", "nested+cudagraph"), False),
    ("energy-float32", "float32", (), False),
    ("compile-float32", "float32", ("taylor+compile", "functorch+compile"), False),
    ("host-cpu-float32", "float32", EAGER, True),
    ("device-float64", "float64", EAGER + ("taylor+cudagraph", "jax-jacfwd"), False),
]


def parse():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--workloads", default=None)
    ap.add_argument("--phases", default=",".join(p[0] for p in PHASES))
    ap.add_argument("--power-interval-ms", type=int, default=50)
    ap.add_argument("--deadline-s", type=float, default=1e9,
                    help="start no cell after this many seconds (the rest are recorded as skipped)")
    ap.add_argument("--compile-reserve-s", type=float, default=60.0,
                    help="start no compiling cell with less than this left before the deadline")
    ap.add_argument("--host-threads", type=int, default=os.cpu_count())
    ap.add_argument("--quick", action="store_true", help="1 warm-up, 3 runs, 1 s budget, 5 s cap")
    ap.add_argument("--out", default=None)
    harness.add_timing_args(ap, max_run_s=5.0, budget_s=0.3, min_runs=10, max_runs=1000)
    a = ap.parse_args()
    if a.quick:
        a.warmup, a.min_runs, a.max_runs, a.budget_s, a.max_run_s = 1, 3, 3, 1.0, 5.0
    a.device = torch.device(a.device)
    if a.device.type != "cuda" and a.out is None:
        ap.error("--device cpu: give --out FILE (results/gpu-*.json is for GPU measurements only)")
    if a.device.type == "cuda" and not torch.cuda.is_available():
        raise SystemExit("measure_gpu.py: --device cuda but torch.cuda.is_available() is False")
    a.batch_list = [int(b) for b in a.batches.split(",")]
    known = [p[0] for p in PHASES]
    bad = [p for p in a.phases.split(",") if p not in known]
    if bad:
        ap.error(f"--phases: unknown {bad} (known: {', '.join(known)})")
    return a


def make(method, wl, dtype, device):
    """(run, prime): prime when the first call compiles (torch.compile, JAX's jit)."""
    if method in GPU_METHODS:
        return GPU_METHODS[method](wl, dtype, device), method.endswith("compile") or method.startswith("jax")
    return build(method, wl, dtype, device), False


class Results:
    """The result file, rewritten whole (atomically) after every record."""

    def __init__(self, path, meta):
        self.path, self.meta, self.records = path, meta, []
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def add(self, rec):
        self.records.append(rec)
        print(json.dumps({k: rec.get(k) for k in ("method", "device", "workload", "batch", "dtype", "status",
                                                   "median_s", "power_w_mean", "prime_s", "reason")}), flush=True)
        self.write()

    def write(self):
        with open(self.path + ".part", "w") as f:
            json.dump({"meta": self.meta, "records": self.records}, f, indent=1)
        os.replace(self.path + ".part", self.path)


ENERGY_BATCHES = (64, 4096, 65536)
ENERGY_SECONDS = 1.5


def energy_targets(wl, batch, device, records, runs):
    """The fastest timed float32 method of wl at batch on device, and nested autograd (the
    reference design's baseline) if it is another: the methods whose energy is measured."""
    timed = [r for r in records if r["status"] == "timed" and r["workload"] == wl.name and r["batch"] == batch
             and r["dtype"] == "float32" and r["device"] == str(device) and (r["method"], wl.name) in runs]
    if not timed:
        return []
    best = min(timed, key=lambda r: r["median_s"])["method"]
    return [best] + (["nested"] if best != "nested" and any(r["method"] == "nested" for r in timed) else [])


def run_energy(wls, device, res, deadline, monitor, runs):
    """INSP's energy: energy_targets at each of ENERGY_BATCHES run again for ENERGY_SECONDS with
    the board's power sampled (the timed cells are too short for the samples to settle)."""
    if monitor is None:
        return
    cuda = device.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    for wl in (w for w in wls if w.model == "insp"):
        for batch in ENERGY_BATCHES:
            for method in energy_targets(wl, batch, device, res.records, runs):
                if time.perf_counter() > deadline:
                    return
                run, x = runs[(method, wl.name)], wl.inputs(batch, torch.float32, device)
                rec = {"kind": "energy", "method": method, "device": str(device), "workload": wl.name,
                       "batch": batch, "dtype": "float32", "phase": "energy-float32"}
                monitor.start()
                try:
                    times, _ = harness.time_runs(lambda: run(x), sync, 2, 5, 10 ** 6, ENERGY_SECONDS,
                                                 cuda_events=cuda)
                    rec.update(monitor.stop())
                    rec.update(harness.summary(times), status="energy", seconds=sum(times))
                except Exception as e:     # noqa: BLE001 - recorded, as a failed cell is
                    monitor.stop()
                    rec.update(status="error", reason=f"{type(e).__name__}: {e}"[:300])
                res.add(rec)


def run_phase(phase, wls, refs, a, res, deadline, monitor, runs):
    """One phase of PHASES; keeps each built device run in `runs` for the energy phase."""
    name, dname, methods, on_host = phase
    if name.startswith("energy"):
        run_energy(wls, a.device, res, deadline, monitor, runs)
        return
    dtype = harness.DTYPES[dname]
    device = torch.device("cpu") if on_host else a.device
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    torch.set_num_threads(a.host_threads if on_host else torch.get_num_threads())
    for m in methods:           # method by method: a deadline cuts the slowest-compiling method, not a workload
        for wl in wls:
            base = {"method": m, "device": str(device), "threads": torch.get_num_threads(), "phase": name}
            try:
                run, prime = make(m, wl, dtype, device)
            except Exception as e:     # noqa: BLE001 - Unavailable, or an API this version lacks
                status = "unavailable" if isinstance(e, Unavailable) else "error"
                res.add(dict(base, workload=wl.name, dtype=dname, batch=None, status=status,
                             reason=f"{type(e).__name__}: {e}"))
                continue
            if not on_host and dname == "float32" and wl.model == "insp":
                runs[(m, wl.name)] = run     # for the energy phase; the rest (and their graphs) are freed
            last = deadline - (a.compile_reserve_s if prime else 0.0)
            for rec in harness.measure_series(run, wl, dtype, a.batch_list, refs[wl.name], a, device=device,
                                              sync=sync, base=base, prime=prime, deadline=last):
                res.add(rec)


def main():
    a = parse()
    t0 = time.perf_counter()
    deadline = t0 + a.deadline_s
    wls = all_workloads() if not a.workloads else [by_name(n) for n in a.workloads.split(",")]
    out = a.out or os.path.join(HERE, "results", time.strftime("gpu-%Y%m%dT%H%M%SZ.json", time.gmtime()))
    cuda = a.device.type == "cuda"
    idx = a.device.index or 0
    monitor = PowerMonitor(idx, a.power_interval_ms) if cuda and shutil.which("nvidia-smi") else None
    meta = dict(device_meta(a.device), command=" ".join(["bench/baselines/measure_gpu.py"] + sys.argv[1:]),
                load_start=harness.load1(), options={k: str(v) for k, v in vars(a).items()},
                check_rows=harness.CHECK_ROWS, power_idle_w=idle_power(idx) if cuda else None,
                host_matmul_gflops={d: harness.matmul_gflops(harness.DTYPES[d]) for d in harness.DTYPES})
    res = Results(out, meta)
    refs = {wl.name: harness.reference(wl, harness.CHECK_ROWS) for wl in wls}
    runs = {}
    for phase in PHASES:
        if phase[0] in a.phases.split(","):
            print(f"== phase {phase[0]} at {time.perf_counter() - t0:.0f} s", flush=True)
            run_phase(phase, wls, refs, a, res, deadline, monitor, runs)
    meta.update(load_end=harness.load1(), seconds=time.perf_counter() - t0)
    res.write()
    print(f"wrote {out} ({len(res.records)} records, {meta['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
