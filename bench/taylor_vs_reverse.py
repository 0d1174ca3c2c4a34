#!/usr/bin/env python3
"""INSP in Taylor mode against nested reverse mode (docs/taylor.md): compiles the built-in
INSP at each order in both modes (search and FIFO sizing on, no code generation) and prints
the markdown table of docs/taylor.md from the compiles' report.json files.

  python3 bench/taylor_vs_reverse.py --inrarch build/inrarch [--orders 1,2,3] [--batch 64]
"""
import argparse
import json
import os
import subprocess
import sys


def compile_insp(inrarch, order, mode, batch, width, out):
    if not os.path.isfile(os.path.join(out, "report.json")):
        cmd = [inrarch, "compile", "--builtin", "insp", "--order", str(order), "--mode", mode,
               "--batch", str(batch), "--width", str(width), "--no-csim", "--no-hls", "--no-mlir",
               "-q", "-o", out]
        print("$", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def row(order, mode, r):
    g, fl, fifo = r["graph"], r["floor"], r["fifo"]
    return {"order": order, "mode": mode,
            "nodes": f"{g['op_nodes_imported']} → {g['op_nodes_optimized']}",
            "mults": fl["multiplies"], "floor": fl["cycles"], "latency": fifo["latency_cycles"],
            "fifo_bits": fifo["total_bits"], "bram": fifo["bram18k"],
            "seconds": r["timings_ms"]["total"] / 1000}


def table(rows):
    out = ["| order | mode | op nodes (imported → optimized) | multiplies | ratio | floor cycles (U50) "
           "| sized latency | ratio | FIFO bits | FIFO BRAM18K | compile s |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    rev = {r["order"]: r for r in rows if r["mode"] == "reverse"}
    for r in rows:
        base = rev.get(r["order"], r)
        out.append(f"| {r['order']} | {r['mode']} | {r['nodes']} | {r['mults'] / 1e6:.1f} M "
                   f"| {r['mults'] / base['mults']:.2f} | {r['floor']:,} | {r['latency']:,} "
                   f"| {r['latency'] / base['latency']:.2f} | {r['fifo_bits']:,} | {r['bram']} "
                   f"| {r['seconds']:.0f} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inrarch", default="build/inrarch")
    ap.add_argument("--orders", default="1,2,3")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--work", default="out/taylor-vs-reverse", help="compile outputs (kept: reruns reuse them)")
    a = ap.parse_args()
    rows = []
    for order in [int(k) for k in a.orders.split(",")]:
        for mode in ("reverse", "taylor"):
            out = os.path.join(a.work, f"insp{order}-{mode}-b{a.batch}-w{a.width}")
            rows.append(row(order, mode, compile_insp(a.inrarch, order, mode, a.batch, a.width, out)))
    print(table(rows))


if __name__ == "__main__":
    main()
