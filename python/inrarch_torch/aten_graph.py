"""Serialization of a traced aten FX graph into the "inrarch-aten" graph.json (docs/pytorch.md).

The graph has been made out-of-place first (functional.py: no in-place ops, items of unbind /
split as select / slice), so this writes a pure dataflow graph: only nodes reachable from the
outputs (dead code such as is_same_size, or the isnan test of a specialised branch, goes),
each refusing what the C++ importer does not map.
"""
import math
import operator
import os

import torch

from .bundle import ExportError
from .functional import base_name, meta_value
from .op_checks import refusal, rewrite_hint
from .tracing import node_source

_SUPPORTED = None


def supported_ops():
    """Base names the C++ importer maps (a checked mirror of src/frontend/aten_rules.cpp)."""
    global _SUPPORTED
    if _SUPPORTED is None:
        path = os.path.join(os.path.dirname(__file__), "aten_ops.txt")
        with open(path) as f:
            _SUPPORTED = frozenset(line.strip() for line in f if line.strip())
    return _SUPPORTED


def is_supported(op_name):
    base = base_name(op_name)
    if base in supported_ops():
        return True
    return base.endswith("_") and not base.endswith("__") and base[:-1] in supported_ops()


def float_json(v):
    """A float as the graph's JSON holds it: itself, or {"float": "inf" | "-inf" | "nan"}."""
    if math.isfinite(v):
        return v
    return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}



def _mask_to_float(op, args, kwargs):
    """Whether the node converts a bool tensor (a comparison's mask) to a floating dtype."""
    if base_name(op) != "_to_copy" or not args or not isinstance(args[0], torch.fx.Node):
        return False
    src = meta_value(args[0])
    return (getattr(src, "dtype", None) == torch.bool
            and kwargs.get("dtype") in (torch.float32, torch.float64, torch.float16))

