"""Out-of-place rewriting of a make_fx graph: what torch.func.functionalize does, done after
the trace because functorch's functionalize (PyTorch 1.13) cannot trace through
torch.autograd.grad ("element 0 of tensors does not require grad").

make_fx records in-place ops (`x += y`, `h[..., i, j, :] = v`, `.copy_()`, `.fill_()`,
`x[mask] = 0`) as they ran: mutations of a tensor that other nodes (its views, its base)
share. The pass replays the graph in order and gives every mutation a new value instead:

- `op_(t, ...)` becomes `op(t, ...)`, the new value of t;
- when t is a view (select, slice, view, t, permute, ...), the new value is scattered back
  into its base one view at a time (select_scatter, slice_scatter, an inverse reshape or
  permutation), so the base gets a new value too;
- a later use of the base, of t, or of any other view of that base sees the new value (a
  view made before the mutation is made again from the new base);
- index_put_ with a boolean mask becomes `where`, with constant integer indices one
  select_scatter per index;
- items of unbind / split become select / slice (views like the others).

The result has no in-place ops, so the writer (aten_graph.py) and the C++ importer see a
pure dataflow graph. Every new node takes its metadata (shape, dtype) from a node of the
same value, so no value is computed here.
"""
import operator
import types

import torch

from .bundle import ExportError

aten = torch.ops.aten


def base_name(op_name):
    """'aten.add_.Tensor' -> 'add_'."""
    name = op_name[5:] if op_name.startswith("aten.") else op_name
    return name.split(".")[0]


def _schema(target):
    return getattr(target, "_schema", None)


def mutates_first_arg(target):
    schema = _schema(target)
    args = schema.arguments if schema is not None else []
    info = args[0].alias_info if args else None
    return info is not None and info.is_write


def writes_other_args(target):
    """Names of the arguments after the first that the op writes (an out= argument)."""
    schema = _schema(target)
    args = schema.arguments[1:] if schema is not None else []
    return [a.name for a in args if a.alias_info is not None and a.alias_info.is_write]


def is_view_op(target):
    schema = _schema(target)
    if schema is None or not schema.returns:
        return False
    info = schema.returns[0].alias_info
    return info is not None and not info.is_write


def meta_value(node):
    # PyTorch 2.x stores a fake tensor in meta["val"]; 1.13 a TensorMetadata in "tensor_meta".
    val = node.meta.get("val")
    return val if val is not None else node.meta.get("tensor_meta")


def _shape(node):
    return list(meta_value(node).shape)


def _meta(shape, dtype):
    return {"tensor_meta": types.SimpleNamespace(shape=torch.Size(shape), dtype=dtype)}


def _functional(target, where):
    """aten.add_.Tensor -> aten.add.Tensor."""
    name = base_name(str(target))[:-1]
    packet = getattr(aten, name, None)
    overload = getattr(packet, target._overloadname, None) if packet is not None else None
    if overload is None:
        raise ExportError(f"{where}: the in-place op {target} has no out-of-place form")
    return overload


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p % len(perm)] = i
    return inv


_IDENTITY_VIEWS = ("alias", "detach", "lift_fresh", "contiguous")
_RESHAPE_VIEWS = ("view", "_reshape_alias", "reshape", "_unsafe_view", "squeeze", "unsqueeze",
                  "view_as", "flatten", "unflatten")


