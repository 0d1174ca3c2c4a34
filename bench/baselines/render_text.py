"""The markdown of the "Baselines" section of docs/benchmarks.md (render.py writes it)."""
import energy

METHODS = ("nested", "taylor", "functorch")
NAMES = {"nested": "nested", "taylor": "Taylor", "functorch": "functorch"}


def workload_order(name):
    return ["insp-o1", "insp-o2", "insp-o3", "poisson_pinn", "neural_sdf"].index(name) \
        if name in ("insp-o1", "insp-o2", "insp-o3", "poisson_pinn", "neural_sdf") else 99


def si_time(s):
    if s < 1e-3:
        return f"{s * 1e6:.3g} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def cell(r):
    if r is None:
        return "—"
    if r["status"] == "refused":
        return "refused"
    if r["status"] == "skipped":
        if "estimated_s" in r:
            return f"skip (~{r['estimated_s']:.3g} s)"
        return f"skip (ran {r['single_run_s']:.3g} s)" if "single_run_s" in r else f"skip ({r['reason']})"
    spread = (r["p75_s"] - r["p25_s"]) / 2 / r["median_s"] * 100
    return f"{si_time(r['median_s'])} ±{spread:.0f}%{' †' if r.get('load_flag') else ''}"


def num(x):
    """Three significant figures, thousands grouped, no exponent below 10^9."""
    if x >= 1000:
        return f"{float(f'{x:.3g}'):,.0f}"
    return f"{x:.3g}"


def find(records, **key):
    for r in records:
        if all(r.get(k) == v for k, v in key.items()):
            return r
    return None


def cpu_table(cpu, dtype):
    recs = cpu["records"]
    threads = sorted({r["threads"] for r in recs})
    head = "| workload | batch | " + " | ".join(f"{NAMES[m]} {t}T" for m in METHODS for t in threads) \
        + " | Taylor / nested |"
    lines = [head, "|---|---:|" + "---:|" * (len(METHODS) * len(threads)) + "---:|"]
    wls = sorted({r["workload"] for r in recs}, key=workload_order)
    for wl in wls:
        for b in sorted({r["batch"] for r in recs if r["workload"] == wl}):
            cells = [cell(find(recs, workload=wl, batch=b, dtype=dtype, method=m, threads=t))
                     for m in METHODS for t in threads]
            tn = [find(recs, workload=wl, batch=b, dtype=dtype, method=m, threads=t) for m in ("taylor", "nested")
                  for t in threads]
            tt = [r["median_s"] for r in tn[:len(threads)] if r and r["status"] == "timed"]
            nt = [r["median_s"] for r in tn[len(threads):] if r and r["status"] == "timed"]
            ratio = f"{min(nt) / min(tt):.2f}×" if tt and nt else "—"
            lines.append(f"| {wl} | {b:,} | " + " | ".join(cells) + f" | {ratio} |")
    return lines


