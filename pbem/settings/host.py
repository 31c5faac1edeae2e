"""The few settings the pipeline needs, separate from the full config so tests build them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from pbem.settings.config import Config, Lobby
from pbem.store.tables import utcnow


@dataclass(frozen=True)
class Host:
    from_address: str = "pbem@localhost"
    from_name: str = "PBEM host"
    max_message_bytes: int = 1_000_000
    stranger_replies_per_day: int = 1
    send_attempts: int = 8
    retry_base_seconds: int = 60
    unverified_replies_per_hour: int = 3
    replies_per_hour_total: int = 100
    send_lease_seconds: int = 300
    transient_retries: int = 3
    transient_backoff_seconds: float = 0.5
    fault_alert_after: int = 5
    talk_chars_per_mail: int = 4000
    talk_mails_per_day: int = 30
    bot_seconds_per_move: float = 1.0  # a bot decision's budget ([bots] in the config)
    bot_moves_per_pass: int = 12  # bot moves one game makes in one pass
    bot_seconds_per_pass: float = 30.0  # CPU all games' bots share in one clock pass
    bot_stand_in_level: str = "normal"  # a bot standing in for an absent player
    bot_games_rated: bool = False  # games with a bot seat count in the standings
    operator_address: str | None = None  # told when a game pauses on a timeout
    trusted_authserv_id: str | None = None  # require its Authentication-Results verdict
    lobby: Lobby = field(default_factory=Lobby)  # tables opened by mail ([lobby])
    forget_by_mail: str = "operator"  # [retention]: who carries out a "forget" by mail
    # Deadlines of games the lobby starts (the config's [deadlines], as `pbem game new`).
    turn_hours: int = 72
    reminder_hours: int = 24
    timeout: str = "default"
    vacation_days: int = 14
    # Days a reply address proves its seat ([secrets] reply_days; pbem.pipeline.reply_tokens).
    reply_days: int = 30
    # This host's own key (pbem.ops.hostkey), from which the lobby derives its codes, so a
    # code can be mailed again without being kept; None: a key of this process only.
    key: bytes | None = field(default=None, repr=False)
    # "Now" for deadlines and vacations; tests pass a controllable clock.
    clock: Callable[[], datetime] = field(default_factory=lambda: utcnow)

    @property
    def message_id_domain(self) -> str:
        return self.from_address.rpartition("@")[2] or "localhost"

    @classmethod
    def from_config(cls, cfg: Config) -> Host:
        return cls(
            from_address=cfg.from_address,
            from_name=cfg.from_name,
            max_message_bytes=cfg.limits.max_message_bytes,
            stranger_replies_per_day=cfg.limits.stranger_replies_per_day,
            send_attempts=cfg.limits.send_attempts,
            retry_base_seconds=cfg.limits.retry_base_seconds,
            unverified_replies_per_hour=cfg.limits.unverified_replies_per_hour,
            replies_per_hour_total=cfg.limits.replies_per_hour_total,
            send_lease_seconds=cfg.limits.send_lease_seconds,
            transient_retries=cfg.limits.transient_retries,
            transient_backoff_seconds=cfg.limits.transient_backoff_ms / 1000,
            fault_alert_after=cfg.limits.fault_alert_after,
            talk_chars_per_mail=cfg.limits.talk_chars_per_mail,
            talk_mails_per_day=cfg.limits.talk_mails_per_day,
            bot_seconds_per_move=cfg.bots.seconds_per_move,
            bot_moves_per_pass=cfg.bots.moves_per_pass,
            bot_seconds_per_pass=cfg.bots.seconds_per_pass,
            bot_stand_in_level=cfg.bots.stand_in_level,
            bot_games_rated=cfg.bots.rated,
            operator_address=cfg.operator_address,
            trusted_authserv_id=cfg.trusted_authserv_id,
            lobby=cfg.lobby,
            forget_by_mail=cfg.retention.forget_by_mail,
            turn_hours=cfg.deadlines.turn_hours,
            reminder_hours=cfg.deadlines.reminder_hours,
            timeout=cfg.deadlines.timeout,
            vacation_days=cfg.deadlines.vacation_days,
            reply_days=cfg.secrets.reply_days,
        )
