"""The file container: magic, version, a JSON header, a data section and a checksum.

Stage: export (save and load). Input: a JSON-ready header and the bytes of its arrays, or a
file's bytes. Output: the file's bytes, or the header and data again. Layout (``docs/export.md``),
integers little-endian::

    magic    12 bytes  b"\\x89tograph\\r\\n\\x1a\\n"
    version   2 bytes  the format version, VERSION
    flags     2 bytes  0 (reserved)
    H         8 bytes  length of the header
    D         8 bytes  length of the data section
    header    H bytes  UTF-8 JSON
    data      D bytes  array contents, referred to by offset from the header
    checksum 32 bytes  SHA-256 of every byte before it

Reading checks each part in that order and refuses, with a ``LoadError`` naming the problem, a
file that is shorter or longer than its lengths say, whose checksum differs, or whose header is not
strict JSON (no NaN, no repeated keys). Nothing in the file is ever evaluated or unpickled.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any

from tograph import errors

MAGIC = b"\x89tograph\r\n\x1a\n"
VERSION = 1
_PREFIX = struct.Struct("<12sHHQQ")
_DIGEST = 32


def pack(header: dict[str, Any], data: bytes | bytearray) -> bytes:
    """The file holding ``header`` (JSON-ready) and ``data``."""
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    encoded = text.encode("utf-8")
    body = _PREFIX.pack(MAGIC, VERSION, 0, len(encoded), len(data)) + encoded + bytes(data)
    return body + hashlib.sha256(body).digest()


def unpack(blob: bytes) -> tuple[dict[str, Any], memoryview]:
    """The header and data section of a file's bytes.

    Raises:
      LoadError: the bytes are not a whole, intact tograph file of a version this library reads.
    """
    if len(blob) < len(MAGIC) or blob[: len(MAGIC)] != MAGIC:
        raise errors.LoadError(
            "not a tograph file (it does not start with tograph's magic bytes)",
            hint="tograph.load reads files written by tograph.save",
        )
    if len(blob) < _PREFIX.size:
        raise errors.LoadError(f"file is truncated: {len(blob)} bytes, shorter than its prefix")
    _, version, flags, header_len, data_len = _PREFIX.unpack_from(blob)
    if version != VERSION:
        raise errors.LoadError(
            f"file format version {version} is not supported; this tograph reads version {VERSION}"
        )
    if flags != 0:
        raise errors.LoadError(f"unknown flags {flags:#06x} in the file prefix")
    expected = _PREFIX.size + header_len + data_len + _DIGEST
    if len(blob) < expected:
        raise errors.LoadError(
            f"file is truncated: {len(blob)} bytes of the {expected} it declares"
        )
    if len(blob) > expected:
        raise errors.LoadError(
            f"{len(blob) - expected} bytes of trailing data after the checksum "
            f"(the file declares {expected} bytes)"
        )
    body = memoryview(blob)[: expected - _DIGEST]
    if hashlib.sha256(body).digest() != blob[expected - _DIGEST :]:
        raise errors.LoadError("checksum mismatch: the file is corrupted")
    start = _PREFIX.size
    header = _parse_header(bytes(body[start : start + header_len]))
    return header, body[start + header_len :]


def _parse_header(raw: bytes) -> dict[str, Any]:
    try:
        parsed = json.loads(
            raw.decode("utf-8"), parse_constant=_no_constant, object_pairs_hook=_unique_keys
        )
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise errors.LoadError(f"the header is not valid JSON: {exc}") from None
    if type(parsed) is not dict:
        raise errors.LoadError("the header must be a JSON object")
    return parsed


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("an object repeats a key")
    return found
