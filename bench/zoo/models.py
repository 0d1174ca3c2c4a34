"""The model zoo: INR workloads as their communities write them in PyTorch (docs/benchmarks.md
"Model zoo"). Each entry builds nn.Modules in float32 (PyTorch's default) and returns a
`Case`: the function `inrarch_torch.export` traces, its inputs at a given batch, and the
export's dtype. `bench/zoo/run_zoo.py` exports and compiles them; python/tests/test_zoo.py
compiles them at a small batch with every C simulation.
"""
import math
from dataclasses import dataclass, field

import torch
from torch import nn


@dataclass
class Case:
    fn: object            # fn(inputs, params) -> dict of tensors
    inputs: dict          # name -> tensor, batch outermost
    dtype: torch.dtype = torch.float32
    note: str = ""        # how the code departs from the community's own, and why
    params: dict = field(default_factory=dict)


def gradient(y, x):
    """SIREN's `diff_operators.gradient`: dy/dx with a ones_like seed."""
    return torch.autograd.grad(y, [x], grad_outputs=torch.ones_like(y), create_graph=True)[0]


def divergence(y, x):
    """SIREN's `diff_operators.divergence`: sum_i d y[..., i] / d x[..., i]."""
    div = 0.
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][..., i:i + 1]
    return div


def laplace(y, x):
    return divergence(gradient(y, x), x)


# ---- SIREN (Sitzmann et al.), its explore_siren code: SineLayer, omega_0 = 30, [1, N, 2]

class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, is_first=False, omega_0=30.):
        super().__init__()
        self.omega_0, self.is_first, self.in_features = omega_0, is_first, in_features
        self.linear = nn.Linear(in_features, out_features)
        with torch.no_grad():
            bound = 1 / in_features if is_first else math.sqrt(6 / in_features) / omega_0
            self.linear.weight.uniform_(-bound, bound)

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, in_features, hidden_features, hidden_layers, out_features):
        super().__init__()
        layers = [SineLayer(in_features, hidden_features, is_first=True)]
        layers += [SineLayer(hidden_features, hidden_features) for _ in range(hidden_layers)]
        final = nn.Linear(hidden_features, out_features)
        with torch.no_grad():
            bound = math.sqrt(6 / hidden_features) / 30.
            final.weight.uniform_(-bound, bound)
        self.net = nn.Sequential(*layers, final)

    def forward(self, coords):
        return self.net(coords)


def siren(batch, width=128):
    net = Siren(2, width, 2, 1)   # 2 -> 3 x 128 -> 1

    def fn(inputs, params):
        coords = inputs["coords"]
        img = net(coords)
        return {"img": img, "grad": gradient(img, coords), "lap": laplace(img, coords)}
    return Case(fn, {"coords": torch.rand(1, batch, 2) * 2 - 1})


# ---- PINNs (Raissi et al. style): tanh MLPs, derivatives by autograd.grad

class MLP(nn.Module):
    def __init__(self, sizes, act=nn.Tanh):
        super().__init__()
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(act())
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def poisson_pinn(batch, width=32):
    """-Δu = f on [0, 1]^2 with f = 2π² sin(πx) sin(πy): the residual at collocation points."""
    net = MLP([2, width, width, width, 1])

    def fn(inputs, params):
        xy = inputs["xy"]
        u = net(xy)
        du = torch.autograd.grad(u.sum(), xy, create_graph=True)[0]
        u_xx = torch.autograd.grad(du[:, 0].sum(), xy, create_graph=True)[0][:, 0:1]
        u_yy = torch.autograd.grad(du[:, 1].sum(), xy, create_graph=True)[0][:, 1:2]
        f = 2 * math.pi ** 2 * torch.sin(math.pi * xy[:, 0:1]) * torch.sin(math.pi * xy[:, 1:2])
        return {"u": u, "residual": -(u_xx + u_yy) - f}
    return Case(fn, {"xy": torch.rand(batch, 2)})


