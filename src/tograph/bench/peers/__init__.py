"""The peer frameworks (PaddlePaddle, PyTorch, JAX, TensorFlow, numba): optional, loaded when
installed.

Stage: benchmark harness. Input: the names of the peers to try. Output: the ``Peer``s that import,
each configured for the chosen thread count, and a note for each one that does not. A peer's module
(``torch_peer``, ...) writes every workload in that framework's idiom and compiled mode
(``contenders(variant)``), starting from the variant's NumPy inputs.

Threads: ``configure_threads(n)`` (``--threads``, default 1) sets OMP_NUM_THREADS,
MKL_NUM_THREADS, OPENBLAS_NUM_THREADS, XLA_FLAGS (``intra_op_parallelism_threads=n``, and with
one thread ``--xla_cpu_multi_thread_eigen=false``), TF_NUM_INTRAOP_THREADS,
TF_NUM_INTEROP_THREADS and FLAGS_paddle_num_threads to ``n`` before any peer is imported; each
peer's ``setup(n)`` then calls its own API (``torch.set_num_threads(n)``, ``tf.config.threading``,
...). NumPy's BLAS is already loaded by then: ``threadpoolctl`` (the ``bench`` extra) limits it;
without it ``tograph.bench.main`` reruns the suite in a child process whose environment has the
variables set before NumPy loads (``restart_needed``).

Paddle is imported before TensorFlow: the other order crashes the process (a segmentation fault
inside the two libraries' native code, tensorflow-cpu 2.21 with paddlepaddle 3.3).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
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

_BLAS_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def thread_env(threads: int) -> dict[str, str]:
    """The environment variables that give NumPy's BLAS and every peer ``threads`` threads."""
    n = str(threads)
    eigen = "--xla_cpu_multi_thread_eigen=false " if threads == 1 else ""
    return {
        **dict.fromkeys(_BLAS_VARIABLES, n),
        "XLA_FLAGS": f"{eigen}intra_op_parallelism_threads={n}",
        "TF_NUM_INTRAOP_THREADS": n,
        "TF_NUM_INTEROP_THREADS": n,
        "FLAGS_paddle_num_threads": n,
        "TF_CPP_MIN_LOG_LEVEL": "2",
    }


def restart_needed(threads: int) -> bool:
    """Whether NumPy's BLAS cannot be given ``threads`` threads in this process: threadpoolctl
    is not installed and the variables were not set before start-up."""
    if importlib.util.find_spec("threadpoolctl") is not None:
        return False
    return any(os.environ.get(var) != str(threads) for var in _BLAS_VARIABLES)


@dataclasses.dataclass(frozen=True)
class Peer:
    """A loaded peer: its name ("torch"), version and the module that builds its contenders."""

    name: str
    version: str
    module: types.ModuleType


def configure_threads(threads: int = 1) -> dict[str, Any]:
    """Sets ``threads`` threads for every library (see module docstring); returns what was set
    and what NumPy's BLAS reports."""
    env = thread_env(threads)
    os.environ.update(env)
    info: dict[str, Any] = {"threads": threads, "env": env}
    try:
        import threadpoolctl
    except ImportError:
        info["numpy_blas"] = "threadpoolctl not installed; BLAS threads as set before start-up"
        return info
    threadpoolctl.threadpool_limits(threads)
    info["numpy_blas"] = [
        {k: pool.get(k) for k in ("internal_api", "num_threads", "architecture", "version")}
        for pool in threadpoolctl.threadpool_info()
    ]
    return info


def load(requested: list[str] | None, threads: int = 1) -> tuple[list[Peer], dict[str, str]]:
    """The installed peers among ``requested`` (None: all), and a note for each one skipped.

    Args:
      requested: peer names ("paddle", "torch", "jax", "tensorflow", "numba"), or None for all.
      threads: the threads each peer is set up to use.

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
        peers.append(Peer(name, module.setup(threads), module))
    return peers, notes
