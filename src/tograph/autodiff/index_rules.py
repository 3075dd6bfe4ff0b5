"""The index-valued primitives pass no cotangent back: ``nanargmax``, ``nanargmin``, ``pad_index``.

Stage: autodiff. Their outputs are integer positions (no float cotangent reaches them); the
values they select are read by ``getitem``, whose rule scatters the cotangent back.
"""

from tograph.autodiff.rules import defvjp, zero
from tograph.ops import nan_reductions, padding

defvjp(
    nan_reductions.nanargmax_p,
    nan_reductions.nanargmin_p,
    padding.pad_index_p,
)(zero)
