"""Real parts to run pbem against, for its tests and its benches: in-process IMAP (pymap) and
SMTP (aiosmtpd) servers, a private Dovecot, scratch PostgreSQL databases, and the tiny test
game.

It sits between pbem and its two users: it imports pbem, and tests/ and bench/ import it,
never each other (``lint-imports`` holds all three to that). It is a development package:
the wheel ships only ``pbem`` (pyproject's ``packages.find``), and its servers come with the
``test`` extra.
"""
