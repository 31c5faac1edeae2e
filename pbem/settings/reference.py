"""The configuration reference, written from the settings' own definitions.

Each table of the config file is a dataclass of :mod:`pbem.settings.config`; a setting's
default is its field's default and its description the comments on and above its field, so the
reference cannot say what the code does not. ``python -m pbem.settings.reference`` prints it
as Markdown; the documentation site builds its page from :func:`markdown`.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import io
import textwrap
import tokenize
from dataclasses import dataclass
from typing import Any

from pbem.settings import config as c


@dataclass(frozen=True)
class Setting:
    key: str
    default: str
    note: str


@dataclass(frozen=True)
class Table:
    name: str  # "" for the top level
    about: str
    settings: tuple[Setting, ...]


PASSWORD = (Setting("password_env", "", "the environment variable holding the password"),
            Setting("password_file", "", "a file holding the password (never the password "
                                            "itself in this file)"))


def field_notes(cls: type[Any]) -> dict[str, str]:
    """Each field's comments: those on the lines right above it, then the one after it."""
    source = textwrap.dedent(inspect.getsource(cls))
    comments: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string.lstrip("#").strip()
    lines = source.splitlines()
    notes: dict[str, str] = {}
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    for node in body.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        above: list[str] = []
        n = node.lineno - 1
        while n >= 1 and n in comments and lines[n - 1].lstrip().startswith("#"):
            above.insert(0, comments[n])
            n -= 1
        after = comments.get(node.end_lineno or node.lineno)
        text = " ".join([*above, *([after] if after else [])])
        notes[node.target.id] = text.removeprefix("noqa").strip()
    return notes


def toml_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def settings_of(cls: type[Any], *, rename: dict[str, str] | None = None,
                skip: frozenset[str] = frozenset(), defaults: dict[str, str] | None = None
                ) -> tuple[Setting, ...]:
    """``cls``'s fields as settings (``password`` as ``password_env``/``password_file``)."""
    notes, out = field_notes(cls), list[Setting]()
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        if f.name == "password":
            out.extend(PASSWORD)
            continue
        key = (rename or {}).get(f.name, f.name)
        shown = (defaults or {}).get(f.name, toml_value(_default(f)))
        out.append(Setting(key, shown, notes.get(f.name, "")))
    return tuple(out)


def _about(cls: type[Any]) -> str:
    doc = inspect.getdoc(cls) or ""
    first = doc.split("\n\n")[0].replace("\n", " ")
    text = first.split(": ", 1)[1] if first.startswith("``[") and ": " in first else first
    return text[:1].upper() + text[1:]


def tables() -> tuple[Table, ...]:
    """Every table of the config file, top level first, with its settings."""
    top = field_notes(c.Config)
    return (
        Table("", "Settings outside any table.", (
            Setting("data_dir", '"./pbem-data"', top["data_dir"]),
            Setting("host_key_file", "", top["host_key_file"]))),
        Table("database", "The database.", (
            Setting("url", '"sqlite:///<data_dir>/pbem.sqlite"',
                    top["database_url"].removeprefix("[database] url: ")),)),
        Table("mail", "The host's own address, and whom it tells.", settings_of(c.MailConfig)),
        Table("inbound.imap", "Read players' mail from an IMAP mailbox (without this table: "
              "the Maildir below).", settings_of(
                  c.ImapConfig, defaults={"host": "(required)",
                                          "port": "993 (143 without tls)"})),
        Table("inbound.maildir", "The local Maildir read when there is no IMAP mailbox.", (
            Setting("path", '"<data_dir>/inbox"', "the Maildir folder"),)),
        Table("outbound.smtp", "Send through an SMTP server (without this table: the "
              "Maildir below).", settings_of(
                  c.SmtpConfig, defaults={"host": "(required)",
                                          "port": "465 (587 starttls, 25 none)"})),
        Table("outbound.maildir", "The local Maildir written when there is no SMTP server.", (
            Setting("path", '"<data_dir>/outbox"', "the Maildir folder"),)),
        Table("limits", "What one mail, one sender and the whole host may cost.",
              settings_of(c.Limits)),
        Table("deadlines", _about(c.Deadlines), settings_of(c.Deadlines)),
        Table("bots", _about(c.Bots), settings_of(c.Bots)),
        Table("lobby", _about(c.Lobby), settings_of(c.Lobby)),
        Table("retention", _about(c.Retention), settings_of(c.Retention)),
        Table("watch", _about(c.Watch), settings_of(c.Watch)),
        Table("secrets", _about(c.Secrets), settings_of(c.Secrets)),
        Table("dns", _about(c.DnsConfig), settings_of(c.DnsConfig)),
        Table("site", _about(c.Site), settings_of(c.Site)),
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|") or "—"


def markdown() -> str:
    """The reference as a Markdown page."""
    out = ["# Configuration reference", "",
           "Every setting of the config file (`$PBEM_CONFIG`, e.g. `/etc/pbem/config.toml`), "
           "written from the settings' definitions in `pbem/settings/` when this site is built. "
           "Without a file every setting takes its default; `config.example.toml` shows them "
           "in use. A misspelt setting is refused with the settings valid in its place.", ""]
    for table in tables():
        out += [f"## [{table.name}]" if table.name else "## The top level", "", table.about, "",
                "| Setting | Default | What it does |", "| --- | --- | --- |"]
        out += [f"| `{s.key}` | {_cell(f'`{s.default}`' if s.default else '')} | "
                f"{_cell(s.note)} |" for s in table.settings]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown(), end="")
