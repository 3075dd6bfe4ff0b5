"""``python -m tograph_conformance [-k PATTERN] [-v]``: runs the conformance suite."""

import sys

from tograph_conformance import runner

sys.exit(runner.main())
