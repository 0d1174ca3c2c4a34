"""What the exporter refuses before writing a bundle, beyond the op names of aten_ops.txt
(docs/pytorch.md "Unsupported ops").

- REWRITES: for an unsupported op, a rewrite into supported ops where an exact one exists
  (the error quotes it). A row here is only read for an op aten_ops.txt does not list, so
  once the importer maps an op its row is unused, never wrong.
- LIMITS: for an unsupported op with no rewrite, what it is used for and what is supported
  instead.
- ARGUMENT_CHECKS: ops the importer maps only for some arguments. Each check mirrors the
  importer's rule (src/frontend/aten_rules*.cpp) and returns what it refuses, or None; when
  the importer maps more, its check is relaxed here (or its row removed).
"""
import math

import torch

REWRITES = {
    "tan": "torch.sin(x) / torch.cos(x)",
    "sinh": "(torch.exp(x) - torch.exp(-x)) / 2",
    "expm1": "torch.exp(x) - 1",
    "log1p": "torch.log(1 + x)",
    "_softmax": "e = torch.exp(x); e / e.sum(dim, keepdim=True)",
}

# Unsupported ops with no rewrite: what they are used for, and what is supported instead.
LIMITS = {
    "_linalg_svd": "singular values are not supported (torch.linalg.norm / matrix_norm of a "
                   "matrix with ord 2, -2 or 'nuc', torch.linalg.svd); vector norms of any order "
                   "(dim=-1) and matrix norms 'fro', 1, -1, inf, -inf are",
}

# The importer's pow (aten_rules_math.cpp): a tensor to any finite number (integers by
# multiplies, half-integers with a sqrt, others as exp(e log x)); a tensor exponent, a number
# base or a non-finite exponent it refuses.
def _pow(args, kwargs):
    base = args[0] if args else kwargs.get("self")
    exponent = args[1] if len(args) > 1 else kwargs.get("exponent")
    if not isinstance(base, torch.fx.Node):
        return "a number raised to a tensor power is not supported"
    if isinstance(exponent, torch.fx.Node):
        return "a tensor exponent is not supported (only a number)"
    if not math.isfinite(float(exponent)):
        return f"exponent {exponent!r} is not supported (only a finite number)"
    return None


ARGUMENT_CHECKS = {"pow": _pow}


def refusal(base, args, kwargs):
    """Why the importer would refuse op `base` with these arguments, or None."""
    check = ARGUMENT_CHECKS.get(base)
    return check(args, kwargs) if check is not None else None


def rewrite_hint(base):
    """'; rewrite it as ...' for an unsupported op with a known rewrite, ': why ...' for one in
    LIMITS, else ''."""
    hint = REWRITES.get(base)
    if hint:
        return f"; rewrite it as {hint}"
    return f": {LIMITS[base]}" if base in LIMITS else ""
