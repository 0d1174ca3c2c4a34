"""Command line: /usr/bin/python3 -m inrarch_torch insp --order K --batch B -o DIR

Exports the INSP benchmark (README) as a bundle, with make_fx (default) or with the
paper's autograd walk (--method autograd). Exit 1 with one line on stderr on any error; no
bundle is left behind then.
"""
import argparse
import json
import sys

from . import models
from .autograd_walk import export_autograd
from .bundle import ExportError
from .export import export


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m inrarch_torch")
    sub = p.add_subparsers(dest="command", required=True)
    insp = sub.add_parser("insp", help="export the INSP benchmark")
    insp.add_argument("--order", type=int, required=True, help="derivative order (>= 1)")
    insp.add_argument("--batch", type=int, required=True, help="rows of x")
    insp.add_argument("--linear", choices=["batch", "nn"], default="batch",
                      help="INSP-Net's matmul/permute/unsqueeze layer or nn.Linear (addmm/t)")
    insp.add_argument("--width", type=int, default=256, help="hidden width")
    insp.add_argument("--seed", type=int, default=0, help="seed of weights and x")
    insp.add_argument("--params-from", metavar="BUNDLE_DIR",
                      help="take x and l{i}.weight / l{i}.bias from this bundle "
                           "(e.g. one written by `inrarch model insp`)")
    insp.add_argument("--method", choices=["fx", "autograd"], default="fx",
                      help="make_fx aten trace (default) or the paper's grad_fn walk")
    insp.add_argument("-o", "--out", required=True, help="bundle folder to write")
    return p


def _insp(a):
    if a.order < 1 or a.batch < 1 or a.width < 1:
        raise ExportError("--order, --batch and --width must be >= 1")
    if a.params_from:
        inputs, params = models.load_insp_bundle(a.params_from)
        if inputs["x"].shape[0] != a.batch:
            raise ExportError(f"--batch {a.batch} but {a.params_from} has x of shape "
                              f"{list(inputs['x'].shape)}")
    else:
        inputs, params = models.insp_setup(a.batch, a.width, a.seed)
    fn = models.insp_fn(a.order, a.linear)
    name = f"insp_o{a.order}"
    if a.method == "fx":
        r = export(fn, inputs, params, a.out, name=name)
        stats = {"aten_nodes": r.aten_nodes, "fx_nodes": r.fx_nodes,
                 "trace_seconds": round(r.seconds, 4), "total_seconds": round(r.total_seconds, 4)}
    else:
        x = inputs["x"].requires_grad_(True)
        ps = {k: v.requires_grad_(True) for k, v in params.items()}
        r = export_autograd(fn({"x": x}, ps), {"x": x, **ps}, a.out, name=name)
        stats = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items() if k != "graph"}
    stats.update(outputs=models.insp_output_count(a.order), out=a.out)
    print(json.dumps(stats))


def main(argv=None):
    a = _parser().parse_args(argv)
    try:
        if a.command == "insp":
            _insp(a)
    except (ExportError, OSError) as e:
        print(f"inrarch_torch {a.command}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
