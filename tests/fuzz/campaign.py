"""Running many programs: counts by verdict and fallback reason, and a shrunk reproducer file for
each program that differed or crashed.

A reproducer is the shrunk program's module (``f``, its helpers and ``make_args``) under a comment
saying how it failed; ``python -m tests.fuzz --replay FILE`` runs it again.
"""

from __future__ import annotations

import collections
import dataclasses
import pathlib
import re
import tempfile
from collections.abc import Callable, Iterable

from . import execution, judge, programs, shrink


@dataclasses.dataclass
class Tally:
    """What a campaign found: verdict counts, fallback reasons, and the failures."""

    statuses: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    reasons: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    failures: list[tuple[int, judge.Verdict, pathlib.Path | None]] = dataclasses.field(
        default_factory=list
    )

    def add(self, seed: int, verdict: judge.Verdict, reproducer: pathlib.Path | None) -> None:
        self.statuses[verdict.status] += 1
        if verdict.status != "compiled":
            self.reasons[f"{verdict.status}: {_signature(verdict)}"] += 1
        if verdict.failed:
            self.failures.append((seed, verdict, reproducer))

    def format(self) -> str:
        """Counts by status, then by reason (most frequent first), then each failure."""
        total = sum(self.statuses.values())
        lines = [
            f"{total} programs: " + ", ".join(f"{self.statuses[s]} {s}" for s in judge.STATUSES)
        ]
        lines += [f"  {count:5d}  {reason}" for reason, count in self.reasons.most_common()]
        for seed, verdict, path in self.failures:
            where = f" -> {path}" if path is not None else ""
            lines.append(f"seed {seed}: {verdict.status}: {verdict.reason[:300]}{where}")
        return "\n".join(lines)


def verdict_of(source: str, directory: pathlib.Path, seconds: float = 30.0) -> judge.Verdict:
    """The verdict on one program (a hang is a difference, unless the plain function hangs too
    and tograph falls back, which then runs it as it is)."""
    try:
        return judge.judge(execution.trial(source, directory, seconds))
    except execution.EagerHang as exc:
        if exc.fallback is not None:
            return judge.Verdict("fell back", exc.fallback)
        return judge.Verdict("differed", f"hang: {exc}")
    except execution.Hang as exc:
        return judge.Verdict("differed", f"hang: {exc}")


def _signature(verdict: judge.Verdict) -> str:
    """How a program failed, without the values: what shrinking must keep the same."""
    if verdict.status == "fell back":
        return verdict.reason
    text = re.sub(r"^call \d+: ", "", verdict.reason)
    raised = re.findall(r"raised (\w+)", text)
    if raised:
        return f"raised {' / '.join(raised)}" + ("; did not raise" if "did not" in text else "")
    place = re.match(r"(result|args)(\[\d+\])?", text)
    problem = next(
        (
            word
            for word in (
                "shares",
                "does not share",
                "same object",
                "writeable",
                "dtype",
                "shape",
                "length",
                "keys",
                "values",
                "printed",
                "hang",
                "!=",
            )
            if word in text
        ),
        text[:40],
    )
    return f"{place.group(0) if place else ''} {problem}".strip()


def reproduce(
    program: programs.Program,
    verdict: judge.Verdict,
    directory: pathlib.Path,
    out: pathlib.Path,
    seconds: float,
) -> pathlib.Path:
    """Shrinks a failing program and writes it to ``out``; returns the file."""
    want = (verdict.status, _signature(verdict))

    def still_fails(source: str) -> bool:
        again = verdict_of(source, directory)
        return (again.status, _signature(again)) == want

    small = shrink.shrink(program.source, still_fails, seconds)
    final = verdict_of(small, directory)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"seed{program.seed}_{verdict.status}.py"
    note = "\n".join(f"# {line}" for line in final.reason.splitlines()[:12])
    path.write_text(f"# tests.fuzz seed {program.seed}: {final.status}\n{note}\n\n{small}")
    return path


def run(
    seeds: Iterable[int],
    features: frozenset[str],
    out: pathlib.Path | None = None,
    shrink_seconds: float = 60.0,
    progress: Callable[[int, judge.Verdict], None] | None = None,
) -> Tally:
    """Judges the program of each seed; with ``out``, writes a reproducer for each failure."""
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="tograph-fuzz-") as temp:
        directory = pathlib.Path(temp)
        for seed in seeds:
            program = programs.generate(seed, features)
            verdict = verdict_of(program.source, directory)
            path = None
            if verdict.failed and out is not None:
                path = reproduce(program, verdict, directory, out, shrink_seconds)
            tally.add(seed, verdict, path)
            if progress is not None:
                progress(seed, verdict)
    return tally


def replay(path: pathlib.Path) -> judge.Verdict:
    """The verdict on a reproducer file, run again."""
    with tempfile.TemporaryDirectory(prefix="tograph-fuzz-") as temp:
        return verdict_of(path.read_text(), pathlib.Path(temp))
