"""``python -m tograph``: the same as the ``tograph`` command."""

import sys

from tograph import cli

sys.exit(cli.main())
