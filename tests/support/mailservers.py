"""Real IMAP/SMTP servers on 127.0.0.1 for tests (pymap, aiosmtpd, Dovecot)."""
