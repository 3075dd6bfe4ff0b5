"""The JSON shapes a reader accepts: typed fields, dtypes and printed types, or a ``LoadError``.

Stage: export (load). Input: a part of a file's header. Output: it, checked to be the expected
JSON kind (an object with exactly these keys, a list, an integer, a string), or the dtype or
tensor type it names: only bool, integer, float and complex dtypes, printed as ``f64[3,None]``.
Each failure names what was expected and what was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types

# Dtype kinds a file may hold: bool, signed and unsigned ints, floats, complex. Object, string,
# structured and datetime dtypes are refused (an object array would hold pointers).
_KINDS = "biufc"


def expect_dict(
    form: Any, what: str, keys: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> Any:
    """``form`` as a dict with exactly ``keys`` (and maybe some of ``optional``)."""
    if type(form) is not dict or not keys <= form.keys() <= keys | optional:
        raise errors.LoadError(f"{what} must be an object with keys {sorted(keys)}: {_short(form)}")
    return form


def expect_list(form: Any, what: str) -> list[Any]:
    """``form`` as a JSON list."""
    if type(form) is not list:
        raise errors.LoadError(f"{what} must be a list, got {_short(form)}")
    return form


def expect_int(form: Any, what: str) -> int:
    """``form`` as a JSON integer (not a bool, not a float)."""
    if type(form) is not int:
        raise errors.LoadError(f"{what} must be an integer, got {_short(form)}")
    return form


def expect_str(form: Any, what: str) -> str:
    """``form`` as a JSON string."""
    if type(form) is not str:
        raise errors.LoadError(f"{what} must be a string, got {_short(form)}")
    return form


def parse_dtype(form: Any) -> np.dtype:
    """A dtype from its name or ``dtype.str``; only plain numeric and bool dtypes."""
    text = expect_str(form, "dtype")
    if not re.fullmatch(r"[<>|=]?[a-z]+[0-9]*", text):
        raise errors.LoadError(f"{text!r} is not a dtype name")
    try:
        dtype = np.dtype(text)
    except TypeError:
        raise errors.LoadError(f"unknown dtype {text!r}") from None
    return checked_dtype(dtype, lambda what: errors.LoadError(f"the file holds {what}"))


def parse_type(form: Any) -> types.TensorType:
    """A tensor type from its printed form, ``f64[3,None]`` or ``i64[]~``."""
    text = expect_str(form, "type")
    match = re.fullmatch(r"([a-z]+[0-9]*)\[((?:None|[0-9]+)(?:,(?:None|[0-9]+))*)?\](~?)", text)
    if match is None:
        raise errors.LoadError(f"{text!r} is not a tensor type")
    name, dims, weak = match.groups()
    try:
        parsed = types.parse_type(f"{name}[]")
    except ValueError:
        raise errors.LoadError(f"unknown dtype {name!r} in type {text!r}") from None
    checked_dtype(parsed.dtype, lambda what: errors.LoadError(f"type {text!r} is {what}"))
    shape = tuple(None if d == "None" else int(d) for d in dims.split(",")) if dims else ()
    if weak and shape:
        raise errors.LoadError(f"type {text!r} is weak but not a scalar")
    return types.TensorType(parsed.dtype, shape, bool(weak))


def parse_value_type(form: Any) -> types.ValueType:
    """A tensor type, or a list type ``list[f64[3]]`` / ``list[?]``."""
    text = expect_str(form, "type")
    return parse_list_type(text) if text.startswith("list[") else parse_type(text)


def parse_list_type(form: Any) -> types.ListType:
    """A list type from its printed form, ``list[f64[3]]`` or ``list[?]``."""
    text = expect_str(form, "list type")
    if not (text.startswith("list[") and text.endswith("]")):
        raise errors.LoadError(f"{text!r} is not a list type")
    inner = text[5:-1]
    return types.ListType(None if inner == "?" else parse_type(inner))


def checked_dtype(dtype: np.dtype, error: Callable[[str], Exception]) -> np.dtype:
    """``dtype`` if a file may hold it, else ``error(what it is)`` raised."""
    if dtype.kind not in _KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise error(f"an array of dtype {dtype}, which is not a number or bool dtype")
    return dtype


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
