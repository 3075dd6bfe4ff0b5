"""The per-thread stack of active graph builders: ``current``, ``push``, ``pop`` and
``GraphBuilder.active``, which must restore the previous builder even when its block raises."""

import threading

import pytest

from tograph.trace import builder as builder_mod
from tograph.trace import context


def test_no_builder_outside_graph_building():
    assert context.current() is None
    assert builder_mod.current() is None


def test_push_and_pop_form_a_stack():
    first, second = object(), object()
    context.push(first)
    try:
        assert context.current() is first
        context.push(second)
        try:
            assert context.current() is second
        finally:
            context.pop()
        assert context.current() is first
    finally:
        context.pop()
    assert context.current() is None


def test_pop_on_empty_stack_is_an_error():
    with pytest.raises(IndexError):
        context.pop()
    assert context.current() is None


def test_active_nests_and_restores_the_enclosing_builder():
    outer = builder_mod.GraphBuilder("outer")
    inner = outer.child("inner")
    with outer.active() as entered:
        assert entered is outer
        assert builder_mod.current() is outer
        with inner.active():
            assert builder_mod.current() is inner
            assert context.current() is inner
        assert builder_mod.current() is outer
    assert builder_mod.current() is None


def test_active_pops_when_its_block_raises():
    outer = builder_mod.GraphBuilder("outer")
    with outer.active():
        with pytest.raises(RuntimeError, match="boom"):
            with outer.child("inner").active():
                raise RuntimeError("boom")
        assert builder_mod.current() is outer
    assert builder_mod.current() is None


def test_the_same_builder_may_be_active_twice():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        with b.active():
            assert context.current() is b
        assert context.current() is b
    assert context.current() is None


def test_each_thread_has_its_own_stack():
    b = builder_mod.GraphBuilder("main")
    seen = {}
    ready, release = threading.Event(), threading.Event()

    def worker():
        seen["before"] = context.current()
        mine = builder_mod.GraphBuilder("worker")
        with mine.active():
            seen["inside"] = context.current() is mine
            ready.set()
            release.wait(5)
        seen["after"] = context.current()

    with b.active():
        thread = threading.Thread(target=worker)
        thread.start()
        assert ready.wait(5)
        assert context.current() is b  # the worker's push did not reach this thread
        release.set()
        thread.join(5)
        assert context.current() is b
    assert seen == {"before": None, "inside": True, "after": None}
