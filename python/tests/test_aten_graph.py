"""The aten graph writer and the out-of-place pass before it: in-place ops made functional,
dead code, multi-output rewriting, schema."""
import unittest

import torch

from tests.util import TmpDirTest, eval_check
from inrarch_torch import export
from inrarch_torch.aten_graph import is_supported


def inplace_ops(graph):
    return [n["op"] for n in graph["nodes"] if n["op"].startswith("aten.")
            and n["op"].split(".")[1].endswith("_")]


def nodes_by_op(graph):
    out = {}
    for n in graph["nodes"]:
        out.setdefault(n["op"], []).append(n)
    return out


class AtenGraphTest(TmpDirTest):
    def export(self, fn, x=None):
        x = torch.arange(6, dtype=torch.float64).reshape(3, 2) if x is None else x
        return export(fn, {"x": x}, {}, self.path("b")).graph

    def test_inplace_becomes_out_of_place_for_later_uses_only(self):
        def fn(i, p):
            y = i["x"] * 2
            before = torch.sin(y)
            y += 1
            return [before, y * 3]
        g = self.export(fn)
        ops = nodes_by_op(g)
        self.assertEqual(inplace_ops(g), [])
        mul2 = [n for n in ops["aten.mul.Tensor"] if n["args"][1] == 2][0]
        add = ops["aten.add.Tensor"][0]
        sin = ops["aten.sin.default"][0]
        mul3 = [n for n in ops["aten.mul.Tensor"] if n["args"][1] == 3][0]
        self.assertEqual(sin["args"][0], {"node": mul2["id"]})      # before the update
        self.assertEqual(add["args"], [{"node": mul2["id"]}, 1])
        self.assertEqual(mul3["args"][0], {"node": add["id"]})      # after it

    def test_update_of_a_view_reaches_the_base_and_older_views(self):
        def fn(i, p):
            y = i["x"] * 2
            col = y[:, 1]          # a view made before the update sees it too
            y[:, 0].mul_(3)
            y[1:, 1] = -1.0
            return [y, col * 1]
        g = self.export(fn)
        ops = nodes_by_op(g)
        self.assertIn("aten.select_scatter.default", ops)
        self.assertIn("aten.slice_scatter.default", ops)
        self.assertEqual(inplace_ops(g), [])
        eval_check(self, self.path("b"))   # y = [[0, 2], [12, -1], [24, -1]], col = [2, -1, -1]

    def test_masked_and_listed_assignment(self):
        def fn(i, p):
            y = torch.sin(i["x"] * 3)
            y[y < 0] = 0.0                   # a mask: where(mask, 0, y)
            z = i["x"] * 1
            z[:, [1, 0]] = y * 2             # constant indices: a select_scatter each
            return [y, z]
        g = self.export(fn)
        ops = nodes_by_op(g)
        self.assertIn("aten.where.self", ops)
        self.assertEqual(len(ops["aten.select_scatter.default"]), 2)
        self.assertEqual(inplace_ops(g), [])
        eval_check(self, self.path("b"))

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

    def test_items_of_a_multi_output_op_are_written_as_that_op_with_an_item(self):
        """native_layer_norm's (y, mean, rstd): only the items used are written, each with the
        op's arguments, its own shape and "item"; the tuple-valued node itself is not."""
        def fn(i, p):
            y, _, rstd = torch.native_layer_norm(i["x"], [2], None, None, 1e-5)
            return [y, rstd]
        g = self.export(fn)
        ln = nodes_by_op(g)["aten.native_layer_norm.default"]
        self.assertEqual([(n["item"], n["shape"]) for n in ln], [(0, [3, 2]), (2, [3, 1])])
        self.assertEqual(ln[0]["args"], ln[1]["args"])
        self.assertEqual([o["node"] for o in g["outputs"]], [n["id"] for n in ln])
        eval_check(self, self.path("b"))

    def test_supported_names(self):
        self.assertTrue(is_supported("aten.add_.Tensor"))
        self.assertTrue(is_supported("aten._unsafe_view.default"))
        self.assertFalse(is_supported("aten.atan.default"))


if __name__ == "__main__":
    unittest.main()
