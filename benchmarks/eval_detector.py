"""Measure the card detector: real photos, synthetic held-out mAP, hard pairs.

    .venv/bin/python -m benchmarks.eval_detector [--real DIR] [--out REPORT.json]
    tableref evaluate ...            # the same code

Run from the repository root. The measures are in :mod:`training.evaluate`, the
arguments and report in :mod:`training.commands`.
"""

from __future__ import annotations

import argparse
import sys

from training.commands import evaluate, evaluate_arguments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    evaluate_arguments(parser)
    return evaluate(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
