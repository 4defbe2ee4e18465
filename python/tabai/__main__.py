"""``python -m tabai ...``: the same as the ``tabai`` command."""

import sys

from .cli import main

sys.exit(main())
