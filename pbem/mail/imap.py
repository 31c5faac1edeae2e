"""The IMAP inbox, importable on its own: see :class:`pbem.mail.inbound.ImapInbox`."""

from pbem.mail.inbound import ImapInbox

__all__ = ["ImapInbox"]
