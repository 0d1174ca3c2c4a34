"""The ways a user computes a workload's outputs (docs/benchmarks.md "Baselines"):

  nested   torch.autograd.grad nested to the order, create_graph=True (INSP-Net's reference
           code and the zoo's);
  taylor   forward (Taylor) mode in plain PyTorch: every partial the outputs need, mixed ones
           once, pushed through the network in one sweep; a layer's coefficients are one
           stacked matmul (docs/taylor.md);
  functorch  vmap over the samples of jacfwd nested to the order (lower orders kept as aux):
           torch.func on PyTorch 2.x, the functorch package on 1.13.

Each `build(method, workload, dtype, device)` returns run(x) -> list of output tensors. The
methods share nothing but workloads.py's Workload.assemble (the mapping from partials to the
workload's outputs), and `nested` does not use it, so a wrong mapping fails the check.
"""
import math

import torch

from workloads import SOFTPLUS_THRESHOLD, closure

METHODS = ("nested", "taylor", "functorch")


def act_derivatives(wl, z, k):
    """[sigma(z), sigma'(z), ..., sigma^(k)(z)] of the workload's activation."""
    if wl.act == "sin":
        w = wl.act_param
        s, c = torch.sin(w * z), torch.cos(w * z)
        return [[s, c, -s, -c][i % 4] * w ** i for i in range(k + 1)]
    if wl.act == "tanh":
        t = torch.tanh(z)
        d1 = 1 - t * t
        return [t, d1, -2 * t * d1, (6 * t * t - 2) * d1][:k + 1]
    beta = wl.act_param      # softplus with nn.Softplus's threshold, as autograd differentiates it
    lin = beta * z > SOFTPLUS_THRESHOLD
    s = torch.sigmoid(beta * z)
    ds = s * (1 - s)
    ders = [torch.nn.functional.softplus(z, beta=beta, threshold=SOFTPLUS_THRESHOLD),
            torch.where(lin, torch.ones_like(s), s),
            torch.where(lin, torch.zeros_like(s), beta * ds),
            torch.where(lin, torch.zeros_like(s), beta * beta * ds * (1 - 2 * s))]
    return ders[:k + 1]


def set_partitions(items):
    """Every partition of a list into blocks (Faa di Bruno's sum runs over them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        yield [[first]] + part
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]


def faa_di_bruno_terms(t):
    """For partial t: [(k, [block multi-indices])] with d_t sigma(z) = sum sigma^(k) prod z_block."""
    terms = []
    for part in set_partitions(list(range(len(t)))):
        terms.append((len(part), [tuple(sorted(t[i] for i in blk)) for blk in part]))
    return terms


def stacked_linear(jet, w, b):
    """z_t = h_t W^T for every coefficient in one matmul (+ b on the value only)."""
    keys = [t for t in jet if jet[t] is not None]
    rows = [jet[t].shape[0] for t in keys]
    out = torch.cat([jet[t] for t in keys]).matmul(w.t()).split(rows)
    z = dict(zip(keys, out))
    z[()] = z[()] + b
    return z


def taylor_activation(wl, z, index, terms):
    order = max(len(t) for t in index)
    ders = act_derivatives(wl, z[()], order)
    y = {(): ders[0]}
    for t in index[1:]:
        by_k = {}
        for k, blocks in terms[t]:
            if any(z.get(blk) is None for blk in blocks):
                continue
            prod = z[blocks[0]]
            for blk in blocks[1:]:
                prod = prod * z[blk]
            by_k[k] = prod if k not in by_k else by_k[k] + prod
        y[t] = None
        for k, s in by_k.items():
            y[t] = ders[k] * s if y[t] is None else y[t] + ders[k] * s
    return y


def build_taylor(wl, params):
    index = closure(wl.alphas)
    terms = {t: faa_di_bruno_terms(t) for t in index if t}

    def run(x):
        eye = torch.eye(wl.in_dim, dtype=x.dtype, device=x.device)
        jet = {t: None for t in index}
        jet[()] = x
        for j in range(wl.in_dim):          # the seeds: one row each, broadcast over the batch
            if (j,) in jet:
                jet[(j,)] = eye[j:j + 1]
        for i, (w, b) in enumerate(params):
            jet = stacked_linear(jet, w, b)
            if i < len(params) - 1:
                jet = taylor_activation(wl, jet, index, terms)

        def partial(t):
            v = jet.get(t)
            return torch.zeros_like(jet[()]) if v is None else v.expand_as(jet[()])
        return wl.assemble(x, partial)
    return run


def build_nested(wl, params):
    def run(x):
        return wl.nested(x.detach().clone(), params)
    return run


def nest_jacfwd(jacfwd, f, order):
    """x -> (D_order, (D_0 .. D_order-1)) by jacfwd nested `order` times (functorch's or JAX's),
    each level keeping the ones below as aux, so no order is computed twice."""
    def lift(fk):   # x -> (D_k, lower)  becomes  x -> (D_k+1, lower + (D_k,))
        def g(xs):
            dk, lower = fk(xs)
            return dk, lower + (dk,)
        return jacfwd(g, has_aux=True)

    fk = lambda xs: (f(xs), ())  # noqa: E731
    for _ in range(order):
        fk = lift(fk)
    return fk


def func_transforms():
    """(vmap, jacfwd, name): torch.func on PyTorch 2.x, the functorch package on 1.13."""
    try:
        from torch import func
        return func.vmap, func.jacfwd, "torch.func"
    except ImportError:
        import functorch
        return functorch.vmap, functorch.jacfwd, "functorch"


def build_functorch(wl, params):
    vmap, jacfwd, _ = func_transforms()
    order = max(len(a) for a in wl.alphas)

    def f(xs):      # one sample [d] -> its output [out]
        return wl.forward(xs, params)

    batched = vmap(nest_jacfwd(jacfwd, f, order))

    def run(x):
        top, lower = batched(x)
        ders = list(lower) + [top]      # ders[k]: [B, out, d, ..., d] (k times d)

        def partial(t):
            return ders[len(t)][(slice(None), slice(None)) + tuple(t)]
        return wl.assemble(x, partial)
    return run


BUILDERS = {"nested": build_nested, "taylor": build_taylor, "functorch": build_functorch}


def build(method, wl, dtype, device="cpu"):
    if method not in BUILDERS:
        raise SystemExit(f"unknown method '{method}' (known: {', '.join(METHODS)})")
    return BUILDERS[method](wl, wl.params(dtype, device))


def flat(outputs):
    """The outputs as one [B, n] tensor, each output's columns side by side."""
    return torch.cat([o.reshape(o.shape[0], -1) for o in outputs], dim=1)


def mac_count(wl, batch):
    """Multiply-accumulates of one primal pass (a scale for the plots, not a cost model)."""
    return batch * sum(w.shape[0] * w.shape[1] for w, _ in wl.layers)


__all__ = ["METHODS", "build", "flat", "mac_count", "act_derivatives", "math"]
