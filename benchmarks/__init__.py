"""Benchmarks and measuring scripts; not part of the installed product.

Run each from the repository root as a module, e.g.
``.venv/bin/python -m benchmarks.bench_replay``: the product's packages import
from the editable install, and a benchmark that reuses another module of this
folder (or the fault harness in ``tests/faults/``) imports it by its package name.
"""
