"""Multi-output ops in the autograd walk (autograd_walk.py): native_layer_norm (items y, mean,
rstd) and the native_layer_norm_backward that create_graph=True records (items dx, dweight,
dbias). A consumer names the item it reads by its next_functions index; the walk writes each
item as the op with "item": k, as export() does for fx getitem nodes (docs/pytorch.md).

A layer norm's backward reads the forward's mean and rstd as saved tensors, not through
next_functions: they are found by their storage among the forward's saved results, so they
stay functions of the input (a dense constant would tie the graph to one batch). Autograd
keeps no eps; it is solved from rstd = 1 / sqrt(var + eps) and must reproduce rstd."""
import torch

from .bundle import ExportError

LAYER_NORM = "NativeLayerNormBackward0"
LAYER_NORM_BACKWARD = "NativeLayerNormBackwardBackward0"


def saved_items(f):
    """item index -> the saved tensor of grad_fn f that is that item of f's own result."""
    if type(f).__name__ == LAYER_NORM:
        return {1: f._saved_result1, 2: f._saved_result2}
    return {}


def layer_norm_eps(x, n_dims, rstd):
    """The eps of a layer norm over the last n_dims of x whose saved rstd is given: the
    estimate 1/rstd^2 - var, to the fewest significant digits that reproduce rstd."""
    dims = list(range(x.dim() - n_dims, x.dim()))
    var = x.detach().double().var(dim=dims, unbiased=False, keepdim=True)
    r = rstd.detach().double()
    estimate = float((1 / (r * r) - var).median())
    tol = 1e-9 if rstd.dtype == torch.float64 else 1e-5
    candidates = [float(f"{estimate:.{d}g}") for d in range(1, 13)] + [1e-5, estimate]
    for eps in candidates:
        if eps > 0 and torch.allclose(1 / torch.sqrt(var + eps), r, rtol=tol, atol=0):
            return eps
    raise ValueError(f"no eps reproduces the saved rstd (estimate {estimate:g})")


def _optional(walker, f, k, saved, where):
    """Operand k, or None where the op was given none (a layer norm without weight or bias)."""
    if f.next_functions[k][0] is None and (saved is None or getattr(f, saved, None) is None):
        return None
    return walker._operand(f, k, saved, where)


def _layer_norm(walker, f, where):
    shape = [int(s) for s in f._saved_normalized_shape]
    try:
        eps = layer_norm_eps(f._saved_input, len(shape), f._saved_result2)
    except ValueError as e:
        raise ExportError(f"{where}: {e}") from e
    args = [walker._operand(f, 0, "_saved_input", where), shape,
            _optional(walker, f, 1, "_saved_weight", where),
            _optional(walker, f, 2, "_saved_bias", where), eps]
    return "aten.native_layer_norm.default", args


def _layer_norm_backward(walker, f, where):
    weight = _optional(walker, f, 4, "_saved_weight", where)
    bias = _optional(walker, f, 5, None, where)
    args = [walker._operand(f, 0, "_saved_grad_out", where), walker._operand(f, 1, "_saved_input", where),
            [int(s) for s in f._saved_normalized_shape], walker._operand(f, 2, "_saved_mean", where),
            walker._operand(f, 3, "_saved_rstd", where), weight, bias,
            [True, weight is not None, bias is not None]]
    return "aten.native_layer_norm_backward.default", args


# grad_fn name -> (walker, grad_fn, where) -> (aten op, args): the op's item 0 is the node.
MULTI = {LAYER_NORM: _layer_norm, LAYER_NORM_BACKWARD: _layer_norm_backward}
