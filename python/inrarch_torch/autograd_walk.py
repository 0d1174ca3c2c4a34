"""export_autograd: the paper's method. A depth-first walk of the grad_fn graph of tensors
that were already computed (with create_graph=True for the derivatives), reading saved
tensors and attributes, into an "inrarch-aten" bundle.

Each grad_fn node becomes the aten op that produced it (autograd_rules.py). An operand comes
from its next_functions entry when it requires grad, else from the saved tensor the node
kept (a constant, embedded as a dense const). Where autograd kept no value (the number in
`x + 1.0`, `2.0 - x`, SIREN's `div = 0.; div += ...`, a constant tensor added to x), the walk
solves it from the op's result when some tensor it was given or autograd saved is that result,
or is a sum / difference the result is a term of (autograd_rules.SOLVABLE); else it fails: it
never guesses. Views and scatters record no result size; it comes from a saved copy of the
result, or else from autograd itself: a backward pass with zero seeds hands every node a
gradient of its result's size. Every rebuilt value is recomputed with the aten op, and the
outputs must match.
"""
import time

import torch

from .aten_graph import float_json
from .autograd_multi import MULTI, saved_items
from .autograd_rules import RULES, SCALAR_FORM, SOLVABLE, VARIADIC, alpha_kwargs
from .bundle import ExportError, write_bundle


def _grad_fns(roots):
    """All unique grad_fn nodes reachable from roots, in depth-first postorder."""
    order, seen, stack = [], set(), [(f, False) for f in roots if f is not None]
    while stack:
        f, done = stack.pop()
        if done:
            order.append(f)
            continue
        if f in seen:
            continue
        seen.add(f)
        stack.append((f, True))
        stack.extend((n, False) for n, _ in reversed(f.next_functions) if n is not None and n not in seen)
    return order


def count_grad_fn_nodes(outputs):
    """Raw size of the autograd graph: unique grad_fn nodes (AccumulateGrad included)."""
    return len(_grad_fns([t.grad_fn for t in outputs]))


def _saved_tensors(f):
    for name in dir(f):
        if name.startswith("_saved_") and not name.endswith(("sizes", "strides")):
            try:
                v = getattr(f, name)
            except RuntimeError:  # freed by a backward without retain_graph
                continue
            if isinstance(v, torch.Tensor):
                yield v


def _storage_key(t):
    # A saved leaf unpacks as a new tensor object on the same memory; a view of it (say the
    # transpose of a square matrix) differs in strides, so they are part of the key.
    return t.data_ptr(), tuple(t.shape), tuple(t.stride())


def _op(name):
    _, packet, overload = name.split(".")
    return getattr(getattr(torch.ops.aten, packet), overload)


