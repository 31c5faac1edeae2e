"""pbem: a play-by-email game host."""

__version__ = "0.1.0"
