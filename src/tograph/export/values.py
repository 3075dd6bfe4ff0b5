"""Values in a saved graph: params, literals and static results, as tagged JSON plus array bytes.

Stage: export (save and load). Input: a value that a graph holds (a param, a literal, a static
result) or its encoded form. Output: the JSON-ready form, with the bytes of arrays appended to a
shared data section; or the value again. ``docs/export.md`` lists every form.

JSON ``null``, ``true``, ``false``, integers and strings stand for themselves and a JSON list for a
tuple; every other value is an object with one key that names its kind, e.g. ``{"float": "0x1p-1"}``
(exact, NaN and infinities included), ``{"dtype": "float32"}``, ``{"type": "f64[3,None]"}``,
``{"array": {"dtype": "<f8", "shape": [2], "offset": 0}}`` or
``{"object": "Index", "fields": [...]}`` for tograph's own param classes, which an explicit table
names (``_CLASSES``). Decoding builds only those kinds: nothing from the file is imported, called
by name or evaluated, except built-in exception classes and callables of NumPy's own namespace,
each looked up by name in that namespace alone.
"""

from __future__ import annotations

import builtins
import collections
import dataclasses
import keyword
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.export import schema
from tograph.ir import types
from tograph.ops import effects, host_call, indexing, random_sources
from tograph.ops import random as random_draws

MAX_DEPTH = 64


class Encoder:
    """Encodes values; arrays go to ``data`` (a bytearray shared by the whole file).

    ``context`` names what is being encoded and its user line, for the message of an error.
    """

    def __init__(self, data: bytearray):
        self.data = data
        self.context: tuple[str, errors.SourceLocation | None] = ("a value", None)

    def encode(self, value: Any) -> Any:
        """The JSON form of ``value``.

        Raises:
          ExportError: a value of a kind a file cannot hold (the message names it and where).
        """
        if value is None or isinstance(value, (bool, str)):
            return value
        if type(value) is int:
            return value
        if type(value) is float:
            return {"float": value.hex()}
        if type(value) is complex:
            return {"complex": [value.real.hex(), value.imag.hex()]}
        if type(value) is tuple:
            return [self.encode(v) for v in value]
        if type(value) is list:
            return {"list": [self.encode(v) for v in value]}
        if value is Ellipsis:
            return {"ellipsis": None}
        for kind, (test, write) in _WRITERS.items():
            if test(value):
                return {kind: write(self, value)}
        raise self.error(f"a {type(value).__qualname__} ({_short(value)})")

    def error(self, what: str) -> errors.ExportError:
        where, loc = self.context
        return errors.ExportError(f"{where} is {what}, which a file cannot hold", loc=loc)

    def array(self, value: np.ndarray) -> dict[str, Any]:
        dtype = schema.checked_dtype(value.dtype, self.error)
        offset = len(self.data)
        self.data += np.ascontiguousarray(value).tobytes()
        return {"dtype": dtype.str, "shape": list(value.shape), "offset": offset}


class Decoder:
    """Decodes values written by ``Encoder``; ``data`` is the file's data section."""

    def __init__(self, data: bytes | memoryview):
        self.data = data
        self._namedtuples: dict[tuple[str, tuple[str, ...]], type] = {}

    def decode(self, form: Any, depth: int = 0) -> Any:
        """The value of a JSON form.

        Raises:
          LoadError: the form is not one ``Encoder`` writes (the message says what is wrong).
        """
        if depth > MAX_DEPTH:
            raise errors.LoadError(f"values nest deeper than {MAX_DEPTH} levels")
        if form is None or isinstance(form, (bool, str)):
            return form
        if type(form) is int:
            return form
        if type(form) is list:
            return tuple(self.decode(v, depth + 1) for v in form)
        if type(form) is dict and len(form) == 1:
            ((kind, body),) = form.items()
            reader = _READERS.get(kind)
            if reader is not None:
                return reader(self, body, depth + 1)
        raise errors.LoadError(f"unknown value form {_short(form)}")

    def array(self, body: Any) -> np.ndarray:
        fields = schema.expect_dict(body, "array", {"dtype", "shape", "offset"})
        dtype = schema.parse_dtype(fields["dtype"])
        shape = tuple(
            schema.expect_int(d, "array dimension")
            for d in schema.expect_list(fields["shape"], "shape")
        )
        offset = schema.expect_int(fields["offset"], "array offset")
        if any(d < 0 for d in shape) or offset < 0:
            raise errors.LoadError(f"array of shape {shape} at offset {offset} is malformed")
        nbytes = math.prod(shape) * dtype.itemsize
        if offset + nbytes > len(self.data):
            raise errors.LoadError(
                f"array of {nbytes} bytes at offset {offset} runs past the data section "
                f"({len(self.data)} bytes)"
            )
        flat = np.frombuffer(self.data, dtype, math.prod(shape), offset)
        made: np.ndarray = flat.reshape(shape).copy()
        return made

    def namedtuple(self, name: str, fields: tuple[str, ...]) -> type:
        """A namedtuple class with this name and fields, the same one for each pair in a file."""
        for text in (name, *fields):
            if not text.isidentifier() or text.startswith("_") or text in _KEYWORDS:
                raise errors.LoadError(f"namedtuple name {text!r} is not a plain identifier")
        if len(set(fields)) != len(fields):
            raise errors.LoadError(f"namedtuple {name} repeats a field name: {fields}")
        key = (name, fields)
        if key not in self._namedtuples:
            self._namedtuples[key] = collections.namedtuple(name, fields)
        return self._namedtuples[key]


