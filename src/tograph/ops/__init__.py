"""The primitives, one module per family; importing this package registers them all."""

from tograph.ops import effects  # noqa: F401
from tograph.ops import elementwise  # noqa: F401
from tograph.ops import lists  # noqa: F401
from tograph.ops import control  # noqa: F401
from tograph.ops import creation  # noqa: F401
from tograph.ops import indexing  # noqa: F401
from tograph.ops import join  # noqa: F401
from tograph.ops import linalg  # noqa: F401
from tograph.ops import reductions  # noqa: F401
from tograph.ops import shape  # noqa: F401
from tograph.ops import composites  # noqa: F401
from tograph.ops import solvers  # noqa: F401
from tograph.ops import autodiff_ops  # noqa: F401
