"""caching.LRU: at most ``limit`` entries; a lookup or a write makes an entry the most recent,
and adding past the limit drops the least recent."""

from tograph import caching


def test_the_least_recently_used_entry_goes_first():
    table: caching.LRU[str, int] = caching.LRU(3)
    for i, key in enumerate("abc"):
        table[key] = i
    assert table.get("a") == 0  # now the most recent
    table["d"] = 3
    assert list(table) == ["c", "a", "d"] and "b" not in table
    assert table.setdefault("c", 9) == 2 and table.setdefault("e", 4) == 4
    assert list(table) == ["d", "c", "e"] and table.values() == [3, 2, 4]
    assert table.get("b") is None and table.get("b", 7) == 7 and len(table) == 3