_KEYWORDS = frozenset(keyword.kwlist)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _float(form: Any) -> float:
    text = schema.expect_str(form, "float")
    try:
        return float.fromhex(text)
    except ValueError:
        raise errors.LoadError(f"{text!r} is not a float in hex form") from None


# ---- the kinds ---------------------------------------------------------------------------


def _write_scalar(enc: Encoder, value: np.generic) -> Any:
    dtype = schema.checked_dtype(value.dtype, enc.error)
    return {"dtype": dtype.str, "bytes": value.tobytes().hex()}


def _read_scalar(dec: Decoder, body: Any, depth: int) -> np.generic:
    fields = schema.expect_dict(body, "scalar", {"dtype", "bytes"})
    dtype = schema.parse_dtype(fields["dtype"])
    try:
        raw = bytes.fromhex(schema.expect_str(fields["bytes"], "scalar bytes"))
    except ValueError:
        raise errors.LoadError("scalar bytes are not hex") from None
    if len(raw) != dtype.itemsize:
        raise errors.LoadError(f"a {dtype} scalar needs {dtype.itemsize} bytes, got {len(raw)}")
    scalar: np.generic = np.frombuffer(raw, dtype)[0]
    return scalar


def _write_exception(enc: Encoder, value: BaseException) -> Any:
    cls = type(value)
    if getattr(builtins, cls.__name__, None) is not cls:
        raise enc.error(
            f"an exception of class {cls.__qualname__}; only built-in exception classes can be "
            "saved"
        )
    return {"class": cls.__name__, "args": enc.encode(tuple(value.args))}


def _read_exception(dec: Decoder, body: Any, depth: int) -> BaseException:
    fields = schema.expect_dict(body, "exception", {"class", "args"})
    name = schema.expect_str(fields["class"], "exception class")
    cls = getattr(builtins, name, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise errors.LoadError(f"{name!r} is not a built-in exception class")
    args = dec.decode(fields["args"], depth)
    if type(args) is not tuple:
        raise errors.LoadError(f"exception arguments must be a list, got {_short(args)}")
    try:
        return cls(*args)
    except TypeError as exc:
        raise errors.LoadError(f"cannot make {name}{_short(args)}: {exc}") from None


# NumPy functions a graph may call by name: ufuncs, and functions of these namespaces, never ones
# that read or write files or load libraries.
_NUMPY_SPACES = {"": np, "linalg": np.linalg, "fft": np.fft}
_NUMPY_IO = frozenset(
    "load save savez savez_compressed loadtxt savetxt genfromtxt fromfile fromregex memmap "
    "DataSource info show_config show_runtime test get_include".split()
)


def numpy_name(value: Any) -> str | None:
    """The name under which ``resolve_numpy`` finds ``value`` (``"add"``, ``"linalg.norm"``)."""
    name = getattr(value, "__name__", None)
    if not isinstance(name, str):
        return None
    for space, module in _NUMPY_SPACES.items():
        path = f"{space}.{name}" if space else name
        if getattr(module, name, None) is value and _allowed_numpy(path, value):
            return path
    return None


def resolve_numpy(path: str) -> Any:
    """The NumPy callable ``path`` names, looked up in NumPy's own namespaces only."""
    space, _, name = path.rpartition(".")
    module = _NUMPY_SPACES.get(space)
    found = getattr(module, name, None) if module is not None and name.isidentifier() else None
    if found is None or name.startswith("_") or not _allowed_numpy(path, found):
        raise errors.LoadError(f"{path!r} is not a NumPy function a graph may call")
    return found


def _allowed_numpy(path: str, value: Any) -> bool:
    if path.rpartition(".")[2] in _NUMPY_IO:
        return False
    if isinstance(value, np.ufunc):
        return True
    module = getattr(value, "__module__", None) or ""
    return callable(value) and not isinstance(value, type) and module.split(".")[0] == "numpy"


def _read_numpy(dec: Decoder, body: Any, depth: int) -> Any:
    return resolve_numpy(schema.expect_str(body, "NumPy function"))


def _write_object(enc: Encoder, value: Any) -> Any:
    name, (_, fields_of, _) = next((n, c) for n, c in _CLASSES.items() if type(value) is c[0])
    return {"class": name, "fields": enc.encode(fields_of(value))}


def _read_object(dec: Decoder, body: Any, depth: int) -> Any:
    fields = schema.expect_dict(body, "object", {"class", "fields"})
    name = schema.expect_str(fields["class"], "class")
    if name not in _CLASSES:
        raise errors.LoadError(f"unknown param class {name!r}; known: {sorted(_CLASSES)}")
    cls, _, make = _CLASSES[name]
    values = dec.decode(fields["fields"], depth)
    if type(values) is not tuple:
        raise errors.LoadError(f"fields of {name} must be a list")
    try:
        return make(*values)
    except (TypeError, ValueError) as exc:
        raise errors.LoadError(f"cannot make {name}{_short(values)}: {exc}") from None


def _fields(value: Any) -> tuple[Any, ...]:
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value))


