"""make_fx on real user code (export.py's trace): what PyTorch's tracer refuses is handled
here, and every failure becomes one ExportError naming the user's source line.

- Python control flow on a traced value (`if torch.any(torch.isnan(h)):`, `.item()`,
  `float(t)`) makes PyTorch read the tensor's value, which make_fx refuses even in real mode.
  make_fx runs on the real example inputs, so the value exists: it is read (aten
  _local_scalar_dense / equal) and the trace takes that branch. A SpecializationWarning names
  the line: the graph holds for other inputs only where they take the same branch.
- A read number that then flows into the graph as a constant (`x / float(x.max())`) would make
  the graph wrong for any other input: the writer refuses it (AtenGraphWriter's
  traced_numbers), naming the line of the read.
- Ops whose result size depends on the values (`x[mask]`, nonzero, unique) cannot be
  specialised into a fixed-shape graph: ExportError naming the line and the alternative.
- Any other exception while tracing becomes an ExportError naming the innermost line of the
  user's code (a float32 / float64 mix names the tensors of that line with another dtype).
"""
import contextlib
import math
import os
import re
import traceback
import warnings

import torch

from .bundle import ExportError

try:  # PyTorch >= 1.12 (1.13 in Debian, 2.x upstream)
    from torch.fx.experimental.proxy_tensor import (PythonKeyTracer, disable_proxy_modes_tracing,
                                                    make_fx)
except ImportError:  # pragma: no cover - too old a PyTorch
    make_fx = disable_proxy_modes_tracing = PythonKeyTracer = None

aten = torch.ops.aten


class SpecializationWarning(UserWarning):
    """The exported graph was specialised on the example inputs at a user's source line."""


# Frames in these folders are PyTorch's, this package's or Python's, never the user's.
_NOT_USER = tuple(os.path.dirname(m.__file__) + os.sep for m in (torch, contextlib)) + (
    os.path.dirname(os.path.abspath(__file__)) + os.sep,)


def _is_user(filename):
    return not os.path.abspath(filename).startswith(_NOT_USER)


def user_frame(frames):
    """The innermost FrameSummary of the user's code among `frames` (outermost first)."""
    for f in reversed(frames):
        if _is_user(f.filename):
            return f
    return None


def where(frame):
    if frame is None:
        return "in the exported function"
    return f"{frame.filename}:{frame.lineno}"


def _code(frame):
    return f" (`{frame.line.strip()}`)" if frame is not None and frame.line else ""


class _Reads:
    """The decomposition-table entries that read values and refuse data-dependent sizes."""

    def __init__(self):
        self.numbers = {}   # a non-integral float read from a traced tensor -> its line
        self.warned = set()

    def table(self):
        read = self._read
        return {aten._local_scalar_dense.default: read(aten._local_scalar_dense.default),
                aten.equal.default: read(aten.equal.default),
                aten.nonzero.default: self._sized("torch.nonzero"),
                aten.masked_select.default: self._sized("masked_select"),
                aten.index.Tensor: self._index}

    def _read(self, op):
        def concrete(*args, **kwargs):
            with disable_proxy_modes_tracing():
                value = op(*args, **kwargs)
            frame = user_frame(traceback.extract_stack()[:-1])
            is_test = op is aten.equal.default or args[0].dtype == torch.bool
            if isinstance(value, float) and not is_test and math.isfinite(value) \
                    and value != int(value):
                self.numbers.setdefault(value, where(frame))
            self._warn(frame, bool(value) if is_test else value, is_test)
            return value
        return concrete

    def _warn(self, frame, value, is_test):
        key = (frame.filename, frame.lineno) if frame is not None else None
        if key in self.warned:
            return
        self.warned.add(key)
        what = "a condition on" if is_test else "a number read from"
        msg = (f"{where(frame)}: the graph is specialised here{_code(frame)}: {what} a traced "
               f"tensor was evaluated on the example inputs ({value!r}) and only that branch "
               "was traced; the export holds for other inputs only where they take it too")
        if frame is None:
            warnings.warn(msg, SpecializationWarning, stacklevel=2)
        else:
            warnings.warn_explicit(msg, SpecializationWarning, frame.filename, frame.lineno)

    def _sized(self, what):
        def refuse(*args, **kwargs):
            frame = user_frame(traceback.extract_stack()[:-1])
            raise ExportError(
                f"{where(frame)}: {what}{_code(frame)} gives a result whose size depends on the "
                "values, so the graph cannot be specialised there; keep the shape fixed, e.g. "
                "torch.where(mask, x, 0.0) instead of x[mask]")
        return refuse

    def _index(self, x, indices):
        if any(i is not None and i.dtype == torch.bool for i in indices):
            return self._sized("indexing with a boolean mask")(x, indices)
        return NotImplemented   # integer indices: make_fx records aten.index as usual


