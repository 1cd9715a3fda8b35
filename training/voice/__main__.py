"""``python -m training.voice``: see :mod:`training.voice.cli`."""

import sys

from training.voice.cli import main

sys.exit(main())
