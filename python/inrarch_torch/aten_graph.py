"""Serialization of a traced aten FX graph into the "inrarch-aten" graph.json (docs/pytorch.md).

Three things happen on the way, all because FX graphs are not pure dataflow:
- in-place ops (add_, mul_, ...) rebind later uses of the mutated tensor to their own node;
- multi-output ops (unbind, split) are rewritten per used item into select / slice;
- only nodes reachable from the outputs are written (dead code, e.g. is_same_size, goes).
"""
import math
import operator
import os

import torch

from .bundle import ExportError

_SUPPORTED = None


def supported_ops():
    """Base names the C++ importer maps (a checked mirror of src/frontend/aten_rules.cpp)."""
    global _SUPPORTED
    if _SUPPORTED is None:
        path = os.path.join(os.path.dirname(__file__), "aten_ops.txt")
        with open(path) as f:
            _SUPPORTED = frozenset(line.strip() for line in f if line.strip())
    return _SUPPORTED


def base_name(op_name):
    """'aten.add_.Tensor' -> 'add_'."""
    name = op_name[5:] if op_name.startswith("aten.") else op_name
    return name.split(".")[0]


def is_supported(op_name):
    base = base_name(op_name)
    if base in supported_ops():
        return True
    return base.endswith("_") and not base.endswith("__") and base[:-1] in supported_ops()


def _meta_value(node):
    # PyTorch 2.x stores a fake tensor in meta["val"]; 1.13 a TensorMetadata in "tensor_meta".
    val = node.meta.get("val")
    return val if val is not None else node.meta.get("tensor_meta")


def _mutates_first_arg(target):
    args = getattr(target, "_schema", None)
    args = args.arguments if args is not None else []
    info = args[0].alias_info if args else None
    return info is not None and info.is_write


def _is_view_op(target):
    schema = getattr(target, "_schema", None)
    if schema is None or not schema.returns:
        return False
    info = schema.returns[0].alias_info
    return info is not None and not info.is_write


def _float_json(v):
    if math.isfinite(v):
        return v
    return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}


