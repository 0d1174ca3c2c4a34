"""The models the exporter is measured and tested on: the INSP benchmark (README) and a
few common INR / PINN MLPs. Every model is fn(inputs, params) -> list of tensors, the form
export() takes; params are plain named tensors ("l{i}.weight", "l{i}.bias")."""
import math

import numpy as np
import torch

INSP_LAYERS = 5          # 2 -> w -> w -> w -> w -> 3
INSP_OMEGA = 30.0
INSP_SCALE = 189.0       # INSP-Net divides each output by 189 before differentiating


def insp_num(order):
    """Number of outputs differentiated at `order` (order 1: 3, 2: 9, 3: 21)."""
    n = 3
    for _ in range(order - 1):
        n = 3 + 2 * n
    return n


def insp_output_count(order):
    return 3 + 2 * insp_num(order)


def siren_params(sizes, seed=0, dtype=torch.float64):
    """SIREN initialisation (Sitzmann et al.): first layer U(-1/in, 1/in), others
    U(-sqrt(6/in)/30, sqrt(6/in)/30); biases U(-1/sqrt(in), 1/sqrt(in)) as nn.Linear."""
    gen = torch.Generator().manual_seed(seed)
    params = {}
    for i, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        bound = 1.0 / fan_in if i == 0 else math.sqrt(6.0 / fan_in) / INSP_OMEGA
        w = (torch.rand(fan_out, fan_in, generator=gen, dtype=dtype) * 2 - 1) * bound
        b = (torch.rand(fan_out, generator=gen, dtype=dtype) * 2 - 1) / math.sqrt(fan_in)
        params[f"l{i}.weight"], params[f"l{i}.bias"] = w, b
    return params


def uniform_input(batch, dim, seed=0, dtype=torch.float64):
    gen = torch.Generator().manual_seed(seed + 1000)
    return torch.rand(batch, dim, generator=gen, dtype=dtype) * 2 - 1


def linear(h, w, b, form):
    """One layer: INSP-Net's batched form (matmul / permute / unsqueeze / in-place add) or
    nn.Linear's (F.linear: addmm / t)."""
    if form == "nn":
        return torch.nn.functional.linear(h, w, b)
    out = h.matmul(w.permute(-1, -2))
    out += b.unsqueeze(-2)
    return out


def insp_fn(order, form="batch"):
    """INSP's "new_grad_lastdim" outputs up to `order` (README)."""
    num = insp_num(order)

    def fn(inputs, params):
        x = inputs["x"]
        h = x
        for i in range(INSP_LAYERS):
            h = linear(h, params[f"l{i}.weight"], params[f"l{i}.bias"], form)
            if i < INSP_LAYERS - 1:
                h = torch.sin(INSP_OMEGA * h)
        li = [h[..., 0], h[..., 1], h[..., 2]]
        for i in range(num):
            g = torch.autograd.grad(li[i] / INSP_SCALE, x, torch.ones_like(li[i]),
                                    create_graph=True)[0]
            li += [g[..., 0], g[..., 1]]
        return li

    return fn


def insp_setup(batch, width=256, seed=0, dtype=torch.float64):
    params = siren_params([2] + [width] * (INSP_LAYERS - 1) + [3], seed, dtype)
    return {"x": uniform_input(batch, 2, seed, dtype)}, params


def load_insp_bundle(bundle_dir):
    """x and l{i}.weight / l{i}.bias from a bundle (e.g. `inrarch model insp -o DIR`)."""
    import os
    from .bundle import ExportError, npy_name

    def load(sub, name):
        path = os.path.join(bundle_dir, sub, npy_name(name))
        if not os.path.isfile(path):
            raise ExportError(f"--params-from: {path} does not exist")
        return torch.from_numpy(np.load(path).astype(np.float64))

    params = {}
    for i in range(INSP_LAYERS):
        for kind in ("weight", "bias"):
            params[f"l{i}.{kind}"] = load("params", f"l{i}.{kind}")
    return {"x": load("inputs", "x")}, params


# ---- other MLPs (tests, docs) -----------------------------------------------------------

def mlp_params(sizes, seed=0, dtype=torch.float64):
    """nn.Linear's default initialisation, seeded."""
    gen = torch.Generator().manual_seed(seed)
    params = {}
    for i, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        bound = 1.0 / math.sqrt(fan_in)
        params[f"l{i}.weight"] = (torch.rand(fan_out, fan_in, generator=gen, dtype=dtype) * 2 - 1) * bound
        params[f"l{i}.bias"] = (torch.rand(fan_out, generator=gen, dtype=dtype) * 2 - 1) * bound
    return params


def mlp_forward(x, params, acts, form="nn"):
    """acts[i] is the activation after layer i (None: linear)."""
    h = x
    for i, act in enumerate(acts):
        h = linear(h, params[f"l{i}.weight"], params[f"l{i}.bias"], form)
        if act is not None:
            h = act(h)
    return h


def grad(y, x):
    return torch.autograd.grad(y.sum(), x, create_graph=True)[0]


def laplacian(u, x):
    """sum_j d^2 u / dx_j^2 of a [B] output u w.r.t. a [B, d] input x."""
    g = grad(u, x)
    terms = [grad(g[:, j], x)[:, j] for j in range(x.shape[1])]
    lap = terms[0]  # not sum(): its start value 0 would be an unrecorded constant
    for t in terms[1:]:
        lap = lap + t
    return lap
