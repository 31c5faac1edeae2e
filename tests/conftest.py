"""Shared fixtures: real mail servers (tests/support/mailservers.py) and databases
(tests/support/db.py) are loaded as plugins so every test folder can use them."""

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.support.mailservers", "tests.support.db"]

# CI runs on a small shared machine: a slow example is load, not a bug. Each test's own
# settings still decide how many examples run and what they check.
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")
