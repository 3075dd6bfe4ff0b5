"""tograph on a real ``dask.distributed`` cluster: two single-threaded worker processes, started
once for this module. ``f.map`` equals a local loop, survives a worker killed mid-map, and names
the item that fails; the Dask backend's loop decisions run on the cluster."""

import os
import signal

import dask.array as da
import map_cases
import numpy as np
import pytest
from distributed import Client, LocalCluster, wait

import tograph as tg

RNG = np.random.default_rng(0)


@pytest.fixture(scope="module")
def client():
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def assert_same(got, expected):
    """Equal values of the same Python and NumPy types, leaf by leaf."""
    assert type(got) is type(expected)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    elif isinstance(expected, (np.ndarray, np.generic)):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected


def test_map_over_200_inputs_equals_local_calls(client):
    inputs = [RNG.uniform(0.5, 100.0, size=3) for _ in range(200)]
    results = map_cases.newton_sqrt.map(inputs, client=client)
    assert len(results) == 200
    for got, x in zip(results, inputs):
        assert_same(got, map_cases.newton_sqrt(x))


def test_workers_run_the_graph_compiled_here(client):
    x = np.array([2.0, 3.0])
    map_cases.newton_sqrt.map([x, x * 2, x * 3], client=client)

    def origins():
        return {
            str(cf.graph.inputs[0].type): cf.code is None
            for cf in map_cases.newton_sqrt.concrete_functions
        }

    # a graph a worker traced itself has its converted source; one sent with the function has
    # none: no worker traced, and the workers that ran calls hold the graph compiled here
    held = client.run(origins).values()
    assert all(sent for graphs in held for sent in graphs.values())
    assert any("f64[2]" in graphs for graphs in held)


def test_tuples_are_argument_lists_and_results_keep_their_kinds(client):
    calls = [(np.float64(2.0) + k,) for k in range(20)]
    assert map_cases.decay_steps.map(calls, client=client, batch=3) == [
        map_cases.decay_steps(*call) for call in calls
    ]
    assert all(type(r) is int for r in map_cases.decay_steps.map(calls[:2], client=client))


def test_a_loaded_function_maps_too(client, tmp_path):
    x = np.array([4.0, 9.0])
    map_cases.newton_sqrt(x)
    tg.save(map_cases.newton_sqrt, tmp_path / "newton.tograph")
    loaded = tg.load(tmp_path / "newton.tograph")
    inputs = [x * k for k in range(1, 30)]
    for got, xi in zip(loaded.map(inputs, client=client), inputs):
        assert_same(got, map_cases.newton_sqrt(xi))


def test_futures_come_one_per_item_in_order(client):
    calls = [np.float64(k) for k in range(1, 40)]
    for batch in (None, 7):
        futures = map_cases.decay_steps.map_futures(calls, client=client, batch=batch)
        assert len(futures) == len(calls)
        assert client.gather(futures) == [map_cases.decay_steps(c) for c in calls]


def test_bad_input_on_one_item_names_the_item_and_the_line(client):
    inputs = [np.full(2, k + 1.0) for k in range(30)]
    inputs[17] = np.array([1.0, -1.0])
    with pytest.raises(tg.MapError) as info:
        map_cases.checked_log.map(inputs, client=client, batch=4)
    error = info.value
    assert error.index == 17
    assert "item 17, checked_log(f64[2])" in str(error)
    assert error.loc.file == map_cases.__file__
    assert "raise ValueError" in error.loc.source_line
    assert isinstance(error.__cause__, ValueError)


def test_a_call_with_the_wrong_arguments_names_the_item(client):
    with pytest.raises(tg.MapError, match=r"item 1, checked_log\(f64\[1\], 2\.0\).*TypeError"):
        map_cases.checked_log.map([np.ones(1), (np.ones(1), 2.0)], client=client)


def test_a_function_writing_its_arguments_is_refused(client):
    with pytest.raises(tg.ToGraphError, match="writes into its arguments in place"):
        map_cases.scale_in_place.map([np.ones(3)], client=client)


def test_bad_map_arguments_are_clear_errors(client):
    with pytest.raises(ValueError, match="'batch' must be a positive int"):
        map_cases.decay_steps.map([1.5], client=client, batch=0)
    with pytest.raises(TypeError, match="'iterable' must be an iterable of calls"):
        map_cases.decay_steps.map(5, client=client)


def test_progress_bar_counts_the_calls(client, capsys):
    map_cases.decay_steps.map([np.float64(5.0)] * 50, client=client, progress=True)
    assert "decay_steps.map [" in capsys.readouterr().err
    map_cases.decay_steps.map([np.float64(5.0)] * 50, client=client, progress=False)
    assert capsys.readouterr().err == ""


def test_without_a_client_a_local_cluster_runs_the_map():
    calls = [np.float64(k) for k in range(1, 9)]
    assert map_cases.decay_steps.map(calls) == [map_cases.decay_steps(c) for c in calls]


def test_a_data_dependent_loop_on_a_dask_array_equals_the_numpy_backend(client):
    x = RNG.standard_normal((40, 30)) * 50
    lazy = map_cases.shrink_until_small(da.from_array(x, chunks=(10, 15)))
    got = client.gather(client.compute(lazy))
    expected = map_cases.shrink_until_small(x)
    assert_same(tuple(got), expected)
    assert expected[1] > 1  # several trips, each decided on the cluster


def test_a_worker_killed_mid_map_is_replaced_and_nothing_is_lost(client):
    calls = [np.float64(1.0 + k % 7) * 3 for k in range(240)]
    futures = map_cases.decay_steps.map_futures(calls, client=client, batch=6)
    wait(futures[:6])
    assert not all(f.done() for f in futures)  # still mid-map
    victim, pid = sorted(client.run(os.getpid).items())[0]
    os.kill(pid, signal.SIGKILL)
    assert client.gather(futures) == [map_cases.decay_steps(c) for c in calls]
    client.wait_for_workers(2, timeout=30)
    assert pid not in client.run(os.getpid).values()
