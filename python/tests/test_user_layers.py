"""Layers and idioms of user models built on multi-output ops, erf and reductions the
importer decomposes (docs/pytorch.md "aten op → IR"): nn.LayerNorm in an MLP (with and
without elementwise affine), the default nn.GELU() (exact, erf), norms of order 1, inf, -inf,
0 and any p, matrix norms by torch.linalg.norm, and x.repeat. Each passes `inrarch eval
--check` against PyTorch at its default tolerance (1e-9 for float64); a LayerNorm + GELU MLP
and its Taylor-mode derivatives compile with every C simulation, and a latent code repeated
over the points stays one row."""
import json
import os

import torch
import torch.nn.functional as F
from torch import nn

from tests.util import TmpDirTest, compile_csim, eval_check, inrarch_bin
from inrarch_torch import ExportError, export, export_autograd, export_derivatives


def points(n=8, d=3, seed=1, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(n, d, dtype=torch.float64, generator=g) * 2 - 1) * scale


def ln_gelu_mlp(affine=True, width=16, seed=0):
    """A transformer-style MLP block: Linear, LayerNorm, GELU (nn.GELU()'s default, exact)."""
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(3, width), nn.LayerNorm(width, elementwise_affine=affine),
                        nn.GELU(), nn.Linear(width, width), nn.LayerNorm(width), nn.GELU(),
                        nn.Linear(width, 1)).double()
    with torch.no_grad():  # LayerNorm starts as weight 1, bias 0: make the affine part count
        for m in net:
            if isinstance(m, nn.LayerNorm) and m.elementwise_affine:
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    return net


def gradient(y, x):
    return torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]


class LayerNormAndGelu(TmpDirTest):
    def export_check(self, fn, x, name):
        bundle = self.path(name)
        export(lambda i, p: fn(i["x"]), {"x": x}, {}, bundle)
        eval_check(self, bundle, rtol=None)
        return bundle

    def test_layer_norm_mlp_with_and_without_affine(self):
        for affine in (True, False):
            net = ln_gelu_mlp(affine)
            self.export_check(net, points(), f"ln{affine}")

    def test_functional_layer_norm_over_two_dims_and_its_statistics(self):
        h = points(6, 20, seed=2, scale=3.0).reshape(6, 4, 5)
        w = torch.rand(4, 5, dtype=torch.float64) + 0.5

        def fn(x):
            _, mean, rstd = torch.native_layer_norm(x, [5], None, None, 1e-5)
            return {"y": F.layer_norm(x, (4, 5), weight=w, eps=1e-3), "mean": mean, "rstd": rstd}
        self.export_check(fn, h, "fln")

    def test_layer_norm_backward_recorded_by_autograd(self):
        """torch.autograd.grad inside fn records native_layer_norm_backward (its dx item)."""
        net = ln_gelu_mlp()
        self.export_check(lambda x: {"u": net(x), "du": gradient(net(x), x)}, points(), "lnb")

    def test_layer_norm_weight_and_bias_gradients(self):
        """The dweight and dbias items of native_layer_norm_backward, as a training step asks
        for them (autograd.grad w.r.t. the module's own parameters)."""
        torch.manual_seed(0)
        ln = nn.LayerNorm(5).double()
        with torch.no_grad():
            ln.weight.uniform_(0.5, 1.5)
            ln.bias.uniform_(-0.5, 0.5)

        def fn(x):
            loss = (ln(x) ** 2).sum()
            dx, dw, db = torch.autograd.grad(loss, [x, ln.weight, ln.bias], create_graph=True)
            return {"dx": dx, "dw": dw, "db": db}
        self.export_check(fn, points(6, 5, seed=10, scale=2.0), "lnw")

    def test_layer_norm_gelu_derivatives_in_taylor_mode(self):
        """export_derivatives: first and second order w.r.t. the input, checked against nested
        autograd, and the first-order design through every C simulation."""
        net = ln_gelu_mlp(width=8)
        for order in (2, 1):
            bundle = self.path(f"taylor{order}")
            export_derivatives(lambda i, p: net(i["x"]), {"x": points()}, {}, bundle, order=order,
                               binary=inrarch_bin())
            eval_check(self, bundle, rtol=None)
        compile_csim(self, bundle)

    def test_a_float32_module_as_nn_builds_it(self):
        """A float32 Linear-LayerNorm-GELU module and float32 points at the default dtype:
        computed and referenced in float64, the module float32 afterwards."""
        torch.manual_seed(0)
        net = nn.Sequential(nn.Linear(3, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 1))
        bundle = self.path("f32")
        export_derivatives(lambda i, p: net(i["x"]), {"x": points().float()}, {}, bundle,
                           order=1, binary=inrarch_bin())
        eval_check(self, bundle, rtol="1e-9")
        self.assertEqual(net[1].weight.dtype, torch.float32)

    def test_exact_gelu_and_erf_over_a_wide_range(self):
        x = points(64, 3, seed=3, scale=9.0)
        x[0] = torch.tensor([0.0, 1e-300, -1e-9])
        self.export_check(lambda x: {"gelu": F.gelu(x), "erf": torch.erf(x),
                                     "dgelu": gradient(F.gelu(x), x)}, x, "gelu")

    def test_gelu_network_compiles(self):
        compile_csim(self, self.export_check(ln_gelu_mlp(), points(), "mlp"))


