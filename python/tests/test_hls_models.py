"""Every PyTorch-exported test model passes csim: each model of test_mlps.py and
the INSP export of test_insp.py, at a small size, compiled by `inrarch compile` with its C
simulations for fixed<32,10> (max abs error <= 1e-3) and float (max relative error <= 1e-4).
One export per model serves both number types. The golden values are PyTorch's float64
outputs, written by the exporter, not by the code under test."""
import sys

import torch

from tests.test_mlps import mixed_net, relu_net, setup, tanh_pinn
from tests.util import TmpDirTest, compile_hls, need_bin
from inrarch_torch import export, export_autograd, models

# The bounds: absolute for fixed point (its resolution is absolute), relative
# (max|got - want| / max|want| per output) for float.
BOUNDS = (("fixed<32,10>", "max_abs_error", 1e-3), ("float", "max_rel_error", 1e-4))


class HlsModelCsimTest(TmpDirTest):
    def check(self, name, bundle):
        for number_type, key, bound in BOUNDS:
            with self.subTest(model=name, type=number_type):
                out = self.path(f"{name}-{number_type.split('<')[0]}")
                rc, log, v = compile_hls(self, bundle, out, number_type)
                self.assertIsNotNone(v, f"no report.json:\n{log}")
                self.assertEqual(rc, 0, log)
                for mode in ("csim", "threaded", "trace"):
                    self.assertTrue(v[mode]["pass"], f"{mode}: {v[mode]}")
                self.assertEqual(v["csim"]["type"], number_type)
                print(f"\n  {name} {number_type}: max abs error {v['csim']['max_abs_error']:.3e}, "
                      f"max rel error {v['csim']['max_rel_error']:.3e}", file=sys.stderr)
                self.assertLessEqual(v["csim"][key], bound, v["csim"])

    def export_mlp(self, name, fn, sizes, seed, extra=None):
        need_bin(self)  # skip before exporting when the binary is absent
        inputs, params = setup(sizes, 8, seed)
        params.update(extra or {})
        bundle = self.path(name)
        export(fn, inputs, params, bundle)
        return bundle

    def test_tanh_pinn(self):  # tanh, its derivatives and a Laplacian
        self.check("tanh", self.export_mlp("tanh", tanh_pinn, [3, 8, 8, 1], seed=1))

    def test_relu_net(self):  # relu and step (its derivative), 2nd order
        self.check("relu", self.export_mlp("relu", relu_net, [2, 8, 8, 2], seed=2))

    def test_mixed_net(self):  # sigmoid/softplus (exp, log, div), pow, mean, cat with zeros
        scale = {"scale": torch.tensor([1.0, 0.5, 2.0, -1.5], dtype=torch.float64)}
        self.check("mixed", self.export_mlp("mixed", mixed_net, [4, 8, 8, 3], 3, scale))

    def test_insp_order1_fx(self):
        need_bin(self)
        inputs, params = models.insp_setup(8, width=16, seed=1)
        export(models.insp_fn(1), inputs, params, self.path("insp1"))
        self.check("insp1", self.path("insp1"))

    def test_insp_order2_autograd_walk(self):
        need_bin(self)
        inputs, params = models.insp_setup(8, width=16, seed=2)
        x = inputs["x"].requires_grad_(True)
        params = {k: v.requires_grad_(True) for k, v in params.items()}
        outs = models.insp_fn(2)({"x": x}, params)
        export_autograd(outs, {"x": x, **params}, self.path("insp2"))
        self.check("insp2", self.path("insp2"))
