"""Replies from every major mail client, in many languages, through the real pipeline: only
the new text is read. Each .eml of tests/fixtures/eml/replies/ (written by its generate.py)
answers a status mail whose quote holds the order "play 15" and an old secret; its new text is
a greeting, "play 19", the secret, a sign-off and the name "Alice".

For each: exactly "play 19" is played (the game log's one entry), the quoted order and secret
are never read, and the reply to the player names the lines set aside, in the seat's language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from pbem.i18n import msg, translator
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.seat_secrets import hash_secret
from pbem.settings.host import Host
from pbem.store import Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB, queued

REPLIES = Path(__file__).parent.parent / "fixtures" / "eml" / "replies"
SECRET = "corpus-alice-secret"
HOST_LANGUAGES = ("en", "fr", "de", "it", "nl")

# Per language: the greeting above the order and the sign-off under it (then "Alice").
CLOSINGS = {
    "en": ("Hi all,", "Thanks,"), "fr": ("Bonjour à tous,", "Merci,"),
    "de": ("Hallo zusammen,", "Viele Grüße,"), "it": ("Ciao a tutti,", "Grazie,"),
    "nl": ("Hoi allemaal,", "Groeten,"), "es": ("Hola a todos,", "Saludos,"),
    "pt": ("Olá a todos,", "Obrigado,"), "pl": ("Cześć wszystkim,", "Pozdrawiam,"),
    "ru": ("Привет всем,", "Спасибо,"), "sv": ("Hej alla,", "Tack,"),
    "da": ("Hej alle,", "Hilsen,"), "cs": ("Ahoj všichni,", "Díky,"),
    "ja": ("こんにちは、", "よろしくお願いします。"), "zh": ("大家好，", "谢谢！"),
}
# Per client: what it adds under the text that is set aside too (a mobile line, a signature).
MOBILE = {"en": "Sent from my iPhone", "fr": "Envoyé de mon iPhone",
          "de": "Von meinem iPhone gesendet", "it": "Inviato da iPhone",
          "nl": "Verzonden vanaf mijn iPhone", "es": "Enviado desde mi iPhone",
          "pt": "Enviado do meu iPhone", "pl": "Wysłane z mojego iPhone'a",
          "ru": "Отправлено с iPhone", "sv": "Skickat från min iPhone",
          "da": "Sendt fra min iPhone", "cs": "Odesláno z iPhonu", "ja": "iPhoneから送信",
          "zh": "发自我的iPhone"}
SIGNATURES: dict[str, tuple[str, ...]] = {
    "gmail-web": (), "gmail-android": (), "gmail-ios": (), "apple-mac": (),
    "outlook-desktop": (), "outlook-web": (), "outlook-stars": (), "outlook-original": (),
    "thunderbird": (), "yahoo": (), "windows-mail": (),
    "outlook-mobile": ("Get Outlook for iOS<https://aka.ms/o0ukef>",),
    "proton": ("Sent with Proton Mail secure email.",),
    "k9": ("Sent from my Android device with K-9 Mail. Please excuse my brevity.",),
    "mutt": ("Alice Martin", "https://alice.example.org/"),
}


def expected_aside(kind: str, lang: str) -> list[str]:
    greeting, sign_off = CLOSINGS[lang]
    extra = (MOBILE[lang],) if kind == "apple-ios" else SIGNATURES[kind]
    return [greeting, sign_off, "Alice", *extra]


def cases() -> list[str]:
    return sorted(p.stem for p in REPLIES.glob("*.eml"))


def split(name: str) -> tuple[str, str]:
    kind, _, lang = name.rpartition("-")
    return kind, lang


def test_the_corpus_covers_every_client_and_language() -> None:
    names = cases()
    assert len(names) >= 60
    kinds = {split(n)[0] for n in names}
    assert kinds == set(SIGNATURES) | {"apple-ios"}
    assert {split(n)[1] for n in names} == set(CLOSINGS)
    for kind in kinds - {"outlook-original", "windows-mail"}:  # every host language each
        assert {lang for k, lang in map(split, names) if k == kind} >= set(HOST_LANGUAGES)
    raw = b"".join((REPLIES / f"{n}.eml").read_bytes() for n in names).lower()
    for shape in (b"charset=\"utf-8\"", b"charset=\"iso-8859-1\"", b"charset=\"windows-1252\"",
                  b"charset=\"koi8-r\"", b"quoted-printable", b"base64", b"8bit",
                  b"format=flowed; delsp=yes", b"multipart/alternative"):
        assert shape in raw, shape


@pytest.mark.parametrize("name", cases())
def test_only_the_new_text_of_a_reply_is_read(name: str, factory: SessionFactory,
                                              host: Host) -> None:
    kind, lang = split(name)
    language = lang if lang in HOST_LANGUAGES else "en"
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  {"rounds": 2}, seed="replies", tag="reef-12",
                                  languages=[language, None])
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id)):
            seat.secret_hash = hash_secret(SECRET if seat.index == 0 else "bob-secret",
                                           seat.secret_salt)
            s.add(seat)
        s.commit()
        assert sorted(api.current_state(s, game).hands[0]) == [15, 19, 23]
        game_id = game.id
    result = process_raw(factory, (REPLIES / f"{name}.eml").read_bytes(), host)
    assert result.status == "applied", result.reason
    with factory() as s:
        log = api.game_log(s, api.get_game(s, game_id or 0))
    assert [(e.kind, e.text) for e in log if e.kind == "order"] == [("order", "play 19")]
    [reply] = [text for to, text in queued(factory) if to == ALICE]
    flat = " ".join(reply.split())
    tr = translator(language)
    assert " ".join(tr(msg("Done. Your orders were played:")).split()) + " > play 19 " in flat
    listed = " ".join(f"'{line}'" for line in expected_aside(kind, lang))
    assert " ".join(tr(msg("Not read as orders: {lines}", lines=listed)).split()) in flat
    assert "play 15" not in reply and "old-secret" not in reply