class Norms(TmpDirTest):
    def check(self, fn, x, name):
        bundle = self.path(name)
        export(lambda i, p: fn(i["x"]), {"x": x}, {}, bundle)
        eval_check(self, bundle, rtol=None)

    def test_vector_norms_of_every_order(self):
        x = points(16, 5, seed=4, scale=3.0)
        x[0, :2] = 0.0
        self.check(lambda x: {"l1": torch.norm(x, p=1, dim=-1),
                              "linf": torch.linalg.vector_norm(x, ord=float("inf"), dim=-1),
                              "lminf": torch.linalg.vector_norm(x, ord=float("-inf"), dim=-1),
                              "l0": torch.linalg.vector_norm(x, ord=0, dim=-1),
                              "l3": x.norm(p=3, dim=1, keepdim=True),
                              "l4": torch.linalg.norm(x, ord=4, dim=-1)}, x, "values")

    def test_norm_derivatives(self):
        """The backward ops autograd records for p = 1, 3, 0.5 and inf (export; inf's backward
        masks the entries equal to the max, or NaN), and every order to second derivatives in
        Taylor mode (export_derivatives)."""
        x = points(16, 5, seed=5, scale=3.0)

        def fn(x):
            out = {"l1": torch.norm(x, p=1, dim=-1),
                   "l3": torch.linalg.vector_norm(x, ord=3, dim=-1),
                   "linf": torch.sin(x).norm(p=float("inf"), dim=-1),
                   "lhalf": torch.linalg.vector_norm(x, ord=0.5, dim=-1)}
            return {**out, **{"d" + k: gradient(v, x) for k, v in out.items()}}
        self.check(fn, x, "grads")
        bundle = self.path("taylor")
        export_derivatives(lambda i, p: {"l1": torch.norm(i["x"], p=1, dim=-1),
                                         "linf": i["x"].norm(p=float("inf"), dim=-1),
                                         "l3": torch.linalg.norm(i["x"], ord=3, dim=-1)},
                           {"x": x[:, :2]}, {}, bundle, order=2, binary=inrarch_bin())
        eval_check(self, bundle, rtol=None)

    def test_matrix_norms_by_linalg_norm(self):
        m = points(8, 12, seed=6).reshape(8, 4, 3)
        self.check(lambda x: {"fro": torch.linalg.norm(x, dim=(-2, -1)),
                              "one": torch.linalg.matrix_norm(x, ord=1),
                              "inf": torch.linalg.matrix_norm(x, ord=float("inf")),
                              "all": torch.linalg.norm(x).reshape(1)}, m, "matrix")

    def test_singular_value_norms_are_refused_by_name(self):
        m = points(8, 12, seed=7).reshape(8, 4, 3)
        for ord_ in (2, "nuc"):
            with self.assertRaises(ExportError) as e:
                export(lambda i, p: torch.linalg.matrix_norm(i["x"], ord=ord_), {"x": m}, {},
                       self.path("svd"))
            msg = str(e.exception)
            self.assertIn("unsupported aten op '_linalg_svd'", msg)
            self.assertIn("singular values are not supported", msg)
            self.assertIn("test_user_layers.py", msg)   # the user's line
            self.assertFalse(os.path.exists(self.path("svd")))


