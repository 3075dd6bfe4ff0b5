"""The printed report: times, ratios, peak memory, target verdicts and notes, as plain-text tables.

Stage: benchmark harness. Input: the runner's result dictionary. Output: a string. Times are
medians per call: milliseconds, or microseconds where a contender takes under 0.1 ms (W1, W7).
"""

from __future__ import annotations

from typing import Any

_ORDER = (
    "numpy",
    "tograph",
    "tograph.numba",
    "tograph.auto",
    "numba.njit",
    "jax.jit",
    "torch.jit.script",
    "torch eager",
    "tf.function",
    "paddle.jit.to_static",
)
_SHORT = {
    "numpy": "numpy",
    "tograph": "tograph",
    "tograph.numba": "tg.numba",
    "tograph.auto": "tg.auto",
    "numba.njit": "numba",
    "jax.jit": "jax.jit",
    "torch.jit.script": "torch.jit",
    "torch eager": "torch eager",
    "tf.function": "tf.function",
    "paddle.jit.to_static": "paddle",
}


def _columns(results: list[dict[str, Any]]) -> list[str]:
    present = {name for r in results for name in r["contenders"]}
    return [name for name in _ORDER if name in present] + sorted(present - set(_ORDER))


def _unit(record: dict[str, Any]) -> tuple[str, float]:
    fastest = min((c["median_s"] for c in record["contenders"].values()), default=None)
    if fastest is not None and not record["first_call"] and fastest < 1e-4:
        return "us", 1e6
    return "ms", 1e3


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        )
        for row in [header, *rows]
    ]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])


def _times(results: list[dict[str, Any]], columns: list[str]) -> str:
    rows = []
    for r in results:
        unit, scale = _unit(r)
        cells = [f"{r['key']} {r['title']} [{unit}]"]
        for name in columns:
            c = r["contenders"].get(name)
            mark = "" if c is None or c["check"] == "ok" else "!"
            cells.append("-" if c is None else f"{c['median_s'] * scale:.3f}{mark}")
        rows.append(cells)
    return _table(["median time per call", *[_SHORT.get(n, n) for n in columns]], rows)


def _ratios(results: list[dict[str, Any]], columns: list[str]) -> str:
    ours = [n for n in columns if n.startswith("tograph")]
    others = [n for n in columns if not n.startswith("tograph")]
    rows = [
        [
            f"{r['key']} {r['title']}" + ("" if mine == "tograph" else f" ({_SHORT[mine]})"),
            *[
                f"{r['ratios'][f'{mine}/{n}']:.2f}" if f"{mine}/{n}" in r["ratios"] else "-"
                for n in others
            ],
        ]
        for r in results
        for mine in ours
        if mine in r["contenders"]
    ]
    return _table(
        ["tograph / X (below 1: tograph faster)", *[_SHORT.get(n, n) for n in others]], rows
    )


def _memory(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        for name, size in r.get("peak_bytes", {}).items():
            lines.append(f"  {r['key']} {name}: {size / 2**20:.1f} MiB")
    if not lines:
        return ""
    return (
        "peak memory of one call (tracemalloc: NumPy array buffers; peers not measured):\n"
        + "\n".join(lines)
    )


def _targets(targets: list[dict[str, Any]]) -> str:
    if not targets:
        return ""
    lines = [
        f"  {'met ' if t['met'] else 'MISS'}  {t['key']:<11} {t['target']:<30} "
        f"ratio {t['ratio']:.2f}"
        for t in targets
    ]
    met = sum(t["met"] for t in targets)
    return f"targets: {met} of {len(targets)} met\n" + "\n".join(lines)


def _backends(data: dict[str, Any]) -> str:
    lines = [
        f"  {r['key']} {name}: {used}"
        for r in data["results"]
        for name, used in r.get("ran_on", {}).items()
    ]
    return "what each tograph contender ran on:\n" + "\n".join(lines) if lines else ""


def _notes(data: dict[str, Any]) -> str:
    lines = [
        f"  peer {name} skipped: {why}"
        for name, why in data["environment"]["skipped_peers"].items()
    ]
    lines += [f"  {name} skipped: {why}" for name, why in data["skipped_workloads"].items()]
    lines += [f"  {r['key']}: {note}" for r in data["results"] for note in r["notes"]]
    return (
        "notes (! in the table: result differs from NumPy):\n" + "\n".join(lines) if lines else ""
    )


def _threads(env: dict[str, Any]) -> str:
    """How many BLAS threads were asked for, and what NumPy's BLAS reports (threadpoolctl)."""
    info = env["threads"]
    asked = info.get("threads", 1)
    text = f"{asked} thread{'s' if asked != 1 else ''} each"
    pools = info.get("numpy_blas")
    if isinstance(pools, list) and pools:
        text += (
            " (NumPy BLAS: "
            + ", ".join(f"{p['internal_api']} {p['num_threads']}" for p in pools)
            + ")"
        )
    return text


def render(data: dict[str, Any]) -> str:
    """The whole report as text."""
    env = data["environment"]
    versions = ", ".join(f"{k} {v}" for k, v in {"numpy": env["numpy"], **env["peers"]}.items())
    backend = data.get("backend", "numpy")
    extra = "" if backend == "numpy" else f" and {backend}"
    head = (
        f"tograph bench ({data['mode']}, tograph on numpy{extra}): "
        f"python {env['python']}, {versions}; {_threads(env)}"
    )
    results = data["results"]
    if not results:
        return head + "\n(no workload ran)\n" + _notes(data)
    columns = _columns(results)
    parts = [
        head,
        _times(results, columns),
        _ratios(results, columns),
        _memory(results),
        _targets(data["targets"]),
        _backends(data),
        _notes(data),
    ]
    return "\n\n".join(p for p in parts if p)
