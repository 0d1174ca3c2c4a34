"""The workloads of the baseline comparison (docs/benchmarks.md "Baselines"): INSP's SIREN at
orders 1-3 and two models of bench/zoo/models.py, each as an MLP (a list of (weight, bias),
an activation after every layer but the last) plus the outputs its community computes from
the MLP's partial derivatives.

Every method of methods.py computes the partials its own way; `assemble` turns them into the
workload's outputs and `nested` is the community's own code (nested torch.autograd.grad).
"""
import importlib.util
import math
import os
import sys
from dataclasses import dataclass
from itertools import combinations

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ZOO = os.path.join(ROOT, "bench", "zoo")
if ZOO not in sys.path:
    sys.path.insert(0, ZOO)


def _insp_models():
    """python/inrarch_torch/models.py alone (math, numpy, torch), not the package: the package's
    exporters are written against this machine's PyTorch, and a GPU machine's may differ."""
    spec = importlib.util.spec_from_file_location(
        "inrarch_insp_models", os.path.join(ROOT, "python", "inrarch_torch", "models.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


insp_models = _insp_models()
import models as zoo  # noqa: E402  (bench/zoo/models.py)

SOFTPLUS_THRESHOLD = 20.0   # nn.Softplus's default: linear above beta*z > 20


@dataclass
class Workload:
    name: str          # e.g. "insp-o2"
    model: str         # "insp", "poisson_pinn", "neural_sdf"
    order: int         # highest derivative order taken
    act: str           # "sin", "tanh" or "softplus"
    act_param: float   # omega of sin(omega z), beta of softplus
    layers: list       # [(W [out, in], b [out])], float64
    alphas: list       # the partials the outputs need: sorted tuples of input indices
    in_dim: int

    def params(self, dtype, device="cpu"):
        return [(w.to(device, dtype), b.to(device, dtype)) for w, b in self.layers]

    def inputs(self, batch, dtype, device="cpu", seed=0):
        """Rows are independent, and batch B's rows are the first B rows of any larger batch."""
        gen = torch.Generator().manual_seed(seed + 1000)
        x = torch.rand(batch, self.in_dim, generator=gen, dtype=torch.float64)
        if self.model != "poisson_pinn":   # the zoo's SDF and INSP sample [-1, 1]; the PINN [0, 1]
            x = x * 2 - 1
        return x.to(device, dtype)

    def activation(self, z):
        if self.act == "sin":
            return torch.sin(self.act_param * z)
        if self.act == "tanh":
            return torch.tanh(z)
        return torch.nn.functional.softplus(z, beta=self.act_param, threshold=SOFTPLUS_THRESHOLD)

    def forward(self, x, params):
        h = x
        for i, (w, b) in enumerate(params):
            h = torch.nn.functional.linear(h, w, b)
            if i < len(params) - 1:
                h = self.activation(h)
        return h

    def assemble(self, x, partial):
        """The outputs from partial(t) -> d^|t| y / dx_t1 .. dx_tk as [B, out] (t sorted)."""
        return ASSEMBLE[self.model](self, x, partial)

    def nested(self, x, params):
        """The community's code: nested torch.autograd.grad with create_graph=True."""
        return NESTED[self.model](self, x, params)


def closure(alphas):
    """Every sub-multiset of the requested multi-indices: what the jet must carry."""
    out = {()}
    for a in alphas:
        for k in range(1, len(a) + 1):
            out.update(tuple(sorted(c)) for c in combinations(a, k))
    return sorted(out, key=lambda t: (len(t), t))


# ---- INSP: the README's derivative set, as python/inrarch_torch/models.py's insp_fn ----------

def insp_entries(order):
    """(output channel, directions) of each INSP output: li[3 + 2i + j] = d_j li[i] / 189."""
    entries = [(c, ()) for c in range(3)]
    for i in range(insp_models.insp_num(order)):
        c, dirs = entries[i]
        entries += [(c, dirs + (0,)), (c, dirs + (1,))]
    return entries


def _insp_assemble(wl, x, partial):
    return [partial(tuple(sorted(d)))[:, c] / insp_models.INSP_SCALE ** len(d)
            for c, d in insp_entries(wl.order)]


def _insp_nested(wl, x, params):
    p = {}
    for i, (w, b) in enumerate(params):
        p[f"l{i}.weight"], p[f"l{i}.bias"] = w, b
    return insp_models.insp_fn(wl.order)({"x": x.requires_grad_(True)}, p)


# ---- the zoo's Poisson PINN: u and -lap u - f -------------------------------------------------

def _source(xy):
    return 2 * math.pi ** 2 * torch.sin(math.pi * xy[:, 0:1]) * torch.sin(math.pi * xy[:, 1:2])


def _poisson_assemble(wl, x, partial):
    return [partial(()), -(partial((0, 0)) + partial((1, 1))) - _source(x)]


def _poisson_nested(wl, xy, params):   # bench/zoo/models.py poisson_pinn's fn
    xy = xy.requires_grad_(True)
    u = wl.forward(xy, params)
    du = torch.autograd.grad(u.sum(), xy, create_graph=True)[0]
    u_xx = torch.autograd.grad(du[:, 0].sum(), xy, create_graph=True)[0][:, 0:1]
    u_yy = torch.autograd.grad(du[:, 1].sum(), xy, create_graph=True)[0][:, 1:2]
    return [u, -(u_xx + u_yy) - _source(xy)]


# ---- the zoo's neural SDF: sdf, gradient, eikonal term, Laplacian ------------------------------

def _sdf_assemble(wl, x, partial):
    g = torch.cat([partial((j,)) for j in range(3)], dim=1)
    lap = partial((0, 0)) + partial((1, 1)) + partial((2, 2))
    return [partial(()), g, (g.norm(dim=-1, keepdim=True) - 1) ** 2, lap]


def _sdf_nested(wl, p, params):   # bench/zoo/models.py neural_sdf's fn
    p = p.requires_grad_(True)
    sdf = wl.forward(p, params)
    g = zoo.gradient(sdf, p)
    return [sdf, g, (g.norm(dim=-1, keepdim=True) - 1) ** 2, zoo.divergence(g, p)]


ASSEMBLE = {"insp": _insp_assemble, "poisson_pinn": _poisson_assemble, "neural_sdf": _sdf_assemble}
NESTED = {"insp": _insp_nested, "poisson_pinn": _poisson_nested, "neural_sdf": _sdf_nested}


def _zoo_layers(name):
    """The weights of the zoo's model as bench/zoo/models.py builds it (seed 0), float64."""
    case = zoo.build(name, 1)
    nets = [c.cell_contents for c in case.fn.__closure__ if isinstance(c.cell_contents, torch.nn.Module)]
    lins = [m for m in nets[0].modules() if isinstance(m, torch.nn.Linear)]
    return [(m.weight.detach().double().clone(), m.bias.detach().double().clone()) for m in lins]


def insp(order, width=256):
    p = insp_models.siren_params([2] + [width] * (insp_models.INSP_LAYERS - 1) + [3], seed=0)
    layers = [(p[f"l{i}.weight"], p[f"l{i}.bias"]) for i in range(insp_models.INSP_LAYERS)]
    alphas = sorted({tuple(sorted(d)) for _, d in insp_entries(order)}, key=lambda t: (len(t), t))
    return Workload(f"insp-o{order}", "insp", order, "sin", insp_models.INSP_OMEGA, layers, alphas, 2)


def poisson_pinn():
    return Workload("poisson_pinn", "poisson_pinn", 2, "tanh", 0.0, _zoo_layers("poisson_pinn"),
                    [(), (0, 0), (1, 1)], 2)


def neural_sdf():
    return Workload("neural_sdf", "neural_sdf", 2, "softplus", 100.0, _zoo_layers("neural_sdf"),
                    [(), (0,), (1,), (2,), (0, 0), (1, 1), (2, 2)], 3)


def all_workloads():
    return [insp(1), insp(2), insp(3), poisson_pinn(), neural_sdf()]


def by_name(name):
    for wl in all_workloads():
        if wl.name == name:
            return wl
    raise SystemExit(f"unknown workload '{name}' (known: {', '.join(w.name for w in all_workloads())})")
