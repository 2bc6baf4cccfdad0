"""``python -m lab.report <family> --out report.html …``: see :mod:`lab.report.cli`."""

import sys

from .cli import main

sys.exit(main())