class _Walker:
    def __init__(self, named_leaves, input_names):
        self.nodes = []
        self.ptr_leaf = {}   # storage key of a named leaf -> (node id, tensor)
        self.value = {}      # grad_fn -> (node id, recomputed value)
        self.shapes = {}     # grad_fn -> result shape, from saved tensors and outputs
        self.known = {}      # grad_fn -> its result, where an output or a saved tensor is it
        self.parents = {}    # grad_fn -> [(consumer grad_fn, operand index)]
        self.probed = False
        self.leaves = {}
        self.multi = {}      # multi-output grad_fn -> (aten op, args) of its item nodes
        self.items = {}      # (grad_fn, item) -> (node id, value), item > 0
        self.saved_item = {}  # storage key of a saved item of a multi-output node -> (grad_fn, item)
        for name, t in named_leaves.items():
            kind = "input" if name in input_names else "param"
            nid = self._add({"op": kind, "name": name, "shape": list(t.shape)})
            # The graph is recomputed in float64 whatever the model's dtype (float32 leaves
            # met float64 constants: "expected scalar type Double but found Float").
            value = t.detach().to(torch.float64)
            self.ptr_leaf[_storage_key(t)] = (nid, value)
            self.leaves[id(t)] = (nid, value)

    def _add(self, node):
        node["id"] = len(self.nodes)
        self.nodes.append(node)
        return node["id"]

    def learn(self, fns, outputs):
        # A saved copy of a node's result (or an output) gives its size and its value.
        for t in outputs:
            if t.grad_fn is not None and t.output_nr == 0:   # item 0 of a multi-output op
                self.known[t.grad_fn] = t.detach()
        for f in fns:
            for k, (n, _) in enumerate(f.next_functions):
                if n is not None:
                    self.parents.setdefault(n, []).append((f, k))
            for t in _saved_tensors(f):
                if t.grad_fn is not None:
                    self.known.setdefault(t.grad_fn, t.detach())
            for k, t in saved_items(f).items():
                self.saved_item[_storage_key(t)] = (f, k)
        self.shapes = {f: list(t.shape) for f, t in self.known.items()}
        self.outputs = [t for t in outputs if t.grad_fn is not None]
        self.fns = fns

    def probe_shapes(self):
        """Result sizes from autograd: a backward pass with zero seeds gives every node the
        gradient of its result (views record no result size, and no saved tensor may show
        it, e.g. the [N, 2] reshape of [1, N, 2] coordinates before a matmul)."""
        self.probed = True
        leaves = [f.variable for f in self.fns if type(f).__name__ == "AccumulateGrad"]
        hooks = [f.register_hook(lambda gi, go, f=f: self._seen_grad(f, go)) for f in self.fns
                 if type(f).__name__ != "AccumulateGrad"]
        try:
            torch.autograd.grad(self.outputs, leaves, [torch.zeros_like(t) for t in self.outputs],
                                retain_graph=True, allow_unused=True)
        finally:
            for h in hooks:
                h.remove()

    def _seen_grad(self, f, grad_outputs):
        if grad_outputs and grad_outputs[0] is not None:
            self.shapes.setdefault(f, list(grad_outputs[0].shape))

    def shape_of(self, f):
        if f not in self.shapes and not self.probed:
            self.probe_shapes()
        return self.shapes.get(f)

    def visit(self, f):
        if f in self.value:   # visited early, to solve an operand of another node
            return
        name = type(f).__name__
        where = f"grad_fn {name} (#{len(self.value)})"
        if name == "AccumulateGrad":
            leaf = self.leaves.get(id(f.variable)) or self.ptr_leaf.get(_storage_key(f.variable))
            if leaf is None:
                raise ExportError(f"{where}: a leaf of shape {list(f.variable.shape)} that "
                                  "requires grad is not in named_leaves")
            self.value[f] = leaf
            return
        if name in SCALAR_FORM:
            a = self._operand(f, 0, None, where)
            number = self._solved(f, 1, a[1], where)
            self._emit(f, SCALAR_FORM[name], [a, number], alpha_kwargs(f), where)
            return
        if name in MULTI:
            op, args = MULTI[name](self, f, where)
            self.multi[f] = (op, args, where)
            self.value[f] = self._node(op, args, {}, where, item=0)
            return
        if name in VARIADIC:
            op, extra = VARIADIC[name]
            ins = [self._operand(f, k, None, where) for k in range(len(f.next_functions))]
            self._emit(f, op, [ins] + extra(f), {}, where)
            return
        rule = RULES.get(name)
        if rule is None:
            raise ExportError(f"{where}: no rule for this grad_fn (see inrarch_torch/autograd_rules.py)")
        if len(rule.saved) != len(f.next_functions):
            raise ExportError(f"{where}: expected {len(rule.saved)} inputs, "
                              f"found {len(f.next_functions)}")
        args = [self._operand(f, k, s, where) for k, s in enumerate(rule.saved)] + rule.extra(f)
        if rule.sized is not None:
            shape = self.shape_of(f)
            if shape is None:
                raise ExportError(f"{where}: autograd records no result size for this op, no "
                                  "saved tensor shows it and no gradient reaches it")
            args.insert(rule.sized, shape)
        self._emit(f, rule.op, args, rule.kwargs(f), where)

    def _operand(self, f, k, saved, where):
        nxt, idx = f.next_functions[k]
        if nxt is not None:
            if idx != 0 and nxt in self.multi:
                return self._item(nxt, idx)
            if idx != 0:
                raise ExportError(f"{where}: input {k} is output {idx} of the multi-output "
                                  f"{type(nxt).__name__}, which the walk does not support")
            return self.value[nxt]
        value = getattr(f, saved, None) if saved else None
        if value is not None:
            return self._constant(value)
        other = f.next_functions[1 - k][0] if len(f.next_functions) == 2 else None
        if type(f).__name__ not in SOLVABLE or other is None:
            raise self._unsaved(where, k)
        self.ensure(other)
        return self._solved(f, k, self.value[other][1], where)

    def _unsaved(self, where, k):
        return ExportError(
            f"{where}: input {k} does not require grad and autograd did not save its value "
            "(a constant tensor, or a number as in x + 1.0), and no output or saved tensor "
            "shows the result it was added to, so the graph cannot be rebuilt; make it "
            "require grad, return that sum as an output, or use export()")

    def ensure(self, f):
        """Visits f and what it depends on now (they may come later in the walk's order)."""
        for g in _grad_fns([f]):
            self.visit(g)

    def expected(self, f, depth=0):
        """f's result: a known tensor, or solved from a sum / difference f is a term of."""
        if f in self.known or depth > 64:
            return self.known.get(f)
        for p, k in self.parents.get(f, ()):
            other = p.next_functions[1 - k][0] if len(p.next_functions) == 2 else None
            if type(p).__name__ not in SOLVABLE or other is None or other is f:
                continue
            result = self.expected(p, depth + 1)
            if result is None:
                continue
            self.ensure(other)
            value = SOLVABLE[type(p).__name__](result, self.value[other][1], k, _alpha_of(p))
            if list(value.shape) == self.shape_of(f):   # not a broadcast term
                self.known[f] = value
                return value
        return None

    def _solved(self, f, k, v, where):
        """Operand k of f (a SOLVABLE op), from f's result and the other operand's value v."""
        result = self.expected(f)
        if result is None:
            raise self._unsaved(where, k)
        c = SOLVABLE[type(f).__name__](result, v, k, _alpha_of(f))
        flat = c.reshape(-1)
        scale = float(result.abs().max()) + float(v.abs().max()) + 1.0
        # A float32 model's result shows its constant to float32's rounding only.
        digits = 12 if result.dtype == torch.float64 else 6
        if flat.numel() and float(flat.max() - flat.min()) <= 64 * _eps(result) * scale:
            # One number (a Python constant): printed to `digits` digits, as the user wrote it.
            number = float(flat.median())
            return None, float(f"{number:.{digits}g}")
        return self._constant(c)

    def _constant(self, t):
        if not isinstance(t, torch.Tensor) or t.dim() == 0:
            return None, float(t)  # a number: the importer makes a splat of it
        leaf = self.ptr_leaf.get(_storage_key(t))
        if leaf is not None:   # a named leaf that does not require grad
            return leaf
        item = self.saved_item.get(_storage_key(t))
        if item is not None:   # an item of a multi-output node (a layer norm's mean, rstd)
            self.ensure(item[0])
            return self._item(*item)
        if t.dim() == 2:       # its transpose (mm's backward saves W.t() of a frozen W)
            ptr, shape, stride = _storage_key(t)
            leaf = self.ptr_leaf.get((ptr, shape[::-1], stride[::-1]))
            if leaf is not None:
                return self._transposed(leaf)
        t = t.detach().to(torch.float64)
        nid = self._add({"op": "const", "shape": list(t.shape),
                         "value": t.reshape(-1).tolist()})
        return nid, t

    def _transposed(self, leaf):
        nid = self._add({"op": "aten.t.default", "shape": list(leaf[1].shape)[::-1],
                         "args": [{"node": leaf[0]}]})
        return nid, leaf[1].detach().t()

    def result(self, t):
        """The node and value of a computed tensor t: item t.output_nr of its grad_fn."""
        return self._item(t.grad_fn, t.output_nr) if t.output_nr else self.value[t.grad_fn]

    def _item(self, f, k):
        if (f, k) not in self.items:
            op, args, where = self.multi[f]
            self.items[(f, k)] = self._node(op, args, {}, where, item=k)
        return self.items[(f, k)]

    def _emit(self, f, op, args, kwargs, where):
        self.value[f] = self._node(op, args, kwargs, where)

    def _node(self, op, args, kwargs, where, item=None):
        """The node of op(args) (item `item` of a multi-output op): (node id, value)."""
        def json_arg(a):
            if isinstance(a, tuple):
                return a[1] if a[0] is None else {"node": a[0]}
            if isinstance(a, float):
                return float_json(a)   # the order inf of a norm
            return [json_arg(x) for x in a] if isinstance(a, list) else a

        def value_arg(a):
            if isinstance(a, tuple):
                return a[1]
            return [value_arg(x) for x in a] if isinstance(a, list) else a

        try:
            with torch.no_grad():
                value = _op(op)(*[value_arg(a) for a in args], **kwargs)
        except Exception as e:  # a rule that does not match what autograd recorded
            raise ExportError(f"{where}: recomputing {op} failed: {e}") from e
        if item is not None:
            value = value[item]
        node = {"op": op, "shape": list(value.shape), "args": [json_arg(a) for a in args]}
        if item is not None:
            node["item"] = item
        if kwargs:
            node["kwargs"] = kwargs
        return self._add(node), value


