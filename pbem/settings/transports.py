"""Opening the configured inbox and sender: IMAP/SMTP when configured, else local Maildirs."""

from __future__ import annotations

from pbem.mail.inbound import ImapInbox, Inbox, MaildirInbox
from pbem.mail.outbound import MaildirSender, Sender, SmtpSender
from pbem.mail.settings import ImapSettings, SmtpSettings
from pbem.settings.config import Config


def imap_settings(cfg: Config) -> ImapSettings | None:
    imap = cfg.inbound.imap
    if imap is None:
        return None
    return ImapSettings(host=imap.host, port=imap.port, user=imap.user,
                        password=imap.password.get() or "",
                        security=imap.security,  # type: ignore[arg-type]
                        folder=imap.folder, processed_folder=imap.processed,
                        failed_folder=imap.failed)


def smtp_settings(cfg: Config) -> SmtpSettings | None:
    smtp = cfg.outbound.smtp
    if smtp is None:
        return None
    return SmtpSettings(host=smtp.host, port=smtp.port, user=smtp.user or None,
                        password=smtp.password.get(),
                        security=smtp.security,  # type: ignore[arg-type]
                        tls_name=smtp.tls_name,
                        ca_file=str(smtp.ca_file) if smtp.ca_file else None,
                        ehlo_name=ehlo_name(cfg))


def ehlo_name(cfg: Config) -> str:
    """The name pbem greets its SMTP server with: the configured one, else the mail domain
    (from_address's), never the machine's own name."""
    smtp = cfg.outbound.smtp
    name = smtp.ehlo_name if smtp is not None else ""
    if name:
        return name
    try:
        return cfg.mail.message_id_domain.encode("idna").decode("ascii")
    except UnicodeError:
        return "localhost"


def open_inbox(cfg: Config) -> Inbox:
    settings = imap_settings(cfg)
    if settings is None:
        return MaildirInbox(cfg.inbound.maildir)
    return ImapInbox(settings)


def open_sender(cfg: Config) -> Sender:
    settings = smtp_settings(cfg)
    if settings is None:
        return MaildirSender(cfg.outbound.maildir)
    return SmtpSender(settings)
