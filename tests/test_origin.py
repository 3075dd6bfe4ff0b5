"""origin: which code objects are converted user code, and finding their frames.

Entries are keyed by the code object's id and must go with the code object, so that a later code
object given the same id is not taken for converted code.
"""

import gc
import linecache

from tograph import origin


def fresh_code(name: str):
    namespace: dict = {}
    exec(f"def {name}():\n    return 1\n", namespace)
    return namespace[name].__code__


def test_registered_code_and_the_code_nested_in_it_are_converted():
    namespace: dict = {}
    exec("def outer():\n    def inner():\n        return 1\n    return inner\n", namespace)
    outer = namespace["outer"].__code__
    origin.register([outer])
    inner = next(c for c in outer.co_consts if hasattr(c, "co_code"))
    assert origin.is_converted(outer) and origin.is_converted(inner)
    assert not origin.is_converted(fresh_code("other"))


def test_an_entry_goes_with_its_code_object():
    code = fresh_code("short_lived")
    origin.register([code])
    key = id(code)
    assert key in origin._CONVERTED
    del code
    gc.collect()
    assert key not in origin._CONVERTED


def test_registering_again_keeps_the_entry():
    code = fresh_code("twice")
    origin.register([code])
    origin.register([code])
    gc.collect()
    assert origin.is_converted(code)


def test_current_location_finds_the_converted_frame():
    namespace = {"origin": origin}
    exec("def located():\n    return origin.current_location()\n", namespace)
    located = namespace["located"]
    assert located() is None
    origin.register([located.__code__])
    loc = located()
    assert (loc.line, loc.function) == (2, "located")


def test_a_location_shows_its_line_as_linecache_has_it_now():
    """Locations are shared between equations of one line, never across a change of the text
    (an edited file that linecache has read again)."""
    filename = "<test_origin edited>"
    source = "def edited():\n    return origin.current_location()\n"
    namespace = {"origin": origin}
    exec(compile(source, filename, "exec"), namespace)
    edited = namespace["edited"]
    origin.register([edited.__code__])
    lines = source.splitlines(True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    try:
        first, again = edited(), edited()
        assert first.source_line == lines[1] and again == first
        linecache.cache[filename] = (len(source), None, [lines[0], "    # changed\n"], filename)
        assert edited().source_line == "    # changed\n"
    finally:
        linecache.cache.pop(filename, None)


def test_the_line_of_a_converted_frame_is_its_f_lineno_at_every_instruction():
    """The per-instruction line table read for converted frames gives what ``f_lineno`` does,
    on code spanning lines, loops, calls and a multi-line expression."""
    import sys

    source = (
        "def spread(xs):\n"
        "    total = 0\n"
        "    for x in xs:\n"
        "        if x > 1:\n"
        "            total += (x *\n"
        "                      2)\n"
        "        else:\n"
        "            total -= abs(x)\n"
        "    return [t for t in (total, total + 1)]\n"
    )
    namespace: dict = {}
    exec(compile(source, "<test_origin lines>", "exec"), namespace)
    spread = namespace["spread"]
    codes = {spread.__code__, *(c for c in spread.__code__.co_consts if hasattr(c, "co_code"))}
    origin.register(codes)
    seen: list[tuple[int, int | None]] = []

    def trace(frame, event, arg):
        if frame.f_code in codes:
            frame.f_trace_opcodes = True
            if event == "opcode":
                seen.append((origin._line_of(id(frame.f_code), frame), frame.f_lineno))
        return trace

    sys.settrace(trace)
    try:
        spread([0, 1, 2, 3])
    finally:
        sys.settrace(None)
    assert len(seen) > 50
    assert all(ours == python for ours, python in seen)


def test_a_line_table_and_the_locations_go_with_their_code_object():
    namespace = {"origin": origin}
    exec("def tabled():\n    return origin.current_location()\n", namespace)
    tabled = namespace["tabled"]
    origin.register([tabled.__code__])
    key = id(tabled.__code__)
    assert tabled().line == 2 and key in origin._LINES and key in origin._LOCATIONS
    del tabled, namespace
    gc.collect()
    assert key not in origin._LINES and key not in origin._LOCATIONS
