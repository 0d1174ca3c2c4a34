"""Measures the docs/pytorch.md table: for INSP orders 1..3 (both layer forms), raw grad_fn
nodes (the paper's walk), exported aten nodes (make_fx and walk), IR op nodes after import
(`inrarch opt DIR --stats --passes dce`), and export times for order 3 at batch 64.

  INRARCH_BIN=build-pt/inrarch /usr/bin/python3 python/measure_insp.py
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inrarch_torch import export, export_autograd, models  # noqa: E402

BIN = os.environ.get("INRARCH_BIN", "build/inrarch")


def ir_op_nodes(bundle):
    p = subprocess.run([BIN, "opt", bundle, "--stats", "--passes", "dce"], capture_output=True,
                       text=True)
    m = re.search(r"op nodes: (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"inrarch opt failed on {bundle}: {p.stderr}")
    return int(m.group(1))


def walk(order, form, batch, out):
    inputs, params = models.insp_setup(batch)
    x = inputs["x"].requires_grad_(True)
    params = {k: v.requires_grad_(True) for k, v in params.items()}
    return export_autograd(models.insp_fn(order, form)({"x": x}, params), {"x": x, **params}, out)


def table(tmp):
    print("| order | outputs | layer | raw grad_fn nodes | aten nodes (export) "
          "| IR op nodes (export) | aten nodes (walk) | IR op nodes (walk) |")
    print("|---|---|---|---|---|---|---|---|")
    for order in (1, 2, 3):
        for form in ("batch", "nn"):
            fx_dir, walk_dir = os.path.join(tmp, f"fx{order}{form}"), os.path.join(tmp, f"w{order}{form}")
            inputs, params = models.insp_setup(8)
            r = export(models.insp_fn(order, form), inputs, params, fx_dir)
            w = walk(order, form, 8, walk_dir)
            print(f"| {order} | {models.insp_output_count(order)} | {form} | {w['grad_fn_nodes']} "
                  f"| {r.aten_nodes} | {ir_op_nodes(fx_dir)} | {w['aten_nodes']} "
                  f"| {ir_op_nodes(walk_dir)} |")


def timings(tmp, repeat=3):
    trace, total, walks = [], [], []
    for i in range(repeat):
        inputs, params = models.insp_setup(64)
        r = export(models.insp_fn(3, "batch"), inputs, params, os.path.join(tmp, "t64"))
        trace.append(r.seconds)
        total.append(r.total_seconds)
        t0 = time.perf_counter()
        walk(3, "batch", 64, os.path.join(tmp, "w64"))
        walks.append(time.perf_counter() - t0)
    med = statistics.median
    print(f"\norder 3, batch 64, INSP-Net layer form, median of {repeat}:")
    print(f"  export(): trace + aten graph {med(trace):.2f} s, with eager reference and "
          f"bundle writing {med(total):.2f} s")
    print(f"  export_autograd(): forward + grads + walk + writing {med(walks):.2f} s")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        table(tmp)
        timings(tmp)
