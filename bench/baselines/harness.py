"""What the CPU and GPU measurements share (docs/benchmarks.md "Baselines"): the float64
reference, the check that refuses a method before it is timed, the timing loop with the
machine's load around it, and the description of the machine."""
import datetime
import os
import platform
import statistics
import time

import torch

from methods import build, flat

CHECK_ROWS = 256   # rows checked against the float64 reference (rows are independent)
# A method passes when, for every output column, max |out - ref| <= TOL * max |ref| of that
# column: float64 to 1e-9 (the methods differ only in the order of rounding), float32 to
# 1e-4, about 840 float32 ulps (eps 1.19e-7) of the column's largest value, since the rounding
# of five layers, sin(30 z) and up to three derivative sweeps compounds (measured: <= 4e-6).
TOL = {torch.float64: 1e-9, torch.float32: 1e-4}
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def reference(wl, rows):
    """The outputs on the first `rows` rows: nested autograd in float64 on the CPU."""
    x = wl.inputs(rows, torch.float64)
    return flat(build("nested", wl, torch.float64)(x)).detach()


def compare(out, ref, dtype):
    """(max abs error, max per-column relative error, passes) of out's first rows against ref.
    A column's scale is its largest |value| over all the reference's rows, so that one row
    whose value is near 0 does not turn float32 rounding into a large relative error."""
    n = min(out.shape[0], ref.shape[0])
    o = out[:n].detach().to("cpu", torch.float64)
    err = (o - ref[:n]).abs()
    scale = ref.abs().amax(0).clamp_min(torch.finfo(torch.float64).tiny)
    rel = (err.amax(0) / scale).max().item()
    ok = bool(torch.isfinite(o).all()) and rel <= TOL[dtype]
    return err.max().item(), rel, ok


def load1():
    return list(os.getloadavg())


def time_runs(fn, sync, warmup, min_runs, max_runs, budget_s, cuda_events=False):
    """(wall seconds of each run, CUDA-event seconds of each run or None) after `warmup` runs:
    at least min_runs, at most max_runs, more while the runs so far took less than budget_s.
    Each run ends with sync(); with cuda_events, an event pair on the current stream brackets
    it too (the device's own clock)."""
    for _ in range(warmup):
        fn()
    sync()
    times, device_times = [], [] if cuda_events else None
    start = time.perf_counter()
    while len(times) < max_runs and (len(times) < min_runs or time.perf_counter() - start < budget_s):
        if cuda_events:
            ev0, ev1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            ev0.record()
        t0 = time.perf_counter()
        fn()
        if cuda_events:
            ev1.record()
        sync()
        times.append(time.perf_counter() - t0)
        if cuda_events:
            device_times.append(ev0.elapsed_time(ev1) / 1e3)
    return times, device_times


