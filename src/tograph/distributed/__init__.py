"""Beyond one machine: many calls of a compiled function on a ``dask.distributed`` cluster.

``f.map(items)`` and ``f.map_futures(items)`` (``mapping``) send the function with its compiled
graphs to the workers once and run the calls there in batches (``worker``), with a progress bar
(``progress``). Arrays larger than one machine's memory are the other way to scale: a compiled
function called on ``dask.array`` arrays runs its graph on them (``tograph.backend.dask_exec``).

Dask is imported only when a map runs: ``pip install 'tograph[dask]'`` brings it.
"""

from tograph import api
from tograph.distributed import mapping
from tograph.distributed.mapping import map_calls, map_futures

api.set_distributed(mapping)

__all__ = ["map_calls", "map_futures"]