@contextlib.contextmanager
def default_dtype(dtype):
    """Factories in the user's code (torch.zeros(...) for a Hessian) make `dtype` tensors."""
    old = torch.get_default_dtype()
    if dtype in (torch.float32, torch.float64):   # the dtypes PyTorch takes as a default
        torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


def _mismatched(tb, dtype):
    """'name float32 [shape]' for the tensors of the innermost user frame with another dtype."""
    frame = None
    while tb is not None:
        if _is_user(tb.tb_frame.f_code.co_filename):
            frame = tb.tb_frame
        tb = tb.tb_next
    if frame is None:
        return []
    found = []
    for name, v in frame.f_locals.items():
        tensors = [(name, v)] if isinstance(v, torch.Tensor) else []
        if isinstance(v, torch.nn.Module):
            tensors = [(f"{name}.{k}", t) for k, t in v.state_dict(keep_vars=True).items()]
        found += [f"{n} ({str(t.dtype)[6:]} {list(t.shape)})" for n, t in tensors
                  if t.is_floating_point() and t.dtype != dtype]
    return found


def _dtype_error(e):
    text = str(e)
    return ("expected scalar type" in text or "must have the same dtype" in text
            or "found dtype" in text)


def trace_error(e, dtype):
    """The ExportError for an exception raised while tracing the user's function."""
    frame = user_frame(traceback.extract_tb(e.__traceback__))
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    if _dtype_error(e):
        culprits = _mismatched(e.__traceback__, dtype)
        named = ("; there: " + ", ".join(culprits)) if culprits else ""
        return ExportError(
            f"{where(frame)}: tensors of two dtypes meet{_code(frame)} ({first}){named}. "
            f"export converts its inputs, params and the tensors and nn.Modules the function "
            f"closes over to {str(dtype)[6:]}; convert this one too (.to({dtype})), or export "
            "with the dtype the model has (dtype=torch.float32)")
    return ExportError(f"{where(frame)}: tracing the function failed{_code(frame)}: "
                       f"{type(e).__name__}: {first}")


@contextlib.contextmanager
def _stack_traces():
    """make_fx's tracer records each node's Python stack (node.stack_trace); torch 1.13's
    make_fx has no argument for it, so the class attribute is set for the trace."""
    had = "record_stack_traces" in vars(PythonKeyTracer)
    old = vars(PythonKeyTracer).get("record_stack_traces")
    PythonKeyTracer.record_stack_traces = True
    try:
        yield
    finally:
        if had:
            PythonKeyTracer.record_stack_traces = old
        else:
            del PythonKeyTracer.record_stack_traces


_FRAME = re.compile(r'File "([^"]+)", line (\d+), in [^\n]*\n(?:    ([^\n]*)\n)?')


def frame_of_stack(stack_trace):
    """The innermost frame of the user's code in a node's stack_trace, or None."""
    frames = [traceback.FrameSummary(f, int(n), "", line=code or "")
              for f, n, code in _FRAME.findall(stack_trace or "")]
    users = [i for i, f in enumerate(frames) if _is_user(f.filename)]
    if not users:
        return None
    ours = [i for i, f in enumerate(frames) if f.filename.startswith(_NOT_USER[-1])]
    # 1.13 lists the innermost frame first; should a version list it last, this package's
    # own frame (export's flat_fn, outside the user's code) comes before the user's.
    return frames[users[-1] if ours and ours[0] < users[0] else users[0]]


def node_source(node):
    """'FILE:LINE' and ' (`code`)' of the user's line that made fx node `node` ('' and '' if
    unknown); make_fx records the stack, functional.py copies meta onto rewritten nodes."""
    frame = node.meta.get("inrarch_frame")
    if frame is None:
        return "", ""
    return where(frame), _code(frame)


def _keep_frames(gm):
    for node in gm.graph.nodes:
        frame = frame_of_stack(getattr(node, "stack_trace", None))
        if frame is not None:
            node.meta["inrarch_frame"] = frame


def run_make_fx(flat_fn, args, dtype, lines=False):
    """make_fx(flat_fn)(*args) with the reads above; returns (GraphModule, traced numbers).
    lines: every node's meta["inrarch_frame"] is the user's line that made it, where known
    (recording the stacks slows the trace, so export() asks for it only to name a line)."""
    if make_fx is None:
        raise ExportError("this PyTorch has no torch.fx.experimental.proxy_tensor.make_fx")
    reads = _Reads()
    try:
        with _stack_traces() if lines else contextlib.nullcontext():
            gm = make_fx(flat_fn, decomposition_table=reads.table())(*args)
    except ExportError:
        raise
    except Exception as e:  # noqa: BLE001 - the user's code may raise anything
        raise trace_error(e, dtype) from e
    _keep_frames(gm)
    return gm, reads.numbers

