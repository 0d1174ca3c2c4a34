"""The GPU part of the "Baselines" section of docs/benchmarks.md (render.py writes it): the
runs of results/gpu-*.json, a table of every method a batch, their agreement with the
float64 reference, what failed, board power, and the design against the fastest GPU method."""
import energy
from render_text import NAMES, num, si_time, workload_order

ORDER = ("nested", "taylor", "functorch", "nested+cudagraph", "taylor+cudagraph", "functorch+cudagraph",
         "taylor+compile", "functorch+compile", "jax-jacfwd", "jax-jet")
SHORT = {"nested": "nested", "taylor": "Taylor", "functorch": "functorch", "nested+cudagraph": "nested +graph",
         "taylor+cudagraph": "Taylor +graph", "functorch+cudagraph": "functorch +graph",
         "taylor+compile": "Taylor compile", "functorch+compile": "functorch compile",
         "jax-jacfwd": "JAX jacfwd", "jax-jet": "JAX jet"}


def on_gpu(records, **key):
    return [r for r in records if str(r.get("device", "")).startswith("cuda") and r.get("kind") != "energy"
            and all(r.get(k) == v for k, v in key.items())]


def fastest(records, **key):
    rs = [r for r in on_gpu(records, **key) if r["status"] == "timed"]
    return min(rs, key=lambda r: r["median_s"]) if rs else None


def cell(r):
    if r is None:
        return "—"
    if r["status"] == "timed":
        return si_time(r["median_s"])
    if r["status"] == "skipped":
        return "not run" if "budget" in r.get("reason", "") else "skip"
    return r["status"]


def event_gap(gpu):
    gaps = sorted(r["median_s"] - r["event_median_s"] for r in on_gpu(gpu["records"])
                  if r["status"] == "timed" and r.get("event_median_s"))
    if not gaps:
        return "an unknown margin"
    return f"a median {gaps[len(gaps) // 2] * 1e6:.0f} µs (at most {gaps[-1] * 1e6:.0f} µs)"


def summary(cpu_best, gpu, designs):
    """INSP: the design against the strongest baseline at each batch (CPU here or GPU), with a
    sentence of the ratios' ranges by batch."""
    def timed(r, name):
        return f"{si_time(r['median_s'])} ({name})" if r else "not timed"
    rows, ratios = [], {}
    for (k, b), d in sorted(designs.items()):
        c = cpu_best(workload=f"insp-o{k}", batch=b, dtype="float32")
        g = fastest(gpu["records"], workload=f"insp-o{k}", batch=b, dtype="float32")
        best = min((r["median_s"] for r in (c, g) if r), default=None)
        if best:
            ratios.setdefault(b, []).append(best / d["latency_s"])
        ratio = f"{num(best / d['latency_s'])}×" if best else "—"
        rows.append(f"| order {k} | {b:,} | {si_time(d['latency_s'])} | {timed(c, c and NAMES[c['method']])} "
                    f"| {timed(g, g and SHORT[g['method']])} | {ratio} |")
    spans = [f"batch {b:,}: {num(min(v))}–{num(max(v))}×" for b, v in sorted(ratios.items())]
    text = ("**The strongest baseline at each batch.** INSP's outputs per batch: the design's modelled "
            "latency at 300 MHz against the fastest float32 method on this 2-core CPU and on a borrowed "
            "NVIDIA H200 (details below). The last column is the strongest baseline's time over the "
            "design's: above 1× the design is faster. Over orders 1–3, " + "; ".join(spans) + ".")
    return [text, "", "| INSP | batch | design @ 300 MHz | fastest on this CPU | fastest on the H200 "
            "| strongest / design |", "|---|---:|---:|---|---|---:|"] + rows


