"""The peer frameworks (PaddlePaddle, PyTorch, JAX, TensorFlow, numba): optional, loaded when
installed.

Stage: benchmark harness. Input: the names of the peers to try. Output: the ``Peer``s that import,
each configured for one thread, and a note for each one that does not. A peer's module
(``torch_peer``, ...) writes every workload in that framework's idiom and compiled mode
(``contenders(variant)``), starting from the variant's NumPy inputs.

One thread everywhere: ``configure_threads`` sets OMP_NUM_THREADS, MKL_NUM_THREADS,
OPENBLAS_NUM_THREADS, XLA_FLAGS (``--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1``), TF_NUM_INTRAOP_THREADS, TF_NUM_INTEROP_THREADS and
FLAGS_paddle_num_threads to 1 before any peer is imported; each peer's ``setup`` then calls its
own API (``torch.set_num_threads(1)``, ``tf.config.threading``, ...). NumPy's BLAS is already
loaded by then: it is limited with ``threadpoolctl`` when that is installed, and otherwise only
if the variables were set before Python started (``benchmarks/run.py`` sets them).

Paddle is imported before TensorFlow: the other order crashes the process (a segmentation fault
inside the two libraries' native code, tensorflow-cpu 2.21 with paddlepaddle 3.3).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import types
from typing import Any

# Import order matters (see the module docstring); names are the modules under tograph.bench.peers.
PEER_MODULES = ("paddle_peer", "torch_peer", "jax_peer", "tf_peer", "numba_peer")
PEER_NAMES = {
    "paddle_peer": "paddle",
    "torch_peer": "torch",
    "jax_peer": "jax",
    "tf_peer": "tensorflow",
    "numba_peer": "numba",
}

# The compiled modes the targets compare against (``torch eager`` is shown but not a target).
COMPILED = ("jax.jit", "torch.jit.script", "tf.function", "paddle.jit.to_static")

_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
    "FLAGS_paddle_num_threads": "1",
    "TF_CPP_MIN_LOG_LEVEL": "2",
}


@dataclasses.dataclass(frozen=True)
class Peer:
    """A loaded peer: its name ("torch"), version and the module that builds its contenders."""

    name: str
    version: str
    module: types.ModuleType


def configure_threads() -> dict[str, Any]:
    """Sets one thread for every library (see module docstring); returns what was set and found."""
    os.environ.update(_THREAD_ENV)
    info: dict[str, Any] = {"env": dict(_THREAD_ENV)}
    try:
        import threadpoolctl
    except ImportError:
        info["numpy_blas"] = "threadpoolctl not installed; BLAS threads as set before start-up"
        return info
    threadpoolctl.threadpool_limits(1)
    info["numpy_blas"] = [
        {k: pool.get(k) for k in ("internal_api", "num_threads", "architecture", "version")}
        for pool in threadpoolctl.threadpool_info()
    ]
    return info


def load(requested: list[str] | None) -> tuple[list[Peer], dict[str, str]]:
    """The installed peers among ``requested`` (None: all), and a note for each one skipped.

    Args:
      requested: peer names ("paddle", "torch", "jax", "tensorflow", "numba"), or None for all.

    Returns:
      ``(peers, notes)``: ``notes`` maps a skipped peer's name to why (not installed, ...).
    """
    peers, notes = [], {}
    for module_name in PEER_MODULES:
        name = PEER_NAMES[module_name]
        if requested is not None and name not in requested:
            continue
        try:
            module = importlib.import_module(f"tograph.bench.peers.{module_name}")
        except ImportError as exc:
            notes[name] = f"not installed ({exc.name or exc})"
            continue
        peers.append(Peer(name, module.setup(), module))
    return peers, notes
