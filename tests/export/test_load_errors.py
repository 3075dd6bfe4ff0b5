"""tg.load refuses malformed files with a LoadError naming the problem, and runs nothing from them.

Files are damaged as bytes (truncated, flipped, extended, another version) or crafted: a valid
container around a header that lies (unknown op, wrong types, bad references) or that holds code
which would run if the file were unpickled or evaluated.
"""

import copy
import json
import os
import pickle
import struct

import numpy as np
import pytest

import tograph as tg
from tograph.export import container

_PAYLOAD_FILE = "tograph-payload-ran"


@tg.to_static
def clipped_norm(x, limit=1.0):
    """A small graph with a loop, a branch, a print, an index and a few kinds of params."""
    total = np.sum(x[1:] * x[1:])
    while total > limit:
        total = total / 4.0
    if total > 0.5:
        print("large", total)
    return total, x.astype(np.float32)


X = np.array([3.0, 1.0, 2.0])
BLOB = tg.export.saves(clipped_norm.concrete(X))
HEADER, DATA = container.unpack(BLOB)


def _load_error(blob, match):
    with pytest.raises(tg.LoadError, match=match):
        tg.export.loads(blob)


def _repacked(edit):
    header = copy.deepcopy(HEADER)
    edit(header)
    return container.pack(header, bytes(DATA))


def _graph(header):
    return header["signatures"][0]["graph"]


def test_the_intact_file_loads():
    assert tg.export.loads(BLOB)(X)[0] == clipped_norm(X)[0]


# ---- damaged bytes -----------------------------------------------------------------------


def test_every_truncation_is_refused():
    for size in range(len(BLOB)):
        with pytest.raises(tg.LoadError, match="truncated|not a tograph file"):
            tg.export.loads(BLOB[:size])


def test_every_flipped_byte_is_refused():
    for i in range(len(BLOB)):
        damaged = bytearray(BLOB)
        damaged[i] ^= 0x20
        with pytest.raises(tg.LoadError):
            tg.export.loads(bytes(damaged))


