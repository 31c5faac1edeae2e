"""What the pipeline reads of the configuration: the config's own sections, held as they are.

Tests build a :class:`Host` from the sections they change (``Host(limits=Limits(...))``); a
running host builds it from its :class:`~pbem.settings.config.Config` with
:meth:`Host.from_config`. Either way each setting is read through its section
(``host.limits.max_message_bytes``, ``host.bots.moves_per_pass``), with the section's default.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from pbem.settings.config import Config
from pbem.settings.sections import (
    Bots,
    Deadlines,
    Limits,
    Lobby,
    MailConfig,
    Retention,
    Secrets,
    Site,
    Watch,
)
from pbem.store.tables import Game, utcnow


@dataclass(frozen=True)
class Host:
    """The sections of the config the pipeline reads, plus this host's key and clock."""

    mail: MailConfig = field(default_factory=MailConfig)  # [mail]: the host's address, operator
    limits: Limits = field(default_factory=Limits)  # [limits]
    bots: Bots = field(default_factory=Bots)  # [bots]: how the host's bots play
    lobby: Lobby = field(default_factory=Lobby)  # [lobby]: tables opened by mail
    retention: Retention = field(default_factory=Retention)  # [retention]: "forget" by mail
    # [deadlines]: those of the games the lobby starts, as `pbem game new` gives its games.
    deadlines: Deadlines = field(default_factory=Deadlines)
    site: Site = field(default_factory=Site)  # [site]: the mails link to the players' guide
    watch: Watch = field(default_factory=Watch)  # [watch]: games watched by mail
    secrets: Secrets = field(default_factory=Secrets)  # [secrets]: reply addresses' days
    # This host's own key (pbem.ops.hostkey), from which the lobby derives its codes, so a
    # code can be mailed again without being kept; None: a key of this process only.
    key: bytes | None = field(default=None, repr=False)
    # A game's history page for one seat, as `pbem game export --format html --as` writes
    # it (pbem.ops.archive, above the pipeline, puts it here); None: not mailed on request.
    archive_page: Callable[[Session, Game, int], str] | None = field(default=None, repr=False)
    # "Now" for deadlines and vacations; tests pass a controllable clock.
    clock: Callable[[], datetime] = field(default_factory=lambda: utcnow)

    @classmethod
    def from_config(cls, cfg: Config) -> Host:
        return cls(mail=cfg.mail, limits=cfg.limits, bots=cfg.bots, lobby=cfg.lobby,
                   retention=cfg.retention, deadlines=cfg.deadlines, site=cfg.site,
                   watch=cfg.watch, secrets=cfg.secrets)
