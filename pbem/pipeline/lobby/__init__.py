"""The lobby by mail: tables opened, joined, confirmed and started by players, with no game
tag and no operator. One module per command (``games``, ``new``, ``join``, ``leave``,
``start``, ``invite``, ``never``, ``confirm``), run by ``pbem.pipeline.handlers.lobby``; the
tables' own logic (seats, codes, caps, expiry, the start) in ``tables``."""
