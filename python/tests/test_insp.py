"""INSP (README) exported both ways, in both layer forms, checked by the C++ interpreter
against PyTorch's float64 outputs; raw grad_fn counts against the measured reference."""
import os
import unittest

import numpy as np

from tests.util import TmpDirTest, eval_check, run_bin, run_module
from inrarch_torch import export, export_autograd, models

# Unique grad_fn nodes of INSP's outputs (inr-arch-facts.md, Debian torch 1.13).
RAW_GRAD_FN = {1: 114, 2: 438, 3: 1986}


def insp_leaves(batch, seed=0):
    inputs, params = models.insp_setup(batch, seed=seed)
    x = inputs["x"].requires_grad_(True)
    params = {k: v.requires_grad_(True) for k, v in params.items()}
    return x, params


class InspExportTest(TmpDirTest):
    def test_fx_export_matches_pytorch(self):
        for order in (1, 2, 3):
            for form in ("batch", "nn"):
                with self.subTest(order=order, form=form):
                    inputs, params = models.insp_setup(8, seed=order)
                    out = self.path(f"fx{order}{form}")
                    r = export(models.insp_fn(order, form), inputs, params, out)
                    self.assertEqual(len(r.graph["outputs"]), models.insp_output_count(order))
                    eval_check(self, out)

    def test_autograd_walk_matches_pytorch(self):
        for order in (1, 2, 3):
            for form in ("batch", "nn"):
                with self.subTest(order=order, form=form):
                    x, params = insp_leaves(8, seed=order)
                    outs = models.insp_fn(order, form)({"x": x}, params)
                    out = self.path(f"walk{order}{form}")
                    r = export_autograd(outs, {"x": x, **params}, out)
                    if form == "batch":
                        self.assertEqual(r["grad_fn_nodes"], RAW_GRAD_FN[order])
                    eval_check(self, out)


class BuiltinAgreementTest(TmpDirTest):
    """The built-in C++ INSP and the PyTorch INSP on the same weights agree on every output."""

    def test_same_weights_same_outputs(self):
        for order in (1, 2, 3):
            builtin = self.path(f"builtin{order}")
            rc, log = run_bin(self, "model", "insp", "--order", str(order), "--batch", "8",
                              "-o", builtin)
            self.assertEqual(rc, 0, log)
            for form in ("batch", "nn"):
                with self.subTest(order=order, form=form):
                    out = self.path(f"pt{order}{form}")
                    p = run_module("insp", "--order", str(order), "--batch", "8", "--linear",
                                   form, "--params-from", builtin, "-o", out)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    self.assert_same_outputs(builtin, out, models.insp_output_count(order))
                    eval_check(self, out)

    def assert_same_outputs(self, a, b, count):
        names_a = sorted(os.listdir(os.path.join(a, "reference")))
        names_b = sorted(os.listdir(os.path.join(b, "reference")))
        self.assertEqual(names_a, names_b)
        self.assertEqual(len(names_a), count)
        for name in names_a:
            ra = np.load(os.path.join(a, "reference", name))
            rb = np.load(os.path.join(b, "reference", name))
            self.assertEqual(ra.shape, rb.shape, name)
            scale = max(np.abs(rb).max(), 1e-300)
            self.assertLessEqual(np.abs(ra - rb).max() / scale, 1e-9, name)


class InspCliTest(TmpDirTest):
    def test_cli_writes_bundle(self):
        out = self.path("cli")
        p = run_module("insp", "--order", "1", "--batch", "4", "--width", "16", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.isfile(os.path.join(out, "graph.json")))
        self.assertEqual(len(os.listdir(os.path.join(out, "reference"))), 9)

    def test_cli_error_leaves_no_bundle(self):
        out = self.path("bad")
        p = run_module("insp", "--order", "1", "--batch", "4", "--params-from",
                       self.path("missing"), "-o", out)
        self.assertEqual(p.returncode, 1)
        self.assertIn("error", p.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual(os.listdir(self.tmp), [])


if __name__ == "__main__":
    unittest.main()
