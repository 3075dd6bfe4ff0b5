"""The primitives, one module per family; importing this package registers them all."""

from tograph.ops import elementwise  # noqa: F401
