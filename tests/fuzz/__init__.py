"""The differential random-program tester.

It writes random imperative NumPy programs (``programs``, from ``statements`` and
``expressions``), runs each eagerly and under ``tograph.to_static`` (``execution``), holds the two
runs to the same outcome (``judge``), shrinks a failing program to a small one (``shrink``), and
runs many with counts and reproducers (``campaign``; ``python -m tests.fuzz --help``).
"""
