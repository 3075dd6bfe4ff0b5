"""The index-valued primitives pass no cotangent back: ``nonzero``, ``unique``, ``nanargmax``,
``nanargmin``, ``pad_index``.

Stage: autodiff. Their outputs are integer positions (no float cotangent reaches them); the
values they select are read by ``getitem``, whose rule scatters the cotangent back.
"""

from tograph.autodiff.rules import defvjp, zero
from tograph.ops import dynamic_shape, nan_reductions, padding

defvjp(
    dynamic_shape.nonzero_p,
    dynamic_shape.unique_p,
    nan_reductions.nanargmax_p,
    nan_reductions.nanargmin_p,
    padding.pad_index_p,
)(zero)
