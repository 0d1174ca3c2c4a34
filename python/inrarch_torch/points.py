"""export_derivatives on INR code's [1, N, d] coordinates (a leading batch of one): Taylor
mode needs the samples as the graph's rows (dim 0; docs/taylor.md "The model"), and
`inrarch derive` refuses a graph whose rows are not outermost.

So the primal is traced with the same N points as N batches of one point, [N, 1, d], which
keeps the rows outermost through the user's code unchanged (nn.Linear, `y[..., i]`,
`y.shape[:2]`). That is the same function only if fn treats its points independently, which
is checked: fn's outputs on [N, 1, d] must equal its outputs on the [1, N, d] given. The
reference derivatives are PyTorch autograd's on the [1, N, d] layout itself, and the derived
graph's outputs are reshaped back to that layout; its input is the points as [N, d].
"""
import functools

import numpy as np
import torch

from .bundle import ExportError


def _layout(inputs, wrt):
    """wrt's shape, checked to be [rows, d] or [1, ..., 1, rows, d]."""
    t = inputs.get(wrt)
    shape = list(t.shape) if isinstance(t, torch.Tensor) else None
    if shape is None or len(shape) < 2 or any(s != 1 for s in shape[:-2]):
        raise ExportError(f"wrt: '{wrt}' must be an input of shape [rows, variables] or "
                          f"[1, rows, variables], got {shape}")
    return shape


def _call_with(fn, wrt, shape, inputs, params):
    return fn({**inputs, wrt: inputs[wrt].reshape(shape)}, params)


def points_as_rows(fn, inputs, wrt):
    """(fn, inputs) to trace: as given for [rows, d]; for [1, ..., 1, N, d] an [N, d] input
    that fn sees as N batches of one point, [N, 1, ..., 1, d]. A partial, not a closure, so closure.py still finds
    what fn closes over."""
    shape = _layout(inputs, wrt)
    if len(shape) == 2:
        return fn, inputs
    rows = [shape[-2]] + [1] * (len(shape) - 2) + [shape[-1]]
    flat = {**inputs, wrt: inputs[wrt].reshape(shape[-2:])}   # the graph's input: [N, d]
    return functools.partial(_call_with, fn, wrt, rows), flat


def check_points_independent(traced, given, wrt):
    """fn on the points one at a time (traced: name -> array) must equal fn on [1, N, d]
    (given), output by output, else its points interact and the derivatives per point would
    be another function's."""
    for name, want in given.items():
        got = traced[name]
        scale = float(np.abs(want).max()) if want.size else 0.0
        if got.size != want.size or not np.allclose(got.reshape(want.shape), want,
                                                    rtol=1e-9, atol=1e-9 * scale):
            raise ExportError(
                f"output '{name}' of fn on the points of '{wrt}' one at a time differs from "
                f"fn on all of them together: its points are not independent, so the "
                "derivatives per point cannot be built in Taylor mode; use export() with "
                "torch.autograd.grad instead")


def relayout_outputs(graph, reference):
    """Appends to the derived inrarch-graph (docs/formats.md) a reshape of each output whose
    shape differs from its reference's: [N, 1, ...] back to [1, N, ...]."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    next_id = max(nodes) + 1
    for out in graph["outputs"]:
        want = list(reference[out["name"]].shape)
        if list(nodes[out["node"]]["shape"]) != want:
            graph["nodes"].append({"id": next_id, "op": "reshape", "operands": [out["node"]],
                                   "shape": want})
            out["node"], next_id = next_id, next_id + 1
