#!/usr/bin/python3
"""Writes the "Baselines" section of docs/benchmarks.md and docs/baselines_latency.png,
docs/baselines_energy.png from the stored results alone (no measurement, no GPU):
every results/cpu-*.json (merged: a later run's timed cell replaces an earlier one's),
results/gpu-*.json, results/design-insp.json.

  /usr/bin/python3 bench/baselines/render.py [--clock-mhz 300] [--toggle 0.125]   (make bench-baselines)
"""
import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import energy  # noqa: E402
import render_gpu  # noqa: E402
import render_text  # noqa: E402

DOC = os.path.join(ROOT, "docs", "benchmarks.md")
BEGIN, END = "<!-- baselines:begin -->", "<!-- baselines:end -->"
METHOD_LABEL = {"nested": "nested autograd", "taylor": "Taylor mode (plain PyTorch)",
                "functorch": "functorch vmap(jacfwd)"}


def load(path):
    with open(path) as f:
        return json.load(f)


def merge_runs(paths):
    """The records of several CPU runs, keyed by their cell; a later timed record wins."""
    runs, cells = [], {}
    for p in paths:
        data = load(p)
        runs.append({"path": os.path.relpath(p, ROOT), "meta": data["meta"]})
        for r in data["records"]:
            key = tuple(r.get(k) for k in ("kind", "method", "device", "workload", "batch", "dtype", "threads"))
            if key not in cells or r["status"] == "timed" or cells[key]["status"] != "timed":
                cells[key] = r
    return {"runs": runs, "records": list(cells.values())}


def best_timed(records, **key):
    """The fastest timed record matching key (over thread counts unless key has threads)."""
    rs = [r for r in records if r["status"] == "timed" and all(r.get(k) == v for k, v in key.items())]
    return min(rs, key=lambda r: r["median_s"]) if rs else None


def design_rows(designs, args):
    out = {}
    for d in designs:
        if d.get("status") == "ok":
            out[(d["order"], d["batch"])] = dict(d, **energy.design_point(d, args.clock_mhz, args.toggle))
    return out


def log_axes(ax, title):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("batch")
    ax.set_xlim(0.6, 1.7e5)
    ax.grid(True, which="major", alpha=0.3)


def finish(plt, fig, ax0, ylabel, legend_at, title, path):
    ax0.set_ylabel(ylabel)
    ax0.legend(fontsize=7, loc=legend_at)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def method_lines(ax, cpu, wl, batches, value, prefix):
    """One line a CPU method: value(record) of its fastest float32 record at each batch."""
    for m, style in (("nested", "o-"), ("taylor", "s-"), ("functorch", "^-")):
        recs = [(b, best_timed(cpu["records"], workload=wl, method=m, batch=b, dtype="float32")) for b in batches]
        pts = [(b, value(r)) for b, r in recs if r]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=prefix + METHOD_LABEL[m], ms=4)


def gpu_line(ax, gpu, wl, batches, value, label):
    """The fastest float32 GPU method at each batch (whichever it is)."""
    pts = [(b, render_gpu.fastest(gpu["records"], workload=wl, batch=b, dtype="float32")) for b in batches]
    pts = [(b, value(b, r)) for b, r in pts if r and value(b, r) is not None]
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "D-", color="tab:purple", label=label, ms=4)


def plot_latency(cpu, gpu, designs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    wls = sorted({r["workload"] for r in cpu["records"]}, key=render_text.workload_order)
    fig, axes = plt.subplots(1, len(wls), figsize=(3.3 * len(wls), 3.8), sharey=True)
    for ax, wl in zip(axes, wls):
        batches = sorted({r["batch"] for r in cpu["records"] if r["workload"] == wl})
        method_lines(ax, cpu, wl, batches, lambda r: r["median_s"], "")
        gpu_line(ax, gpu, wl, batches, lambda b, r: r["median_s"], "fastest GPU method (H200)")
        if wl.startswith("insp-o"):
            k = int(wl[-1])
            pts = sorted((b, d["latency_s"]) for (o, b), d in designs.items() if o == k)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "k*--", label="INR-Arch design (model)", ms=7)
        log_axes(ax, wl)
    finish(plt, fig, axes[0], "seconds per batch (float32; CPU: best of 1/2 threads)", "upper left",
           "Latency vs batch: CPU and GPU baselines and the design's modelled latency (300 MHz)", path)


