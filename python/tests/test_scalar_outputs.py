"""A 0-d output (a loss) stays 0-d end to end: the reference .npy has shape (), and
`inrarch eval --check` and `inrarch compile` (its C simulations) take the bundle. The model is
a small PINN-style network in float32, with a data loss as users write it."""
import os
import subprocess

import numpy as np
import torch
from torch import nn

from tests.util import TmpDirTest, eval_check, need_bin
from inrarch_torch import export, export_autograd


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(2, 8), nn.Linear(8, 1)

    def forward(self, x):
        return self.l2(torch.tanh(self.l1(x)))


torch.manual_seed(3)
NET = Net()


def with_loss(inputs, params):
    u = NET(inputs["x"])
    return {"u": u, "query_loss": ((u - inputs["y"]) ** 2).mean()}


def data(rows=8):
    gen = torch.Generator().manual_seed(5)
    return {"x": torch.rand(rows, 2, generator=gen), "y": torch.rand(rows, 1, generator=gen)}


class ScalarOutputTest(TmpDirTest):
    def test_export_keeps_the_loss_0d_and_eval_checks_it(self):
        out = self.path("loss")
        r = export(with_loss, data(), {}, out)
        self.assertEqual(r.reference["query_loss"].shape, ())
        ref = np.load(os.path.join(out, "reference", "query_loss.npy"))
        self.assertEqual(ref.shape, ())
        inputs = data()
        with torch.no_grad():   # the loss computed here, by hand, in float64
            u = NET.double()(inputs["x"].double())
            NET.float()
            want = float(((u - inputs["y"].double()) ** 2).sum()) / 8
        self.assertAlmostEqual(float(ref), want, places=12)
        eval_check(self, out)

    def test_walk_keeps_the_loss_0d(self):
        x = data()["x"].double().requires_grad_(True)
        y = torch.sin(x * 3).sum(1)
        out = self.path("walk")
        export_autograd({"loss": (y * y).sum()}, {"x": x}, out)
        self.assertEqual(np.load(os.path.join(out, "reference", "loss.npy")).shape, ())
        eval_check(self, out)

    def test_compile_simulates_a_0d_output(self):
        bundle, out = self.path("loss"), self.path("hw")
        export(with_loss, data(), {}, bundle)
        p = subprocess.run([need_bin(self), "compile", bundle, "-o", out], capture_output=True,
                           text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"csim PASS \(.*\), threaded PASS, trace PASS")


if __name__ == "__main__":
    import unittest
    unittest.main()