def accuracy_table(cpu):
    lines = ["| method | dtype | max relative error | max abs error | tolerance | checked | refused |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for m in METHODS:
        for d in ("float64", "float32"):
            rs = [r for r in cpu["records"] if r["method"] == m and r["dtype"] == d and "max_rel_err" in r]
            if not rs:
                continue
            refused = sum(r["status"] == "refused" for r in rs)
            lines.append(f"| {NAMES[m]} | {d} | {max(r['max_rel_err'] for r in rs):.2g} "
                         f"| {max(r['max_abs_err'] for r in rs):.2g} | {rs[0]['tol']:g} | {len(rs)} | {refused} |")
    return lines


def design_table(cpu, designs, args, best):
    lines = ["| INSP | batch | design latency | design W | design µJ/sample (75 W bound) | fastest CPU (float32) "
             "| CPU µJ/sample | speed-up (CPU time / design) | energy (CPU / design) | EDP (CPU / design) |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for (k, b), d in sorted(designs.items()):
        r = best(cpu["records"], workload=f"insp-o{k}", batch=b, dtype="float32")
        lat = f"{si_time(d['latency_s'])} ({d['cycles']:,} cyc.)"
        e = f"{num(d['energy_per_sample_j'] * 1e6)} ({num(d['energy_per_sample_bound_j'] * 1e6)})"
        if r is None:
            lines.append(f"| order {k} | {b:,} | {lat} | {d['power_w']:.1f} | {e} | not timed | — | — | — | — |")
            continue
        c = energy.cpu_point(r, args.cpu_watts_per_thread)
        flag = " †" if r.get("load_flag") else ""
        lines.append(f"| order {k} | {b:,} | {lat} | {d['power_w']:.1f} | {e} "
                     f"| {NAMES[r['method']]} {r['threads']}T, {si_time(r['median_s'])}{flag} "
                     f"| {num(c['energy_per_sample_j'] * 1e6)} | {num(r['median_s'] / d['latency_s'])}× "
                     f"| {num(c['energy_per_sample_j'] / d['energy_per_sample_j'])}× "
                     f"| {num(c['edp_js'] / d['edp_js'])}× |")
    return lines


def power_table():
    lines = ["| coefficient | value | unit | source |", "|---|---:|---|---|"]
    for k, v in energy.DESIGN_POWER.items():
        lines.append(f"| {k} | {v['value']:g} | {v['unit']} | {v['source']} |")
    for name, v in (("board bound", energy.BOARD_MAX_W), ("CPU", energy.CPU_WATTS_PER_THREAD)):
        lines.append(f"| {name} | {v['value']:g} | {v['unit']} | {v['source']} |")
    return lines


def run_line(i, run):
    m, o = run["meta"], run["meta"]["options"]
    return (f"- Run {i} (`{run['path']}`): {m['date']}, `{m['command']}`, {m['seconds'] / 60:.0f} min; "
            f"{o['warmup']} warm-up run{'s' if o['warmup'] != 1 else ''}, then {o['min_runs']}–{o['max_runs']} "
            f"runs (more while under {o['budget_s']:g} s), a {o['max_run_s']:g} s cap on one run; "
            f"1-minute load {m['load_start'][0]:.1f} at the start, {m['load_end'][0]:.1f} at the end.")


def intro(cpu):
    m = cpu["runs"][0]["meta"]
    g = m.get("matmul_gflops", {})
    gf = "; ".join(f"{t} thread{'s' if t != '1' else ''}: {v['float32']:.1f} (float32) / {v['float64']:.1f} (float64)"
                   for t, v in sorted(g.items()))
    flagged = sum(bool(r.get("load_flag")) for r in cpu["records"])
    timed = sum(r["status"] == "timed" for r in cpu["records"])
    excess = m["options"]["load_excess"]
    return [
        "What a user would run instead of the design, measured on this machine's CPU: the "
        "workloads of `bench/baselines/workloads.py` (INSP's SIREN 2→256×4→3 at orders 1–3 with "
        "INSP's derivative set; the zoo's Poisson PINN 2→32×3→1 (tanh), u and −Δu − f; the zoo's "
        "neural SDF 3→64×3→1 (softplus β=100), value, gradient, eikonal term and Laplacian) "
        "computed by three methods (`bench/baselines/methods.py`):",
        "",
        "- **nested**: `torch.autograd.grad` nested to the order with `create_graph=True`, the "
        "communities' own code (INSP-Net's reference, the zoo's `fn`);",
        "- **Taylor**: forward (Taylor) mode in plain PyTorch: each layer's pre-activation partials "
        "(value, every partial up to the order the outputs need, mixed ones once) go through the "
        "layer's weight in one stacked matmul, and the activation's Faà di Bruno sum gives the "
        "next layer's; only the partials the outputs need are carried (the Laplacian's pure second "
        "partials, not the mixed ones; docs/taylor.md);",
        "- **functorch**: `functorch.vmap` over the samples of `functorch.jacfwd` nested to the "
        "order, the lower orders kept as `has_aux` outputs.",
        "",
        "Rendered by `make bench-baselines` (`bench/baselines/render.py`) from the stored results "
        "alone; measured by `make bench-baselines-measure` (`bench/baselines/measure_cpu.py`). "
        "Every `results/cpu-*.json` is read in name (time) order, a later run's timed cell "
        "replacing an earlier one's:",
        "",
    ] + [run_line(i + 1, run) for i, run in enumerate(cpu["runs"])] + [
        "",
        f"- Machine: {m['cpu']}, {m['cores']} cores, {m['os']}; PyTorch {m['torch']} (BLAS: "
        f"{m.get('blas', '?')}), Python {m['python']}.",
        f"- This PyTorch (Debian's build) links the generic reference BLAS: a 2048×256 by 256×256 "
        f"matmul ran at {gf} GFLOP/s (run 1), where an MKL or OpenBLAS build reaches tens of GFLOP/s "
        "per core; every matmul-bound time here is that many times slower than on a tuned install.",
        "- Timing: the median of the timed runs after the warm-up; ± is half the interquartile "
        "range over the median. A batch whose one run is estimated (linearly from the last timed "
        "batch of 64 rows or more) or measured (the checked run) over the run's cap is skipped: "
        "\"skip (~T s)\" gives the estimate, \"skip (ran T s)\" the checked run's time.",
        f"- Load: † marks a measurement whose 1-minute load average before or after exceeded its "
        f"threads + {excess:g} ({flagged} of {timed} timed ones), i.e. other work shared the cores.",
        f"- Checks: before any timing, each method's outputs on the first {m['check_rows']} rows "
        "(rows are independent) are compared with a float64 nested-autograd reference; a method "
        "passes when every output column's max |error| is within the tolerance × that column's "
        "largest |value| (1e-9 in float64; 1e-4 in float32, about 840 float32 ulps, since five "
        "layers of sin(30·z) and up to three derivative sweeps compound the rounding). A method "
        "that fails is refused and not timed.",
    ]


def default_run_minutes(cpu, warmup=2, min_runs=5, max_runs=50, budget_s=10.0, cap_s=20.0):
    """What measure_cpu.py at its defaults would take, from these records' times (an estimate)."""
    total = 0.0
    for r in cpu["records"]:
        m = r.get("median_s") or r.get("single_run_s") or r.get("estimated_s")
        if m is None:
            continue
        if m > cap_s:
            total += m if "single_run_s" in r else 0.0
        else:
            total += m * (1 + warmup + min(max_runs, max(min_runs, budget_s / m)))
    return total / 60


def rerun_lines(cpu):
    est = default_run_minutes(cpu)
    return ["", "### A quiet re-run", "",
            "On a machine with nothing else running: `git rm bench/baselines/results/cpu-*.json` (or the "
            "loaded runs' cells that the quiet run skips would stay in the merge), then "
            "`make bench-baselines-measure` (measure_cpu.py at its "
            "defaults: 2 warm-up runs, 5–50 runs within 10 s, a 20 s cap on one run), then "
            "`make bench-baselines-design` if the compiles are not cached, and `make bench-baselines`. "
            f"From the times above that run should take about {est:.0f} min on this machine (an estimate: "
            "the runs each cell would make at the defaults, times its median; the cells skipped here "
            "at a lower cap are counted at their estimated time)."]


def section(cpu, designs, gpu_lines, args, best, summary_lines=()):
    lines = []
    if summary_lines:
        lines += list(summary_lines) + [""]
    lines += intro(cpu)
    for dtype in ("float32", "float64"):
        if any(r["dtype"] == dtype for r in cpu["records"]):
            lines += ["", f"CPU, {dtype}, seconds per batch (all outputs), 1T / 2T = 1 / 2 threads "
                          "(`torch.set_num_threads`); the last column is the faster nested time over "
                          "the faster Taylor time:", ""]
            lines += cpu_table(cpu, dtype)
    lines += ["", "Agreement with the float64 reference, the worst over every batch and thread count:", ""]
    lines += accuracy_table(cpu)
    lines += ["", "Nested autograd in float64 is the reference's own computation (0 by construction); "
              "its float32 row is the rounding every float32 method shares."]
    clk = f"{args.clock_mhz:g} MHz (--clock-mhz)" if args.clock_mhz else "the part's clock in report.json"
    lines += [
        "", "### The design against the fastest CPU baseline, and energy", "",
        "The design: `results/design-insp.json`, written by `bench/baselines/design.py` from "
        "`build/inrarch compile --builtin insp --order K --batch B --no-csim --no-mlir --no-hls -q` "
        "(Taylor mode, the built-in's default; the compiler's cycle count, not a board measurement; "
        f"host transfers left out), at {clk}; a timing report may lower the clock: "
        "`render.py --clock-mhz F` redoes this table and the plots at F. Power: the model below "
        f"at a {args.toggle * 100:g} % toggle rate ({energy.TOGGLE_SOURCE}), and in brackets the "
        "energy at the card's 75 W bound, which no design can exceed. CPU energy: busy threads × "
        f"{args.cpu_watts_per_thread:g} W (an assumption, below) × the median time. EDP: energy of "
        "the batch × its latency; the last three columns are the CPU's figure over the design's. "
        "Where the CPU time is flagged (†), the load inflated it, and these ratios overstate the "
        "design's lead by as much.", ""]
    lines += design_table(cpu, designs, args, best)
    if not designs:
        lines += ["", "No compiled design in results/design-insp.json yet: run `bench/baselines/design.py`."]
    lines += ["", "The power model (`bench/baselines/energy.py`): P = static + Σ count × coefficient × f × "
              "(toggle / 12.5 %), resource counts from report.json's `resources.total`. No per-resource "
              "figure for UltraScale+ was found in the published sources searched, so the dynamic "
              "coefficients and the static power are assumptions of a plausible order, to be replaced "
              "by the part's XPE values (UG440) or a post-route `report_power`; the 75 W bound is the "
              "one sourced figure, and the design stays ahead of the CPU at it wherever the bracketed "
              "energy is below the CPU's:", ""]
    lines += power_table()
    lines += ["", "### GPU", ""] + gpu_lines
    lines += rerun_lines(cpu)
    lines += ["", "![latency vs batch](baselines_latency.png)", "", "![energy per sample](baselines_energy.png)"]
    return "\n".join(lines)
