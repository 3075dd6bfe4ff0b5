"""tograph: compile Python + NumPy functions with control flow into static dataflow graphs."""

from tograph import ops as _ops  # noqa: F401  (registers the primitives)
from tograph.errors import ConversionError, FallbackWarning, ToGraphError

__all__ = ["ConversionError", "FallbackWarning", "ToGraphError"]
