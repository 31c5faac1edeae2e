"""One suite for every game: the conformance, leak, error-reply, bot-game and every-language
harnesses, written once and run over every registered game (and the host's small test game)."""
