"""The aten graph writer: in-place rebinding, dead code, multi-output rewriting, schema."""
import unittest

import torch

from tests.util import TmpDirTest
from inrarch_torch import export
from inrarch_torch.aten_graph import is_supported


def nodes_by_op(graph):
    out = {}
    for n in graph["nodes"]:
        out.setdefault(n["op"], []).append(n)
    return out


class AtenGraphTest(TmpDirTest):
    def export(self, fn, x=None):
        x = torch.arange(6, dtype=torch.float64).reshape(3, 2) if x is None else x
        return export(fn, {"x": x}, {}, self.path("b")).graph

    def test_inplace_rebinds_later_uses_only(self):
        def fn(i, p):
            y = i["x"] * 2
            before = torch.sin(y)
            y += 1
            return [before, y * 3]
        g = self.export(fn)
        ops = nodes_by_op(g)
        mul2 = [n for n in ops["aten.mul.Tensor"] if n["args"][1] == 2][0]
        add_ = ops["aten.add_.Tensor"][0]
        sin = ops["aten.sin.default"][0]
        mul3 = [n for n in ops["aten.mul.Tensor"] if n["args"][1] == 3][0]
        self.assertEqual(sin["args"][0], {"node": mul2["id"]})      # before the update
        self.assertEqual(add_["args"][0], {"node": mul2["id"]})
        self.assertEqual(mul3["args"][0], {"node": add_["id"]})     # after it

    def test_dead_code_is_dropped(self):
        def fn(i, p):
            torch.cos(i["x"])                                # unused
            y = i["x"].sum(1)
            return torch.autograd.grad(y, i["x"], torch.ones_like(y), create_graph=True)[0]
        g = self.export(fn)
        ops = [n["op"] for n in g["nodes"]]
        self.assertNotIn("aten.cos.default", ops)
        self.assertNotIn("aten.is_same_size.default", ops)

    def test_unbind_becomes_select(self):
        g = self.export(lambda i, p: [t * 2 for t in torch.unbind(i["x"], 1)])
        sels = nodes_by_op(g)["aten.select.int"]
        self.assertEqual(sorted(n["args"][2] for n in sels), [0, 1])

    def test_schema(self):
        g = self.export(lambda i, p: torch.tanh(i["x"]))
        self.assertEqual(g["format"], "inrarch-aten")
        self.assertEqual(g["version"], 1)
        self.assertEqual(g["nodes"][0], {"id": 0, "op": "input", "name": "x", "shape": [3, 2]})
        self.assertEqual(g["nodes"][1]["shape"], [3, 2])
        self.assertEqual(g["outputs"], [{"name": "out0", "node": 1}])

    def test_supported_names(self):
        self.assertTrue(is_supported("aten.add_.Tensor"))
        self.assertTrue(is_supported("aten._unsafe_view.default"))
        self.assertFalse(is_supported("aten.sqrt.default"))


if __name__ == "__main__":
    unittest.main()