class AtenGraphWriter:
    """Turns one out-of-place make_fx GraphModule into the JSON dict (see module doc)."""

    def __init__(self, gm, leaf_kinds, output_names, name, traced_numbers=None):
        self.gm = gm
        self.leaf_kinds = leaf_kinds      # placeholder node -> ("input"|"param", name)
        self.output_names = output_names
        self.name = name
        # Numbers read from traced tensors (tracing.py) -> the line that read them.
        self.traced_numbers = traced_numbers or {}
        self.ids = {}

    def to_json(self):
        order = []
        for node in self.gm.graph.nodes:
            if node.op in ("placeholder", "get_attr", "call_function"):
                order.append(node)
            elif node.op != "output":
                raise ExportError(f"node {node.name}: unsupported FX node kind {node.op!r}")
        live = self._live()
        nodes = []
        for node in order:
            if node in live and not self._multi_output(node):
                nodes.append(self._node_json(node, len(nodes)))
        outputs = [{"name": n, "node": self.ids[v]}
                   for n, v in zip(self.output_names, self._output_values())]
        return {"format": "inrarch-aten", "version": 1, "name": self.name,
                "nodes": nodes, "outputs": outputs}

    # -- liveness from the outputs ----------------------------------------------------
    def _output_values(self):
        out = [n for n in self.gm.graph.nodes if n.op == "output"][0]
        vals = out.args[0]
        return list(vals) if isinstance(vals, (list, tuple)) else [vals]

    def _live(self):
        live = set()
        stack = list(self._output_values())
        for v in stack:
            if not isinstance(v, torch.fx.Node):
                raise ExportError(f"output {v!r} is not a tensor computed from the inputs")
        while stack:
            node = stack.pop()
            if node in live:
                continue
            live.add(node)
            for arg in list(node.args) + list(node.kwargs.values()):
                stack.extend(self._refs(arg))
        return live

    def _refs(self, arg):
        if isinstance(arg, torch.fx.Node):
            return [arg]
        if isinstance(arg, (list, tuple)):
            return [r for a in arg for r in self._refs(a)]
        return []

    # -- JSON ---------------------------------------------------------------------------
    def _meta_shape(self, node):
        val = meta_value(node)
        if val is None or not hasattr(val, "shape"):
            raise ExportError(f"node {node.name} ({node.target}): no tensor metadata "
                              "(not a single tensor)")
        return [int(d) for d in val.shape]

    def _node_json(self, node, position):
        nid = len(self.ids)
        self.ids[node] = nid
        where = f"node {nid} (#{position}, fx {node.name})"
        if node.op == "placeholder":
            kind, name = self.leaf_kinds[node]
            return {"id": nid, "op": kind, "name": name, "shape": self._meta_shape(node)}
        if node.op == "get_attr":
            value = getattr(self.gm, node.target).detach().to(torch.float64)
            return {"id": nid, "op": "const", "shape": list(value.shape),
                    "value": [float(v) for v in value.reshape(-1).tolist()]}
        call, item = node, None
        if node.target is operator.getitem:
            # An item of a multi-output op (native_layer_norm's y, mean, rstd) is that op
            # with "item": the importer builds the output asked for (docs/pytorch.md).
            source, item = node.args
            if not self._multi_output(source):
                raise ExportError(f"{where}: item {item} of {source.target} is not supported "
                                  "(only of unbind / split and multi-output ops the importer maps)")
            call = source
        op, args, kwargs = str(call.target), call.args, call.kwargs
        self._check_op(call, op, where)
        val = meta_value(node)
        # A sum of a 0/1 mask is an integer count (the inf-norm's backward divides by the
        # number of entries at the max): exact in the IR's numbers.
        counts = (torch.int64, torch.int32) if base_name(op) == "sum" else ()
        if val is not None and getattr(val, "dtype", torch.float64) not in (
                torch.float64, torch.float32, torch.float16, torch.bool) + counts:
            raise ExportError(f"{where}: {op} yields a {val.dtype} tensor; only floating-point "
                              "values (and 0/1 masks) are supported")
        out = {"id": nid, "op": op, "shape": self._meta_shape(node),
               "args": [self._arg(a, where) for a in args]}
        if item is not None:
            out["item"] = item
        if kwargs:
            out["kwargs"] = {k: self._arg(v, where) for k, v in kwargs.items()}
            if _mask_to_float(op, args, kwargs):
                # A 0/1 mask is exact in every floating type: the conversion a float32 model's
                # backward records (softplus's `(beta x < threshold).to(float32)`) is the
                # export dtype's, which the importer takes as the identity.
                out["kwargs"]["dtype"] = "torch.float64"
        return out

    def _multi_output(self, node):
        """A call of an op with several results that the importer maps; only its items
        (getitem nodes) are written."""
        schema = getattr(node.target, "_schema", None)
        return (node.op == "call_function" and schema is not None and len(schema.returns) > 1
                and is_supported(str(node.target)))

    def _check_op(self, node, op, where):
        """Refuses what the importer would (op_checks.py), naming the user's line first."""
        base, hint = base_name(op), ""
        if not is_supported(op):
            why, hint = f"unsupported aten op '{base}' ({op})", rewrite_hint(base)
        else:
            why = refusal(base.rstrip("_"), node.args, node.kwargs)
            why = why and f"{op}: {why}"
        if why:
            line, code = node_source(node)
            e = ExportError(f"{line + ': ' if line else ''}{why}{code}{hint}; at {where}; "
                            "docs/pytorch.md lists the supported ops")
            e.without_source = not line   # export() traces again, recording the lines
            raise e

    def _arg(self, a, where):
        if isinstance(a, torch.fx.Node):
            return {"node": self.ids[a]}
        if isinstance(a, (list, tuple)):
            return [self._arg(x, where) for x in a]
        if a is None or isinstance(a, (bool, int, str)):
            return a
        if isinstance(a, float):
            if a in self.traced_numbers:
                raise ExportError(
                    f"{self.traced_numbers[a]}: the number read here from a traced tensor "
                    f"({a!r} on the example inputs) is a constant of {where}: the graph would "
                    "be right for these inputs only; keep it a tensor (drop the float(), "
                    "int() or .item() that reads it)")
            return float_json(a)
        if isinstance(a, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
            return str(a)
        raise ExportError(f"{where}: cannot serialize argument {a!r} ({type(a).__name__})")
