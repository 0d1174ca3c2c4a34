"""A MAML-style inner gradient: torch.autograd.grad(F.mse_loss(net(x), y), net.parameters(),
create_graph=True). Each weight gradient δᵀ·h reduces over the batch; the design computes
it with mm_reduce kernels (docs/dataflow.md §2), no transpose of a [batch, width] stream.
The bundle must export, `eval --check` and compile with every C simulation."""
import json
import os

import torch
import torch.nn.functional as F
from torch import nn

from tests.util import TmpDirTest, compile_csim, eval_check
from inrarch_torch import export


class InnerGradient(TmpDirTest):
    def test_mse_loss_gradient_wrt_parameters(self):
        torch.manual_seed(0)
        net = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
        names = [n for n, _ in net.named_parameters()]

        def fn(inputs, params):  # the closed-over module's weights become the bundle's params
            loss = F.mse_loss(net(inputs["x"]), inputs["y"])
            grads = torch.autograd.grad(loss, list(net.parameters()), create_graph=True)
            return {f"d_{n.replace('.', '_')}": g for n, g in zip(names, grads)}

        x = torch.rand(32, 1) * 4 - 2
        bundle = self.path("inner")
        export(fn, {"x": x, "y": torch.sin(x)}, {}, bundle)
        eval_check(self, bundle, rtol=None)
        compile_csim(self, bundle)
        with open(os.path.join(self.path("out_inner"), "report.json")) as f:
            kernels = json.load(f)["design"]["kernels"]
        # The three weight gradients (32 rows each) are batch reductions; no transpose is left.
        self.assertEqual(kernels.get("mm_reduce"), 3, kernels)
        self.assertNotIn("transpose", kernels, kernels)