def test_a_flipped_byte_in_the_body_is_a_checksum_mismatch():
    damaged = bytearray(BLOB)
    damaged[len(BLOB) // 2] ^= 0x01
    _load_error(bytes(damaged), "checksum mismatch: the file is corrupted")


def test_trailing_data_is_refused():
    _load_error(BLOB + b"\x00", "1 bytes of trailing data after the checksum")
    _load_error(BLOB + BLOB, f"{len(BLOB)} bytes of trailing data")


def test_another_version_is_refused():
    other = BLOB[:12] + struct.pack("<H", 2) + BLOB[14:]
    _load_error(other, "format version 2 is not supported; this tograph reads version 1")


def test_unknown_flags_are_refused():
    _load_error(BLOB[:14] + b"\x01\x00" + BLOB[16:], "unknown flags")


def test_other_files_are_not_tograph_files(tmp_path):
    _load_error(b"", "not a tograph file")
    _load_error(b'{"graph": 1}', "not a tograph file")
    np.save(tmp_path / "a.npy", X)
    _load_error((tmp_path / "a.npy").read_bytes(), "not a tograph file")


# ---- files crafted to run code -----------------------------------------------------------


class _Exploit:
    """Unpickling this would create the payload file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_pickle_is_never_unpickled(tmp_path):
    target = tmp_path / _PAYLOAD_FILE
    blob = pickle.dumps(_Exploit(str(target)))
    pickle.loads(blob)  # the exploit works when unpickled ...
    assert target.exists()
    target.unlink()
    path = tmp_path / "model.tograph"
    path.write_bytes(blob)
    with pytest.raises(tg.LoadError, match="not a tograph file"):
        tg.load(path)  # ... and tg.load never unpickles it
    assert not target.exists()
    # Nor when the pickle is inside a valid container, where the header would be.
    _load_error(container.MAGIC + blob, "truncated|version")


def _code(path):
    return f"__import__('os').system('touch {path}')"


def _strings_everywhere(form, text):
    """``form`` with every string and every integer replaced by ``text``, one copy per place."""
    if isinstance(form, (str, int)) and not isinstance(form, bool):
        yield text
    elif isinstance(form, list):
        for i, item in enumerate(form):
            for changed in _strings_everywhere(item, text):
                yield form[:i] + [changed] + form[i + 1 :]
    elif isinstance(form, dict):
        for key, item in form.items():
            for changed in _strings_everywhere(item, text):
                yield {**form, key: changed}


def test_code_in_any_field_never_runs(tmp_path):
    """Each string and number of the header in turn replaced by Python code: the file is refused,
    or if it still type-checks (a print's text, a variable name, a location), loading and running
    it only ever treat the code as text."""
    target = tmp_path / _PAYLOAD_FILE
    text = _code(target)
    refused = 0
    variants = list(_strings_everywhere(HEADER, text))
    assert len(variants) > 100
    for header in variants:
        try:
            loaded = tg.export.loads(container.pack(header, bytes(DATA)))
        except tg.LoadError:
            refused += 1
            continue
        try:
            loaded(X)
        except Exception:  # noqa: BLE001 - a wrong but harmless graph may fail to run
            pass
        assert not target.exists(), json.dumps(header)[:300]
    assert refused > len(variants) // 2


def test_code_as_a_numpy_function_or_exception_is_refused():
    for form, match in [
        ({"numpy": "testing.os.system"}, "not a NumPy function"),
        ({"numpy": "load"}, "not a NumPy function"),
        ({"numpy": "_core.multiarray.set_typeDict"}, "not a NumPy function"),
        ({"exception": {"class": "__import__", "args": ["os"]}}, "not a built-in exception"),
        ({"object": {"class": "os.system", "fields": ["ls"]}}, "unknown param class"),
        ({"dtype": "O"}, "not a dtype name"),
        ({"dtype": "object"}, "not a number or bool dtype"),
        ({"array": {"dtype": "|O", "shape": [1], "offset": 0}}, "not a dtype name"),
        ({"eval": "1+1"}, "unknown value form"),
        ({"object": {"class": "NumpyFunction", "fields": ["save", ""]}}, "cannot run as a host"),
        ({"object": {"class": "NumpyFunction", "fields": ["testing.os.system", ""]}}, "public"),
        ({"object": {"class": "NumpyFunction", "fields": ["add", "at"]}}, "method 'at'"),
    ]:

        def edit(header, form=form):
            _graph(header)["eqns"][0]["params"]["axis"] = form

        _load_error(_repacked(edit), match)


def test_numpy_functions_resolve_in_numpy_only():
    from tograph.export import values

    assert values.resolve_numpy("linalg.norm") is np.linalg.norm
    assert values.resolve_numpy("add") is np.add
    assert values.numpy_name(np.fft.fft) == "fft.fft"
    assert values.numpy_name(os.system) is None
    assert values.numpy_name(np.save) is None


# ---- headers that lie --------------------------------------------------------------------


def _first_op(header, name):
    return next(e for e in _graph(header)["eqns"] if e["op"] == name)


@pytest.mark.parametrize(
    "edit, match",
    [
        (
            lambda h: _first_op(h, "getitem").update(op="frobnicate"),
            "unknown primitive 'frobnicate'",
        ),
        (
            lambda h: _first_op(h, "getitem")["out"][0].update(type="f32[2]"),
            r"getitem outputs are typed \(f32\[2\]\), its rule gives \(f64\[2\]\)",
        ),
        (lambda h: _graph(h)["inputs"][0].update(type="i64[3]"), "inconsistent|type-check"),
        (lambda h: _graph(h)["inputs"][0].update(type="f64[3"), "is not a tensor type"),
        (lambda h: _graph(h)["inputs"][0].update(type="f64[]~x"), "is not a tensor type"),
        (lambda h: _graph(h)["outputs"].append(999), "variable 999 is used but never declared"),
        (lambda h: _graph(h)["inputs"].append({"id": 0, "type": "f64[3]"}), "declared twice"),
        (lambda h: _graph(h).update(name="x\u00b2"), "cannot name a value"),
        (
            lambda h: _first_op(h, "getitem").update(loc=99),
            "location 99 is not in the locations table",
        ),
        (lambda h: _first_op(h, "getitem")["params"].update(index=[1]), "type-check"),
        (lambda h: h.pop("signatures"), "header must be an object with keys"),
        (lambda h: h.update(signatures=[]), "holds no signature"),
        (
            lambda h: h["signatures"][0]["slots"].append(0),
            "slots do not match its argument or result tree",
        ),
        (lambda h: h["signatures"][0]["slots"].__setitem__(0, 7), "slot 7 is not one of"),
        (lambda h: h["parameters"][0].update(kind="MAGIC"), "kind"),
        (
            lambda h: h["signatures"][0]["result"].update(
                tree={"namedtuple": {"name": "P", "fields": ["a; import os"], "children": [None]}}
            ),
            "not a plain identifier",
        ),
        (
            lambda h: _first_op(h, "while_loop")["params"]["body_graph"]["graph"].update(
                outputs=[0, 0]
            ),
            "inconsistent",
        ),
    ],
)
def test_a_header_that_lies_is_refused(edit, match):
    _load_error(_repacked(edit), match)


def test_deep_nesting_is_refused():
    deep = {"list": [1]}
    for _ in range(200):
        deep = {"list": [deep]}

    def edit(header):
        _graph(header)["eqns"][0]["params"]["axis"] = deep

    _load_error(_repacked(edit), "nest deeper")


def test_a_header_that_is_not_strict_json_is_refused():
    header = json.dumps(HEADER).replace('"name"', '"name": 1, "name"', 1).encode()
    body = container._PREFIX.pack(container.MAGIC, 1, 0, len(header), len(DATA)) + header
    blob = body + bytes(DATA)
    import hashlib

    _load_error(blob + hashlib.sha256(blob).digest(), "repeats a key")
    nan = json.dumps(HEADER).replace('"name"', '"nan": NaN, "name"', 1).encode()
    body = container._PREFIX.pack(container.MAGIC, 1, 0, len(nan), len(DATA)) + nan + bytes(DATA)
    _load_error(body + hashlib.sha256(body).digest(), "NaN is not JSON")


def test_an_array_past_the_data_section_is_refused():
    def edit(header):
        _graph(header)["eqns"][0]["params"]["axis"] = {
            "array": {"dtype": "<f8", "shape": [10**6], "offset": 0}
        }

    _load_error(_repacked(edit), "runs past the data section")


def test_a_loaded_file_prints_only_when_run(capsys):
    loaded = tg.export.loads(BLOB)
    assert capsys.readouterr().out == ""
    loaded(np.array([0.0, 0.9, 0.0]))
    assert capsys.readouterr().out.startswith("large")