def _eps(t):
    return torch.finfo(t.dtype).eps if t.is_floating_point() else 2.2e-16


def _alpha_of(f):
    return getattr(f, "_saved_alpha", 1)


def _leaf_output(walker, t, name):
    leaf = walker.leaves.get(id(t))
    if leaf is None:
        raise ExportError(f"output '{name}' has no grad_fn and is not a named leaf")
    return leaf


def export_autograd(outputs, named_leaves, out_dir, inputs=("x",), name="main", rtol=None):
    """Walks the grad_fn graphs of `outputs` (a list, named out0.., or a dict name -> tensor)
    down to `named_leaves` (name -> leaf tensor; names in `inputs` become graph inputs, the
    rest params) and writes an inrarch-aten bundle.

    The rebuilt graph is recomputed in float64 and must reproduce every output to `rtol`
    (default 1e-9, or 1e-4 where the output is float32, as `eval --check` takes them). The
    reference is the outputs, a float32 one's float64 recomputation (docs/pytorch.md "float32").
    Returns a dict of counts and timings."""
    t0 = time.perf_counter()
    if not isinstance(outputs, dict):
        outputs = {f"out{i}": t for i, t in enumerate(outputs)}
    fns = _grad_fns([t.grad_fn for t in outputs.values()])
    walker = _Walker(named_leaves, set(inputs))
    walker.learn(fns, list(outputs.values()))
    for f in fns:
        walker.visit(f)
    outs, reference = [], {}
    for oname, t in outputs.items():
        nid, value = walker.result(t) if t.grad_fn is not None else _leaf_output(walker, t, oname)
        tol = rtol if rtol is not None else (1e-9 if t.dtype == torch.float64 else 1e-4)
        want = t.detach().to(torch.float64)
        scale = float(want.abs().max()) if t.numel() else 0.0
        if not torch.allclose(value.detach(), want, rtol=tol, atol=tol * scale):
            raise ExportError(f"output '{oname}': the rebuilt graph does not reproduce it "
                              f"(rtol {tol:g})")
        outs.append({"name": oname, "node": nid})
        # float64 outputs are their own reference; a float32 one's is its float64 recomputation.
        reference[oname] = (want if t.dtype == torch.float64 else value.detach()).numpy()
    graph = {"format": "inrarch-aten", "version": 1, "name": name,
             "nodes": walker.nodes, "outputs": outs}
    seconds = time.perf_counter() - t0
    write_bundle(out_dir, graph,
                 {k: v.detach().numpy() for k, v in named_leaves.items() if k in inputs},
                 {k: v.detach().numpy() for k, v in named_leaves.items() if k not in inputs},
                 reference, source_dtype=torch.float64)
    ops = [n for n in graph["nodes"] if n["op"] not in ("input", "param", "const")]
    return {"grad_fn_nodes": len(fns), "aten_nodes": len(ops),
            "const_nodes": sum(1 for n in graph["nodes"] if n["op"] == "const"),
            "seconds": seconds, "graph": graph}
