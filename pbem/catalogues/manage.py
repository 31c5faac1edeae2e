"""Manage every gettext catalogue with Babel: ``python -m pbem.catalogues.manage CMD [--domain N]``.

- ``extract``: write each domain's ``.pot`` from its Python code and Jinja templates;
- ``update``: extract, then bring each language's ``.po`` in line (new msgids added with an
  empty msgstr, obsolete ones dropped; missing catalogues created);
- ``check``: fail if a ``.pot``/``.po`` is out of date with the source, if a msgstr in a
  language other than English is empty or fuzzy, or if a translation uses a placeholder its
  msgid lacks. CI runs it (tests/i18n/test_catalogues.py).

Domains are the host's (``pbem``) and one per game, found through the registry (see
:mod:`pbem.catalogues.domains`). Files carry no line numbers, so moving code changes no catalogue.
"""

from __future__ import annotations

import argparse
import io
import re
import string
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from pbem.catalogues import pysource
from pbem.catalogues.domains import Domain, domains
from pbem.i18n.translate import LANGUAGES

# Jinja's own extractor reads the templates; Python is read by pysource (see there why).
JINJA = "jinja2.ext:babel_extract"
JINJA_KEYWORDS: dict[str, Any] = {"_": None, "gettext": None, "ngettext": (1, 2),
                                  "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                 "lstrip_blocks": "true", "newstyle_gettext": "true"}
COMMENT_TAGS = ("Translators:",)

Key = tuple[str, str | None]


def extract(domain: Domain) -> Catalog:
    """Every message of ``domain``'s sources, as a template catalogue."""
    catalog = Catalog(project=domain.name, domain=domain.catalogue, charset="utf-8",
                      fuzzy=False)
    root = _common_root(domain)
    for path in domain.python:
        where = _relative(path, root)
        for found in pysource.messages_in(path):
            catalog.add(found.id, None, [(where, found.lineno)], context=found.context)
    for path in domain.templates:
        where = _relative(path, root)
        for lineno, message, comments, context in extract_from_file(
                JINJA, str(path), keywords=JINJA_KEYWORDS,
                comment_tags=COMMENT_TAGS, options=JINJA_OPTIONS, strip_comment_tags=True):
            catalog.add(message, None, [(where, lineno)], auto_comments=comments,
                        context=context)
    return catalog


def _common_root(domain: Domain) -> Path:
    return domain.locale_dir.parent.parent if domain.name == "pbem" else domain.locale_dir.parent


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def _keys(catalog: Catalog) -> dict[Key, Message]:
    return {(_singular(m), m.context): m for m in catalog if m.id and not _obsolete(catalog, m)}


def _singular(m: Message) -> str:
    return str(m.id[0]) if isinstance(m.id, tuple | list) else str(m.id)


def _obsolete(catalog: Catalog, m: Message) -> bool:
    return (m.id, m.context) in catalog.obsolete


def _plural(m: Message) -> str | None:
    return str(m.id[1]) if isinstance(m.id, tuple | list) else None


def _same_messages(a: Catalog, b: Catalog) -> bool:
    ka, kb = _keys(a), _keys(b)
    return ka.keys() == kb.keys() and all(_plural(ka[k]) == _plural(kb[k]) for k in ka)


def _write(path: Path, catalog: Catalog) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, ignore_obsolete=True,
             sort_output=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != out.getvalue():
        path.write_bytes(out.getvalue())


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def write_template(domain: Domain, template: Catalog) -> None:
    pot = domain.pot()
    if pot.is_file() and _same_messages(_read(pot), template) and _same_sources(
            _read(pot), template):
        return  # keep the file (and its creation date) when nothing changed
    _write(pot, template)


def _same_sources(a: Catalog, b: Catalog) -> bool:
    ka, kb = _keys(a), _keys(b)
    return all(sorted(ka[k].locations) == sorted(kb[k].locations)
               and ka[k].auto_comments == kb[k].auto_comments for k in ka if k in kb)


def update(domain: Domain, template: Catalog) -> None:
    write_template(domain, template)
    for lang in LANGUAGES:
        path = domain.po(lang)
        if path.is_file():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=domain.catalogue, project=domain.name,
                              charset="utf-8", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        _write(path, catalog)


_FORMAT = string.Formatter()
_PERCENT = re.compile(r"%\((\w+)\)s")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` (str.format) and ``%(name)s`` (Jinja trans) fields a text uses."""
    names = set(_PERCENT.findall(text))
    try:
        names |= {f.split(".")[0].split("[")[0] for _, f, _, _ in _FORMAT.parse(text) if f}
    except ValueError:
        names.add("<unbalanced braces>")
    return names


def check(domain: Domain, template: Catalog) -> list[str]:
    """Every problem with ``domain``'s catalogues, as lines for people; empty when all is well."""
    problems: list[str] = []
    wanted = _keys(template)
    pot = domain.pot()
    if not pot.is_file():
        problems.append(f"{pot}: missing (run `python -m pbem.catalogues.manage update "
                        f"--domain {domain.name}`)")
    elif not _same_messages(_read(pot), template):
        problems += _difference(str(pot), wanted, _keys(_read(pot)))
    for lang in LANGUAGES:
        path = domain.po(lang)
        if not path.is_file():
            problems.append(f"{path}: missing")
            continue
        have = _keys(_read(path, lang))
        problems += _difference(str(path), wanted, have)
        for key, m in sorted(have.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            if key not in wanted:
                continue
            strings = [str(s) for s in m.string] if isinstance(m.string, tuple | list) \
                else [str(m.string or "")]
            label = f"{path}: {key[0]!r}" + (f" (context {key[1]!r})" if key[1] else "")
            if m.fuzzy:
                problems.append(f"{label} is fuzzy")
            if lang != "en" and not all(strings):
                problems.append(f"{label} is untranslated")
            allowed = placeholders(_singular(m)) | placeholders(_plural(m) or "")
            for s in strings:
                extra = placeholders(s) - allowed if s else set()
                if extra:
                    problems.append(f"{label}: the translation uses {sorted(extra)}, "
                                    "which the msgid lacks")
    return problems


def _difference(where: str, wanted: dict[Key, Message], have: dict[Key, Message]) -> list[str]:
    out = [f"{where}: missing msgid {k[0]!r}" + (f" (context {k[1]!r})" if k[1] else "")
           for k in sorted(wanted.keys() - have.keys(), key=_sort)]
    out += [f"{where}: obsolete msgid {k[0]!r}" + (f" (context {k[1]!r})" if k[1] else "")
            for k in sorted(have.keys() - wanted.keys(), key=_sort)]
    out += [f"{where}: plural of {k[0]!r} changed" for k in sorted(wanted.keys() & have.keys(),
                                                                  key=_sort)
            if _plural(wanted[k]) != _plural(have[k])]
    return out


def _sort(k: Key) -> tuple[str, str]:
    return k[0], k[1] or ""


def selected(names: Iterable[str] | None) -> list[Domain]:
    known = domains()
    if not names:
        return list(known.values())
    missing = [n for n in names if n not in known]
    if missing:
        raise SystemExit(f"unknown domain {', '.join(missing)}; known: {', '.join(known)}")
    return [known[n] for n in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.catalogues.manage",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("command", choices=("extract", "update", "check"))
    parser.add_argument("--domain", action="append",
                        help="only this domain: 'pbem' (the host) or a game's name; repeatable")
    args = parser.parse_args(argv)
    failed = False
    for domain in selected(args.domain):
        template = extract(domain)
        if args.command == "extract":
            write_template(domain, template)
        elif args.command == "update":
            update(domain, template)
        else:
            problems = check(domain, template)
            for line in problems:
                print(line, file=sys.stderr)
            failed |= bool(problems)
        if args.command != "check":
            print(f"{domain.name}: {len(_keys(template))} messages → {domain.locale_dir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
