"""make bench-zoo: exports every model of bench/zoo/models.py at one batch, compiles it
(`inrarch compile --no-csim`, timed and measured by /usr/bin/time -v) and writes the table
into docs/benchmarks.md between the zoo markers (the rest of the file is kept). Each model
is also compiled at a small batch (--rom-batch, 256) to show that its ROMs do not grow with
the batch: the design's rom_bits at both batches.

  /usr/bin/python3 bench/zoo/run_zoo.py --inrarch build/inrarch [--batch 4096] [--only NAME] [--flags "--block 1"]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)

import inrarch_torch  # noqa: E402
import models  # noqa: E402

BEGIN, END = "<!-- zoo:begin -->", "<!-- zoo:end -->"


def compile_one(inrarch, bundle, out, timeout, flags=()):
    """Runs compile under /usr/bin/time -v; returns (exit code, seconds, peak MB, stderr)."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = ["/usr/bin/time", "-v", inrarch, "compile", bundle, "--no-csim", "--allow-over-budget", "-q", *flags,
           "-o", out]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, None, f"over {timeout} s"
    seconds = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    return p.returncode, seconds, int(m.group(1)) / 1024 if m else None, p.stderr


def export_and_compile(name, batch, inrarch, work, timeout, flags, tag=""):
    """The model at `batch` rows exported and compiled; (case, out folder, compile_one's result)."""
    case = models.build(name, batch)
    bundle = os.path.join(work, name + tag + "-bundle")
    shutil.rmtree(bundle, ignore_errors=True)
    inrarch_torch.export(case.fn, case.inputs, case.params, bundle, dtype=case.dtype)
    out = os.path.join(work, name + tag)
    return case, out, compile_one(inrarch, bundle, out, timeout, flags)


def rom_bits(inrarch, name, batch, work, timeout, flags):
    """The design's ROM bits at `batch` rows (None when the compile fails)."""
    _, out, (code, _, _, _) = export_and_compile(name, batch, inrarch, work, timeout, flags, f"-{batch}")
    return json.load(open(os.path.join(out, "report.json")))["design"]["rom_bits"] if code == 0 else None


def row(name, batch, inrarch, work, timeout, flags=(), rom_batch=256):
    case, out, (code, seconds, mb, err) = export_and_compile(name, batch, inrarch, work, timeout, flags)
    r = {"model": name, "dtype": str(case.dtype).replace("torch.", ""), "note": case.note,
         "seconds": seconds, "peak_mb": mb}
    if code != 0:
        lines = [ln for ln in err.splitlines() if "error" in ln] or [err.strip()[-200:]]
        r["failed"] = lines[0] if code is not None else err
        return r
    rep = json.load(open(os.path.join(out, "report.json")))
    res, an = rep["resources"], rep["analysis"]
    r.update(latency=rep["fifo"]["latency_cycles"], floor=rep["floor"]["cycles"],
             ratio=rep["floor"]["latency_over_floor"], util=res["utilisation"], fits=res["fits"],
             over=res.get("over"), processes=rep["design"]["processes"], block=rep["design"]["block"],
             rows=("prefix" if not an.get("exact", True) else "every beat: " + an.get("why_exact", "")),
             rom_bits=rep["design"]["rom_bits"], rom_batch=rom_batch,
             rom_bits_small=rom_bits(inrarch, name, rom_batch, work, timeout, flags))
    return r


def rom_cell(r):
    """'217,664 (equal at 256)' or the two figures where the ROMs grow with the batch."""
    small = r.get("rom_bits_small")
    if small is None:
        return f"{r['rom_bits']:,} (batch {r['rom_batch']} failed)"
    if small == r["rom_bits"]:
        return f"{r['rom_bits']:,} (equal at {r['rom_batch']})"
    return f"{r['rom_bits']:,} ({small:,} at {r['rom_batch']})"


def table(rows, batch, command):
    out = [f"Batch {batch:,}, U50, fixed<32,10>, `--no-csim` (the search, FIFO sizing and HLS emission "
           f"run; no C simulation). Command: `{command}`. Utilisation in % of the part; "
           "compile s and peak MB of `inrarch compile` by `/usr/bin/time -v`.", "",
           "| model | dtype | block | latency (cycles) | DSP floor | ratio | DSP / BRAM / URAM / LUT % | fits "
           "| rows analysed | compile s | peak MB | ROM bits (and at the small batch) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mb = f"{r['peak_mb']:.0f}" if r.get("peak_mb") else "—"
        if "failed" in r:
            out.append(f"| {r['model']} | {r['dtype']} | | failed: {r['failed']} | | | | | | {r['seconds']:.0f} | {mb} | |")
            continue
        u = r["util"]
        fits = "yes" if r["fits"] else f"no ({r['over']})"
        out.append(f"| {r['model']} | {r['dtype']} | {r['block']} | {r['latency']:,} | {r['floor']:,} | {r['ratio']:.2f}× | "
                   f"{100 * u['dsp']:.1f} / {100 * u['bram18k']:.1f} / {100 * u['uram']:.1f} / {100 * u['lut']:.1f} "
                   f"| {fits} | {r['rows']} | {r['seconds']:.1f} | {mb} | {rom_cell(r)} |")
    notes = [f"- {r['model']}: {r['note']}" for r in rows if r.get("note")]
    return "\n".join(out + ([""] + notes if notes else []))


def write_section(path, text):
    doc = open(path).read()
    section = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc:
        doc = doc[:doc.index(BEGIN)] + section + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip("\n") + "\n\n## Model zoo (`make bench-zoo`)\n\n" + section + "\n"
    open(path, "w").write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inrarch", default=os.path.join(ROOT, "build", "inrarch"))
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--only", action="append", help="a model of the zoo (repeatable)")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "zoo"))
    ap.add_argument("--timeout", type=float, default=900, help="seconds per compile")
    ap.add_argument("--rom-batch", type=int, default=256, help="the small batch whose ROM bits are compared")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--flags", default="", help="more compile flags, e.g. \"--block 1\" (the table is then printed, "
                    "not written)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    names = a.only or list(models.ZOO)
    rows = []
    for name in names:
        r = row(name, a.batch, a.inrarch, a.work, a.timeout, a.flags.split(), a.rom_batch)
        print(json.dumps(r), flush=True)
        rows.append(r)
    command = "make bench-zoo" if not a.only else "run_zoo.py " + " ".join(f"--only {n}" for n in names)
    if a.flags:
        command += f" --flags \"{a.flags}\""
    text = table(rows, a.batch, command)
    print(text)
    if not a.only and not a.flags:
        write_section(a.doc, text)


if __name__ == "__main__":
    main()
