"""Frozen copies of the helpers migration 0005 (no secret at rest) runs: reading a stored
mail, the host's lines of a letter (its game and secret), checking a seat's secret, and
blanking secrets in stored mail.

A migration must do today what it did when it was written, whatever the pipeline becomes:
so it imports these copies, never the live modules. Never edit them.
"""
