"""Eager (define-by-run) mode: tensors that compute at once, and a tape that records them.

Usage::

    from tograph import eager

    with eager.Tape() as tape:
        x = tape.watch(np.arange(3.0))
        y = np.exp(x) * 2
    eager.unwrap(y)       # a NumPy array
    tape.records          # exp, multiply
"""

from tograph.eager.tape import Record, Tape
from tograph.eager.tensor import EagerList, EagerTensor, unwrap

__all__ = ["EagerList", "EagerTensor", "Record", "Tape", "unwrap"]
