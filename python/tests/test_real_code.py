"""Users' PyTorch code, unchanged, exports: a sine network (nn.Module, first-layer omega 30)
on coordinates in the [1, N, 2] layout of INR code, derivative helpers written the usual way
(a Hessian and a Jacobian filled by slice assignment `h[..., i, j, :] = ...`, followed by an
`if torch.any(torch.isnan(h))` guard), float32 models, and the autograd walk on the same
layout with a divergence that starts from the number 0. The models are written for these
tests. Each bundle passes `inrarch eval --check` at its default tolerance."""
import math
import os
import subprocess
import warnings

import torch
from torch import nn

from tests.util import TmpDirTest, eval_check, line_of, need_bin, run_bin
from inrarch_torch import ExportError, SpecializationWarning, export, export_autograd


class SineLayer(nn.Module):
    """sin(omega * (W x + b)) with a sine network's initialisation."""

    def __init__(self, n_in, n_out, omega, first, gen):
        super().__init__()
        self.omega = omega
        self.linear = nn.Linear(n_in, n_out)
        bound = 1.0 / n_in if first else math.sqrt(6.0 / n_in) / omega
        with torch.no_grad():
            self.linear.weight.uniform_(-bound, bound, generator=gen)
            self.linear.bias.uniform_(-bound, bound, generator=gen)

    def forward(self, x):
        return torch.sin(self.omega * self.linear(x))


class SineNet(nn.Module):
    """2 -> width (omega 30) -> width x hidden (omega 30) -> n_out, float32 as built."""

    def __init__(self, width, hidden, n_out, seed):
        super().__init__()
        gen = torch.Generator().manual_seed(seed)
        layers = [SineLayer(2, width, 30.0, True, gen)]
        layers += [SineLayer(width, width, 30.0, False, gen) for _ in range(hidden)]
        last = nn.Linear(width, n_out)
        with torch.no_grad():
            last.weight.uniform_(-0.1, 0.1, generator=gen)
            last.bias.zero_()
        self.net = nn.Sequential(*layers, last)

    def forward(self, coords):
        return self.net(coords)


def hessian(y, x):
    """d2y/dx2 per output channel, [batch, points, channels, dims, dims], and a status."""
    batch, points = y.shape[:2]
    seed = torch.ones_like(y[..., 0]).to(y.device)
    h = torch.zeros(batch, points, y.shape[-1], x.shape[-1], x.shape[-1]).to(y.device)
    for i in range(y.shape[-1]):
        dy = torch.autograd.grad(y[..., i], x, seed, create_graph=True)[0]
        for j in range(x.shape[-1]):
            h[..., i, j, :] = torch.autograd.grad(dy[..., j], x, seed, create_graph=True)[0][..., :]
    status = 0
    if torch.any(torch.isnan(h)):
        status = -1
    return h, status


def jacobian(y, x):
    """dy/dx, [batch, points, channels, dims], and a status."""
    batch, points = y.shape[:2]
    jac = torch.zeros(batch, points, y.shape[-1], x.shape[-1]).to(y.device)
    for i in range(y.shape[-1]):
        y_i = y[..., i].view(-1, 1)
        jac[:, :, i, :] = torch.autograd.grad(y_i, x, torch.ones_like(y_i), create_graph=True)[0]
    status = 0
    if torch.any(torch.isnan(jac)):
        status = -1
    return jac, status


def divergence(y, x):
    """sum_i dy_i/dx_i, started from the number 0 as such helpers do."""
    div = 0.
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]),
                                   create_graph=True)[0][..., i:i + 1]
    return div


def coords(points, seed):
    """[1, points, 2] coordinates in [-1, 1], float32 as a data loader gives them."""
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(1, points, 2, generator=gen) * 2 - 1


HESSIAN_NET = SineNet(width=16, hidden=1, n_out=1, seed=1)
JACOBIAN_NET = SineNet(width=24, hidden=1, n_out=3, seed=2)
F32_NET = SineNet(width=32, hidden=2, n_out=2, seed=3)