def plot_energy(cpu, gpu, designs, args, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.8), sharey=True)
    for ax, k in zip(axes, (1, 2, 3)):
        batches = sorted({b for (o, b) in designs if o == k} |
                         {r["batch"] for r in cpu["records"] if r["workload"] == f"insp-o{k}"})
        method_lines(ax, cpu, f"insp-o{k}", batches,
                     lambda r: energy.cpu_point(r, args.cpu_watts_per_thread)["energy_per_sample_j"], "CPU ")
        erows = render_gpu.energy_rows(gpu)

        def gpu_energy(b, r, k=k, erows=erows):
            e = render_gpu.least_energy(erows, f"insp-o{k}", b)
            return e[1] if e else None
        gpu_line(ax, gpu, f"insp-o{k}", batches, gpu_energy, "GPU (H200), least measured energy")
        pts = sorted((b, d["energy_per_sample_j"], d["energy_per_sample_bound_j"])
                     for (o, b), d in designs.items() if o == k)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "k*--", label="design (power model)", ms=7)
            ax.plot([p[0] for p in pts], [p[2] for p in pts], "k:", label="design at the 75 W board bound")
        log_axes(ax, f"INSP order {k}")
    finish(plt, fig, axes[0], "joules per sample (float32)", "upper right",
           "Energy per sample (estimates: see the power model)", path)


def write_section(text, doc_path=DOC):
    with open(doc_path) as f:
        doc = f.read()
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip("\n") + "\n\n## Baselines (`make bench-baselines`)\n\n" + block + "\n"
    tmp = doc_path + ".part"
    with open(tmp, "w") as f:
        f.write(doc)
    os.replace(tmp, doc_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--doc", default=DOC, help="the markdown file whose Baselines section is rewritten")
    ap.add_argument("--plots-dir", default=None, help="where the two plots go (default: docs/)")
    ap.add_argument("--cpu-json", nargs="+", default=None, help="default: every results/cpu-*.json")
    ap.add_argument("--clock-mhz", type=float, default=None,
                    help="the design's clock (default: the part's in report.json, 300 MHz for the U50)")
    ap.add_argument("--estimated-clock-mhz", type=float, default=None,
                    help="a clock below 300 MHz that synthesis estimates for the design, shown beside 300 MHz "
                         "(default: none; every class estimated so far meets 300 MHz, docs/rtl.md §5)")
    ap.add_argument("--toggle", type=float, default=energy.DEFAULT_TOGGLE, help="toggle rate of the power model")
    ap.add_argument("--cpu-watts-per-thread", type=float, default=energy.CPU_WATTS_PER_THREAD["value"])
    a = ap.parse_args()
    paths = a.cpu_json or sorted(glob.glob(os.path.join(HERE, "results", "cpu-*.json")))
    missing = [p for p in paths if not os.path.isfile(p)]
    if not paths or missing:
        raise SystemExit(f"render.py: {missing[0] if missing else 'no results/cpu-*.json'}: no such result "
                         "(run make bench-baselines-measure first)")
    cpu = merge_runs(paths)
    dpath = os.path.join(HERE, "results", "design-insp.json")
    designs = design_rows(load(dpath)["designs"] if os.path.isfile(dpath) else [], a)
    gpu = merge_runs(sorted(glob.glob(os.path.join(HERE, "results", "gpu-*.json"))))
    gpu_text = render_gpu.section(gpu, designs, a.estimated_clock_mhz)
    cpu_best = lambda **key: best_timed(cpu["records"], **key)  # noqa: E731
    text = render_text.section(cpu, designs, gpu_text, a, best_timed,
                               render_gpu.summary(cpu_best, gpu, designs) if gpu["runs"] else ())
    plots = a.plots_dir or os.path.join(ROOT, "docs")
    plot_latency(cpu, gpu, designs, os.path.join(plots, "baselines_latency.png"))
    plot_energy(cpu, gpu, designs, a, os.path.join(plots, "baselines_energy.png"))
    write_section(text, a.doc)
    print("wrote docs/benchmarks.md (Baselines), docs/baselines_latency.png, docs/baselines_energy.png")


if __name__ == "__main__":
    main()
