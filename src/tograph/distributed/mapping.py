"""``f.map``: many independent calls of a compiled function on a ``dask.distributed`` cluster.

Stage: distribute (the caller's side). Input: a ``StaticFunction`` or ``LoadedFunction`` and an
iterable of calls: a plain tuple is a call's positional arguments, anything else (a namedtuple
too) its one argument. Output: the results in order (``map_calls``), or one future per call
(``map_futures``), each equal to what a local call returns.

How a map runs:

* the function is compiled here for the first call, then pickled once with the graphs of every
  signature it has compiled (``export.pickling.with_graphs``) into one task whose result, the
  function unpickled, each worker fetches once and keeps for all the calls it runs (with any
  signature it compiles itself);
* the calls go in batches, one task each (``batch`` calls; by default about eight tasks per
  worker thread), so a task's cost is shared by many calls. A batch lost with a worker is run
  again by Dask on another, so nothing is lost;
* a call that raises stops the map with a ``MapError`` naming the item's position, its
  arguments and the user's line (``distributed.worker``); the other batches are cancelled;
* a long map shows a progress bar on standard error (``distributed.progress``).

Calls run in worker processes, on copies of their arguments: a function compiled to write into
its arguments is refused (the writes could not reach the caller's arrays), and what a call prints
goes to its worker's output. A function that draws random numbers is not pure (each call advances
a generator the next call draws from): ``map`` runs its calls here, in order, with a
``FallbackWarning``, and ``map_futures`` refuses it.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

from tograph import errors, origin
from tograph.distributed import progress as progress_bar
from tograph.distributed import worker
from tograph.export import pickling

_TASKS_PER_THREAD = 8  # batches per worker thread when ``batch`` is not given


def map_calls(
    fn: Any,
    iterable: Iterable[Any],
    *,
    client: Any = None,
    batch: int | None = None,
    progress: bool | None = None,
) -> list[Any]:
    """``fn`` called on every item of ``iterable`` on a Dask cluster; the results in order.

    Args:
      fn: a ``StaticFunction`` or ``LoadedFunction``.
      iterable: the calls: a plain tuple is the positional arguments, anything else the one
        argument.
      client: a ``distributed.Client``; None starts a ``LocalCluster`` (one single-threaded
        worker process per core) for this map and closes it afterwards.
      batch: calls per task; None chooses about eight tasks per worker thread.
      progress: True shows a progress bar on standard error, False never; None shows it on a
        terminal once the map has run for a second.

    Returns:
      The list of results, ``[fn(*call) for call in calls]`` as a local loop would give it.

    Raises:
      MapError: a call raised (the first one found); it names the item and the user's line.
      ToGraphError: ``fn`` writes into its arguments in place, which a worker's copies cannot
        bring back.

    A function that draws random numbers runs its calls here, in order, with a warning.
    """
    calls = _calls(iterable)
    _check_batch(batch)
    if not calls:
        return []
    if _draws_random(fn, calls):
        origin.warn(
            f"{getattr(fn, '__name__', 'f')} draws random numbers, so its calls are not "
            "independent: f.map runs them here, in order, as a loop would",
            errors.FallbackWarning,
        )
        return [fn(*call) for call in calls]
    if client is None:
        with _local_client() as own:
            return _run(own, fn, calls, batch, progress)
    return _run(client, fn, calls, batch, progress)


def map_futures(
    fn: Any, iterable: Iterable[Any], *, client: Any = None, batch: int | None = None
) -> list[Any]:
    """As ``map_calls``, without waiting: one ``distributed.Future`` per call, in order.

    Each future's ``result()`` is its call's result, or raises its ``MapError``. With ``batch``
    above 1 (by default each call is a task of its own), calls run in batches and each future
    picks its call's result out of its batch's.

    Args:
      fn: a ``StaticFunction`` or ``LoadedFunction``.
      iterable: the calls, as for ``map_calls``.
      client: a ``distributed.Client``; None takes the current one (``distributed.get_client``).
      batch: calls per task (1 by default).

    Raises:
      ToGraphError: ``fn`` draws random numbers (its calls are not independent).
    """
    calls = _calls(iterable)
    _check_batch(batch)
    if _draws_random(fn, calls):
        raise errors.ToGraphError(
            f"{getattr(fn, '__name__', 'f')} draws random numbers: its calls depend on each "
            "other through the generator, so they cannot run as independent futures",
            hint="use f.map, which runs such calls in order, or loop over them locally",
        )
    if client is None:
        client = _current_client()
    if not calls:
        return []
    size = batch or 1
    if size == 1:
        return _submit(client, fn, calls, size, single=True)
    batches = _submit(client, fn, calls, size)
    return [
        client.submit(_pick, future, k, pure=False, key=f"{future.key}-{k}")
        for future, count in zip(batches, _sizes(len(calls), size))
        for k in range(count)
    ]


def _pick(results: worker.Results, k: int) -> Any:
    return results.values[k]


def _run(client: Any, fn: Any, calls: list[tuple[Any, ...]], batch: int | None, show: Any) -> Any:
    from distributed import as_completed

    size = batch or _default_batch(client, len(calls))
    futures = _submit(client, fn, calls, size)
    counts = dict(zip((f.key for f in futures), _sizes(len(calls), size)))
    bar = progress_bar.ProgressBar(f"{getattr(fn, '__name__', 'f')}.map", len(calls), show)
    try:
        for future in as_completed(futures):
            if future.status == "error":
                raise future.exception()
            bar.advance(counts[future.key])
        return [result for part in client.gather(futures) for result in part.values]
    finally:
        bar.close()
        client.cancel([f for f in futures if not f.done()])


def _submit(
    client: Any, fn: Any, calls: list[tuple[Any, ...]], size: int, single: bool = False
) -> list[Any]:
    """One task per batch of ``size`` calls, each depending on the task that holds ``fn``; each
    task's result is its calls' results (``worker.Results``), or with ``single`` its one call's."""
    shipped = _ship(client, fn, calls[0])
    run = _run_single if single else worker.run_batch
    tag = f"{getattr(fn, '__name__', 'f')}-map-{uuid.uuid4().hex[:12]}"
    return [
        client.submit(run, shipped, start, calls[start : start + size], key=f"{tag}-{start}")
        for start in range(0, len(calls), size)
    ]


