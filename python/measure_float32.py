"""Measures how far a float32 export's reference is from the C++ interpreter (double): the
worst relative error `inrarch eval --check` reports (max|got-ref| / max|ref| per output) for
the float32 exports of the test models, which docs/pytorch.md and the float32 default
tolerance of `eval --check` (src/cli/cmd_eval.cpp) rest on.

  INRARCH_BIN=build/inrarch /usr/bin/python3 python/measure_float32.py
"""
import os
import re
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from inrarch_torch import SpecializationWarning, export, models  # noqa: E402
from tests import test_mlps, test_real_code as real  # noqa: E402

BIN = os.environ.get("INRARCH_BIN", "build/inrarch")


def worst_rel(bundle):
    p = subprocess.run([BIN, "eval", bundle, "--check", "-q", "--rtol", "1"],
                       capture_output=True, text=True)
    m = re.search(r"worst relative error (\S+) \(output (\S+)\)", p.stdout)
    if not m:
        raise RuntimeError(f"inrarch eval failed on {bundle}: {p.stdout}{p.stderr}")
    return float(m.group(1)), m.group(2)


def cases():
    """(name, fn, inputs, params) of the models, built afresh for each seed."""
    def net_fn(net, derivative):
        def fn(inputs, params):
            x = inputs["coords"]
            y = net(x)
            return {"y": y, "d": derivative(y, x)[0]}
        return fn

    for seed in range(3):
        yield (f"sine net 2-16-16-1, Hessian, N 8, seed {seed}",
               net_fn(real.SineNet(16, 1, 1, seed), real.hessian), {"coords": real.coords(8, seed)}, {})
        yield (f"sine net 2-32-32-32-2, Jacobian, N 64, seed {seed}",
               net_fn(real.SineNet(32, 2, 2, seed), real.jacobian), {"coords": real.coords(64, seed)}, {})
        yield (f"sine net 2-64-64-64-1, Hessian, N 64, seed {seed}",
               net_fn(real.SineNet(64, 2, 1, seed), real.hessian), {"coords": real.coords(64, seed)}, {})
        yield (f"tanh PINN 3-32-32-1, Laplacian, seed {seed}", test_mlps.tanh_pinn,
               *test_mlps.setup([3, 32, 32, 1], 16, seed))
    for order in (1, 2, 3):
        inputs, params = models.insp_setup(8)
        yield f"INSP order {order}, batch 8", models.insp_fn(order, "batch"), inputs, params


def main():
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore", SpecializationWarning)
        print("| model | worst relative error (output) |")
        print("|---|---|")
        for i, (name, fn, inputs, params) in enumerate(cases()):
            out = os.path.join(tmp, f"m{i}")
            export(fn, inputs, params, out, dtype=torch.float32)
            err, output = worst_rel(out)
            print(f"| {name} | {err:.2e} ({output}) |")


if __name__ == "__main__":
    main()
