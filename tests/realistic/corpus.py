"""The realistic corpus: every routine (the conformance suite's realistic category and the domain
modules here, the ``tutorial_*`` ones written as tutorials write them and called with lists,
float32 and int arrays, empty, one-element and tied inputs), and the ones that run eagerly.

Every routine is compared with its eager run bit for bit: none of them needs a tolerance, since
the compiled graph runs the same NumPy kernels in the same order as the eager code."""

from __future__ import annotations

from tograph_conformance import case as case_mod
from tograph_conformance.cases import realistic

from . import (
    algorithm_drills,
    c_style_numerics,
    dynamic,
    filters,
    finance,
    fixed_income,
    fuzzy,
    fuzzy_controllers,
    fuzzy_tables,
    inplace_recipes,
    integer_tricks,
    interp_by_hand,
    interpolation,
    linalg,
    linalg_by_hand,
    line_search_optimizers,
    mixed_idioms,
    nan_statistics,
    objects_and_views,
    ode_steppers,
    odes,
    optimizers,
    printed_reports,
    pylists,
    quant_recipes,
    recursive,
    root_finders,
    roots,
    scipy_free_filters,
    scipy_free_spectral,
    search,
    spectral,
    stateful,
    stateful_classes,
    stats,
    stats_by_hand,
    textbook,
    tutorial_filters,
    tutorial_finance,
    tutorial_fuzzy,
    tutorial_optimizers,
    tutorial_search,
    tutorial_spectral,
    tutorial_stats,
)

_MODULES = (
    optimizers,
    filters,
    search,
    spectral,
    finance,
    fuzzy,
    stats,
    interpolation,
    roots,
    odes,
    linalg,
    dynamic,
    stateful,
    pylists,
    recursive,
    textbook,
    tutorial_optimizers,
    tutorial_filters,
    tutorial_search,
    tutorial_spectral,
    tutorial_finance,
    tutorial_fuzzy,
    tutorial_stats,
    # round 6: code written without SciPy, and Python mixed with NumPy
    scipy_free_filters,
    scipy_free_spectral,
    line_search_optimizers,
    quant_recipes,
    stats_by_hand,
    algorithm_drills,
    fuzzy_controllers,
    mixed_idioms,
    root_finders,
    ode_steppers,
    interp_by_hand,
    linalg_by_hand,
    # round 7: objects with state, writes into arguments, C-style loops, integer tricks,
    # printed reports, fixed income, NaN-aware statistics, fuzzy tables
    stateful_classes,
    objects_and_views,
    inplace_recipes,
    c_style_numerics,
    integer_tricks,
    printed_reports,
    fixed_income,
    nan_statistics,
    fuzzy_tables,
)


def all_cases() -> list[case_mod.Case]:
    """Every routine's case: the thirty of the conformance suite's realistic category, then
    each domain module's."""
    return [*realistic.CASES.cases, *(c for module in _MODULES for c in module.CASES.cases)]