def _run_single(shipped: worker.Shipped, start: int, calls: list[tuple[Any, ...]]) -> Any:
    (call,) = calls
    return worker.run_call(shipped.fn, start, call)


def _ship(client: Any, fn: Any, first: tuple[Any, ...]) -> Any:
    """The future of ``fn`` on the cluster: compiled for ``first``, pickled once with its graphs.

    The task's key is the pickle's digest, so maps of an unchanged function share it.
    """
    import cloudpickle

    _compile(fn, first)
    payload = cloudpickle.dumps(pickling.with_graphs(fn))
    digest = hashlib.sha256(payload).hexdigest()[:16]
    key = f"tograph-function-{getattr(fn, '__name__', 'f')}-{digest}"
    return client.submit(worker.load_function, payload, key=key)


def _compile(fn: Any, call: tuple[Any, ...]) -> None:
    """Compiles ``fn`` for ``call`` here, so that workers get the graph instead of tracing it.

    A call that cannot even be compiled is left to fail on a worker, where its error names it.
    """
    try:
        cf = fn.concrete(*call)
    except Exception:  # noqa: BLE001 - see the docstring
        return
    if cf.writes_arguments:
        raise errors.ToGraphError(
            f"{fn.__name__} writes into its arguments in place, and f.map runs each call on a "
            "worker's copy of its arguments: the writes could not reach your arrays",
            hint="return the new values instead, or loop over the calls locally",
        )


def _draws_random(fn: Any, calls: list[tuple[Any, ...]]) -> bool:
    """Whether some call's graph draws random numbers (a call that cannot compile does not)."""
    for call in calls:
        try:
            cf = fn.concrete(*call)
        except Exception:  # noqa: BLE001 - the call fails on its worker, where its error names it
            continue
        if cf.draws_random:
            return True
    return False


def _calls(iterable: Iterable[Any]) -> list[tuple[Any, ...]]:
    try:
        items = list(iterable)
    except TypeError:
        raise TypeError(
            f"f.map: 'iterable' must be an iterable of calls, got {type(iterable).__name__}"
        ) from None
    return [item if type(item) is tuple else (item,) for item in items]


def _check_batch(batch: int | None) -> None:
    if batch is not None and (not isinstance(batch, int) or isinstance(batch, bool) or batch < 1):
        raise ValueError(f"f.map: 'batch' must be a positive int or None, got {batch!r}")


def _sizes(total: int, size: int) -> list[int]:
    """How many calls each batch holds."""
    return [min(size, total - start) for start in range(0, total, size)]


def _default_batch(client: Any, total: int) -> int:
    threads = sum(client.nthreads().values()) or 1
    return max(1, math.ceil(total / (threads * _TASKS_PER_THREAD)))


def _current_client() -> Any:
    from distributed import get_client

    try:
        return get_client()
    except ValueError:
        raise ValueError(
            "f.map_futures needs a client: pass client=, or create a distributed.Client first"
        ) from None


@contextlib.contextmanager
def _local_client() -> Iterator[Any]:
    """A client of a ``LocalCluster`` started for one map: a single-threaded worker process per
    core (compiled calls hold the GIL), on this machine's loopback only, without a dashboard
    (its HTTP server on any free port), closed when the map ends."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client
