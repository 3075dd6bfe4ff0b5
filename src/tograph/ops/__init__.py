"""The primitives, one module per family; importing this package registers them all."""

from tograph.ops import (
    complex_parts,  # noqa: F401
    composites,  # noqa: F401
    compositions,  # noqa: F401
    control,  # noqa: F401
    covariance,  # noqa: F401
    creation,  # noqa: F401
    decompositions,  # noqa: F401
    dynamic_shape,  # noqa: F401
    effects,  # noqa: F401
    elementwise,  # noqa: F401
    fft,  # noqa: F401
    host_call,  # noqa: F401
    indexing,  # noqa: F401
    inplace,  # noqa: F401
    join,  # noqa: F401
    linalg,  # noqa: F401
    lists,  # noqa: F401
    matrix_functions,  # noqa: F401
    nan_reductions,  # noqa: F401
    padding,  # noqa: F401
    polynomials,  # noqa: F401
    products,  # noqa: F401
    rearrange,  # noqa: F401
    reductions,  # noqa: F401
    scalars,  # noqa: F401
    scatter,  # noqa: F401
    shape,  # noqa: F401
    signal,  # noqa: F401
    solvers,  # noqa: F401
    stacking,  # noqa: F401
    stacks,  # noqa: F401
    statistics,  # noqa: F401
    stop_gradient,  # noqa: F401
    ufunc_methods,  # noqa: F401
)
