"""Config: embedded defaults, a full file, passwords from env/file and never in repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.settings import config

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_without_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    cfg = config.load(None)
    assert cfg.database_url == f"sqlite:///{tmp_path / 'home' / 'pbem.sqlite'}"
    assert cfg.inbound.imap is None and cfg.inbound.maildir == tmp_path / "home" / "inbox"
    assert cfg.outbound.smtp is None and cfg.outbound.maildir == tmp_path / "home" / "outbox"


def test_example_file_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "hunter2")
    cfg = config.load(ROOT / "config.example.toml")
    assert cfg.inbound.imap is not None
    assert cfg.inbound.imap.password.get() == "hunter2"
    assert "hunter2" not in repr(cfg)
    assert cfg.limits.max_message_bytes > 0


def test_password_file(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("s3cret\n")
    (tmp_path / "pbem.toml").write_text(
        '[outbound.smtp]\nhost = "mail.example.org"\nsecurity = "starttls"\n'
        'password_file = "pw"\n')
    cfg = config.load(tmp_path / "pbem.toml")
    assert cfg.outbound.smtp is not None
    assert cfg.outbound.smtp.port == 587
    assert cfg.outbound.smtp.password.get() == "s3cret"
    assert "s3cret" not in repr(cfg)


def test_password_in_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[inbound.imap]\nhost = "h"\npassword = "x"\n')
    with pytest.raises(config.ConfigError, match="password_env or password_file"):
        config.load(tmp_path / "pbem.toml")


def test_bad_security_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[inbound.imap]\nhost = "h"\nsecurity = "ssl3"\n')
    with pytest.raises(config.ConfigError, match="security must be one of"):
        config.load(tmp_path / "pbem.toml")


def test_the_bots_settings_reach_the_host(tmp_path: Path) -> None:
    from pbem.settings.host import Host

    (tmp_path / "pbem.toml").write_text(
        '[bots]\nseconds_per_move = 2\nmoves_per_pass = 5\nstand_in_level = "strong"\n'
        'seconds_per_pass = 45\nrated = true\n[deadlines]\ntimeout = "bot"\n')
    cfg = config.load(tmp_path / "pbem.toml")
    host = Host.from_config(cfg)
    assert (host.bots.seconds_per_move, host.bots.moves_per_pass, host.bots.stand_in_level) == (
        2.0, 5, "strong")
    assert (host.bots.seconds_per_pass, host.bots.rated) == (45.0, True)
    assert (Host().bots.seconds_per_pass, Host().bots.rated) == (30.0, False)
    assert cfg.deadlines.timeout == "bot"
    assert config.from_dict({}).bots == config.Bots(1.0, 12, "normal")


def test_unknown_limit_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[limits]\nmax_bytes = 3\n')
    with pytest.raises(config.ConfigError, match="unknown setting"):
        config.load(tmp_path / "pbem.toml")


@pytest.mark.parametrize(("toml", "message"), [
    ('[inbound.imap]\nhost = "h"\nport = "imap"\n',
     "inbound.imap.port must be a port number (1-65535), not 'imap'"),
    ('[outbound.smtp]\nhost = "h"\nport = 70000\n',
     "outbound.smtp.port must be a port number (1-65535), not 70000"),
    ('[limits]\nsend_attempts = "eight"\n',
     "limits.send_attempts must be a whole number, not 'eight'"),
    ('[deadlines]\nturn_hours = 1.5\n', "deadlines.turn_hours must be a whole number, not 1.5"),
    ('[mail]\noperator_address = "Ops <ops@example.org>"\n',
     "mail.operator_address 'Ops <ops@example.org>' is not an email address"),
    ('[mail]\nfrom_address = "games@example@org"\n',
     "mail.from_address 'games@example@org' is not an email address"),
    ('[inbound.maildir]\npath = "in"\nfolder = "x"\n',
     "unknown setting 'folder' in [inbound.maildir] (valid there: path)"),
    ('[bots]\nseconds_per_move = "lots"\n',
     "bots.seconds_per_move must be a number of seconds above 0 (at most 600), not 'lots'"),
    ('[bots]\nseconds_per_move = 0\n', "bots.seconds_per_move must be a number of seconds"),
    ('[bots]\nmoves_per_pass = 0\n', "bots.moves_per_pass must be 1 to 1000, not 0"),
    ('[bots]\nseconds_per_pass = 0\n',
     "bots.seconds_per_pass must be a number of seconds above 0 (at most 3600), not 0"),
    ('[bots]\nrated = "yes"\n', "bots.rated must be true or false, not 'yes'"),
    ('[bots]\nstand_in_level = "genius"\n',
     "bots.stand_in_level must be one of random, normal, strong, not 'genius'"),
    ('[deadlines]\ntimeout = "robot"\n',
     "deadlines.timeout must be one of default, pause, bot, not 'robot'"),
    ('[lobby]\nenabled = "yes"\n', "lobby.enabled must be true or false, not 'yes'"),
    ('[lobby]\nopen = "friends"\n',
     "lobby.open must be one of anyone, players, operator, not 'friends'"),
    ('[lobby]\ndomains = "club.example.org"\n',
     "lobby.domains must be a list of domains like [\"example.org\"], not 'club.example.org'"),
    ('[lobby]\nconfirm_hours = 0\n', "lobby.confirm_hours must be a positive whole number, not 0"),
    ('[lobby]\ninvite_per_day = 3\n', "unknown setting 'invite_per_day' in [lobby]"),
    ('[dns]\naddress = "games.example.org"\n',
     "dns.address must be an IPv4 address, not 'games.example.org'"),
    ('[dns]\naddress = "2001:db8::1"\n', "dns.address must be an IPv4 address, not '2001:db8::1'"),
    ('[dns]\nnameserver = "localhost:53"\n',
     "dns.nameserver must be an IP address or IP:PORT, not 'localhost:53'"),
    ('[dns]\nnameserver = "127.0.0.1:99999"\n',
     "dns.nameserver must be an IP address or IP:PORT, not '127.0.0.1:99999'"),
    ('[dns]\nselector = "pbem"\n', "unknown setting 'selector' in [dns]"),
    ('[site]\nurl = "games.example.org"\n',
     "site.url must be the site's address, like \"https://games.example.org/\", not "
     "'games.example.org'"),
    ('[site]\naddress = "https://games.example.org/"\n', "unknown setting 'address' in [site]"),
])
def test_wrong_values_are_named(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "pbem.toml").write_text(toml)
    with pytest.raises(config.ConfigError) as caught:
        config.load(tmp_path / "pbem.toml")
    assert message in str(caught.value)


def test_a_password_file_that_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[outbound.smtp]\nhost = "h"\npassword_file = "nope"\n')
    cfg = config.load(tmp_path / "pbem.toml")
    assert cfg.outbound.smtp is not None
    with pytest.raises(config.ConfigError, match=r"password_file .*nope cannot be read: No such "
                       "file or directory"):
        cfg.outbound.smtp.password.get()


def test_the_imap_folders_have_one_default() -> None:
    """The config file's defaults and the transport's are the same names."""
    from pbem.mail.settings import ImapSettings
    from pbem.settings.config import ImapConfig

    config = ImapConfig(host="imap.example.org")
    settings = ImapSettings(host="imap.example.org", port=993, user="u")
    assert (config.processed, config.failed) == (settings.processed_folder,
                                                  settings.failed_folder)
    assert (config.processed, config.failed) == ("pbem-processed", "pbem-failed")


def test_the_lobby_is_off_unless_turned_on(tmp_path: Path) -> None:
    assert config.from_dict({}).lobby.enabled is False
    (tmp_path / "pbem.toml").write_text(
        '[lobby]\nenabled = true\nopen = "players"\ndomains = ["Club.Example.org"]\n'
        'invites_per_day = 2\n')
    cfg = config.load(tmp_path / "pbem.toml")
    assert cfg.lobby == config.Lobby(enabled=True, open="players",
                                     domains=("club.example.org",), invites_per_day=2)


def test_the_dns_and_tls_settings_reach_the_host(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text(
        '[outbound.smtp]\nhost = "127.0.0.1"\nsecurity = "starttls"\n'
        'tls_name = "games.example.org"\nca_file = "ca.pem"\n'
        '[dns]\ndkim_public_key = "dkim.pub"\nnameserver = "[::1]:5353"\n')
    cfg = config.load(tmp_path / "pbem.toml")
    assert cfg.outbound.smtp is not None and cfg.outbound.smtp.port == 587
    assert cfg.outbound.smtp.tls_name == "games.example.org"
    assert cfg.outbound.smtp.ca_file == tmp_path / "ca.pem"
    assert cfg.dns.dkim_public_key == tmp_path / "dkim.pub" and cfg.dns.dkim_selector == "pbem"
    assert cfg.dns.nameserver_endpoint == ("::1", 5353)
    assert config.DnsConfig(nameserver="192.0.2.53").nameserver_endpoint == ("192.0.2.53", 53)
    assert config.DnsConfig().nameserver_endpoint is None


def test_the_host_holds_the_configs_sections_themselves() -> None:
    from pbem.settings.host import Host

    cfg = config.from_dict({"mail": {"from_address": "g@host.test", "operator_address":
                                     "op@host.test"},
                            "limits": {"transient_backoff_ms": 250, "talk_mails_per_day": 7},
                            "bots": {"rated": True}, "lobby": {"enabled": True},
                            "retention": {"forget_by_mail": "after_games"},
                            "deadlines": {"vacation_days": 3}})
    host = Host.from_config(cfg)
    for section in ("mail", "limits", "bots", "lobby", "retention", "deadlines"):
        assert getattr(host, section) is getattr(cfg, section), section
    assert host.limits.transient_backoff_seconds == 0.25
    assert host.mail.message_id_domain == "host.test"
    assert Host().limits == config.Limits() and Host().mail == config.MailConfig()