class AtenGraphWriter:
    """Turns one make_fx GraphModule into the JSON dict (see module doc)."""

    def __init__(self, gm, leaf_kinds, output_names, name):
        self.gm = gm
        self.leaf_kinds = leaf_kinds      # placeholder index -> ("input"|"param", name)
        self.output_names = output_names
        self.name = name
        self.alias = {}                   # fx node -> fx node that now holds its value
        self.rewritten = {}               # getitem fx node -> (op name, args)
        self.ids = {}
        self.args = {}                    # fx node -> (args, kwargs) with aliases resolved

    def resolve(self, node):
        while node in self.alias:
            node = self.alias[node]
        return node

    def to_json(self):
        order = self._scan()
        live = self._live(order)
        nodes = []
        for node in order:
            if node in live:
                nodes.append(self._node_json(node, len(nodes)))
        outputs = [{"name": n, "node": self.ids[self.resolve(v)]}
                   for n, v in zip(self.output_names, self._output_values())]
        return {"format": "inrarch-aten", "version": 1, "name": self.name,
                "nodes": nodes, "outputs": outputs}

    # -- pass 1: aliasing of in-place ops, rewriting of multi-output items ------------
    def _scan(self):
        order = []
        for node in self.gm.graph.nodes:
            if node.op == "call_function" and node.target is operator.getitem:
                self._rewrite_item(node)
            if node.op == "call_function":
                # Arguments see only the in-place updates made before this node.
                if node in self.rewritten:
                    args, kwargs = self.rewritten[node][1], {}
                else:
                    args, kwargs = node.args, node.kwargs
                self.args[node] = (self._resolve_tree(args), self._resolve_tree(kwargs))
                if _mutates_first_arg(node.target):
                    self._check_inplace(node)
                    self.alias[self.resolve(node.args[0])] = node
            if node.op in ("placeholder", "get_attr", "call_function"):
                order.append(node)
            elif node.op != "output":
                raise ExportError(f"node {node.name}: unsupported FX node kind {node.op!r}")
        return order

    def _resolve_tree(self, a):
        if isinstance(a, torch.fx.Node):
            return self.resolve(a)
        if isinstance(a, (list, tuple)):
            return type(a)(self._resolve_tree(x) for x in a)
        if isinstance(a, dict):
            return {k: self._resolve_tree(v) for k, v in a.items()}
        return a

    def _check_inplace(self, node):
        target = self.resolve(node.args[0])
        if target.op == "call_function" and _is_view_op(target.target):
            raise ExportError(
                f"node {node.name} ({node.target}): in-place update of a view "
                f"({target.target}) is not supported: the base tensor would change too; "
                "write it out of place")

    def _rewrite_item(self, node):
        parent, i = node.args
        op = str(parent.target)
        base = base_name(op)
        a = list(parent.args) + [None] * 3
        if base == "unbind":
            self.rewritten[node] = ("aten.select.int", [a[0], a[1] or 0, i])
        elif base in ("split", "split_with_sizes"):
            dim = a[2] or 0
            size = self._meta_shape(a[0])[dim]
            sizes = a[1] if isinstance(a[1], (list, tuple)) else [a[1]] * math.ceil(size / a[1])
            start = sum(sizes[:i])
            self.rewritten[node] = ("aten.slice.Tensor", [a[0], dim, start, start + sizes[i], 1])
        else:
            raise ExportError(f"node {node.name}: item {i} of multi-output op {op} "
                              "is not supported (only unbind / split)")

    # -- pass 2: liveness from the outputs -------------------------------------------
    def _output_values(self):
        out = [n for n in self.gm.graph.nodes if n.op == "output"][0]
        vals = out.args[0]
        return list(vals) if isinstance(vals, (list, tuple)) else [vals]

    def _args_of(self, node):
        return self.args.get(node, ((), {}))

    def _live(self, order):
        live = set()
        stack = [self.resolve(v) for v in self._output_values()]
        for v in stack:
            if not isinstance(v, torch.fx.Node):
                raise ExportError(f"output {v!r} is not a tensor computed from the inputs")
        while stack:
            node = stack.pop()
            if node in live:
                continue
            live.add(node)
            args, kwargs = self._args_of(node)
            for arg in list(args) + list(kwargs.values()):
                stack.extend(self._refs(arg))
        return live

    def _refs(self, arg):
        if isinstance(arg, torch.fx.Node):
            return [arg]
        if isinstance(arg, (list, tuple)):
            return [r for a in arg for r in self._refs(a)]
        return []

    # -- pass 3: JSON ----------------------------------------------------------------
    def _meta_shape(self, node):
        val = _meta_value(node)
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
        op, (args, kwargs) = str(node.target), self._args_of(node)
        if node in self.rewritten:
            op = self.rewritten[node][0]
        if not is_supported(op):
            raise ExportError(f"{where}: unsupported aten op '{base_name(op)}' ({op}); "
                              "see docs/pytorch.md for the supported ops")
        val = _meta_value(node)
        if val is not None and getattr(val, "dtype", torch.float64) not in (
                torch.float64, torch.float32, torch.float16, torch.bool):
            raise ExportError(f"{where}: {op} yields a {val.dtype} tensor; only floating-point "
                              "values (and 0/1 masks) are supported")
        out = {"id": nid, "op": op, "shape": self._meta_shape(node),
               "args": [self._arg(a, where) for a in args]}
        if kwargs:
            out["kwargs"] = {k: self._arg(v, where) for k, v in kwargs.items()}
        return out

    def _arg(self, a, where):
        if isinstance(a, torch.fx.Node):
            return {"node": self.ids[a]}
        if isinstance(a, (list, tuple)):
            return [self._arg(x, where) for x in a]
        if a is None or isinstance(a, (bool, int, str)):
            return a
        if isinstance(a, float):
            return _float_json(a)
        if isinstance(a, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
            return str(a)
        raise ExportError(f"{where}: cannot serialize argument {a!r} ({type(a).__name__})")
