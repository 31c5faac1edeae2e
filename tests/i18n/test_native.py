"""Every message of every catalogue (the host's and each game's), in every language but
English, rendered with sample values and read for what gives a translation away: English
words left in it, lazy plurals ("(s)", "(x)") and the form of address the catalogue does not
use (each catalogue's header says which it uses and why). CI runs it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from pbem.catalogues.domains import domains
from pbem.catalogues.manage import placeholders
from pbem.i18n.translate import LANGUAGES
from tests.support.english_left import english_words, other_form_of_address, plural_slots

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
DOMAINS = domains()
_FIELD = re.compile(r"\{[^{}]*\}|%\(\w+\)[sd]")
# Contexts whose msgstrs are words a player types, in which English forms are listed on
# purpose (a player may always write the English word).
TYPED = {"order keyword", "host command"}


def sample(text: str) -> str:
    """``text`` with each field filled: a number, so no word is added or hidden."""
    return _FIELD.sub("3", text)


def messages(domain: str, lang: str) -> Iterator[tuple[str, str, str]]:
    """(msgid, context, each msgstr form with sample values) of one catalogue."""
    with DOMAINS[domain].po(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    for m in catalog:
        if not m.id or m.context in TYPED:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        for s in strings:
            assert placeholders(str(s)) <= placeholders(" ".join(map(str, ids)))
            yield str(ids[0]), m.context or "", sample(str(s))


def typed_words(domain: str) -> frozenset[str]:
    """The English words a player of ``domain`` may type: its order and command words."""
    with DOMAINS[domain].pot().open("rb") as f:
        return frozenset(str(m.id).lower() for m in read_po(f)
                         if m.id and m.context in TYPED)


def _problems(domain: str, lang: str) -> list[str]:
    out = []
    typed = typed_words(domain)
    for msgid, context, text in messages(domain, lang):
        where = f"{domain}/{lang}: {msgid[:60]!r}" + (f" ({context})" if context else "")
        if words := english_words(text, lang, typed):
            out.append(f"{where}: English {words} in {text[:120]!r}")
        if slots := plural_slots(text):
            out.append(f"{where}: lazy plural {slots} in {text[:120]!r}")
        if other := other_form_of_address(text, lang):
            out.append(f"{where}: the other form of address {other} in {text[:120]!r}")
    return out


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_message_reads_as_written_in_its_language(domain: str, lang: str) -> None:
    problems = _problems(domain, lang)
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "Du bist am Zug. Schreiben Sie Ihre Befehle."),
    ("de", "Lege deine Karte; wir schreiben Ihnen bald."),
    ("nl", "U bent aan de beurt: stuur je bevelen."),
    ("nl", "Jij bent Noor; kunt u uw bevelen sturen?"),
    ("fr", "C'est ton tour : vous jouez."),
    ("it", "Tocca a te; La preghiamo di inviare i Suoi ordini."),
])
def test_the_other_form_of_address_is_found(lang: str, text: str) -> None:
    assert other_form_of_address(text, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "Die Spieler, die am Zug sind: Sie haben ihre Befehle geschickt."),
    ("nl", "Je bent aan de beurt: stuur je bevelen."),
    ("fr", "Vous avez joué ; votre tour est fini."),
    ("it", "Tocca a te: invia i tuoi ordini."),
])
def test_the_catalogues_own_form_passes(lang: str, text: str) -> None:
    assert other_form_of_address(text, lang) == []


def test_english_words_and_lazy_plurals_are_found_beyond_typed_values() -> None:
    assert english_words("Le bot qui vous remplace a joué : play 58: yellow D1", "fr") == [
        "play", "yellow"]
    assert english_words("l'option turn_limit accepte on/off", "fr") == []
    assert english_words("Die Spieler, die am Zug sind", "de") == []
    assert plural_slots("1 élevage(s) réussi(s), 1 bateau(x)") == ["e(s)", "i(s)", "u(x)"]
    assert plural_slots("3 Zucht/Zuchten, 3 boot/boten") == ["Zucht/Zuchten", "boot/boten"]
    assert plural_slots("rouM/rouF poisson rouge mâle/femelle") == []
