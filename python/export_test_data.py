"""Writes the PyTorch-exported bundles checked in under tests/data/ (the C++ test
PassValues.BundlesInTestData optimizes each and compares with its PyTorch reference).
Small on purpose (batch 4, widths 8): a few KB each. Regenerate with
    PYTHONPATH=python /usr/bin/python3 python/export_test_data.py tests/data
"""
import os
import sys

import torch

from inrarch_torch import export, export_autograd, models
from tests.test_mlps import mixed_net, relu_net, setup, tanh_pinn


def export_all(root):
    written = []

    def mlp(name, fn, sizes, seed, extra=None):
        inputs, params = setup(sizes, 4, seed)
        params.update(extra or {})
        export(fn, inputs, params, os.path.join(root, name))
        written.append(name)

    mlp("torch_tanh_pinn", tanh_pinn, [3, 8, 8, 1], 1)
    mlp("torch_relu_net", relu_net, [2, 8, 8, 2], 2)
    mlp("torch_mixed_net", mixed_net, [4, 8, 8, 3], 3,
        {"scale": torch.tensor([1.0, 0.5, 2.0, -1.5], dtype=torch.float64)})
    inputs, params = models.insp_setup(4, width=8, seed=4)
    export(models.insp_fn(2), inputs, params, os.path.join(root, "torch_insp2_fx"))
    written.append("torch_insp2_fx")
    inputs, params = models.insp_setup(4, width=8, seed=5)
    x = inputs["x"].requires_grad_(True)
    params = {k: v.requires_grad_(True) for k, v in params.items()}
    export_autograd(models.insp_fn(2)({"x": x}, params), {"x": x, **params},
                    os.path.join(root, "torch_insp2_autograd"))
    written.append("torch_insp2_autograd")
    return written


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "tests/data"
    for name in export_all(root):
        print(f"wrote {os.path.join(root, name)}")
