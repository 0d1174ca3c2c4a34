"""The methods only a GPU machine runs (docs/benchmarks.md "Baselines", GPU), on top of
methods.py's: each of them replayed as a CUDA graph (no launch overhead), the Taylor and
functorch methods under torch.compile (PyTorch 2.x), and JAX's jit(vmap(jacfwd)) and
jax.experimental.jet when JAX imports. Each returns run(x) -> outputs like methods.build, or
raises Unavailable."""
import os

import torch

from methods import build, nest_jacfwd


class Unavailable(Exception):
    pass


def cuda_graph(method, wl, dtype, device):
    """Capture run(x) once per batch shape; a call copies x in and replays the graph."""
    if not str(device).startswith("cuda"):
        raise Unavailable("CUDA graphs need a CUDA device")
    inner = build(method, wl, dtype, device)
    graphs = {}

    def run(x):
        if x.shape not in graphs:
            static_x = x.clone()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(2):
                    inner(static_x)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                static_out = inner(static_x)
            graphs[x.shape] = (g, static_x, static_out)
        g, static_x, static_out = graphs[x.shape]
        static_x.copy_(x)
        g.replay()
        return static_out
    return run


def compiled(method, wl, dtype, device):
    if not hasattr(torch, "compile"):
        raise Unavailable(f"torch.compile needs PyTorch 2.x (this is {torch.__version__})")
    # Every workload's run is the same code object to dynamo, and each batch shape recompiles
    # it: past dynamo's recompile limit (8) the call silently runs eagerly. A fresh dynamo per
    # compiled method keeps every timed call a compiled one.
    torch._dynamo.reset()
    return torch.compile(build(method, wl, dtype, device), dynamic=False)


def _jax():
    # JAX takes 75 % of the GPU's memory at its first use unless told not to; PyTorch shares it.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:
        raise Unavailable(f"JAX does not import: {e}")
    jax.config.update("jax_enable_x64", True)
    # JAX's default float32 matmul on a GPU rounds through TF32 (a 10-bit mantissa), which five
    # layers of sin(30 z) turn into errors the check refuses; PyTorch's default is full float32.
    jax.config.update("jax_default_matmul_precision", "highest")
    return jax, jnp


def _jax_forward(wl, jnp, params):
    def act(z):
        if wl.act == "sin":
            return jnp.sin(wl.act_param * z)
        if wl.act == "tanh":
            return jnp.tanh(z)
        bz = wl.act_param * z   # softplus with PyTorch's threshold
        return jnp.where(bz > 20.0, z, jnp.log1p(jnp.exp(jnp.minimum(bz, 20.0))) / wl.act_param)

    def f(xs):
        h = xs
        for i, (w, b) in enumerate(params):
            h = w @ h + b
            if i < len(params) - 1:
                h = act(h)
        return h
    return f


def _to_jax(jax, t):
    """A torch tensor as a JAX array on the same device, without a copy (DLPack)."""
    t = t.contiguous()
    try:
        return jax.dlpack.from_dlpack(t)                                  # JAX >= 0.4.14
    except TypeError:
        return jax.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(t))    # older: a capsule


def _to_torch(a):
    return torch.utils.dlpack.from_dlpack(a)


def _ready(jax, tree):
    """JAX dispatches asynchronously on its own streams: wait, so a run's time is its work."""
    return jax.block_until_ready(tree)


def jax_jacfwd(wl, dtype, device):
    """jit(vmap(jacfwd^K)) with the lower orders as aux, as functorch's method."""
    jax, jnp = _jax()
    params = [(_to_jax(jax, w), _to_jax(jax, b)) for w, b in wl.params(dtype, device)]
    f = _jax_forward(wl, jnp, params)
    order = max(len(a) for a in wl.alphas)
    batched = jax.jit(jax.vmap(nest_jacfwd(jax.jacfwd, f, order)))

    def run(x):
        top, lower = _ready(jax, batched(_to_jax(jax, x)))
        ders = [_to_torch(d) for d in list(lower) + [top]]
        return wl.assemble(x, lambda t: ders[len(t)][(slice(None), slice(None)) + tuple(t)])
    return run


def jax_jet(wl, dtype, device):
    """jax.experimental.jet along e_j (pure partials) and, in 2-D, e0 +- e1 (the mixed ones
    by polarisation: d_v^k f = sum_a C(k,a) v0^a v1^(k-a) d0^a d1^(k-a) f)."""
    jax, jnp = _jax()
    try:
        from jax.experimental import jet
    except ImportError as e:
        raise Unavailable(f"jax.experimental.jet does not import: {e}")
    if wl.in_dim != 2 and any(len(set(a)) > 1 for a in wl.alphas):
        raise Unavailable("mixed partials by polarisation are written for 2 inputs only")
    params = [(_to_jax(jax, w), _to_jax(jax, b)) for w, b in wl.params(dtype, device)]
    f = _jax_forward(wl, jnp, params)
    order = max(len(a) for a in wl.alphas)
    dirs = [tuple(1.0 if i == j else 0.0 for i in range(wl.in_dim)) for j in range(wl.in_dim)]
    if any(len(set(a)) > 1 for a in wl.alphas):
        dirs += [(1.0, 1.0), (1.0, -1.0)]

    def along(xs, v):
        v = jnp.asarray(v, xs.dtype)
        series = [v] + [jnp.zeros_like(v)] * (order - 1)
        y0, ys = jet.jet(f, (xs,), (series,))
        return [y0] + list(ys)       # ys[k-1] = d_v^k f (jet's coefficients are derivatives)
    batched = jax.jit(jax.vmap(lambda xs: [along(xs, v) for v in dirs]))

    def run(x):
        res = [[_to_torch(a) for a in per_dir] for per_dir in _ready(jax, batched(_to_jax(jax, x)))]
        return wl.assemble(x, lambda t: _partial_from_dirs(t, res, wl.in_dim))
    return run


def _partial_from_dirs(t, res, d):
    if not t:
        return res[0][0]
    if len(set(t)) == 1:
        return res[t[0]][len(t)]
    plus, minus = res[d], res[d + 1]
    k, a = len(t), t.count(0)
    if k == 2:
        return (plus[2] - res[0][2] - res[1][2]) / 2
    if a == 2:       # f_001 = (D+^3 - D-^3 - 2 f_111) / 6
        return (plus[3] - minus[3] - 2 * res[1][3]) / 6
    return (plus[3] + minus[3] - 2 * res[0][3]) / 6   # f_011


GPU_METHODS = {
    "nested+cudagraph": lambda wl, dt, dev: cuda_graph("nested", wl, dt, dev),
    "taylor+cudagraph": lambda wl, dt, dev: cuda_graph("taylor", wl, dt, dev),
    "functorch+cudagraph": lambda wl, dt, dev: cuda_graph("functorch", wl, dt, dev),
    "taylor+compile": lambda wl, dt, dev: compiled("taylor", wl, dt, dev),
    "functorch+compile": lambda wl, dt, dev: compiled("functorch", wl, dt, dev),
    "jax-jacfwd": jax_jacfwd,
    "jax-jet": jax_jet,
}
