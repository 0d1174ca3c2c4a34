"""The PyTorch → MLIR example (docs/mlir.md) end to end on the HLS side: forward(x, y) = x + y on [1,3,10,10], exported with
inrarch_torch and compiled by `inrarch compile` with its three C simulations. (The MLIR half
is tests/mlir/torch_add_test.cpp.)"""
import json
import os

import torch

from tests.util import TmpDirTest, run_bin
from inrarch_torch import export


class TorchAddHlsTest(TmpDirTest):
    def test_add_compiles_to_hls_with_csim_pass(self):
        g = torch.Generator().manual_seed(2)
        x = torch.rand(1, 3, 10, 10, dtype=torch.float64, generator=g)
        y = torch.rand(1, 3, 10, 10, dtype=torch.float64, generator=g)
        export(lambda i, p: i["x"] + i["y"], {"x": x, "y": y}, {}, self.path("bundle"))
        rc, out = run_bin(self, "compile", self.path("bundle"), "-q", "-o", self.path("out"))
        self.assertEqual(rc, 0, out)
        with open(os.path.join(self.path("out"), "report.json")) as f:
            report = json.load(f)
        v = report["verification"]
        for mode in ("csim", "threaded", "trace"):
            self.assertTrue(v[mode]["pass"], f"{mode}: {v[mode]}")
        self.assertLessEqual(v["csim"]["max_abs_error"], 1e-6)
        self.assertTrue(report["analysis"]["deadlock_free"])
