#!/usr/bin/python3
"""The design's side of the baselines: INSP compiled by `inrarch compile` (Taylor mode, the
built-in's default) at each order and batch; each report.json's latency, clock and resource
totals summarised into results/design-insp.json, which render.py reads. Compiles are cached
in out/bench-baselines/ (a report there is reused).

  /usr/bin/python3 bench/baselines/design.py --inrarch build/inrarch [--orders 1,2,3] [--batches 1,64,4096,65536]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "out", "bench-baselines")
OUT = os.path.join(HERE, "results", "design-insp.json")


def compile_one(inrarch, order, batch, limit_s):
    out_dir = os.path.join(WORK, f"insp-o{order}-b{batch}")
    report = os.path.join(out_dir, "report.json")
    cmd = [inrarch, "compile", "--builtin", "insp", "--order", str(order), "--batch", str(batch),
           "--no-csim", "--no-mlir", "--no-hls", "-q", "-o", out_dir]
    rec = {"order": order, "batch": batch, "command": " ".join(["build/inrarch"] + cmd[1:-1] + ["DIR"])}
    if not os.path.isfile(report):
        print("$", " ".join(cmd), file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            rc = subprocess.run(cmd, timeout=limit_s, stdout=subprocess.DEVNULL).returncode
        except subprocess.TimeoutExpired:
            rc = 124
        rec["compile_s"] = time.perf_counter() - t0
        if rc != 0 or not os.path.isfile(report):
            rec["status"] = f"compile stopped after {limit_s} s" if rc == 124 else f"compile failed (exit {rc})"
            return rec
    with open(report) as f:
        r = json.load(f)
    res = r["resources"]
    rec.update(status="ok", cycles=r["fifo"]["latency_cycles"], clock_mhz=res["part"]["clock_mhz"],
               part=res["part"]["name"], total=res["total"], utilisation=res["utilisation"],
               fits=res["fits"], compile_ms=r.get("timings_ms", {}).get("total"))
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inrarch", default=os.path.join(ROOT, "build", "inrarch"))
    ap.add_argument("--orders", default="1,2,3")
    ap.add_argument("--batches", default="1,64,4096,65536")
    ap.add_argument("--limit-s", type=int, default=1200, help="stop one compile after this")
    a = ap.parse_args()
    if not os.access(a.inrarch, os.X_OK):
        raise SystemExit(f"design.py: {a.inrarch} is not an executable (build it: cmake --build build)")
    old = {}
    if os.path.isfile(OUT):
        with open(OUT) as f:
            old = {(d["order"], d["batch"]): d for d in json.load(f)["designs"]}
    for order in [int(k) for k in a.orders.split(",")]:
        for batch in [int(b) for b in a.batches.split(",")]:
            rec = compile_one(a.inrarch, order, batch, a.limit_s)
            if rec["status"] == "ok" or (order, batch) not in old:
                old[(order, batch)] = rec
            print(json.dumps({k: rec.get(k) for k in ("order", "batch", "status", "cycles")}), flush=True)
    designs = [old[k] for k in sorted(old)]
    tmp = OUT + ".part"
    with open(tmp, "w") as f:
        json.dump({"designs": designs}, f, indent=1)
    os.replace(tmp, OUT)
    print(f"wrote {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
