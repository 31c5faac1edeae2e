"""A seat's mail commands besides orders, one module each (``log``, ``waiting``,
``vacation``, ``resign``, ``back``, ``forget``, ``secret new``, ``mail``, ``language``,
``timezone``), each the handler of a :class:`base.Command` in ``command_registry``, run by
``handlers.command`` once the seat is proved and the game locked. ``help`` and ``status`` are
handlers of their own (help needs no secret). :mod:`base` is every command's shape, the
lobby's and the profile's too, and says how to add one."""