def siren_hessian(inputs, params):
    x = inputs["coords"]
    y = HESSIAN_NET(x)
    h, status = hessian(y, x)
    return {"y": y, "hessian": h}


def siren_jacobian(inputs, params):
    x = inputs["coords"]
    y = JACOBIAN_NET(x)
    jac, status = jacobian(y, x)
    return {"y": y, "jacobian": jac, "div": divergence(y[..., :2], x)}


class RealCodeTest(TmpDirTest):
    def export_quietly(self, fn, inputs, **kw):
        """export() into a folder named after fn, without the expected warnings."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SpecializationWarning)
            return export(fn, inputs, {}, self.path(fn.__name__), **kw)

    def test_hessian_by_slice_assignment_with_nan_guard(self):
        r = self.export_quietly(siren_hessian, {"coords": coords(8, 1)})
        self.assertEqual(r.reference["hessian"].shape, (1, 8, 1, 2, 2))
        ops = {n["op"] for n in r.graph["nodes"]}
        self.assertIn("aten.slice_scatter.default", ops)      # h[..., i, j, :] = ...
        self.assertNotIn("aten.copy_.default", ops)
        params = {n["name"] for n in r.graph["nodes"] if n["op"] == "param"}
        self.assertIn("HESSIAN_NET.net.0.linear.weight", params)   # the module's weights
        self.assertEqual(HESSIAN_NET.net[0].linear.weight.dtype, torch.float32)  # restored
        eval_check(self, self.path("siren_hessian"), rtol=None)

    def test_hessian_model_compiles_and_simulates(self):
        bundle, out = self.path("siren_hessian"), self.path("hw")
        self.export_quietly(siren_hessian, {"coords": coords(8, 1)})
        p = subprocess.run([need_bin(self), "compile", bundle, "-o", out], capture_output=True,
                           text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        # The summary on stdout: "verification (fixed<32,10>): csim PASS (...), threaded PASS,
        # trace PASS".
        self.assertRegex(p.stdout, r"csim PASS \(.*\), threaded PASS, trace PASS")

    def test_jacobian_and_divergence(self):
        r = self.export_quietly(siren_jacobian, {"coords": coords(8, 2)})
        self.assertEqual(r.reference["jacobian"].shape, (1, 8, 3, 2))
        eval_check(self, self.path("siren_jacobian"), rtol=None)

    def test_guard_warns_that_the_graph_is_specialised_at_its_line(self):
        with self.assertWarns(SpecializationWarning) as cm:
            export(siren_hessian, {"coords": coords(8, 1)}, {}, self.path("h"))
        file, line = line_of(hessian, "if torch.any(torch.isnan(h))")
        self.assertEqual((cm.filename, cm.lineno), (file, line))
        self.assertIn(f"{file}:{line}: the graph is specialised here", str(cm.warning))

    def test_float32_export_checks_at_float32_tolerance(self):
        def f32(inputs, params):
            x = inputs["coords"]
            y = F32_NET(x)
            return {"y": y, "jacobian": jacobian(y, x)[0]}
        out = self.path("f32")
        r = self.export_quietly(f32, {"coords": coords(16, 3)}, dtype=torch.float32)
        with open(os.path.join(out, "meta.json")) as f:
            self.assertIn('"source_dtype": "float32"', f.read())
        self.assertGreater(r.aten_nodes, 0)
        log = eval_check(self, out, rtol=None)
        self.assertIn("rtol 1.0e-04 (float32 reference)", log)
        rc, log = run_bin(self, "eval", out, "--check", "-q", "--rtol", "1e-9")
        self.assertEqual(rc, 1, log)    # an explicit --rtol wins; float32 is not 1e-9 close

    def test_float32_closed_over_tensor_is_converted(self):
        freqs = torch.tensor([[1.0, 2.0], [-3.0, 0.5]])   # float32, outside the function

        def fourier(inputs, params):
            x = inputs["x"]
            return torch.sin(x @ freqs) + x.matmul(params["w"])
        r = export(fourier, {"x": coords(4, 4)[0]}, {"w": torch.ones(2, 2)}, self.path("ff"))
        self.assertIn({"id": 2, "op": "param", "name": "freqs", "shape": [2, 2]},
                      r.graph["nodes"])
        self.assertEqual(freqs.dtype, torch.float32)
        eval_check(self, self.path("ff"), rtol=None)

    def test_float32_tensor_it_cannot_reach_is_named(self):
        def made_inside(inputs, params):
            w = torch.ones(2, 2, dtype=torch.float32)
            return inputs["x"] @ w
        with self.assertRaises(ExportError) as cm:
            export(made_inside, {"x": coords(4, 5)[0]}, {}, self.path("bad"))
        file, line = line_of(made_inside, "return inputs")
        msg = str(cm.exception)
        self.assertIn(f"{file}:{line}: tensors of two dtypes meet", msg)
        self.assertIn("w (float32 [2, 2])", msg)
        self.assertIn(".to(torch.float64)", msg)
        self.assertFalse(os.path.exists(self.path("bad")))

    def test_data_dependent_size_cannot_be_specialised(self):
        def positive_part(inputs, params):
            y = torch.sin(inputs["x"])
            return y[y > 0].sum()
        with self.assertRaises(ExportError) as cm:
            export(positive_part, {"x": coords(4, 6)[0]}, {}, self.path("mask"))
        file, line = line_of(positive_part, "return y[y > 0]")
        self.assertIn(f"{file}:{line}: indexing with a boolean mask", str(cm.exception))
        self.assertIn("torch.where", str(cm.exception))

    def test_number_read_into_the_graph_cannot_be_specialised(self):
        def normalised(inputs, params):
            y = torch.sin(inputs["x"])
            return y / float(y.abs().max())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SpecializationWarning)
            with self.assertRaises(ExportError) as cm:
                export(normalised, {"x": coords(4, 7)[0]}, {}, self.path("norm"))
        file, line = line_of(normalised, "return y / float")
        self.assertIn(f"{file}:{line}: the number read here", str(cm.exception))

    def test_tracing_error_names_the_user_line(self):
        def wrong_shapes(inputs, params):
            return inputs["x"] @ params["w"]
        with self.assertRaises(ExportError) as cm:
            export(wrong_shapes, {"x": coords(4, 8)[0]}, {"w": torch.ones(3, 3)}, self.path("e"))
        file, line = line_of(wrong_shapes, "return inputs")
        self.assertIn(f"{file}:{line}: tracing the function failed", str(cm.exception))
        self.assertIsInstance(cm.exception.__cause__, RuntimeError)


class RealCodeWalkTest(TmpDirTest):
    def test_walk_on_points_layout_with_divergence(self):
        net = SineNet(width=16, hidden=1, n_out=2, seed=4).double()
        x = coords(8, 9).double().requires_grad_(True)
        y = net(x)
        outs = {"y": y, "div": divergence(y, x), "flipped": 2.0 - y[..., 0], "up": y + 0.5}
        leaves = {"x": x, **dict(net.named_parameters())}
        out = self.path("walk")
        r = export_autograd(outs, leaves, out)
        ops = {n["op"] for n in r["graph"]["nodes"]}
        self.assertIn("aten.view.default", ops)        # the [N, 2] view before the matmul
        eval_check(self, out, rtol=None)

    def test_walk_still_refuses_what_it_cannot_rebuild(self):
        x = coords(8, 10).double().requires_grad_(True)
        y = torch.sin(x)
        with self.assertRaises(ExportError) as cm:
            export_autograd([divergence(y, x).sum()], {"x": x}, self.path("walk"))
        self.assertIn("AddBackward0", str(cm.exception))
        self.assertIn("did not save its value", str(cm.exception))


if __name__ == "__main__":
    import unittest
    unittest.main()
