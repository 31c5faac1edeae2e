"""Opening an SMTP connection as configured: TLS checked against the system's CAs (plus
``ca_file``) and against ``tls_name`` when the server is reached by another name, as Postfix on
127.0.0.1 is with a certificate for the mail domain."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import aiosmtplib

from pbem.mail.settings import SmtpSettings


async def open_smtp(s: SmtpSettings, **options: Any) -> aiosmtplib.SMTP:
    """A connected client; ``options`` go to :class:`aiosmtplib.SMTP` (start_tls, login...)."""
    where: dict[str, Any] = {"hostname": s.host, "port": s.port}
    if s.tls_name and s.security != "none":
        # aiosmtplib checks the certificate against the name it connects to; connect to the
        # host ourselves and hand it the socket with the name to check instead.
        sock = await asyncio.to_thread(socket.create_connection, (s.host, s.port), s.timeout)
        where = {"hostname": s.tls_name, "sock": sock}
    smtp = aiosmtplib.SMTP(**where, use_tls=s.security == "tls", cert_bundle=s.ca_file,
                           timeout=s.timeout, local_hostname=s.ehlo_name, **options)
    try:
        await smtp.connect()
    except BaseException:
        smtp.close()
        if "sock" in where:
            where["sock"].close()
        raise
    return smtp
