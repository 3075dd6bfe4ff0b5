"""tograph: compile Python + NumPy functions with control flow into static dataflow graphs."""

from tograph import autodiff as _autodiff  # noqa: F401  (registers the VJP rules)
from tograph import backend as _backend  # noqa: F401  (registers the control-flow kernels)
from tograph import distributed as _distributed  # noqa: F401  (gives to_static functions .map)
from tograph import ops as _ops  # noqa: F401  (registers the primitives)
from tograph.api import PartialFunction, StaticFunction, TensorSpec, to_static
from tograph.concrete import ConcreteFunction
from tograph.errors import (
    ConversionError,
    ExportError,
    FallbackWarning,
    LoadError,
    MapError,
    RetracingWarning,
    ToGraphError,
)
from tograph.export import LoadedFunction, export_onnx, load, save
from tograph.gradient_tape import GradientTape
from tograph.gradients import GradFunction, grad, value_and_grad
from tograph.ops.stop_gradient import stop_gradient

__all__ = [
    "ConcreteFunction",
    "ConversionError",
    "ExportError",
    "GradFunction",
    "GradientTape",
    "FallbackWarning",
    "LoadError",
    "LoadedFunction",
    "MapError",
    "PartialFunction",
    "RetracingWarning",
    "StaticFunction",
    "TensorSpec",
    "ToGraphError",
    "export_onnx",
    "grad",
    "load",
    "save",
    "stop_gradient",
    "to_static",
    "value_and_grad",
]
