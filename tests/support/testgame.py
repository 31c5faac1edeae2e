"""The test game, for the tests that import it from here (it lives in pbem_testkit, which
the benches share)."""

from pbem_testkit.testgame import GAME, TEMPLATES, CardsState, TestCards

__all__ = ["GAME", "TEMPLATES", "CardsState", "TestCards"]
