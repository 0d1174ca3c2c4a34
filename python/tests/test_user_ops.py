"""The ops users write that the importer decomposes (docs/pytorch.md "Decompositions"):
each is exported in float64 on random inputs that include the edges of its domain, with its
first derivative (the backward ops autograd records), and `inrarch eval --check` must match
PyTorch's values to 1e-12 (relative to each output's largest value)."""
import torch
import torch.nn.functional as F

from tests.util import TmpDirTest, eval_check
from inrarch_torch import export, export_autograd

TOL = "1e-12"


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def signed(seed, n=24, k=3, scale=3.0):
    """[n, k] values in (-scale, scale) with exact zeros and tiny magnitudes among them."""
    x = (torch.rand(n, k, dtype=torch.float64, generator=_gen(seed)) * 2 - 1) * scale
    x[0] = torch.tensor([0.0, 1e-300, -1e-300][:k] + [0.0] * (k - 3))
    x[1] = torch.tensor([1e-9, -1e-9, 0.5][:k] + [0.0] * (k - 3))
    return x


def positive(seed, n=24, k=3):
    return torch.rand(n, k, dtype=torch.float64, generator=_gen(seed)) * 4 + 1e-3


def with_grad(fn):
    """fn(x) and d(sum fn(x))/dx, the derivative through autograd's backward ops."""
    def g(i, p):
        x = i["x"]
        y = fn(x)
        d = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
        return {"y": y, "dy": d}
    return g


class Decompositions(TmpDirTest):
    def check(self, fn, x, grad=True, name="b"):
        bundle = self.path(name)
        export(with_grad(fn) if grad else (lambda i, p: {"y": fn(i["x"])}), {"x": x}, {}, bundle)
        return eval_check(self, bundle, rtol=TOL)

    def test_sqrt_and_rsqrt(self):
        x = positive(1)
        x[0] = torch.tensor([0.0, 1e-300, 1e-12])  # the domain's edge: values only
        self.check(torch.sqrt, x, grad=False, name="edge")
        self.check(torch.sqrt, positive(2), name="sqrt")
        self.check(torch.rsqrt, positive(3), name="rsqrt")

    def test_real_exponents(self):
        for k, e in enumerate([0.5, -0.5, 1.5, -1.5, 2.5, 0.3, -2.7]):
            self.check(lambda x: x ** e, positive(10 + k), name=f"pow{k}")
        x = positive(20)
        x[0, 0] = 0.0
        self.check(lambda x: x ** 0.3, x, grad=False, name="pow_zero")

    def test_norms(self):
        self.check(lambda x: x.norm(dim=-1), signed(4), name="n1")
        self.check(lambda x: torch.norm(x, dim=1, keepdim=True), signed(5), name="n2")
        self.check(lambda x: torch.linalg.vector_norm(x, dim=-1), signed(6), name="n3")
        self.check(lambda x: x.norm().reshape(1), signed(7), name="n4")
        self.check(lambda x: F.normalize(x, dim=-1), signed(8), name="normalize")
        zero_row = signed(9)
        zero_row[0] = 0.0  # normalize keeps it 0 (the eps clamp); its derivative is not checked
        self.check(lambda x: F.normalize(x, dim=-1), zero_row, grad=False, name="normalize0")

    def test_losses_and_mean(self):
        t = signed(30)
        for red in ("mean", "sum", "none"):
            shape = [1] if red != "none" else list(t.shape)  # a 0-d loss as [1]
            self.check(lambda x: F.mse_loss(x, t, reduction=red).reshape(shape), signed(31),
                       name=f"mse_{red}")
            self.check(lambda x: F.l1_loss(x, t + 0.25, reduction=red).reshape(shape), signed(32),
                       name=f"l1_{red}")
        self.check(lambda x: x.mean(dim=-1, keepdim=True), signed(33), name="mean")
        self.check(lambda x: x.mean(dim=0), signed(34), name="mean0")

    def test_sigmoid_silu_gelu(self):
        x = signed(40, scale=40.0)
        x[2] = torch.tensor([800.0, -800.0, 700.0])  # exp of -|x| only: no overflow
        self.check(torch.sigmoid, x, name="sigmoid")
        self.check(F.silu, signed(41, scale=8.0), name="silu")
        self.check(lambda x: F.gelu(x, approximate="tanh"), signed(42, scale=6.0), name="gelu")

    def test_softplus_thresholds(self):
        x = signed(50, scale=1.0)
        x[2] = torch.tensor([0.2, 0.19, -5.0])  # beta x = 20 (threshold), 19, -500
        self.check(lambda x: F.softplus(x, beta=100), x, name="sp100")
        y = signed(51, scale=30.0)
        y[2] = torch.tensor([20.0, 19.5, 20.5])
        self.check(F.softplus, y, name="sp1")
        self.check(lambda x: F.softplus(x, beta=2.0, threshold=5.0), y, name="sp2")

    def test_piecewise_linear(self):
        x = signed(60)
        self.check(lambda x: F.elu(x, alpha=0.7), x, name="elu")
        self.check(lambda x: F.leaky_relu(x, 0.1), x, name="leaky")
        self.check(lambda x: torch.clamp(x, -0.5, 0.75), x, name="clamp")
        self.check(lambda x: x.clamp(min=0.1), x, name="clamp_min")
        self.check(lambda x: x.clamp(max=-0.2), x, name="clamp_max")
        self.check(torch.abs, x, name="abs")
        self.check(lambda x: torch.maximum(x, 0.5 - x * x), x, name="max")
        self.check(lambda x: torch.minimum(x, 0.5 - x * x), x, name="min")

    def test_diagonal(self):
        h = torch.rand(6, 3, 3, dtype=torch.float64, generator=_gen(70)) * 2 - 1
        self.check(lambda x: torch.diagonal(x, dim1=-2, dim2=-1) * x[:, 0, :], h, name="d1")
        self.check(lambda x: torch.diagonal(x, dim1=1, dim2=0), h.permute(1, 2, 0).contiguous(),
                   name="d2")
        self.check(lambda x: torch.diagonal(x, offset=1, dim1=-2, dim2=-1), h, grad=False, name="d3")

    def test_exact_gelu_and_erf(self):
        """nn.GELU()'s default (approximate='none') and torch.erf, by the erfc polynomial."""
        x = signed(80, scale=9.0)
        self.check(F.gelu, x, name="gelu_erf")
        self.check(torch.erf, x, name="erf")


class AutogradWalk(TmpDirTest):
    def test_walk_rebuilds_the_new_ops(self):
        """The paper's walk over grad_fn nodes of sqrt, rsqrt, abs, silu, tanh-gelu,
        clamp_min and norm, and over sqrt's derivative, checked at 1e-12."""
        x = signed(90).requires_grad_(True)
        c = positive(91).requires_grad_(True)  # a param: the walk needs a leaf, not `+ 1.0`
        r = torch.sqrt(x * x + c)
        g = torch.autograd.grad(r.sum(), x, create_graph=True)[0]
        outs = {"sqrt": r, "dsqrt": g, "rsqrt": torch.rsqrt(x * x + c), "abs": x.abs(),
                "silu": F.silu(x), "gelu": F.gelu(x, approximate="tanh"),
                "clamp": x.clamp_min(0.1), "norm": torch.norm(x, dim=1, keepdim=True)}
        export_autograd(outs, {"x": x, "c": c}, self.path("walk"))
        eval_check(self, self.path("walk"), rtol=TOL)