def intro(gpu):
    lines = ["The same workloads and methods on a borrowed GPU machine, measured by "
             "`bench/baselines/run_gpu.sh` (`measure_gpu.py`), plus what only a GPU runs: each method's "
             "work replayed as one **CUDA graph** (`torch.cuda.graph`: no per-kernel launch cost), "
             "**`torch.compile`** (inductor, one compile per batch shape), and **JAX** `jit(vmap(jacfwd))` and "
             "`jax.experimental.jet` (Taylor mode by JAX; float32 matmuls at JAX's `highest` precision, "
             "as PyTorch's default, since TF32 rounding fails the check). Times are wall seconds of a "
             "call followed by `torch.cuda.synchronize()`, the median of 10–1,000 runs within 0.3 s after "
             f"3 warm-ups; the CUDA-event times, also stored, are shorter by {event_gap(gpu)} (the host's "
             "synchronisation). Each method passes the float64 check on 256 rows before it is timed. "
             "The run measures in order of value until a deadline, so cells marked \"not run\" ran out "
             "of the machine's time, not of memory:", ""]
    for i, run in enumerate(gpu["runs"]):
        m = run["meta"]
        lines.append(f"- GPU run {i + 1} (`{run['path']}`): {m['date']}, {m.get('device_name')} (driver "
                     f"{m.get('driver')}, {m.get('power_limit')} limit, {m.get('power_idle_w') or 0:.0f} W idle), "
                     f"PyTorch {m['torch']} (CUDA {m.get('cuda')}), JAX {m.get('jax')}, Python {m['python']}; "
                     f"`{m['command']}`.")
        for note in m.get("notes", []):
            lines.append(f"  - {note}.")
    return lines


def table(gpu, dtype):
    recs = gpu["records"]
    methods = [m for m in ORDER if any(r["method"] == m and r["dtype"] == dtype for r in on_gpu(recs))]
    lines = ["| workload | batch | " + " | ".join(SHORT[m] for m in methods) + " | fastest | nested / fastest |",
             "|---|---:|" + "---:|" * len(methods) + "---|---:|"]
    wls = sorted({r["workload"] for r in on_gpu(recs, dtype=dtype)}, key=workload_order)
    for wl in wls:
        for b in sorted({r["batch"] for r in on_gpu(recs, workload=wl, dtype=dtype) if r["batch"]}):
            cells = []
            for m in methods:
                rs = on_gpu(recs, workload=wl, batch=b, dtype=dtype, method=m)
                cells.append(cell(rs[-1] if rs else None))
            best = fastest(recs, workload=wl, batch=b, dtype=dtype)
            nested = fastest(recs, workload=wl, batch=b, dtype=dtype, method="nested")
            ratio = f"{nested['median_s'] / best['median_s']:.1f}×" if best and nested else "—"
            lines.append(f"| {wl} | {b:,} | " + " | ".join(cells) +
                         f" | {SHORT[best['method']] if best else '—'} | {ratio} |")
    return lines


def accuracy(gpu):
    lines = ["| method | dtype | max relative error | checked | refused |", "|---|---|---:|---:|---:|"]
    for m in ORDER:
        for d in ("float32", "float64"):
            rs = [r for r in on_gpu(gpu["records"], method=m, dtype=d) if "max_rel_err" in r]
            if rs:
                lines.append(f"| {SHORT[m]} | {d} | {max(r['max_rel_err'] for r in rs):.2g} | {len(rs)} "
                             f"| {sum(r['status'] == 'refused' for r in rs)} |")
    return lines


def failures(gpu):
    seen = {}
    for r in on_gpu(gpu["records"]):
        if r["status"] in ("error", "unavailable"):
            seen.setdefault((r["method"], r["reason"]), []).append(f"{r['workload']} {r['batch'] or ''}".strip())
    return [f"- {SHORT.get(m, m)}: {reason} ({', '.join(where)})." for (m, reason), where in seen.items()]


def energy_rows(gpu):
    return {(r["workload"], r["batch"], r["method"]): r for r in gpu["records"] if r.get("kind") == "energy"
            and r["status"] == "energy"}


def energy_table(gpu):
    lines = ["| INSP | batch | method | time per batch | board W, mean (max) | µJ per sample |",
             "|---|---:|---|---:|---:|---:|"]
    for (wl, b, m), r in sorted(energy_rows(gpu).items(), key=lambda kv: (workload_order(kv[0][0]), kv[0][1])):
        lines.append(f"| order {wl[-1]} | {b:,} | {SHORT[m]} | {si_time(r['median_s'])} "
                     f"| {r['power_w_mean']:.0f} ({r['power_w_max']:.0f}) "
                     f"| {num(r['power_w_mean'] * r['median_s'] / b * 1e6)} |")
    return lines


