"""Shared fixtures: real mail servers (tests/support/mailservers.py) and databases
(tests/support/db.py) are loaded as plugins so every test folder can use them."""

import pytest
from hypothesis import HealthCheck, settings

from pbem.ops.services import start

pytest_plugins = ["tests.support.mailservers", "tests.support.db"]

# CI runs on a small shared machine: a slow example is load, not a bug. Each test's own
# settings still decide how many examples run and what they check.
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")


def pytest_configure(config: pytest.Config) -> None:
    """Set up the host's services as `pbem` does before any command (and each xdist worker,
    which runs this too), before collection: a test module may translate as it is imported."""
    start()