def heat_pinn(batch, width=32):
    """u_t = κ u_xx: the residual from u_t and u_xx."""
    net = MLP([2, width, width, width, 1])
    kappa = 0.1

    def fn(inputs, params):
        xt = inputs["xt"]
        u = net(xt)
        du = torch.autograd.grad(u, xt, torch.ones_like(u), create_graph=True)[0]
        u_x, u_t = du[:, 0:1], du[:, 1:2]
        u_xx = torch.autograd.grad(u_x, xt, torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
        return {"u": u, "u_t": u_t, "u_xx": u_xx, "residual": u_t - kappa * u_xx}
    return Case(fn, {"xt": torch.rand(batch, 2)})


# ---- neural SDF (IGR / DeepSDF style): softplus MLP, eikonal term, Laplacian

def neural_sdf(batch, width=64):
    net = MLP([3, width, width, width, 1], act=lambda: nn.Softplus(beta=100))

    def fn(inputs, params):
        p = inputs["p"]
        sdf = net(p)
        g = gradient(sdf, p)
        eik = (g.norm(dim=-1, keepdim=True) - 1) ** 2
        return {"sdf": sdf, "grad": g, "eikonal": eik, "lap": divergence(g, p)}
    return Case(fn, {"p": torch.rand(batch, 3) * 2 - 1})


# ---- NeRF-style MLP with positional encoding (Mildenhall et al.)

class PositionalEncoding(nn.Module):
    def __init__(self, n_freqs):
        super().__init__()
        self.register_buffer("freqs", 2.0 ** torch.arange(n_freqs) * math.pi)

    def forward(self, x):
        xf = x[..., None] * self.freqs                          # [N, 3, L]
        enc = torch.cat([torch.sin(xf), torch.cos(xf)], dim=-1)  # [N, 3, 2L]
        return torch.cat([x, enc.flatten(-2)], dim=-1)          # [N, 3 + 6L]


class NeRFMLP(nn.Module):
    def __init__(self, n_freqs=4, width=64):
        super().__init__()
        self.pe = PositionalEncoding(n_freqs)
        d = 3 + 6 * n_freqs
        self.trunk = nn.Sequential(nn.Linear(d, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.sigma = nn.Linear(width, 1)
        self.rgb = nn.Sequential(nn.Linear(width, width // 2), nn.ReLU(), nn.Linear(width // 2, 3), nn.Sigmoid())

    def forward(self, x):
        h = self.trunk(self.pe(x))
        return torch.relu(self.sigma(h)), self.rgb(h)


def nerf(batch, width=64):
    net = NeRFMLP(width=width)

    def fn(inputs, params):
        sigma, rgb = net(inputs["x"])
        return {"sigma": sigma, "rgb": rgb}
    return Case(fn, {"x": torch.rand(batch, 3) * 2 - 1})


# ---- MAML (Finn et al.): one inner step on a support batch, the query loss's meta-gradient

def maml(batch, width=40):
    net = MLP([1, width, width, 1], act=nn.ReLU)
    names = [n for n, _ in net.named_parameters()]
    alpha = 0.01

    def forward(x, w):   # the functional form MAML code writes for adapted weights
        h = torch.relu(x @ w[0].t() + w[1])
        h = torch.relu(h @ w[2].t() + w[3])
        return h @ w[4].t() + w[5]

    def fn(inputs, params):
        x, y = inputs["x"], inputs["y"]
        w = [params[n] for n in names]
        loss = ((forward(x, w) - y) ** 2).mean()
        grads = torch.autograd.grad(loss, w, create_graph=True)
        fast = [wi - alpha * gi for wi, gi in zip(w, grads)]
        query = ((forward(x, fast) - y) ** 2).mean()
        meta = torch.autograd.grad(query, w[4], create_graph=True)[0]
        return {"adapted": forward(x, fast), "meta_grad_w_out": meta}
    x = torch.rand(batch, 1) * 10 - 5
    return Case(fn, {"x": x, "y": torch.sin(x)}, params=dict(net.named_parameters()),
                note="support and query are the same batch: the inputs of a graph share one batch")


# ---- an MLP written with einsum

class EinsumLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) / math.sqrt(n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return torch.einsum('bi,oi->bo', x, self.weight) + self.bias


def einsum_mlp(batch, width=64):
    net = nn.Sequential(EinsumLinear(2, width), nn.Tanh(), EinsumLinear(width, width), nn.Tanh(),
                        EinsumLinear(width, 1))

    def fn(inputs, params):
        x = inputs["x"]
        u = net(x)
        return {"u": u, "du": gradient(u, x)}
    return Case(fn, {"x": torch.rand(batch, 2)})


ZOO = {
    "siren": siren,
    "poisson_pinn": poisson_pinn,
    "heat_pinn": heat_pinn,
    "neural_sdf": neural_sdf,
    "nerf": nerf,
    "maml": maml,
    "einsum_mlp": einsum_mlp,
}


def build(name, batch, seed=0, width=None):
    """The model at `batch` rows; `width`: every hidden layer's width (default: the model's)."""
    torch.manual_seed(seed)
    return ZOO[name](batch) if width is None else ZOO[name](batch, width=width)