# Routines that run eagerly, each with the reason its FallbackWarning must give.
FALLBACKS: dict[str, str] = {
    # pushes (lo, i - 1) range pairs onto its stack under tensor tests
    "quicksort_iterative": "a tuple holding tensors as an item of a list that grows",
    "kmeans": "an array from before the if .* on some paths and another array on others",
    "running_mean_deque": r"list\.pop\(\) of a list that grows in a loop over tensors",
    "top_k_by_list": "use as a Python index needs a concrete value",
    # max(scores, key=scores.get): the scores are Python floats on some paths, NumPy scalars
    # on others (max(0.0, x) of a tensor x), and the labels picked are strings
    "temperature_labels": r"max\(\) of a list of tensor values: an item is a Python number on",
    "mode_by_dict": "is hashed",
    "zscore_outliers": r"the return value\[0\] is a list of 0 in the if-branch but a single value",
    # a list comprehension filtered by tensors has a length known only at run time, so the
    # recursion on it has no end while the graph is built
    "quicksort_recursive": "recursion too deep to trace",
    "histogram_and_format": "use as a Python index needs a concrete value",
    # a one-entry table: xs[i + 1] is out of range on a path eager never takes
    "lerp_table": "index 1 is out of bounds for axis 0 with size 1",
    # ts starts as [0.0] (a Python float), then gets NumPy floats: a list of two kinds
    "rk4_scalar": r"cannot push a value of type f64\[\] onto list\[f64\[\]~\]",
    # the dynamic-programming table is a list of lists, and (r, c) != (0, 0) tests a tuple
    "lcs_with_backtrack": "a Python list as an item of a list that grows in a loop over tensors",
    "min_path_sum": "the truth value of tensor .* is only known when the graph runs",
    # h stays a Python float when every probability is zero, else is an np.float64: round(h, 3)
    # rounds the one in decimal, the other in binary
    # second starts as -math.inf (a Python float) and may become an np.float64; returned or None
    "second_largest": "a Python number on some paths, a NumPy scalar on others in the if-branch",
    "shannon_entropy": r"round\(x, ndigits\) of a number that is a Python number on some paths",
    # L-BFGS drops its oldest pair (s_hist.pop(0)) once the history, grown in a tensor loop, is
    # longer than m
    "lbfgs_rosenbrock": r"len\(\) of a tensor list .* is only known when the graph runs",
    # the order sorted() gives is known when the graph runs; a Python list is then written at
    # those positions (shares[i] += 1 for i in order[:left]) outside tensor control flow
    "integer_shares": "use as a Python index needs a concrete value",
    # dict keys formatted from tensors ({lo + k * width:.1f})
    "histogram_dict_labels": "a string formatted from a tensor is used as a string",
    # [0] * (int(a.max()) + 1): a list as long as a value known only when the graph runs
    "counting_sort": r"repeated by a number \(sequence \* n\) that is only known",
    # buckets[(v // exp) % 10], a list of lists picked by a tensor digit
    "radix_sort_lsd": "use as a Python index needs a concrete value",
    # appends (i, delta) tuples to a list under a tensor test
    "rebalance_inplace": "a tuple holding tensors as an item of a list that grows",
    # appends 100.0 (a Python float) on one branch and an np.float64 on the other
    "rsi_wilder": r"lists of f64\[\]~ and of f64\[\] cannot be merged",
    # bisect.insort puts tensors into a list made before a loop over tensors, inside it
    "running_median_insort": r"bisect.insort_right\(\) changes a list made before an if or loop",
    # a Python number that a tensor loop may leave as it is, on other paths a NumPy scalar, then
    # raised to a power (Python raises on overflow where NumPy gives inf), divided by an int
    # (Python divides ints exactly, NumPy converts them first) or pushed on a tensor list:
    # staging.kind_rules refuses what it cannot show exact
    **dict.fromkeys(
        [
            "irr_newton",
            "coordinate_descent",
        ],
        "would depend on the path taken",
    ),
    # ---- round 4 ----
    # g_best starts as None and meets arrays under a tensor test, then is used in arithmetic
    "particle_swarm": "a variable that is None on some paths and a tensor on others, used in",
    "black_scholes_vectorized_spec": "np.vectorize calls a Python function once per element",
    # a list held by an object made in the function: it could as well be a global's
    **dict.fromkeys(
        ["account_ledger", "bollinger_object"],
        r"append\(\) changes a list from outside the function",
    ),
    "format_array_table": "a string formatted from a tensor is an item of a list that grows",
    # a try around an operation that may raise, when the graph runs, what a handler catches (a
    # division of Python floats by zero, a matrix that is singular or not positive definite):
    # the handler would have to run when the graph runs
    "newton_poly_try_zero_division": "try body with divide at line .*, which may raise",
    "cholesky_or_eigen_fallback": "try body with cholesky at line .*, which may raise",
    "solve_or_lstsq": "try body with solve at line .*, which may raise",
    # ranks[i] = rank for i in sorted(range(n), key=...): a Python list written at positions
    # known when the graph runs, outside tensor control flow
    "argsort_by_sorted": "use as a Python index needs a concrete value",
    # returns a tuple from inside the loops, None after them
    "bollinger_vectorized": "sliding_window_view is not supported on tensors",
    # ---- round 5: tutorial code called the way users call it ----
    # the recursive heapify sifts down while a tensor comparison says so
    "heap_sort_recursive_heapify": "recursion too deep to trace",
    # peaks.append((mag[i], i)) under a tensor test, then peaks.sort(reverse=True)
    "pick_peaks_threshold": "a tuple holding tensors as an item of a list that grows",
    # None when no membership reaches alpha, else (min, max)
    # min() of an int array is an np.int64, which lo - 0.5 makes an np.float64 on one path
    "histogram_manual": "would depend on the path taken",
    # sorted() of an array compares NumPy scalars in Python
    # ---- round 6: code written without SciPy, and Python mixed with NumPy ----
    # min(max(v, -limit), limit): v an np.float64 or limit a Python float, by the path
    "rate_limiter_and_clip": "would depend on the path taken",
    # outliers.append((i, float(v))) under a tensor test
    "iqr_outlier_fences": "a tuple holding tensors as an item of a list that grows",
    # a helper sorts a slice of the caller's list in place under tensor tests
    "introsort_list": "an item assignment changes a list passed to the function or known by two",
    # the heap order comes from Python comparisons of tensor values, one sift at a time
    "top_k_heapq_minheap": r"heapq\.heappush\(\) of a list of tensor values",
    "k_way_merge_heap": r"heapq\.heapify\(\) of a list of tensor values",
    # the nested find() writes parent[x], a list of the enclosing function, through its closure
    "union_find_components": "an item assignment to a list from outside the function",
    # the early return inside the pivoting loop holds perm, swapped later under a tensor test
    "lu_partial_pivoting_det": "an item assignment changes a list passed to the function or known",
    # f"best x[{i}] = {v:.3f}" is returned
    "argmax_as_int_and_value_as_float": "a string formatted from a tensor is returned",
    # ---- round 7: objects with state, writes into arguments, printed reports ----
    # buf.mean() is 0.0 (a Python float) before the first value, the buffer's np.float64 after
    "ring_buffer_moving_average": "list_push of a number that is a Python number on some paths",
    # the model object appends its epoch loss to its own history list
    "sgd_regressor_object": r"append\(\) changes a list from outside the function",
    # a Fenwick tree's list of Python ints, written by the object's own methods
    "fenwick_range_sums": "an item assignment to a list from outside the function",
    # an object picked by a tensor test (Temperature.from_kelvin(r) if r > 200 else ...)
    "property_and_classmethod": "the value of the conditional expression is <",
    # dicts keyed by values of the data (int(g), xs.tolist() items)
    **dict.fromkeys(["counter_object_with_dict", "pivot_counts_and_sums"], "is hashed"),
    "str_and_repr_of_arrays": "a string formatted from a tensor is used as a string",
    "aligned_inventory_table": "zip/enumerate mixing tensors with a list",
    "threshold_report_strings": "'fail' depending on a tensor test is turned into text",
    "formatted_array_with_array2string": "np.array2string is not supported on tensors",
    # edges and kth that depend on how many values are finite, known when the graph runs
    "histogram_density_and_cdf": "np.histogram returns a view of its argument",
    "k_smallest_by_argpartition": "np.argpartition raised ValueError on every probe",
}