class AutogradWalk(TmpDirTest):
    def test_walk_rebuilds_erf_repeat_and_norms(self):
        """The paper's walk over grad_fn nodes of erf, repeat, a vector norm of order 3 and
        inf, amax, and erf's derivative; checked at the default tolerance."""
        x = points(8, 3, seed=9, scale=2.0).requires_grad_(True)
        e = torch.erf(x)
        outs = {"erf": e, "derf": torch.autograd.grad(e.sum(), x, create_graph=True)[0],
                "rep": x.repeat(2, 3), "l3": torch.linalg.vector_norm(x, ord=3, dim=-1),
                "linf": torch.linalg.vector_norm(x, ord=float("inf"), dim=-1),
                "amax": torch.amax(x, dim=0, keepdim=True)}
        export_autograd(outs, {"x": x}, self.path("walk"))
        eval_check(self, self.path("walk"), rtol=None)

    def test_walk_rebuilds_layer_norm_and_its_backward(self):
        """nn.LayerNorm in an MLP (with and without affine, eps 1e-5 and 1e-3) and the
        gradients autograd recorded through it: w.r.t. the input (dx item) and the LayerNorm's
        own weight and bias (dweight, dbias items); mean and rstd stay functions of the input."""
        for affine, eps in ((True, 1e-5), (False, 1e-3)):
            torch.manual_seed(0)
            net = nn.Sequential(nn.Linear(3, 8), nn.LayerNorm(8, eps=eps, elementwise_affine=affine),
                                nn.Tanh(), nn.Linear(8, 1)).double()
            x = points(6, 3, seed=11, scale=2.0).requires_grad_(True)
            u = net(x)
            outs = {"u": u, "du": torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]}
            if affine:
                dw, db = torch.autograd.grad(u.sum(), [net[1].weight, net[1].bias], create_graph=True)
                outs.update(dw=dw, db=db)
            leaves = {"x": x, **{k.replace(".", "_"): v for k, v in net.named_parameters()}}
            bundle = self.path(f"ln{affine}")
            export_autograd(outs, leaves, bundle)
            eval_check(self, bundle, rtol=None)
            with open(os.path.join(bundle, "graph.json")) as f:
                varied = [n["shape"] for n in json.load(f)["nodes"]
                          if n["op"] == "const" and len(set(n["value"])) > 1]
            self.assertEqual(varied, [])   # mean and rstd are not dense constants (the seeds are ones)


class Repeat(TmpDirTest):
    def test_repeat_values(self):
        x = points(4, 3, seed=8)
        bundle = self.path("rep")
        export(lambda i, p: {"a": i["x"].repeat(2, 3), "b": i["x"].repeat(2, 1, 1),
                             "c": i["x"][:, :1].repeat(1, 4)}, {"x": x}, {}, bundle)
        eval_check(self, bundle, rtol=None)

    def test_a_latent_code_repeated_over_the_points_stays_one_row(self):
        """z.repeat(n, 1) of a [1, k] code, concatenated to the points (auto-decoder INRs): the
        design sees one row broadcast, so it compiles and every C simulation passes."""
        torch.manual_seed(0)
        net = nn.Sequential(nn.Linear(7, 16), nn.Tanh(), nn.Linear(16, 1)).double()
        z = torch.randn(1, 4, dtype=torch.float64)
        x = points()
        bundle = self.path("latent")
        export(lambda i, p: net(torch.cat([i["x"], p["z"].repeat(i["x"].shape[0], 1)], -1)),
               {"x": x}, {"z": z}, bundle)
        eval_check(self, bundle, rtol=None)
        compile_csim(self, bundle)