def versus_design(gpu, designs, est_mhz=None):
    """The design (at its target clock, and at est_mhz when synthesis estimates a slower one)
    against the fastest GPU method."""
    erows = energy_rows(gpu)
    est = (f" design @ {est_mhz:g} MHz |", f" (@ {est_mhz:g})", "---:|") if est_mhz else ("", "", "")
    lines = [f"| INSP | batch | design @ 300 MHz |{est[0]} fastest GPU method | GPU time / design time{est[1]} "
             "| design µJ/sample | GPU µJ/sample (measured, its method) | energy GPU / design | EDP GPU / design |",
             f"|---|---:|---:|{est[2]}---|---:|---:|---:|---:|---:|"]
    for (k, b), d in sorted(designs.items()):
        r = fastest(gpu["records"], workload=f"insp-o{k}", batch=b, dtype="float32")
        slow = d["cycles"] / (est_mhz * 1e6) if est_mhz else None
        head = f"| order {k} | {b:,} | {si_time(d['latency_s'])} " + (f"| {si_time(slow)} " if slow else "")
        if r is None:
            lines.append(head + "| not timed | — | — | — | — | — |")
            continue
        e = least_energy(erows, f"insp-o{k}", b)
        de = d["energy_per_sample_j"]
        ratio = f"{num(r['median_s'] / d['latency_s'])}×" + (f" ({num(r['median_s'] / slow)}×)" if slow else "")
        lines.append(head + f"| {SHORT[r['method']]}, {si_time(r['median_s'])} | {ratio} | {num(de * 1e6)} "
                     + (f"| {num(e[1] * 1e6)} ({SHORT[e[0]]}) | {num(e[1] / de)}× "
                        f"| {num(e[1] * b * e[2] / d['edp_js'])}× |" if e else "| — | — | — |"))
    return lines


def least_energy(erows, wl, batch):
    """(method, joules a sample, seconds a batch) of the measured method with the least energy
    a sample at wl and batch, or None."""
    best = None
    for (w, b, m), r in erows.items():
        if w == wl and b == batch:
            j = r["power_w_mean"] * r["median_s"] / b
            if best is None or j < best[1]:
                best = (m, j, r["median_s"])
    return best


def section(gpu, designs, est_mhz=None):
    if not gpu["runs"]:
        return ["**Not measured yet**: no `bench/baselines/results/gpu-*.json` exists; run "
                "`bench/baselines/run_gpu.sh OUTDIR` on a CUDA machine and copy its gpu.json there."]
    lines = intro(gpu)
    for dtype in ("float32", "float64"):
        if any(r["status"] == "timed" for r in on_gpu(gpu["records"], dtype=dtype)):
            lines += ["", f"GPU, {dtype}, seconds per batch (all outputs); \"+graph\": replayed as a CUDA graph:", ""]
            lines += table(gpu, dtype)
    lines += ["", "Agreement with the float64 reference (the worst over every batch):", ""] + accuracy(gpu)
    fails = failures(gpu)
    if fails:
        lines += ["", "What failed (recorded as errors, not timed):", ""] + fails
    lines += ["", "Board power (`nvidia-smi --query-gpu=power.draw.instant`, every 50 ms) while INSP's fastest "
              "method and nested autograd ran again for 1.5 s at each batch; the whole board's draw, its idle "
              "power included:", ""] + energy_table(gpu)
    clock = (f"the 300 MHz its figures assume and at {est_mhz:g} MHz, the slowest kernel class estimated on a "
             "synthesized design (docs/rtl.md §5)" if est_mhz else
             "the 300 MHz its figures assume: every kernel class of the width-32 INSP design estimates at "
             "least 300 MHz on its Yosys netlist (docs/rtl.md §5); the width-256 design's classes are not all "
             "estimated")
    lines += ["", "### The design against the fastest GPU method", "",
              f"The design's latency at {clock}. Design energy: the power model below at 300 MHz. GPU energy: of the methods "
              "whose board power was measured at that batch, the least energy a sample (board power × "
              "that method's time ÷ batch); its EDP is with that method's time. Ratios above 1× favour "
              "the design:", ""]
    lines += versus_design(gpu, designs, est_mhz)
    return lines


__all__ = ["section", "fastest", "energy"]
