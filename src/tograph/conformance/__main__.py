"""``python -m tograph.conformance [-k PATTERN] [-v]``: runs the conformance suite."""

import sys

from tograph.conformance import runner

sys.exit(runner.main())