def _refuse_generator(enc: Encoder, value: random_sources.Caller) -> Any:
    raise enc.error(
        f"a draw from the caller's {type(value.obj).__name__} object (an argument, a global or an "
        "attribute): the graph draws from that very object, which exists in this process only"
    )


def _static_array(value: Any) -> indexing.StaticArray:
    if not isinstance(value, np.ndarray):
        raise TypeError("a StaticArray holds an array")
    return indexing.StaticArray(value)


# tograph's own classes that params hold, by the name a file uses: (class, fields, constructor).
_CLASSES: dict[str, tuple[type, Callable[[Any], tuple[Any, ...]], Callable[..., Any]]] = {
    "Index": (indexing.Index, _fields, indexing.Index),
    "Slice": (indexing.Slice, _fields, indexing.Slice),
    "Arg": (indexing.Arg, _fields, indexing.Arg),
    "StaticArray": (indexing.StaticArray, lambda v: (v.value,), _static_array),
    "FormatSlot": (effects.FormatSlot, _fields, effects.FormatSlot),
    "NumpyFunction": (host_call.NumpyFunction, _fields, host_call.NumpyFunction),
    "KindSlot": (effects.KindSlot, _fields, effects.KindSlot),
    "Draw": (random_draws.Draw, _fields, random_draws.Draw),
    "NumpyGlobal": (random_sources.NumpyGlobal, _fields, random_sources.NumpyGlobal),
    "PythonGlobal": (random_sources.PythonGlobal, _fields, random_sources.PythonGlobal),
    "LocalGenerator": (random_sources.Local, _fields, random_sources.Local),
}
_CLASS_TYPES = tuple(c[0] for c in _CLASSES.values())

_WRITERS: dict[str, tuple[Callable[[Any], bool], Callable[[Encoder, Any], Any]]] = {
    "dtype": (
        lambda v: isinstance(v, np.dtype),
        lambda e, v: schema.checked_dtype(v, e.error).name,
    ),
    "scalar_type": (
        lambda v: isinstance(v, type) and issubclass(v, np.generic),
        lambda e, v: schema.checked_dtype(np.dtype(v), e.error).name,
    ),
    "type": (lambda v: isinstance(v, types.TensorType), lambda e, v: str(v)),
    "list_type": (lambda v: isinstance(v, types.ListType), lambda e, v: str(v)),
    "array": (lambda v: isinstance(v, np.ndarray), Encoder.array),
    "scalar": (lambda v: isinstance(v, np.generic), _write_scalar),
    "exception": (lambda v: isinstance(v, BaseException), _write_exception),
    "object": (lambda v: isinstance(v, _CLASS_TYPES), _write_object),
    "generator": (lambda v: isinstance(v, random_sources.Caller), _refuse_generator),
    "numpy": (lambda v: numpy_name(v) is not None, lambda e, v: numpy_name(v)),
}


def _read_complex(dec: Decoder, body: Any, depth: int) -> complex:
    parts = schema.expect_list(body, "complex")
    if len(parts) != 2:
        raise errors.LoadError("a complex number needs two parts")
    return complex(_float(parts[0]), _float(parts[1]))


def _read_scalar_type(dec: Decoder, body: Any, depth: int) -> type:
    return schema.parse_dtype(body).type


_READERS: dict[str, Callable[[Decoder, Any, int], Any]] = {
    "float": lambda d, b, depth: _float(b),
    "complex": _read_complex,
    "list": lambda d, b, depth: list(d.decode(schema.expect_list(b, "list"), depth)),
    "ellipsis": lambda d, b, depth: Ellipsis,
    "dtype": lambda d, b, depth: schema.parse_dtype(b),
    "scalar_type": _read_scalar_type,
    "type": lambda d, b, depth: schema.parse_type(b),
    "list_type": lambda d, b, depth: schema.parse_list_type(b),
    "array": lambda d, b, depth: d.array(b),
    "scalar": _read_scalar,
    "exception": _read_exception,
    "object": _read_object,
    "numpy": _read_numpy,
}
