"""A float32 nn.Module (as nn.Linear builds it) and float32 inputs go through each of the three
exporters at the default dtype: the bundle is computed and referenced in float64, passes
`eval --check` at 1e-9, and the user's module is float32 and unchanged afterwards."""
import copy
import json
import os

import numpy as np
import torch
from torch import nn

from tests.util import TmpDirTest, eval_check, inrarch_bin, need_bin
from inrarch_torch import export, export_autograd, export_derivatives
from inrarch_torch.bundle import read_npy_dir


class Pinn(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(),
                                 nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


torch.manual_seed(11)
MODEL = Pinn()


def points(rows=8):
    return torch.rand(rows, 2, generator=torch.Generator().manual_seed(12)) * 2 - 1


def float64_gradient(x):
    """u and du/dx by a float64 copy of MODEL: the expected values, computed here."""
    x = x.double().requires_grad_(True)
    u = copy.deepcopy(MODEL).double()(x)
    return u.detach(), torch.autograd.grad(u.sum(), x)[0]


class Float32ModuleTest(TmpDirTest):
    def setUp(self):
        super().setUp()
        self.before = {k: v.detach().clone() for k, v in MODEL.state_dict().items()}

    def tearDown(self):
        for k, v in MODEL.state_dict().items():   # the user's module as it was
            self.assertEqual(v.dtype, torch.float32, k)
            self.assertTrue(torch.equal(v, self.before[k]), k)
        super().tearDown()

    def test_export(self):
        def fn(inputs, params):
            x = inputs["x"]
            u = MODEL(x)
            return {"u": u, "du": torch.autograd.grad(u.sum(), x, create_graph=True)[0]}
        out = self.path("fx")
        r = export(fn, {"x": points()}, {}, out)
        u, du = float64_gradient(points())
        np.testing.assert_allclose(r.reference["du"], du.numpy(), rtol=1e-12, atol=1e-15)
        eval_check(self, out)

    def test_export_softplus_second_derivative(self):
        # softplus(beta)'s double backward records `(beta x < threshold).to(float32)` when
        # exported in float32: a 0/1 mask, exact in any float, which the bundle must not refuse.
        torch.manual_seed(13)
        sdf = nn.Sequential(nn.Linear(2, 8), nn.Softplus(beta=100), nn.Linear(8, 1))

        def fn(inputs, params):
            x = inputs["x"]
            g = torch.autograd.grad(sdf(x).sum(), x, create_graph=True)[0]
            return {"lap": torch.autograd.grad(g[:, 0].sum(), x, create_graph=True)[0][:, 0]}
        out = self.path("softplus")
        export(fn, {"x": points()}, {}, out, dtype=torch.float32)   # as the model zoo exports
        with open(os.path.join(out, "graph.json")) as f:
            copies = [n for n in json.load(f)["nodes"] if n["op"] == "aten._to_copy.default"]
        self.assertTrue(copies)
        for n in copies:
            self.assertEqual(n["kwargs"]["dtype"], "torch.float64")
        eval_check(self, out, rtol=None)   # the bundle's float32 reference: eval's float32 tolerance

    def test_export_derivatives(self):
        need_bin(self)
        os.environ.setdefault("INRARCH_BIN", inrarch_bin())
        out = self.path("taylor")
        export_derivatives(lambda i, p: {"u": MODEL(i["x"])[:, 0]}, {"x": points()}, {}, out,
                           order=1)
        got = read_npy_dir(os.path.join(out, "reference"))
        u, du = float64_gradient(points())
        np.testing.assert_allclose(got["u_d1_0"], du[:, 0].numpy(), rtol=1e-12, atol=1e-15)
        eval_check(self, out)

    def test_export_autograd(self):
        x = points().requires_grad_(True)                 # float32, as the model is
        u = MODEL(x)
        du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        leaves = {"x": x, **dict(MODEL.named_parameters())}
        out = self.path("walk")
        export_autograd({"u": u, "du": du}, leaves, out)
        got = read_npy_dir(os.path.join(out, "reference"))
        _, want = float64_gradient(points())
        np.testing.assert_allclose(got["du"], want.numpy(), rtol=1e-12, atol=1e-15)
        with open(os.path.join(out, "meta.json")) as f:
            self.assertIn('"source_dtype": "float64"', f.read())
        eval_check(self, out)


if __name__ == "__main__":
    import unittest
    unittest.main()
