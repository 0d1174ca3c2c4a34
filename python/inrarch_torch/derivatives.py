"""inrarch_torch.export_derivatives: export only the primal function and let the C++ side
derive it in Taylor mode (`inrarch derive`, docs/taylor.md). The reference outputs are
computed by PyTorch autograd, nested torch.autograd.grad calls per request, so checking the
bundle compares Taylor mode with an independent implementation.
"""
import json
import os
import shutil
import subprocess
import tempfile

import torch

from .bundle import ExportError, read_npy_dir, write_bundle
from .export import _fresh, _named_outputs, export, in_dtype
from .points import check_points_independent, points_as_rows, relayout_outputs


def find_binary(binary=None):
    """The `inrarch` executable: `binary`, else $INRARCH_BIN, else `inrarch` on PATH."""
    path = binary or os.environ.get("INRARCH_BIN") or shutil.which("inrarch")
    if not path or not os.access(path, os.X_OK):
        raise ExportError("export_derivatives needs the inrarch binary: pass binary=, set "
                          "INRARCH_BIN or put inrarch on PATH")
    return path


def multi_indices(variables, order):
    """Every α with |α| <= order, in the C++ order: by degree, then the first variable's
    count descending (for two variables 00, 10, 01, 20, 11, 02, ...)."""
    def block(d, left):
        if d == 1:
            return [[left]]
        return [[a] + rest for a in range(left, -1, -1) for rest in block(d - 1, left - a)]
    return [alpha for deg in range(order + 1) for alpha in block(variables, deg)]


def default_request(output_names, variables, order):
    """Every partial up to `order` of every output, named as `inrarch derive` names them."""
    reqs = []
    for name in output_names:
        for alpha in multi_indices(variables, order):
            suffix = "" if not any(alpha) else "_d" + "_".join(str(a) for a in alpha)
            reqs.append({"name": name + suffix, "of": name, "alpha": alpha})
    return reqs


def _partial(value, x, alpha):
    """∂^α of a per-row scalar `value` [rows]: one autograd.grad per direction. Rows are
    independent, so the gradient of the sum is every row's own."""
    for j, count in enumerate(alpha):
        for _ in range(count):
            (g,) = torch.autograd.grad(value.sum(), x, create_graph=True)
            value = g[..., j].reshape(-1)   # x: [rows, d] or [1, rows, d]
    return value


def request_terms(req):
    """A request's (multi-index, weight) pairs: "terms" [{"alpha", "scale"?}, ...] (a signed
    sum), or "alpha", one multi-index or a list of them to add (docs/taylor.md "Requests")."""
    if "terms" in req:
        return [(t["alpha"], t.get("scale", 1.0)) for t in req["terms"]]
    alphas = req["alpha"] if isinstance(req["alpha"][0], list) else [req["alpha"]]
    return [(a, 1.0) for a in alphas]


def _reference(value, x, req):
    """scale · Σ w ∂^α value[..., index], per-row element by element (x: [rows, d] or
    [1, rows, d], and value's elements row-major by row: [rows, ...] or [1, rows, ...])."""
    if "index" in req:
        value = value[..., req["index"]]
    flat = value.reshape(x.shape[-2], -1)
    terms = request_terms(req)
    cols = [sum(w * _partial(flat[:, c], x, a) for a, w in terms) for c in range(flat.shape[1])]
    return (torch.stack(cols, 1).reshape(value.shape) * req.get("scale", 1.0)).detach()


def autograd_reference(fn, inputs, params, wrt, request, dtype=torch.float64):
    """The requested derivatives of fn by PyTorch autograd, on the inputs as given: output
    name -> float64 array; and fn's own outputs (name -> float64 array)."""
    ins, ps = _fresh(inputs, dtype), _fresh(params, dtype)
    # As export() does: the modules and tensors fn closes over are in `dtype` meanwhile.
    with in_dtype(fn, set(ins) | set(ps), dtype):
        names, values = _named_outputs(fn(ins, ps))
        by_name = dict(zip(names, values))
        derived = {r["name"]: _reference(by_name[r["of"]], ins[wrt], r).to(torch.float64).numpy()
                   for r in request}
        return derived, {n: v.detach().to(torch.float64).numpy() for n, v in by_name.items()}


def export_derivatives(fn, inputs, params, out_dir, wrt="x", order=1, request=None,
                       dtype=torch.float64, name="main", binary=None, mode="auto"):
    """Exports fn's derivatives up to `order` w.r.t. input `wrt` ([rows, d], rows independent;
    or SIREN's [1, rows, d], see points.py) as a bundle in out_dir, written atomically.

    request: a list of {"name", "of", "alpha" | "terms", "index"?, "scale"?} (docs/taylor.md),
    or None for every partial of every output. Only fn itself is traced; `inrarch derive` builds the
    derivative graph, by Taylor mode, nested reverse mode, or (mode="auto") whichever has fewer
    multiplies in the lowered design. Returns the request used.
    """
    traced_fn, traced_inputs = points_as_rows(fn, inputs, wrt)
    with tempfile.TemporaryDirectory() as tmp:
        primal = os.path.join(tmp, "primal")
        result = export(traced_fn, traced_inputs, params, primal, dtype=dtype, name=name)
        if request is None:
            request = default_request(list(result.reference), inputs[wrt].shape[-1], order)
        req_file = os.path.join(tmp, "request.json")
        with open(req_file, "w") as f:
            json.dump({"outputs": request}, f)
        derived = os.path.join(tmp, "derived")
        p = subprocess.run([find_binary(binary), "derive", primal, "--wrt", wrt, "--order", str(order),
                            "--request", req_file, "--mode", mode, "--no-reference", "-o", derived],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise ExportError((p.stdout + p.stderr).strip())
        with open(os.path.join(derived, "graph.json")) as f:
            graph = json.load(f)
        reference, primal_values = autograd_reference(fn, inputs, params, wrt, request, dtype)
        if traced_fn is not fn:
            check_points_independent(result.reference, primal_values, wrt)
            relayout_outputs(graph, reference)
        write_bundle(out_dir, graph, read_npy_dir(os.path.join(derived, "inputs")),
                     read_npy_dir(os.path.join(derived, "params")), reference, source_dtype=dtype)
    return request
