"""Shared fixtures: real mail servers (tests/support/mailservers.py) and databases
(tests/support/db.py) are loaded as plugins so every test folder can use them."""

pytest_plugins = ["tests.support.mailservers", "tests.support.db"]
