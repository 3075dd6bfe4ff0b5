"""The tester's command line: run many programs and print what they did.

    python -m tests.fuzz --count 5000 --seed 1 --out fuzz-failures
    python -m tests.fuzz --features all --count 2000 --seed 7
    python -m tests.fuzz --replay fuzz-failures/seed123_differed.py

It prints counts (compiled, fell back by reason, differed, crashed) and, with ``--out``, writes a
shrunk reproducer for every program that differed or crashed. Exit status 1 if any did.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

from . import campaign, programs


def _features(text: str) -> frozenset[str]:
    if text == "ci":
        return programs.CI_FEATURES
    if text == "all":
        return programs.ALL_FEATURES
    chosen = frozenset(t for t in text.split(",") if t)
    unknown = chosen - programs.ALL_FEATURES
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown features {sorted(unknown)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--count", type=int, default=500, help="programs to run")
    parser.add_argument("--seed", type=int, default=0, help="the first program's seed")
    parser.add_argument(
        "--features",
        type=_features,
        default=programs.CI_FEATURES,
        help="'ci' (default), 'all', or a comma-separated list of "
        + ", ".join(sorted(programs.ALL_FEATURES)),
    )
    parser.add_argument("--out", type=pathlib.Path, help="directory for shrunk reproducers")
    parser.add_argument("--shrink-seconds", type=float, default=60.0, help="per failure")
    parser.add_argument("--replay", type=pathlib.Path, help="run one reproducer file again")
    args = parser.parse_args(argv)
    if args.replay is not None:
        verdict = campaign.replay(args.replay)
        print(f"{verdict.status}: {verdict.reason}")
        return int(verdict.failed)

    def progress(seed: int, verdict: object) -> None:
        if (seed - args.seed + 1) % 100 == 0:
            print(f"... {seed - args.seed + 1} programs", file=sys.stderr, flush=True)

    start = time.monotonic()
    seeds = range(args.seed, args.seed + args.count)
    tally = campaign.run(seeds, args.features, args.out, args.shrink_seconds, progress)
    print(tally.format())
    print(f"{time.monotonic() - start:.0f} s")
    return int(bool(tally.failures))


if __name__ == "__main__":
    sys.exit(main())
