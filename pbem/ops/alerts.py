"""Telling the operator when database or disk faults persist across passes.

One failed pass is normal (a restart, a lock held a moment too long); mail waits in the inbox
and the next pass takes it. After ``fault_alert_after`` passes in a row have failed, the
operator is mailed once through the sender itself (the database may be what is failing), and
again only after a clean pass followed by new trouble. The count lives in a small file in the
data folder, so it also works for `pbem process` run from a timer.
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from pbem.mail.compose import compose
from pbem.mail.outbound import Sender, SendError, send_bytes
from pbem.settings.host import Host
from pbem.store.tables import utcnow

log = logging.getLogger(__name__)


class FaultWatch:
    def __init__(self, path: Path, host: Host) -> None:
        self.path = path
        self.host = host

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def clean(self) -> None:
        """A pass went through: forget earlier faults."""
        with contextlib.suppress(FileNotFoundError, OSError):
            self.path.unlink()

    def failed(self, fault: str, sender: Sender | None) -> int:
        """One more failed pass; returns how many in a row. Mails the operator once when the
        count reaches the limit."""
        data = self._read()
        count = int(str(data.get("count", 0))) + 1
        since = str(data.get("since", utcnow().isoformat(timespec="seconds")))
        alerted = bool(data.get("alerted", False))
        if count >= self.host.limits.fault_alert_after and not alerted:
            alerted = self._alert(fault, count, since, sender)
        with contextlib.suppress(OSError):  # a full disk may be the fault itself
            self.path.write_text(json.dumps({"count": count, "since": since, "last": fault,
                                             "alerted": alerted}), encoding="utf-8")
        return count

    def _alert(self, fault: str, count: int, since: str, sender: Sender | None) -> bool:
        log.error("%d passes in a row failed since %s: %s", count, since, fault)
        if sender is None or not self.host.mail.operator_address:
            return False
        mail = compose(
            from_addr=self.host.mail.from_address, from_name=self.host.mail.from_name,
            to_addr=self.host.mail.operator_address,
            subject="pbem: the database or disk keeps failing",
            text=(f"{count} passes in a row, since {since} (UTC), stopped on a database or disk "
                  f"fault. The last one:\n\n  {fault}\n\nNo mail is lost: what could not be "
                  "handled waits in the inbox and is taken as soon as a pass goes through. "
                  "Check the database server, the disk space and the logs.\n"),
            message_id_domain=self.host.mail.message_id_domain)
        try:
            send_bytes(sender, mail.raw)
        except SendError as exc:
            log.error("could not mail the operator about the fault: %s", exc)
            return False
        return True
