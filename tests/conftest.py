"""Test-wide settings: property-based tests draw the same examples on every run in CI."""

import os

from hypothesis import settings

from tograph.ir import check

check.enable_checks()  # every graph the tests build is checked, and again after every pass

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
