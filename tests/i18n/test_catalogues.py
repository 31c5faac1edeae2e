"""Every catalogue is up to date with its source and complete in every language (CI runs it).

Fix a failure with ``python -m pbem.catalogues.manage update --domain NAME``, then fill in the
new msgstrs of fr/it/nl/de and run ``check``.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from pbem.catalogues import manage as catalogues
from pbem.catalogues.domains import Domain, domains
from pbem.i18n.translate import LANGUAGES

DOMAINS = domains()


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_catalogue_is_current_and_complete(name: str) -> None:
    domain = DOMAINS[name]
    # Every game speaks every language: a game without a catalogue fails, it is not skipped.
    assert domain.locale_dir.is_dir(), f"{name} has no catalogue: {domain.locale_dir}"
    problems = catalogues.check(domain, catalogues.extract(domain))
    assert problems == [], "\n".join(problems)


def test_the_host_domain_holds_no_game_code() -> None:
    host = DOMAINS["pbem"]
    assert all("games" not in p.parts for p in host.python)
    assert all(p.parent.name == "templates" or p.parent == host.templates[0].parent
               for p in host.templates)


def _copy(domain: Domain, tmp: Path) -> Domain:
    shutil.copytree(domain.locale_dir, tmp / "locale")
    return Domain(domain.name, domain.catalogue, tmp / "locale", domain.python, domain.templates)


def test_check_finds_a_missing_an_untranslated_and_a_foreign_placeholder(tmp_path: Path) -> None:
    domain = _copy(DOMAINS["pbem"], tmp_path)
    template = catalogues.extract(domain)
    assert catalogues.check(domain, template) == []
    # A new message in the source: out of date until update; then untranslated until filled.
    template.add("A sentence nobody translated yet, {name}.")
    stale = catalogues.check(domain, template)
    assert any("missing msgid 'A sentence nobody translated yet, {name}.'" in p for p in stale)
    catalogues.update(domain, template)
    untranslated = catalogues.check(domain, template)
    for lang in LANGUAGES[1:]:
        assert any(f"{lang}/LC_MESSAGES/pbem.po: 'A sentence nobody translated yet, {{name}}.' "
                   "is untranslated" in p for p in untranslated)
    assert not any("/en/LC_MESSAGES" in p for p in untranslated)  # English may stay empty
    # A translation naming a field the msgid lacks.
    po = domain.po("fr")
    with po.open("rb") as f:
        catalog = read_po(f, locale="fr")
    catalog["A sentence nobody translated yet, {name}."].string = "Une phrase, {nom}."
    out = io.BytesIO()
    write_po(out, catalog)
    po.write_bytes(out.getvalue())
    wrong = catalogues.check(domain, template)
    assert any("uses ['nom'], which the msgid lacks" in p for p in wrong)
