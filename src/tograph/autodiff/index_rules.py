"""The index-valued primitives pass no cotangent back: ``pad_index``.

Stage: autodiff. Their outputs are integer positions (no float cotangent reaches them); the
values they select are read by ``getitem``, whose rule scatters the cotangent back.
"""

from tograph.autodiff.rules import defvjp, zero
from tograph.ops import padding

defvjp(
    padding.pad_index_p,
)(zero)
