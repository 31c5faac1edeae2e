"""The commands a player sends to the host itself, in a mail that names no game: their
profile across games (``name``, ``language``, ``timezone``, ``mail``: the defaults of every
seat they take from then on; ``calendar``, for all their seats) and a game's ``standings``.
One module each, each a ``run`` of :class:`~pbem.pipeline.commands.base.Command` shape, run
by ``handlers.tagless`` (``name``, ``calendar`` and ``standings`` also in a game's mail, by
``handlers.command``)."""
