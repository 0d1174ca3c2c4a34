"""Failures are clear, name the op / node, and leave no bundle behind."""
import json
import os
import shutil
import unittest

import torch

from tests.util import TmpDirTest, line_of, run_bin
from inrarch_torch import ExportError, export, export_autograd, models


def x_and_w():
    x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(3, 2)
    return {"x": x}, {"w": torch.ones(2, 2, dtype=torch.float64)}


class ExportErrorTest(TmpDirTest):
    def assert_no_bundle(self, out):
        self.assertFalse(os.path.exists(out))
        self.assertEqual(os.listdir(self.tmp), [], "temporary folders left behind")

    def test_unsupported_aten_op_is_named(self):
        out = self.path("atan")
        ins, ps = x_and_w()
        with self.assertRaises(ExportError) as cm:
            export(lambda i, p: torch.atan(i["x"].matmul(p["w"]) ** 2 + 1), ins, ps, out)
        self.assertIn("unsupported aten op 'atan'", str(cm.exception))
        self.assertIn("node ", str(cm.exception))
        self.assert_no_bundle(out)

    def test_unsupported_op_names_the_users_line_and_a_rewrite(self):
        net = torch.nn.Linear(2, 2)

        def fn(i, p):
            h = net(i["x"])
            return torch.tan(h * h + 1)
        out = self.path("tan_line")
        with self.assertRaises(ExportError) as cm:
            export(fn, *x_and_w(), out)
        file, line = line_of(fn, "return torch.tan")
        msg = str(cm.exception)
        self.assertTrue(msg.startswith(f"{file}:{line}: unsupported aten op 'tan' "
                                       "(aten.tan.default) (`return torch.tan(h * h + 1)`)"), msg)
        self.assertIn("rewrite it as torch.sin(x) / torch.cos(x)", msg)
        self.assert_no_bundle(out)

    def test_an_op_without_a_rewrite_suggests_none(self):
        with self.assertRaises(ExportError) as cm:
            export(lambda i, p: torch.atan(i["x"]), *x_and_w(), self.path("atan"))
        self.assertIn("unsupported aten op 'atan'", str(cm.exception))
        self.assertNotIn("rewrite", str(cm.exception))

    def test_exponent_the_importer_refuses_is_refused_at_export(self):
        def fn(i, p):
            r = i["x"] * i["x"] + 1
            return r ** float("inf")
        file, line = line_of(fn, 'return r ** float("inf")')
        cases = ((fn, "aten.pow.Tensor_Scalar: exponent inf is not supported (only a finite number)"),
                 (lambda i, p: i["x"] ** i["x"],
                  "aten.pow.Tensor_Tensor: a tensor exponent is not supported (only a number)"))
        for exponent_fn, shown in cases:
            out = self.path("pow")
            with self.assertRaises(ExportError) as cm:
                export(exponent_fn, *x_and_w(), out)
            msg = str(cm.exception)
            self.assertIn(shown, msg)
            self.assertEqual(msg.startswith(f"{file}:{line}: "), exponent_fn is fn, msg)
            self.assert_no_bundle(out)

    def test_integer_and_real_exponents_export(self):
        out = self.path("pow_ok")
        export(lambda i, p: i["x"] ** -2 + i["x"] ** 3 + (i["x"] * i["x"] + 1) ** -0.5
               + (i["x"] * i["x"] + 1) ** 17, *x_and_w(), out)
        self.assertTrue(os.path.isdir(out))

    def test_integer_tensors_are_rejected(self):
        out = self.path("argmax")
        ins, ps = x_and_w()
        with self.assertRaises(ExportError):
            export(lambda i, p: i["x"].argmax(1), ins, ps, out)
        self.assert_no_bundle(out)

    def test_inplace_through_a_view_without_a_scatter_is_rejected(self):
        def fn(i, p):
            y = i["x"].matmul(p["w"])
            y.diagonal().mul_(3)   # changes y too, and no IR op scatters a diagonal
            return y
        out = self.path("view")
        ins, ps = x_and_w()
        with self.assertRaises(ExportError) as cm:
            export(fn, ins, ps, out)
        self.assertIn("in-place update through a 'diagonal' view is not supported",
                      str(cm.exception))
        self.assert_no_bundle(out)

    def test_existing_bundle_survives_a_failed_export(self):
        out = self.path("keep")
        ins, ps = x_and_w()
        export(lambda i, p: torch.sin(i["x"]), ins, ps, out)
        with self.assertRaises(ExportError):
            export(lambda i, p: torch.atan(i["x"]), ins, ps, out)
        with open(os.path.join(out, "graph.json")) as f:
            self.assertIn("sin", f.read())


class AutogradWalkErrorTest(TmpDirTest):
    def test_unrecorded_number_fails_clearly(self):
        x = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
        out = self.path("walk")
        with self.assertRaises(ExportError) as cm:
            # The sum hides the result of + 1.0, so the number cannot be solved from it.
            export_autograd([(torch.sin(x) + 1.0).sum()], {"x": x}, out)
        self.assertIn("did not save its value", str(cm.exception))
        self.assertFalse(os.path.exists(out))

    def test_unrecorded_constant_tensor_fails_clearly(self):
        x = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
        c = torch.full((3, 2), 2.0, dtype=torch.float64)      # not a leaf we were given
        with self.assertRaises(ExportError) as cm:
            export_autograd([(torch.sin(x) + c).sum(1)], {"x": x}, self.path("walk"))
        self.assertIn("did not save its value", str(cm.exception))

    def test_unknown_leaf_fails_clearly(self):
        x = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
        w = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
        with self.assertRaises(ExportError) as cm:
            export_autograd([x.matmul(w)], {"x": x}, self.path("walk"))
        self.assertIn("not in named_leaves", str(cm.exception))


class ImporterErrorTest(TmpDirTest):
    def test_cpp_importer_rejects_unsupported_op(self):
        out = self.path("b")
        ins, ps = x_and_w()
        export(lambda i, p: torch.sin(i["x"]), ins, ps, out)
        path = os.path.join(out, "graph.json")
        with open(path) as f:
            g = json.load(f)
        g["nodes"][-1]["op"] = "aten.atan.default"   # as if the exporter had let it through
        with open(path, "w") as f:
            json.dump(g, f)
        rc, log = run_bin(self, "eval", out)
        self.assertEqual(rc, 1, log)
        self.assertIn("unsupported aten op 'atan'", log)
        self.assertIn("node 1", log)


if __name__ == "__main__":
    unittest.main()
