"""Idioms of neural-SDF, NeRF and PINN code that use the decomposed ops: normals as
F.normalize of an SDF's gradient, an eikonal loss with .norm(dim=-1), mean curvature by
sqrt and by ** -0.5, a Laplacian as the trace (torch.diagonal) of a Hessian, nn.SiLU and
nn.GELU(approximate='tanh') networks, softplus(beta=100). Each exports and passes
`inrarch eval --check` at its default tolerance; two compile with every C simulation, and
the SDF's normals go through the RTL bit-exact."""
import torch
import torch.nn.functional as F
from torch import nn

from tests.util import TmpDirTest, compile_csim, compile_rtl, eval_check
from inrarch_torch import export


def mlp(act, width=16, n_in=3, seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(n_in, width), act, nn.Linear(width, width), act,
                         nn.Linear(width, 1)).double()


def points(n=8, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, 3, dtype=torch.float64, generator=g) * 2 - 1


def gradient(y, x):
    return torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]


def hessian(y, x):
    g = gradient(y, x)
    return torch.stack([gradient(g[:, j], x) for j in range(x.shape[-1])], dim=1), g


class UserIdioms(TmpDirTest):
    def export_check(self, fn, model, name):
        """fn(model, x) exported (the closed-over model's weights become params)."""
        bundle = self.path(name)
        export(lambda i, p: fn(model, i["x"]), {"x": points()}, {}, bundle)
        eval_check(self, bundle, rtol=None)
        return bundle

    def test_sdf_normals_and_eikonal_loss(self):
        sdf = mlp(nn.Softplus(beta=100))

        def fn(f, x):
            g = gradient(f(x), x)
            normals = F.normalize(g, dim=-1)
            eikonal = ((g.norm(dim=-1) - 1) ** 2).mean()
            return {"normals": normals, "eikonal": eikonal.reshape(1)}
        compile_csim(self, self.export_check(fn, sdf, "sdf"))

    def test_sdf_normals_in_rtl(self):
        """The square-root lanes of a user model: bit-exact with the C simulation."""
        sdf = mlp(nn.Softplus(beta=100))

        def fn(f, x):
            g = gradient(f(x), x)
            return {"normals": F.normalize(g, dim=-1), "gnorm": g.norm(dim=-1)}
        # At one element a beat: the search's block 16 gives mm kernels of 256 lanes whose
        # RTL build takes over ten minutes here (docs/rtl.md "Run times").
        report, rtl = compile_rtl(self, self.export_check(fn, sdf, "sdf_rtl"), "--block", "1")
        self.assertEqual(rtl["cycles"], rtl["model_cycles"])
        self.assertLess(report["verification"]["csim"]["max_abs_error"], 1e-4)

    def test_mean_curvature_by_sqrt_and_by_power(self):
        sdf = mlp(nn.Softplus(beta=100), width=8)

        def fn(f, x):
            h, g = hessian(f(x), x)
            lap = torch.diagonal(h, dim1=-2, dim2=-1).sum(-1)
            gg = (g * g).sum(-1)
            ghg = ((h * g.unsqueeze(1)).sum(-1) * g).sum(-1)  # g^T H g
            k_sqrt = lap / torch.sqrt(gg) - ghg / (gg * torch.sqrt(gg))
            k_pow = lap * gg ** -0.5 - ghg * gg ** -1.5
            return {"k_sqrt": k_sqrt, "k_pow": k_pow}
        self.export_check(fn, sdf, "curvature")

    def test_silu_network_laplacian_by_diagonal(self):
        net = mlp(nn.SiLU(), width=8)

        def fn(f, x):
            h, g = hessian(f(x), x)
            return {"u": f(x), "laplacian": torch.diagonal(h, dim1=1, dim2=2).sum(-1)}
        compile_csim(self, self.export_check(fn, net, "silu"))

    def test_gelu_tanh_network_gradient(self):
        net = mlp(nn.GELU(approximate="tanh"))
        self.export_check(lambda f, x: {"u": f(x), "du": gradient(f(x), x)}, net, "gelu")
