"""Watching a game by mail: ``watch TAG`` (confirmed by a reply to the mail it asks with),
``unwatch TAG`` (likewise, or through a watcher mail's ``List-Unsubscribe``), and the
watchers' own mail, the spectators' view of the game (``mail``). One module per command, run
by ``pbem.pipeline.handlers.watch``; what they share in ``base``."""
