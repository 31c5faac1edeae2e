from tests.games.suite.games import registered_test_game

__all__ = ["registered_test_game"]
