"""pbem: a play-by-email game host.

One mail's way through: ``mail`` fetches it, ``pipeline`` records it once, identifies the
game and authenticates the seat, plays the orders through the game's rules (``games``, on
the ``engine`` contract) and queues every reply in the same transaction (``store``);
``outbox`` delivers the queue. ``ops`` holds what the operator does (``cli`` calls it).

Layers, top to bottom; each imports only from those below it (checked by ``lint-imports``,
contracts in pyproject.toml)::

    cli
    ops | catalogues
    pipeline | outbox
    settings
    store | mail | rendering
    games            (only a game imports a game; the registry finds them by name)
    engine
    i18n | drawing

Siblings split by ``|`` do not import each other.
"""

__version__ = "0.1.0"