class _Functionalizer:
    def __init__(self, gm):
        self.gm = gm
        self.graph = torch.fx.Graph()
        self.env = {}      # old node -> new node of its value when it was made
        self.view = {}     # old view node -> (old parent, view target, other args, kwargs)
        self.root = {}     # old view node -> the old node whose memory it shares
        self.gen = {}      # old root -> how many mutations it has had
        self.made = {}     # old view node -> gen of its root when it was made
        self.latest = {}   # old root -> new node of its current value
        self.cache = {}    # (old view, gen) -> new node: the view made again from the base
        self.same = {}     # in-place op node -> the node it mutated (its result is that node)

    def run(self):
        for node in self.gm.graph.nodes:
            where = f"fx node {node.name} ({node.target})"
            if node.op == "output":
                self.graph.output(torch.fx.map_arg(node.args[0], self.value))
            elif node.op != "call_function":
                self.env[node] = self.graph.node_copy(node, self.value)
            elif node.target is operator.getitem:
                self._item(node, where)
            elif writes_other_args(node.target):
                raise ExportError(f"{where}: writes its argument "
                                  f"'{writes_other_args(node.target)[0]}'; compute it out of place")
            elif mutates_first_arg(node.target) and isinstance(node.args[0], torch.fx.Node):
                self._mutation(node, where)
            else:
                self.env[node] = self.graph.node_copy(node, self.value)
                if is_view_op(node.target) and isinstance(node.args[0], torch.fx.Node):
                    self._record_view(node, node.args[0], node.target, list(node.args[1:]),
                                      dict(node.kwargs))
        return torch.fx.GraphModule(self.gm, self.graph)

    # -- values --------------------------------------------------------------------
    def canon(self, node):
        while node in self.same:
            node = self.same[node]
        return node

    def value(self, node):
        """The new node holding the current value of old node `node`."""
        node = self.canon(node)
        root = self.root.get(node)
        if root is None:
            return self.latest.get(node, self.env[node])
        gen = self.gen.get(root, 0)
        if self.made[node] == gen:
            return self.env[node]
        key = (node, gen)
        if key not in self.cache:
            parent, target, rest, kwargs = self.view[node]
            self.cache[key] = self.emit(target, (self.value(parent), *rest), kwargs, node.meta)
        return self.cache[key]

    def emit(self, target, args, kwargs, meta):
        new = self.graph.call_function(target, tuple(args), kwargs)
        new.meta = dict(meta)
        return new

    def _record_view(self, node, parent, target, rest, kwargs=None):
        parent = self.canon(parent)
        root = self.root.get(parent, parent)
        self.view[node] = (parent, target, rest, kwargs or {})
        self.root[node] = root
        self.made[node] = self.gen.get(root, 0)

    # -- multi-output views ----------------------------------------------------------
    def _item(self, node, where):
        parent, i = node.args
        base = base_name(str(parent.target))
        a = list(parent.args) + [None] * 3
        if base == "unbind":
            target, rest = aten.select.int, [a[1] or 0, i]
        elif base in ("split", "split_with_sizes"):
            dim = a[2] or 0
            size = _shape(a[0])[dim]
            sizes = a[1] if isinstance(a[1], (list, tuple)) else \
                [a[1]] * ((size + a[1] - 1) // a[1])
            start = sum(sizes[:i])
            target, rest = aten.slice.Tensor, [dim, start, start + sizes[i], 1]
        else:  # kept as it is: the writer refuses it if an output needs it
            self.env[node] = self.graph.node_copy(node, self.value)
            return
        # The item is a view of unbind's / split's input, made directly from it.
        self.env[node] = self.emit(target, (self.value(a[0]), *rest), {}, node.meta)
        self._record_view(node, a[0], target, rest)

    # -- mutations -------------------------------------------------------------------
    def _mutation(self, node, where):
        t = self.canon(node.args[0])
        if base_name(str(node.target)) == "index_put_":
            new = self._index_put(node, t, where)
        else:
            args = [self.value(t)] + [torch.fx.map_arg(a, self.value) for a in node.args[1:]]
            kwargs = torch.fx.map_arg(dict(node.kwargs), self.value)
            new = self.emit(_functional(node.target, where), args, kwargs, t.meta)
        self._write_back(t, new, where)
        self.same[node] = t

    def _write_back(self, t, new, where):
        """t (an old node) now holds `new`: scatter it into t's base through t's views."""
        root = self.root.get(t, t)
        gen = self.gen.get(root, 0) + 1
        child, val = t, new
        while child is not root:
            parent, target, rest, kwargs = self.view[child]
            if kwargs:  # make_fx passes a view's arguments by position; anything else is new
                raise ExportError(f"{where}: an in-place update through {target} with keyword "
                                  "arguments is not supported")
            self.cache[(child, gen)] = val
            val = self._scatter(target, self.value(parent), val, rest, parent, where)
            child = parent
        self.latest[root] = val
        self.gen[root] = gen

    def _scatter(self, target, base, src, rest, parent, where):
        """The value of `parent` (now `base`) with its view `target(parent, *rest)` = src."""
        name = base_name(str(target))
        if name == "select":
            return self.emit(aten.select_scatter.default, (base, src, *rest), {}, parent.meta)
        if name == "slice":
            dim, start, end, step = (list(rest) + [0, None, None, 1][len(rest):])[:4]
            args = (base, src, dim, start or 0, end if end is not None else 2 ** 63 - 1, step or 1)
            return self.emit(aten.slice_scatter.default, args, {}, parent.meta)
        if name in _IDENTITY_VIEWS:
            return src
        if name in _RESHAPE_VIEWS:
            return self.emit(aten.reshape.default, (src, _shape(parent)), {}, parent.meta)
        if name in ("t", "transpose"):
            return self.emit(target, (src, *rest), {}, parent.meta)
        if name == "permute":
            return self.emit(target, (src, _inverse(list(rest[0]))), {}, parent.meta)
        raise ExportError(f"{where}: an in-place update through a '{name}' view is not "
                          "supported; write the new value out of place (e.g. torch.cat)")

    # -- index_put_ ----------------------------------------------------------------------
    def _index_put(self, node, t, where):
        a = list(node.args) + [False]
        indices, values = a[1], a[2]
        accumulate = node.kwargs.get("accumulate", a[3])
        used = [(d, i) for d, i in enumerate(indices) if i is not None]
        if len(used) != 1:
            raise ExportError(f"{where}: index assignment with {len(used)} index tensors is not "
                              "supported (one boolean mask or one constant index list)")
        dim, index = used[0]
        if meta_value(index).dtype == torch.bool:
            return self._masked_put(t, dim, index, values, accumulate, where)
        const = self._constant(index)
        if const is None or const.dim() != 1:
            raise ExportError(f"{where}: index assignment with an index tensor computed at run "
                              "time is not supported; use a constant list of indices or a mask")
        return self._listed_put(t, dim, [int(i) for i in const.tolist()], values, accumulate)

    def _constant(self, node):
        """The value of a constant tensor (a get_attr, maybe lifted), else None."""
        while node.op == "call_function" and base_name(str(node.target)) in (
                "lift_fresh", "lift_fresh_copy", "clone", "alias", "detach", "_to_copy"):
            node = node.args[0]
        return getattr(self.gm, node.target) if node.op == "get_attr" else None

    def _masked_put(self, t, dim, mask, values, accumulate, where):
        # base[mask] = v  ==  where(mask, v, base), the mask widened over the dims after it.
        shape, rank = _shape(t), len(_shape(mask))
        vshape = _shape(values)
        if len(vshape) > len(shape) - dim - rank or vshape != shape[len(shape) - len(vshape):]:
            raise ExportError(f"{where}: a masked assignment takes a value of the shape of "
                              f"the elements it writes {shape[dim + rank:]} (or a number), "
                              f"not {vshape}")
        m, mshape = self.value(mask), _shape(mask)
        for _ in range(len(shape) - dim - rank):
            mshape = mshape + [1]
            m = self.emit(aten.unsqueeze.default, (m, -1), {}, _meta(mshape, torch.bool))
        base, v = self.value(t), self.value(values)
        if accumulate:
            v = self.emit(aten.add.Tensor, (base, v), {}, t.meta)
        return self.emit(aten.where.self, (m, v, base), {}, t.meta)

    def _listed_put(self, t, dim, index, values, accumulate):
        # base[..., [i0, i1, ...], ...] = v: one select_scatter per index, in order.
        shape = _shape(t)
        picked = shape[:dim] + [len(index)] + shape[dim + 1:]
        dtype = meta_value(t).dtype
        v = self.emit(aten.expand.default, (self.value(values), picked), {}, _meta(picked, dtype))
        item = _meta(shape[:dim] + shape[dim + 1:], dtype)
        cur = self.value(t)
        for k, i in enumerate(index):
            src = self.emit(aten.select.int, (v, dim, k), {}, item)
            if accumulate:
                old = self.emit(aten.select.int, (cur, dim, i), {}, item)
                src = self.emit(aten.add.Tensor, (old, src), {}, item)
            cur = self.emit(aten.select_scatter.default, (cur, src, dim, i), {}, t.meta)
        return cur


def functionalize_graph(gm):
    """A GraphModule computing the same values as gm with no in-place ops (module doc)."""
    return _Functionalizer(gm).run()
