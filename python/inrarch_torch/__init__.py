"""PyTorch front end of INR-Arch: exports (arbitrary-order gradient) computations as bundles
the C++ compiler imports. See docs/pytorch.md."""
from .bundle import ExportError
from .export import ExportResult, export
from .derivatives import export_derivatives
from .autograd_walk import export_autograd, count_grad_fn_nodes
from .tracing import SpecializationWarning
from .runtime import RunError, run, run_info

__all__ = ["export", "export_derivatives", "export_autograd", "count_grad_fn_nodes", "ExportError", "ExportResult",
           "SpecializationWarning", "run", "run_info", "RunError"]
