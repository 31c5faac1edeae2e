"""The mail commands besides orders, one module each (``log``, ``waiting``, ``vacation``,
``resign``, ``back``, ``secret new``, ``mail``, ``language``, ``timezone``): each is a
:data:`base.Command`, run by ``handlers.command`` once the seat is proved and the game
locked. ``help`` and ``status`` are handlers of their own (help needs no secret)."""
