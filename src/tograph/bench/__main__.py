"""``python -m tograph.bench``: the same as ``tograph bench``."""

import sys

from tograph.bench import main

sys.exit(main(sys.argv[1:]))
