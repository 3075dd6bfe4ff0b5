"""Export: compiled functions saved and loaded, exported to ONNX, drawn with Graphviz.

``save``/``load`` (``serialize``) write a versioned, checksummed file that loading never executes;
``export_onnx`` (``onnx``) writes an ONNX model; ``dot`` draws a graph as DOT text or SVG and
installs ``Graph.to_dot`` and the notebook views of ``ConcreteFunction``; ``pickling`` lets
``pickle`` and ``cloudpickle`` carry compiled functions. ``docs/export.md`` describes the formats.
"""

from tograph.export import dot, pickling  # noqa: F401  (pickling registers the picklers)
from tograph.export.onnx import export_onnx
from tograph.export.serialize import LoadedFunction, load, loads, save, saves

dot.install()

__all__ = ["LoadedFunction", "export_onnx", "load", "loads", "save", "saves"]