def summary(times):
    q = statistics.quantiles(times, n=4) if len(times) >= 2 else [times[0]] * 3
    return {"median_s": statistics.median(times), "p25_s": q[0], "p75_s": q[2],
            "min_s": min(times), "max_s": max(times), "runs": len(times)}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def matmul_gflops(dtype, n=256, rows=2048):
    """The BLAS's speed on a layer-sized matmul at the current thread count (a calibration)."""
    a, w = torch.randn(rows, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
    a @ w
    t0 = time.perf_counter()
    for _ in range(3):
        a @ w
    return 2 * rows * n * n * 3 / (time.perf_counter() - t0) / 1e9


def machine():
    return {"blas": torch.__config__.show().split("BLAS_INFO=")[-1].split(",")[0],"cpu": cpu_model(), "cores": os.cpu_count(), "os": f"{platform.system()} {platform.release()}",
            "python": platform.python_version(), "torch": torch.__version__,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


LINEAR_FROM_ROWS = 64   # below this a run's fixed cost dominates: no linear estimate from it


def next_batch_estimate(done, batch):
    """Seconds one run at `batch` should take, scaled linearly from the largest timed batch of
    at least LINEAR_FROM_ROWS rows (0: no estimate; the checked run then decides)."""
    done = [(b, t) for b, t in done if b >= LINEAR_FROM_ROWS]
    if not done:
        return 0.0
    b, t = done[-1]
    return t * batch / b


def measure_series(run, wl, dtype, batches, ref, opts, device="cpu", sync=lambda: None, base=None,
                   prime=False, monitor=None, deadline=None):
    """One method on one workload at each batch: check, then time. Yields one record a batch.

    A batch is skipped, not run, when the largest timed batch scaled linearly says one run
    would take over opts.max_run_s, or when the wall clock is past `deadline` (perf_counter
    seconds); a method that fails the check is refused and not timed; one that raises is
    recorded as an error (an out-of-memory, an API the installed version lacks), not fatal.
    prime: run once before the checked run (a compiling method's first call is its compile).
    monitor: start() before and stop() -> dict after the timed runs (board power)."""
    done = []
    for batch in batches:
        rec = dict(base or {}, workload=wl.name, model=wl.model, order=wl.order, batch=batch,
                   dtype=str(dtype).replace("torch.", ""), tol=TOL[dtype])
        est = next_batch_estimate(done, batch)
        if deadline is not None and time.perf_counter() > deadline:
            rec.update(status="skipped", reason="the measurement's time budget ran out")
        elif est > opts.max_run_s:
            rec.update(status="skipped", reason=f"one run estimated at {est:.1f} s > {opts.max_run_s:g} s",
                       estimated_s=est)
        else:
            try:
                _check_and_time(rec, run, wl, dtype, batch, ref, opts, device, sync, prime, monitor)
            except Exception as e:     # noqa: BLE001 - one cell's failure is that cell's record
                if monitor:
                    monitor.stop()
                rec.update(status="error", reason=f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}")
                if str(device).startswith("cuda"):
                    try:
                        torch.cuda.empty_cache()
                    except RuntimeError:   # a lost context (an illegal address): the next cells say so
                        pass
        if rec["status"] in ("timed",):
            done.append((batch, rec["median_s"]))
        elif "single_run_s" in rec:
            done.append((batch, rec["single_run_s"]))
        yield rec


def _check_and_time(rec, run, wl, dtype, batch, ref, opts, device, sync, prime, monitor):
    """Fills rec: the check against ref, then (if it passes and is under the cap) the timing."""
    x = wl.inputs(batch, dtype, device)
    if prime:
        t0 = time.perf_counter()
        run(x)
        sync()
        rec["prime_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = flat(run(x))
    sync()
    first = time.perf_counter() - t0
    rec["max_abs_err"], rec["max_rel_err"], ok = compare(out, ref, dtype)
    del out
    if not ok:
        rec.update(status="refused", reason=f"relative error {rec['max_rel_err']:.3g} > {TOL[dtype]:g}")
        return
    if first > opts.max_run_s:
        rec.update(status="skipped", reason=f"the checked run took {first:.1f} s > {opts.max_run_s:g} s",
                   single_run_s=first)
        return
    rec["load_before"] = load1()
    if monitor:
        monitor.start()
    times, dev_times = time_runs(lambda: run(x), sync, opts.warmup, opts.min_runs, opts.max_runs,
                                 opts.budget_s, cuda_events=str(device).startswith("cuda"))
    if monitor:
        rec.update(monitor.stop())
    rec["load_after"] = load1()
    rec.update(summary(times), status="timed")
    if dev_times:
        rec["event_median_s"] = statistics.median(dev_times)
    rec["load_threshold"] = rec.get("threads", 1) + opts.load_excess
    rec["load_flag"] = max(rec["load_before"][0], rec["load_after"][0]) > rec["load_threshold"]


def add_timing_args(ap, max_run_s, budget_s, min_runs, max_runs):
    ap.add_argument("--batches", default="1,64,4096,65536")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--min-runs", type=int, default=min_runs)
    ap.add_argument("--max-runs", type=int, default=max_runs)
    ap.add_argument("--budget-s", type=float, default=budget_s,
                    help="time runs while under this many seconds (at least --min-runs)")
    ap.add_argument("--max-run-s", type=float, default=max_run_s,
                    help="skip a batch whose one run is estimated over this")
    ap.add_argument("--load-excess", type=float, default=0.5,
                    help="flag a measurement when the 1-minute load exceeds its threads + this")
