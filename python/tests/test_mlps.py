"""Common INR / PINN MLPs (tanh, relu, a mixed one) with first and second derivatives and a
Laplacian, exported with make_fx and checked by the C++ interpreter against PyTorch."""
import os
import subprocess
import unittest

import torch
import torch.nn.functional as F

from tests.util import TmpDirTest, eval_check, run_bin
from inrarch_torch import export, export_autograd, models
from inrarch_torch.models import grad, laplacian


def tanh_pinn(inputs, params):
    """3 -> 32 -> 32 -> 1 tanh PINN: u, grad u, Laplacian of u."""
    x = inputs["x"]
    u = models.mlp_forward(x, params, [torch.tanh, torch.tanh, None])[:, 0]
    return {"u": u, "grad_u": grad(u, x), "lap_u": laplacian(u, x)}


def relu_net(inputs, params):
    """2 -> 16 -> 24 -> 2 relu net (INSP-Net layer form): outputs, Jacobian rows, 2nd order."""
    x = inputs["x"]
    y = models.mlp_forward(x, params, [torch.relu, torch.relu, None], form="batch")
    g0, g1 = grad(y[:, 0], x), grad(y[:, 1], x)
    return [y, g0, g1, grad(g0[:, 0], x)]


def mixed_net(inputs, params):
    """4 -> 20 -> 12 -> 3 with sigmoid, softplus, pow, sin/cos, broadcasting, mean, rsub,
    division, unbind / stack / cat / slice, and a Laplacian."""
    x = inputs["x"] * params["scale"] - 0.25           # broadcast of a [4] param
    h = F.linear(x, params["l0.weight"], params["l0.bias"])
    h = torch.sigmoid(h) * torch.tanh(h) + F.softplus(h).pow(2) / 3.0
    h = models.linear(1.0 - h, params["l1.weight"], params["l1.bias"], "batch")
    h = torch.sin(h) - torch.cos(h) * 0.5 + torch.exp(-h * h)
    y = F.linear(h, params["l2.weight"], params["l2.bias"])
    u = y[:, 0] * y[:, 1] + y[:, 2] ** 3 - y.mean(1) + 1.0 / (2.0 + y[:, 0] ** 2)
    g = grad(u, inputs["x"])
    parts = torch.unbind(g, 1)
    mix = torch.cat([torch.stack([parts[0], parts[3]], 1), g[:, 1:3]], 1)
    return {"u": u, "grad": g, "mix": mix.sum(1, keepdim=True),
            "lap": laplacian(u, inputs["x"]), "y": y}


LINALG_TO_LOOPS_PIPELINE = [
    "--empty-tensor-to-alloc-tensor",
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--buffer-results-to-out-params", "--convert-linalg-to-loops", "--canonicalize"]


def setup(sizes, batch, seed):
    params = models.mlp_params(sizes, seed)
    x = models.uniform_input(batch, sizes[0], seed)
    return {"x": x}, params


class MlpExportTest(TmpDirTest):
    def check(self, name, fn, inputs, params):
        out = self.path(name)
        r = export(fn, inputs, params, out)
        self.assertGreater(r.aten_nodes, 0)
        eval_check(self, out)
        self.check_mlir(out)
        return r

    def check_mlir(self, bundle):
        """The exported model's MLIR goes through mlir-opt-19 and the reference bufferize lowering."""
        mlir = os.path.join(self.tmp, os.path.basename(bundle) + ".mlir")
        rc, out = run_bin(self, "emit-mlir", bundle, "-o", mlir)
        self.assertEqual(rc, 0, out)
        p = subprocess.run(["mlir-opt-19", mlir, *LINALG_TO_LOOPS_PIPELINE], capture_output=True,
                           text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("scf.for", p.stdout)
        self.assertNotIn("linalg.", p.stdout)

    def test_tanh_pinn_laplacian(self):
        inputs, params = setup([3, 32, 32, 1], 16, seed=1)
        self.check("tanh", tanh_pinn, inputs, params)

    def test_relu_net(self):
        inputs, params = setup([2, 16, 24, 2], 10, seed=2)
        self.check("relu", relu_net, inputs, params)

    def test_mixed_net(self):
        inputs, params = setup([4, 20, 12, 3], 6, seed=3)
        params["scale"] = torch.tensor([1.0, 0.5, 2.0, -1.5], dtype=torch.float64)
        r = self.check("mixed", mixed_net, inputs, params)
        ops = {n["op"].split(".")[1] for n in r.graph["nodes"] if n["op"].startswith("aten.")}
        for op in ("sigmoid", "softplus", "pow", "mean", "rsub", "cat", "stack", "slice"):
            self.assertIn(op, ops)

    def test_tanh_pinn_autograd_walk(self):
        inputs, params = setup([3, 12, 12, 1], 5, seed=4)
        x = inputs["x"].requires_grad_(True)
        params = {k: v.requires_grad_(True) for k, v in params.items()}
        outs = tanh_pinn({"x": x}, params)
        out = self.path("walk-tanh")
        export_autograd(outs, {"x": x, **params}, out)
        eval_check(self, out)

    def test_walk_maps_frozen_weights_to_params(self):
        # A weight that does not require grad is only a saved tensor in the autograd graph;
        # the walk must name it as the param, not bake it in as a constant.
        x = models.uniform_input(4, 2, 5).requires_grad_(True)
        w = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3)
        y = torch.sin(x.matmul(w))
        g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
        out = self.path("frozen")
        r = export_autograd([y, g], {"x": x, "w": w}, out)
        nodes = r["graph"]["nodes"]
        self.assertIn({"id": 1, "op": "param", "name": "w", "shape": [2, 3]}, nodes)
        ts = [n for n in nodes if n["op"] == "aten.t.default"]
        self.assertEqual([(n["args"], n["shape"]) for n in ts], [([{"node": 1}], [3, 2])])
        self.assertEqual([n["shape"] for n in nodes if n["op"] == "const"], [[4, 3]])  # the seed
        eval_check(self, out)


if __name__ == "__main__":
    unittest.main()
