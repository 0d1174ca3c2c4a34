"""The nn.Modules and tensors a user's function closes over (export.py).

Users call a module they built outside the function (`y = model(x)`) and use tensors
defined next to it (a Fourier feature matrix). export() finds them, converts their
floating-point tensors to the export dtype for the time of the export (a float32 model
exported in float64 is otherwise "expected scalar type Double but found Float"), restores
them afterwards, and makes each a param of the bundle, so no weight is baked into the graph.

What is searched: the function's closure cells, defaults and the globals its code names,
recursively through the user's own functions (not PyTorch's or other libraries'), bound
methods' objects, functools.partial, and one level into lists, tuples, dicts and plain
objects. Inside a module: parameters, buffers and plain tensor attributes (`self.B = ...`,
which Module.to() would leave as they are).
"""
import functools
import types

import torch

_MAX_DEPTH = 4


def _is_library(obj):
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in ("torch", "numpy", "functorch", "builtins", "inrarch_torch")


def _code_names(code):
    """Globals named by a code object and the code objects nested in it (lambdas, loops)."""
    names = list(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names += _code_names(c)
    return names


class _Finder:
    def __init__(self):
        self.found = {}    # name -> Module | Tensor, first name wins
        self.seen = set()

    def function(self, fn, depth):
        if id(fn) in self.seen or depth > _MAX_DEPTH:
            return
        self.seen.add(id(fn))
        if isinstance(fn, functools.partial):
            self.function(fn.func, depth + 1)
            for i, a in enumerate(fn.args):
                self.value(f"partial_arg{i}", a, depth + 1)
            for k, a in fn.keywords.items():
                self.value(k, a, depth + 1)
            return
        if isinstance(fn, types.MethodType):
            self.value(getattr(fn.__func__, "__name__", "self") + "_self", fn.__self__, depth)
            fn = fn.__func__
        code = getattr(fn, "__code__", None)
        if code is None or _is_library(fn):
            return
        cells = zip(code.co_freevars, fn.__closure__ or ())
        for name, cell in cells:
            try:
                self.value(name, cell.cell_contents, depth + 1)
            except ValueError:  # an empty cell: a variable not assigned yet
                pass
        for name in _code_names(code):
            if name in fn.__globals__:
                self.value(name, fn.__globals__[name], depth + 1)
        for i, d in enumerate(fn.__defaults__ or ()):
            self.value(f"default{i}", d, depth + 1)

    def value(self, name, v, depth):
        if isinstance(v, (torch.nn.Module, torch.Tensor)):
            if all(v is not f for f in self.found.values()):
                self.found.setdefault(name, v)
        elif callable(v) and not isinstance(v, type):
            self.function(v, depth)
        elif depth <= _MAX_DEPTH and id(v) not in self.seen:
            self.seen.add(id(v))
            self._contents(name, v, depth)

    def _contents(self, name, v, depth):
        if isinstance(v, (list, tuple)):
            items = [(f"{name}[{i}]", x) for i, x in enumerate(v)]
        elif isinstance(v, dict):
            items = [(f"{name}[{k!r}]", x) for k, x in v.items()]
        elif hasattr(v, "__dict__") and not isinstance(v, (types.ModuleType, type)) \
                and not _is_library(type(v)):
            items = [(f"{name}.{k}", x) for k, x in vars(v).items()]
        else:
            return
        for n, x in items:
            if isinstance(x, (torch.nn.Module, torch.Tensor)):
                self.value(n, x, depth + 1)


def module_tensors(name, module):
    """(name, tensor) of a module's parameters, buffers and plain tensor attributes."""
    out = [(f"{name}.{k}", t) for k, t in module.named_parameters()]
    out += [(f"{name}.{k}", t) for k, t in module.named_buffers()]
    for prefix, sub in module.named_modules():
        for k, t in vars(sub).items():
            if isinstance(t, torch.Tensor) and not isinstance(t, torch.nn.Parameter):
                out.append((f"{name}.{prefix + '.' if prefix else ''}{k}", t))
    return out


def closed_over_tensors(fn):
    """name -> floating-point tensor for everything fn closes over (module doc)."""
    finder = _Finder()
    finder.function(fn, 0)
    out, seen = {}, set()
    for name, v in finder.found.items():
        pairs = module_tensors(name, v) if isinstance(v, torch.nn.Module) else [(name, v)]
        for n, t in pairs:
            if t.is_floating_point() and id(t) not in seen:
                seen.add(id(t))
                out[n] = t
    return out


class Converted:
    """Converts tensors (name -> tensor) to `dtype` in place for a `with` block (their .data,
    so the Module and the closure keep the same objects) and puts back the originals."""

    def __init__(self, tensors, dtype):
        self.tensors, self.dtype = tensors, dtype
        self.saved = []

    def __enter__(self):
        for t in self.tensors.values():
            if t.dtype != self.dtype:
                self.saved.append((t, t.data))
                t.data = t.data.to(self.dtype)
        return self.tensors

    def __exit__(self, *exc):
        for t, data in reversed(self.saved):
            t.data = data
        self.saved = []
        return False
