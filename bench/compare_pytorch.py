#!/usr/bin/python3
"""The INSP benchmark run in PyTorch on this CPU against the design INR-Arch compiles for it.

For each case (INSP order K, batch B, width 256):
  * PyTorch: python/inrarch_torch/models.py's insp_fn (the SIREN 2->256x4->3 and INSP's
    derivatives, torch.autograd.grad nested to order K), float32 on the CPU, timed with
    torch.set_num_threads(1) and (2): the median of N runs after warm-up, each run in a fresh
    subprocess per thread count. Peak memory: ru_maxrss of that subprocess at the end of its
    runs minus ru_maxrss right after `import torch` in the same process (an idle torch
    process), i.e. what the weights, inputs, autograd graphs and results added at their peak.
  * the design: `inrarch compile --builtin insp --order K --batch B` (no C simulation, no
    MLIR, no HLS); its report.json's fifo.latency_cycles at resources.part.clock_mhz (the
    model's cycle count at the part's clock, not a hardware measurement) and
    resources.on_chip_bits (ROM, buffers, FIFOs: the resource model's estimate).
Compiles are cached in out/bench-pytorch/ (delete it, or pass --recompile, to redo them).
Writes docs/benchmarks.md, docs/benchmarks_latency.png and docs/benchmarks_memory.png.

  /usr/bin/python3 bench/compare_pytorch.py        (make bench-pytorch)
"""
import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "out", "bench-pytorch")
DOCS = os.path.join(ROOT, "docs")
CASES = [(1, 1), (1, 16), (1, 64), (1, 256), (2, 64), (3, 64)]   # (order, batch)
COMPILE_LIMIT_S = 600


# ---- PyTorch side: one subprocess per (case, threads) ------------------------------------

def worker(order, batch, threads, min_runs, max_runs, budget_s):
    import torch
    base_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from inrarch_torch import models

    torch.set_num_threads(threads)
    inputs, params = models.insp_setup(batch, width=256, seed=0, dtype=torch.float32)
    x = inputs["x"].requires_grad_(True)
    fn = models.insp_fn(order)

    def once():
        outs = fn({"x": x}, params)
        assert len(outs) == models.insp_output_count(order)
        return outs

    for _ in range(2):                                   # warm-up
        once()
    times, cpu = [], []
    start = time.perf_counter()
    while len(times) < max_runs and (len(times) < min_runs or time.perf_counter() - start < budget_s):
        t0, c0 = time.perf_counter(), time.process_time()
        outs = once()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        del outs
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"order": order, "batch": batch, "threads": threads,
                      "median_ms": statistics.median(times) * 1e3, "runs": len(times),
                      "median_cpu_ms": statistics.median(cpu) * 1e3,
                      "baseline_mb": base_kib * 1024 / 1e6,
                      "peak_mb": (peak_kib - base_kib) * 1024 / 1e6}))


def run_pytorch(order, batch, threads):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                          str(order), str(batch), str(threads)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---- the design --------------------------------------------------------------------------

