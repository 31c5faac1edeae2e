"""Mail transports (IMAP/Maildir in, SMTP/Maildir out), MIME reading and composing."""
