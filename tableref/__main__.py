"""``python -m tableref``: the same as the ``tableref`` console script."""

import sys

from tableref.cli import main

sys.exit(main())
