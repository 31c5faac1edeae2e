"""One package per game. Each exposes ``GAME``, an object implementing pbem.engine.Game."""
