"""inrarch_torch.export: trace a PyTorch function (autograd.grad calls included) into aten ops
with make_fx and write a bundle the C++ compiler imports (docs/pytorch.md).

The user's code runs unchanged: in-place updates are made out of place after the trace
(functional.py), Python control flow on traced values is specialised on the example inputs
with a warning (tracing.py), and the modules and tensors it closes over are converted to the
export dtype and become params (closure.py).
"""
import contextlib
import time

import torch

from .aten_graph import AtenGraphWriter
from .bundle import ExportError, write_bundle
from .closure import Converted, closed_over_tensors
from .functional import functionalize_graph
from .tracing import default_dtype, run_make_fx


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


def _closed_over_names(fn, taken):
    """name -> tensor fn closes over, renamed where a name is an input or param already."""
    out = {}
    for name, t in closed_over_tensors(fn).items():
        while name in taken or name in out:
            name += "_closed"
        out[name] = t
    return out


@contextlib.contextmanager
def in_dtype(fn, taken, dtype):
    """For a `with` block: what fn closes over (name -> tensor, renamed clear of `taken`)
    converted to `dtype`, and `dtype` the default dtype; both put back afterwards, also when
    the block fails (closure.Converted). Every exporter runs the user's code inside one, so a
    float32 nn.Module is computed in float64 (docs/pytorch.md "float32")."""
    closed = _closed_over_names(fn, set(taken))
    with default_dtype(dtype), Converted(closed, dtype):
        yield closed


def trace(fn, inputs, params, closed=None, dtype=torch.float64, lines=False):
    """make_fx trace of fn with every input, param and closed-over tensor a graph input (so
    no value is baked in as a constant), made out of place. Returns (GraphModule, leaf kinds
    by placeholder, output names, numbers read from traced tensors -> their line). lines:
    record each node's source line (tracing.run_make_fx)."""
    closed = closed or {}
    in_names, p_names = list(inputs), list(params) + list(closed)
    out_names = []

    def flat_fn(*vals):
        ins = dict(zip(in_names, vals[:len(in_names)]))
        ps = dict(zip(params, vals[len(in_names):]))
        # The closed-over tensors are placeholders by identity: fn uses them directly.
        names, values = _named_outputs(fn(ins, ps))
        out_names[:] = names
        return list(values)

    gm, numbers = run_make_fx(
        flat_fn, [*inputs.values(), *params.values(), *closed.values()], dtype, lines)
    gm = functionalize_graph(gm)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    kinds = [("input", n) for n in in_names] + [("param", n) for n in p_names]
    return gm, dict(zip(placeholders, kinds)), out_names, numbers


def _write_graph(gm, kinds, out_names, name, numbers, trace_with_lines):
    """The graph dict; where the writer refuses a node and the trace did not record lines,
    fn is traced again with them so that the error names the user's line."""
    try:
        return AtenGraphWriter(gm, kinds, out_names, name, numbers).to_json()
    except ExportError as e:
        if not getattr(e, "without_source", False):
            raise
        AtenGraphWriter(*trace_with_lines()[:3], name).to_json()
        raise


def export(fn, inputs, params, out_dir, dtype=torch.float64, name="main"):
    """Exports fn(inputs, params) -> Tensor | list | tuple | dict of Tensors as a bundle.

    fn may call torch.autograd.grad(..., create_graph=True) any number of times, update
    tensors in place, branch on traced values (specialised with a SpecializationWarning) and
    use nn.Modules and tensors it closes over (converted to `dtype` meanwhile, and made
    params). The bundle's reference/ holds fn's own outputs, computed eagerly in `dtype`
    (float64 by default), and meta.json that dtype.
    """
    t0 = time.perf_counter()
    ins, ps = _fresh(inputs, dtype), _fresh(params, dtype)
    with in_dtype(fn, set(ins) | set(ps), dtype) as closed:
        gm, kinds, out_names, numbers = trace(fn, ins, ps, closed, dtype)
        graph = _write_graph(gm, kinds, out_names, name, numbers,
                             lambda: trace(fn, ins, ps, closed, dtype, lines=True))
        fx_nodes = sum(1 for n in gm.graph.nodes if n.op == "call_function")
        seconds = time.perf_counter() - t0
        names, values = _named_outputs(fn(_fresh(inputs, dtype), _fresh(params, dtype)))
        reference = {n: v.detach().to(torch.float64).numpy() for n, v in zip(names, values)}
        leaves = {k: v.detach().to(torch.float64).numpy() for k, v in {**ps, **closed}.items()}
    used = {n["name"] for n in graph["nodes"] if n["op"] in ("input", "param")}
    write_bundle(out_dir, graph,
                 {k: v.detach().numpy() for k, v in ins.items() if k in used},
                 {k: v for k, v in leaves.items() if k in used},
                 reference, source_dtype=dtype)
    result = ExportResult(graph, fx_nodes, seconds, reference)
    result.total_seconds = time.perf_counter() - t0  # with the eager reference and the writing
    return result