def compile_design(inrarch, order, batch, recompile):
    name = f"insp-o{order}-b{batch}"
    out_dir = os.path.join(WORK, name)
    meta_path = os.path.join(WORK, name + ".compile.json")
    # INSP's own construction (nested reverse mode), as the PyTorch side computes it.
    cmd = [inrarch, "compile", "--builtin", "insp", "--mode", "reverse", "--order", str(order), "--batch", str(batch),
           "-o", out_dir, "--no-csim", "--no-mlir", "--no-hls", "-q"]
    report_path = os.path.join(out_dir, "report.json")
    if recompile or not (os.path.isfile(meta_path) and
                         (os.path.isfile(report_path) or json.load(open(meta_path))["rc"] != 0)):
        os.makedirs(WORK, exist_ok=True)
        print(f"compiling {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            rc = subprocess.run(cmd, timeout=COMPILE_LIMIT_S).returncode
        except subprocess.TimeoutExpired:
            rc = 124
        with open(meta_path, "w") as f:
            json.dump({"seconds": time.perf_counter() - t0, "rc": rc}, f)
    meta = json.load(open(meta_path))
    res = {"compile_s": meta["seconds"], "compile_rc": meta["rc"]}
    if meta["rc"] != 0 or not os.path.isfile(report_path):
        return res
    r = json.load(open(report_path))
    mhz = r["resources"]["part"]["clock_mhz"]
    bits = r["resources"]["on_chip_bits"]
    res.update({"cycles": r["fifo"]["latency_cycles"], "clock_mhz": mhz,
                "part": r["resources"]["part"]["name"],
                "latency_us": r["fifo"]["latency_cycles"] / mhz,
                "on_chip_mb": bits["total"] / 8 / 1e6,
                "bits": {k: bits[k] for k in ("rom", "buffers", "fifo", "total")}})
    return res


# ---- docs --------------------------------------------------------------------------------

def fmt(v, nd=2):
    return "—" if v is None else f"{v:.{nd}f}"


def write_docs(rows, meta):
    lines = [
        "# INR-Arch against PyTorch on the CPU",
        "",
        "The INSP benchmark (a SIREN 2→256→256→256→256→3 and INSP's derivatives of its outputs, "
        "nested to the order) computed by PyTorch on this machine's CPU, against the design "
        "`inrarch compile` builds for it for the Alveo U50. Regenerate everything (table, plots) with "
        "`make bench-pytorch` (`/usr/bin/python3 bench/compare_pytorch.py`); compiles are cached in "
        "`out/bench-pytorch/`. Nested autograd is the weakest baseline: Taylor mode in plain "
        "PyTorch, functorch, float64 and energy are in \"Baselines\" below (`make bench-baselines`).",
        "",
        f"- Machine: {meta['machine']}; PyTorch {meta['torch']}, Python {meta['python']}.",
        f"- Date: {meta['date']}. Command: `{meta['command']}`.",
        f"- Load: the 1-minute load average was {meta['load'][0]:.1f} when the PyTorch runs began and "
        f"{meta['load'][1]:.1f} when they ended, on {os.cpu_count()} cores shared with other work, so the "
        "PyTorch wall times are those of a busy machine (the 1-thread CPU time in the second table "
        "is less affected; the 2-thread runs suffer most when the other core is taken).",
        "",
        "| case | PyTorch 1-thread ms | PyTorch 2-thread ms | PyTorch peak MB | design latency µs "
        "| design on-chip MB | speed-up | memory ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        d = r["design"]
        lines.append(
            f"| order {r['order']}, batch {r['batch']} | {fmt(r['pt1']['median_ms'], 3)} "
            f"| {fmt(r['pt2']['median_ms'], 3)} | {fmt(r['pt1']['peak_mb'], 1)} "
            f"| {fmt(d.get('latency_us'), 1)} | {fmt(d.get('on_chip_mb'), 2)} "
            f"| {fmt(r.get('speedup'), 1)}{'×' if r.get('speedup') else ''} "
            f"| {fmt(r.get('mem_ratio'), 1)}{'×' if r.get('mem_ratio') else ''} |")
    lines += [
        "",
        "What each column measures:",
        "",
        "- **PyTorch 1-thread / 2-thread ms**: wall time of one evaluation of all the outputs "
        "(forward pass and every `torch.autograd.grad`, `create_graph=True`), float32, "
        "`torch.set_num_threads(1)` / `(2)`; the median of N runs (at least 5, at most 50, "
        "more while under 5 s) after 2 warm-up runs, in a fresh process per case and thread count. "
        "The model is `python/inrarch_torch/models.py`'s `insp_fn` on `insp_setup` "
        "(the same SIREN initialisation as the built-in model, seed 0).",
        "- **PyTorch peak MB**: `ru_maxrss` of the 1-thread process at the end of its runs minus "
        "its `ru_maxrss` right after `import torch` (an idle torch process: "
        f"{meta['baseline_mb']:.0f} MB here), i.e. the peak resident memory the weights, input, "
        "autograd graphs, intermediates and results added (including the allocator's retained "
        "memory). MB = 10^6 bytes.",
        "- **design latency µs**: `fifo.latency_cycles` of `report.json` (the event-graph "
        "analysis of the design at its sized FIFO depths, the whole batch) divided by "
        "`resources.part.clock_mhz` (300 MHz, Alveo U50). It is the compiler's cycle count at the "
        "part's clock, not a measurement of hardware; it leaves out moving inputs and outputs "
        "between host and card.",
        "- **design on-chip MB**: `resources.on_chip_bits.total` (weight ROMs + kernel buffers + "
        "FIFOs, as the resource model counts them; docs/resources.md) / 8 / 10^6.",
        "- **speed-up**: the faster of the two PyTorch times / the design latency. "
        "**memory ratio**: PyTorch peak MB / design on-chip MB.",
        "",
        "The design was compiled with "
        "`build/inrarch compile --builtin insp --mode reverse --order K --batch B -o DIR --no-csim --no-mlir --no-hls` "
        "(the architecture search, FIFO sizing and resource estimate all run; no code is "
        "emitted or simulated): INSP's own nested reverse mode, as PyTorch runs it; Taylor mode's "
        "designs take 0.76 / 0.60 / 0.38 of these cycles at orders 1 / 2 / 3, batch 64 (docs/taylor.md). Details: the wall time each compile took on this machine (recorded "
        "when it ran, on the same shared machine; later runs reuse the cached compile), the "
        "design's cycles and on-chip memory by kind, the median CPU time (`time.process_time`) "
        "of the 1-thread PyTorch runs, and how many runs each median is of:",
        "",
        "| case | compile s | cycles | ROM Mbit | buffers Mbit | FIFO Mbit | PyTorch 1-thread CPU ms | runs (1 / 2 threads) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        d = r["design"]
        b = d.get("bits")
        status = "" if d.get("compile_rc") == 0 else (
            f" (stopped after {COMPILE_LIMIT_S} s: too slow here)" if d.get("compile_rc") == 124
            else f" (failed, exit {d.get('compile_rc')})")
        lines.append(
            f"| order {r['order']}, batch {r['batch']} | {d['compile_s']:.1f}{status} "
            f"| {d.get('cycles', '—')} | {fmt(b and b['rom'] / 1e6)} | {fmt(b and b['buffers'] / 1e6)} "
            f"| {fmt(b and b['fifo'] / 1e6)} | {fmt(r['pt1']['median_cpu_ms'], 3)} "
            f"| {r['pt1']['runs']} / {r['pt2']['runs']} |")
    lines += [
        "",
        "Caveats: PyTorch here is a 2-core CPU, not a GPU, in float32; the design computes in "
        "32-bit fixed point (`fixed<32,10>` by default) and its figures come from the compiler's "
        "models of timing and resources, not from a synthesised or measured board. The PyTorch "
        f"peak holds a fixed part that is not data ({rows[0]['pt1']['peak_mb']:.0f} MB at order "
        f"{rows[0]['order']}, batch {rows[0]['batch']}, where the float32 weights are 0.8 MB: code "
        "and buffers PyTorch loads or allocates on first use), "
        "so the memory ratio compares a process's footprint with the design's on-chip arrays; "
        "the design's memory does not grow with the batch because it streams the rows.",
        "",
        "![latency](benchmarks_latency.png)",
        "",
        "![memory](benchmarks_memory.png)",
        "",
    ]
    path = os.path.join(DOCS, "benchmarks.md")
    kept = ""  # the model zoo's section (make bench-zoo, bench/zoo/run_zoo.py) stays
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
        if "## Model zoo" in old:
            kept = "\n" + old[old.index("## Model zoo"):]
    with open(path, "w") as f:
        f.write("\n".join(lines) + kept)


def plot(rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"K={r['order']}\nB={r['batch']}" for r in rows]
    xs = range(len(rows))
    w = 0.27

    def val(v):
        return v if v is not None else 0.0

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([i - w for i in xs], [r["pt1"]["median_ms"] * 1e3 for r in rows], w, label="PyTorch CPU, 1 thread")
    ax.bar(list(xs), [r["pt2"]["median_ms"] * 1e3 for r in rows], w, label="PyTorch CPU, 2 threads")
    ax.bar([i + w for i in xs], [val(r["design"].get("latency_us")) for r in rows], w,
           label="design (model cycles at 300 MHz)")
    ax.set_yscale("log")
    ax.set_ylabel("time per evaluation (µs, log)")
    ax.set_xticks(list(xs), labels)
    ax.set_title("INSP (order K, batch B): PyTorch on the CPU vs the INR-Arch design")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "benchmarks_latency.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([i - w / 2 for i in xs], [r["pt1"]["peak_mb"] for r in rows], w, label="PyTorch peak RSS over idle torch")
    ax.bar([i + w / 2 for i in xs], [val(r["design"].get("on_chip_mb")) for r in rows], w,
           label="design on-chip memory (estimate)")
    ax.set_yscale("log")
    ax.set_ylabel("MB (10^6 bytes, log)")
    ax.set_xticks(list(xs), labels)
    ax.set_title("INSP (order K, batch B): memory")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "benchmarks_memory.png"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", nargs=3, type=int, metavar=("ORDER", "BATCH", "THREADS"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--inrarch", default=os.path.join(ROOT, "build", "inrarch"))
    ap.add_argument("--recompile", action="store_true", help="ignore the cached compiles")
    ap.add_argument("--docs-only", action="store_true",
                    help="rewrite the docs and plots from out/bench-pytorch/results.json, measure nothing")
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker, min_runs=5, max_runs=50, budget_s=5.0)
        return

    if args.docs_only:
        saved = json.load(open(os.path.join(WORK, "results.json")))
        write_docs(saved["rows"], saved["meta"])
        plot(saved["rows"])
        return
    import torch
    load_start = os.getloadavg()
    rows = []
    for order, batch in CASES:
        design = compile_design(args.inrarch, order, batch, args.recompile)
        pt1 = run_pytorch(order, batch, 1)
        pt2 = run_pytorch(order, batch, 2)
        row = {"order": order, "batch": batch, "pt1": pt1, "pt2": pt2, "design": design}
        if design.get("latency_us"):
            best_ms = min(pt1["median_ms"], pt2["median_ms"])
            row["speedup"] = best_ms * 1e3 / design["latency_us"]
            row["mem_ratio"] = pt1["peak_mb"] / design["on_chip_mb"]
        rows.append(row)
        print(json.dumps(row), flush=True)

    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    meta = {"machine": f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
            "torch": torch.__version__, "python": platform.python_version(),
            "date": datetime.date.today().isoformat(),
            "command": "make bench-pytorch",
            "load": [load_start[0], os.getloadavg()[0]],
            "baseline_mb": rows[0]["pt1"]["baseline_mb"]}
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    write_docs(rows, meta)
    plot(rows)
    print("wrote docs/benchmarks.md, docs/benchmarks_latency.png, docs/benchmarks_memory.png")


if __name__ == "__main__":
    main()
