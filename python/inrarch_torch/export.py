"""inrarch_torch.export: trace a PyTorch function (autograd.grad calls included) into aten ops
with make_fx and write a bundle the C++ compiler imports (docs/pytorch.md)."""
import time

import torch

from .aten_graph import AtenGraphWriter
from .bundle import ExportError, write_bundle
from .functional import functionalize_graph

try:  # PyTorch >= 1.12 (1.13 in Debian, 2.x upstream)
    from torch.fx.experimental.proxy_tensor import make_fx
except ImportError:  # pragma: no cover - too old a PyTorch
    make_fx = None


class ExportResult:
    """What an export produced: counts for the docs table, the graph dict, timings."""

    def __init__(self, graph, fx_nodes, seconds, reference):
        self.graph = graph
        self.fx_nodes = fx_nodes            # call_function nodes make_fx recorded
        self.aten_nodes = sum(1 for n in graph["nodes"]
                              if n["op"] not in ("input", "param", "const"))
        self.seconds = seconds
        self.reference = reference          # output name -> float64 numpy array

    def __repr__(self):
        return (f"ExportResult(aten_nodes={self.aten_nodes}, fx_nodes={self.fx_nodes}, "
                f"outputs={len(self.graph['outputs'])}, seconds={self.seconds:.3f})")


def _leaf(name, value, dtype):
    if not isinstance(value, torch.Tensor):
        raise ExportError(f"'{name}' must be a tensor, got {type(value).__name__}")
    if not value.is_floating_point():
        raise ExportError(f"'{name}' must be a floating-point tensor, got {value.dtype}")
    # Every leaf requires grad so fn may differentiate w.r.t. any of them.
    return value.detach().to(dtype).clone().requires_grad_(True)


def _named_outputs(result):
    """fn's result as (names, tensors): a dict keeps its keys, else out0, out1, ..."""
    if isinstance(result, dict):
        names, values = list(result.keys()), list(result.values())
    elif isinstance(result, (list, tuple)):
        names, values = [f"out{i}" for i in range(len(result))], list(result)
    else:
        names, values = ["out0"], [result]
    for n, v in zip(names, values):
        if not isinstance(v, torch.Tensor):
            raise ExportError(f"output '{n}' is not a tensor ({type(v).__name__})")
    if not values:
        raise ExportError("fn returned no outputs")
    return names, values


def _fresh(leaves, dtype):
    return {k: _leaf(k, v, dtype) for k, v in leaves.items()}


def trace(fn, inputs, params):
    """make_fx trace of fn with every input and param a graph input (so no value is baked
    in as a constant). Returns (GraphModule, leaf kinds by placeholder, output names)."""
    if make_fx is None:
        raise ExportError("this PyTorch has no torch.fx.experimental.proxy_tensor.make_fx")
    in_names, p_names = list(inputs), list(params)
    out_names = []

    def flat_fn(*vals):
        ins = dict(zip(in_names, vals[:len(in_names)]))
        ps = dict(zip(p_names, vals[len(in_names):]))
        names, values = _named_outputs(fn(ins, ps))
        out_names[:] = names
        return list(values)

    gm = functionalize_graph(make_fx(flat_fn)(*inputs.values(), *params.values()))
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    kinds = [("input", n) for n in in_names] + [("param", n) for n in p_names]
    return gm, dict(zip(placeholders, kinds)), out_names


def export(fn, inputs, params, out_dir, dtype=torch.float64, name="main"):
    """Exports fn(inputs, params) -> Tensor | list | tuple | dict of Tensors as a bundle.

    fn may call torch.autograd.grad(..., create_graph=True) any number of times. The bundle's
    reference/ holds fn's own outputs, computed eagerly in `dtype` (float64 by default).
    """
    t0 = time.perf_counter()
    ins, ps = _fresh(inputs, dtype), _fresh(params, dtype)
    gm, kinds, out_names = trace(fn, ins, ps)
    graph = AtenGraphWriter(gm, kinds, out_names, name).to_json()
    fx_nodes = sum(1 for n in gm.graph.nodes if n.op == "call_function")
    seconds = time.perf_counter() - t0
    names, values = _named_outputs(fn(_fresh(inputs, dtype), _fresh(params, dtype)))
    reference = {n: v.detach().to(torch.float64).numpy() for n, v in zip(names, values)}
    used = {n["name"] for n in graph["nodes"] if n["op"] in ("input", "param")}
    write_bundle(out_dir, graph,
                 {k: v.detach().numpy() for k, v in ins.items() if k in used},
                 {k: v.detach().numpy() for k, v in ps.items() if k in used},
                 reference, source_dtype=dtype)
    result = ExportResult(graph, fx_nodes, seconds, reference)
    result.total_seconds = time.perf_counter() - t0  # with the eager reference and the writing
    return result
