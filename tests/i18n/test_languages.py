"""Each seat's language and time zone, on the host's side: the ``language`` and ``timezone``
commands by mail with their errors, the footer, host commands in every language, orders made
canonical before they are logged, and a whole bot game by real IMAP/SMTP in two languages."""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.i18n import translator
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.ops.bots import NONSENSE_ORDER, play_out
from pbem.pipeline.deadlines import deadline_of
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory, queries
from pbem.store.tables import InboundMessage, LogEntry, Seat
from tests.support.botmail import ServerMailroom
from tests.support.english_left import english_left
from tests.support.seated import Table, seat_table
from tests.support.testgame import GAME, TestCards

# The test game's words in two languages: what a game's canonical_order/localise_order do.
PLAY = {"fr": "jouer", "de": "spielen"}


class WordyCards(TestCards):
    """Test Cards that reads and writes its one order word in French and German (registered
    in the place of Test Cards by the tests that need it, as its templates are Test Cards')."""

    def canonical_order(self, state: Any, seat: int, text: str, lang: str) -> str:
        local = PLAY.get(lang)
        return "\n".join(re.sub(rf"^(\s*){local}\b", r"\1play", line, flags=re.I)
                         if local else line for line in text.split("\n"))

    def localise_order(self, text: str, lang: str) -> str:
        return re.sub(r"^play\b", PLAY[lang], text) if lang in PLAY else text


WORDY = WordyCards()


@pytest.fixture(autouse=True)
def games() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def seat_of(table: Table, index: int) -> Seat:
    with table.factory() as s:
        return queries.seats(s, table.game_id)[index]


def test_the_language_command_turns_every_later_mail_french(factory: SessionFactory) -> None:
    table = seat_table(factory, "testcards")
    result, reply = table.send(0, "language fr")
    assert result.status == "applied" and result.reason == "language fr"
    # The reply already speaks the language chosen, footer included.
    assert f"Vos courriels dans [{table.tag}] sont désormais en français." in reply
    assert "Votre langue : français. Autres : « langue en » (English), « langue it » " \
        "(italiano), « langue nl » (Nederlands) et « langue de » (Deutsch)." in reply
    assert seat_of(table, 0).language == "fr" and seat_of(table, 1).language == "en"
    result, status = table.send(0, "statut")  # the French word for "status"
    assert result.reason == "status"
    assert "C'est votre tour." in status and "Votre état, comme demandé." in status
    assert "Pour répondre : répondez à ce courriel en gardant" in status
    assert "demande une ligne « secret <votre secret> »." in status
    assert english_left(status, "fr") == [], english_left(status, "fr")
    # Ben (English) is untouched; his mails are as before.
    _, ben = table.send(1, "status")
    assert "It is your turn." in ben and "Your language: English." in ben
    assert english_left(ben, "fr"), "the scan finds the host's English where it is"


def test_an_unknown_language_gets_the_list_of_available_ones(factory: SessionFactory) -> None:
    table = seat_table(factory, "testcards")
    result, reply = table.send(0, "language klingon")
    assert result.status == "rejected" and result.reason == "bad language"
    assert '"language klingon" is not a language this game host speaks. Write one of:' in reply
    for line in ("  language en  English", "  language fr  français",
                 "  language it  italiano", "  language nl  Nederlands",
                 "  language de  Deutsch"):
        assert line in reply
    assert "Your language stays English." in reply
    table.send(0, "taal nl")  # Dutch for "language"; any language's command word works
    result, reply = table.send(0, "taal xx")
    assert result.status == "rejected"
    assert "\"taal xx\" is geen taal die deze spelleider spreekt. Schrijf een van deze:" in reply
    assert "  taal fr  français" in reply and "Je taal blijft: Nederlands." in reply


def test_language_names_are_understood_in_every_language(factory: SessionFactory) -> None:
    table = seat_table(factory, "testcards")
    for typed, code in (("Deutsch", "de"), ("italien", "it"), ("French", "fr"),
                        ("EN", "en")):
        result, _ = table.send(0, f"language {typed}")
        assert result.reason == f"language {code}", typed
        assert seat_of(table, 0).language == code


def test_the_timezone_command_and_dates_in_the_seats_zone(factory: SessionFactory) -> None:
    clock_host = Host(mail=MailConfig(from_address="games@host.test"))
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Ann", "ann@players.test"),
                                                          ("Ben", "ben@players.test")],
                                        seed="tz", host=clock_host,
                                        clocks=ClockSettings(deadline_hours=48),
                                        languages=["fr"])
        s.commit()
        table = Table(factory, "testcards", game.id or 0, game.tag, secrets)
    result, reply = table.send(0, "fuseau Europe/Paris")
    assert result.status == "applied" and result.reason == "timezone Europe/Paris"
    assert "sont désormais dans le fuseau horaire Europe/Paris : il y est " in reply
    with factory() as s:
        seat = queries.seats(s, table.game_id)[0]
        due = deadline_of(api.get_game(s, table.game_id), seat)
    assert seat.timezone == "Europe/Paris" and due is not None
    _, status = table.send(0, "statut")
    shown = translator("fr").datetime(due, "Europe/Paris")
    assert re.fullmatch(r"\d+ \w+ 20\d\d à \d\d:\d\d CE(S)?T", shown), shown
    assert f"C'est votre tour. Vos ordres sont attendus avant le {shown}." in status
    # Errors: not a zone, or no zone at all; the setting stays.
    for typed in ("Mars/Olympus", "CET+9", ""):
        result, reply = table.send(0, f"fuseau {typed}".strip())
        assert result.status == "rejected" and result.reason == "bad time zone"
        assert "n'est pas un fuseau horaire : écrivez un nom IANA comme « fuseau " \
            "Europe/Paris »" in reply
        assert "Votre fuseau horaire reste Europe/Paris." in reply


def test_every_mail_to_a_seat_ends_with_its_language_footer(factory: SessionFactory) -> None:
    table = seat_table(factory, "testcards")
    table.send(1, "language de")
    result, _ = table.send(0, "play " + str(min(table.state().hands[0])))
    bodies = table.bodies(result)
    ann_text, ann_html = bodies["ann@players.test"]
    assert ann_text.rstrip().splitlines()[-2].startswith("Your language: English. Others:")
    assert "Your language: English." in ann_html
    _, ben = table.send(1, "protokoll")  # "log", in German
    assert ben.rstrip().splitlines()[-1] == (
        "Deine Sprache: Deutsch. Andere: „sprache en“ (English), „sprache fr“ (français), "
        "„sprache it“ (italiano) und „sprache nl“ (Nederlands).")
    assert "Die jüngsten Züge in " in ben and " (1 von 1), wie du sie sehen darfst:" in ben


def test_host_commands_and_error_replies_in_the_seats_language(
        factory: SessionFactory) -> None:
    table = seat_table(factory, "testcards")
    table.send(0, "langue fr")
    result, reply = table.send(0, "aide")
    assert result.reason == "help"
    assert "Aide pour Test Cards" in reply and "Autres commandes, chacune seule" in reply
    assert "  langue XX" in reply and "  fuseau Europe/Paris" in reply
    card = min(table.state().hands[0])
    result, reply = table.send(0, f"verifier\nplay {card}")  # accents optional
    assert result.status == "ignored" and result.reason == "dry run"
    assert "vérifier : ces ordres sont valables. Rien n'a été joué." in reply
    result, reply = table.send(0, "play 99")
    assert result.status == "rejected"
    assert "Vos ordres n'ont PAS été joués ; rien n'a changé." in reply
    # The game's own message (this test game has no catalogue) inside the host's sentence.
    assert "Ligne 1 de votre courriel (« play 99 ») : you have no card 99" in reply
    assert "Envoyez « aide » pour la liste complète des ordres." in reply
    result, reply = table.send(0, "dire à Ben: bonjour")  # "say to Ben", in French
    assert result.reason == "talk" and "Envoyé à Ben : bonjour" in reply
    result, reply = table.send(0, "dire à Zoé: salut")
    assert result.reason == "talk not sent"
    assert "il n'y a pas de joueur Zoé dans cette partie" in reply


def test_orders_in_the_seats_words_are_logged_canonical(factory: SessionFactory) -> None:
    registry.register(WORDY)
    table = seat_table(factory, "testcards")
    table.send(0, "language fr")
    card = min(table.state().hands[0])
    result, reply = table.send(0, f"ordres\njouer {card}\nfin\nMerci !")
    assert result.status == "applied", reply
    assert f"> jouer {card}" in reply  # the player's own words, quoted back
    with factory() as s:
        entry = s.exec(select(LogEntry).where(LogEntry.game_id == table.game_id,
                                              LogEntry.kind == "order")).one()
    assert entry.text == f"play {card}"  # the log reads the same in every language
    # A bad order is quoted as the player wrote it, in the player's language.
    result, reply = table.send(1, "language de")
    result, reply = table.send(1, "spielen 99")
    assert result.status == "rejected"
    assert "Zeile 1 deiner E-Mail („spielen 99“): you have no card 99" in reply
    assert "Ein gültiger Befehl wäre jetzt zum Beispiel: spielen " in reply


def test_an_unknown_seat_language_is_refused_when_the_game_is_made(
        factory: SessionFactory) -> None:
    with factory() as s, pytest.raises(ValueError, match="unknown language 'xx'; the host "
                                                         "speaks en, fr, it, nl, de"):
        api.create_game(s, "testcards", [("Ann", "ann@players.test"),
                                         ("Ben", "ben@players.test")], languages=["xx"])


@pytest.mark.slow
def test_bots_in_two_languages_play_a_whole_game_over_imap_and_smtp(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    host = Host(mail=MailConfig(from_address="games@host.test"))
    seats = [("Ann", "ann@players.test"), ("Ben", "ben@players.test"),
             ("Cy", "cy@players.test")]
    with factory() as s:
        registry.register(WORDY)
        game, _ = api.create_game(s, "testcards", seats, seed="bots", host=host,
                                  language="fr", languages=[None, "de", "en"])
        s.commit()
        tag = game.tag
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), host, showcase=True)
    finally:
        inbox.close()
    assert played.turns == 6 and imap_server.messages() == []
    langs = {"ann@players.test": "fr", "ben@players.test": "de", "cy@players.test": "en"}
    firsts = {"fr": "Bienvenue dans Test Cards !", "de": "Willkommen bei Test Cards!",
              "en": "Welcome to Test Cards!"}
    over = {"fr": "La partie est terminée.", "de": "Das Spiel ist vorbei.",
            "en": "The game is over."}
    for bot in played.bots:
        lang = langs[bot.address]
        assert firsts[lang] in bot.received[0].text and over[lang] in bot.received[-1].text
        for mail in bot.received:
            if lang != "en":
                assert english_left(mail.text, lang) == [], (lang, english_left(mail.text, lang))
    # The showcase's check and nonsense replies went to the first mover, in French.
    assert "vérifier : ces ordres sont valables." in played.showcase["check"].text
    assert "Vos ordres n'ont PAS été joués" in played.showcase["nonsense"].text
    # Every order a bot sent is in its seat's language; the log keeps the English words.
    with factory() as s:
        rows = s.exec(select(InboundMessage).order_by(col(InboundMessage.id))).all()
        entries = s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()
    sent = {addr: [r.raw.decode("utf-8", "replace") for r in rows if r.from_addr == addr
                   and NONSENSE_ORDER not in r.raw.decode("utf-8", "replace")]
            for addr in langs}
    assert all(sent.values())
    assert all(re.search(r"^jouer \d+$", raw, re.M) for raw in sent["ann@players.test"])
    assert all(re.search(r"^spielen \d+$", raw, re.M) for raw in sent["ben@players.test"])
    assert all(re.search(r"^play \d+$", raw, re.M) for raw in sent["cy@players.test"])
    assert all(re.fullmatch(r"play \d+", e.text) for e in entries) and len(entries) == 6
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, tag)).entries == 6


def test_game_new_sets_the_game_language_and_each_seats_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()
    assert runner.invoke(app, ["init"]).exit_code == 0
    made = runner.invoke(app, ["game", "new", "testcards", "--lang", "fr",
                               "--seat", "Ann <ann@players.test>",
                               "--seat", "Ben <ben@players.test> lang=de"])
    assert made.exit_code == 0, made.output
    factory = api.connect(f"sqlite:///{tmp_path / 'data' / 'pbem.sqlite'}")
    with factory() as s:
        game = api.get_game(s, "testcards-1")
        assert game.language == "fr"
        assert [(x.name, x.language) for x in queries.seats(s, game.id or 0)] == [
            ("Ann", "fr"), ("Ben", "de")]
    assert runner.invoke(app, ["process"]).exit_code == 0
    welcomes = {}
    for path in (tmp_path / "data" / "outbox" / "new").iterdir():
        mail = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(mail, EmailMessage)
        part = mail.get_body(("plain",))
        assert part is not None
        welcomes[str(mail["To"])] = (str(mail["Subject"]), str(part.get_content()))
    ann_subject, ann = welcomes["Ann <ann@players.test>"]
    ben_subject, ben = welcomes["Ben <ben@players.test>"]
    assert ann_subject.startswith("[testcards-1] Bienvenue dans Test Cards")
    assert "Bienvenue dans Test Cards ! Votre secret est : " in ann
    assert ben_subject.startswith("[testcards-1] Willkommen bei Test Cards")
    assert "Willkommen bei Test Cards! Dein Geheimnis ist: " in ben
    for bad, said in ((["--lang", "xx"], "unknown language 'xx'; the host speaks en, fr, it, "
                                          "nl, de"),
                      (["--seat", "Cy <cy@players.test> lang=klingon"],
                       "unknown language 'klingon'; write lang= with one of en, fr, it, nl, "
                       "de")):
        seats = ["--seat", "Ann <ann@players.test>", "--seat", "Ben <ben@players.test>"]
        failed = runner.invoke(app, ["game", "new", "testcards", *seats, *bad])
        assert failed.exit_code == 1 and said in " ".join(failed.output.split()), failed.output


def _mails_to(factory: SessionFactory, address: str, after: int) -> list[tuple[str, str]]:
    from pbem.store.tables import OutboundMessage

    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id) > after,
                                                    OutboundMessage.to_addr == address)
                      .order_by(col(OutboundMessage.id))).all()
    out = []
    for r in rows:
        mail = email.message_from_bytes(r.raw, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        part = mail.get_body(("plain",))
        assert part is not None
        out.append((str(mail["Subject"]), str(part.get_content())))
    return out


def _last_outbound(factory: SessionFactory) -> int:
    from pbem.store.tables import OutboundMessage

    with factory() as s:
        return s.exec(select(OutboundMessage.id).order_by(
            col(OutboundMessage.id).desc())).first() or 0


def test_reminders_and_the_hosts_notices_in_the_seats_language(
        factory: SessionFactory) -> None:
    from datetime import timedelta

    from pbem.ops import admin
    from pbem.pipeline.clock import run_clocks

    host = Host(mail=MailConfig(from_address="games@host.test"))
    with factory() as s:
        game, secrets = api.create_game(
            s, "testcards", [("Ann", "ann@players.test"), ("Ben", "ben@players.test")],
            seed="remind", host=host, language="it",
            clocks=ClockSettings(deadline_hours=48, reminder_hours=12))
        s.commit()
        table = Table(factory, "testcards", game.id or 0, game.tag, secrets)
        due = deadline_of(game, queries.seats(s, game.id or 0)[0])
    assert due is not None
    table.send(0, "fuso Europe/Rome")
    start = _last_outbound(factory)
    report = run_clocks(factory, host, due - timedelta(hours=11))
    assert report.reminders == 2
    [(subject, text)] = _mails_to(factory, "ann@players.test", start)
    assert subject.startswith(f"[{table.tag}] Promemoria: Turno 1 — tocca a te (entro ")
    when = translator("it").datetime(due, "Europe/Rome")
    assert (f"Promemoria: i tuoi ordini per [{table.tag}] sono attesi entro il {when} (tra circa "
            "11 ore).") in text
    assert "Se non arriva nessun ordine entro allora, la partita gioca per te il suo ordine " \
        "predefinito." in text
    assert english_left(text, "it") == []
    start = _last_outbound(factory)
    with factory() as s:
        admin.pause(s, host, api.get_game(s, table.game_id), "server move")
        s.commit()
    [(_, note)] = _mails_to(factory, "ben@players.test", start)
    # The operator's reason is quoted as written; the sentence around it is Italian.
    assert f"Il gestore ha messo in pausa [{table.tag}]: server move." in note
    assert "Gli ordini inviati nel frattempo non vengono giocati." in note
    assert note.rstrip().endswith("«lingua nl» (Nederlands) e «lingua de» (Deutsch).")
    assert english_left(note, "it") == []


def test_a_french_digest_and_table_talk(factory: SessionFactory) -> None:
    from datetime import timedelta

    from pbem.pipeline.digest import send_digests

    host = Host(mail=MailConfig(from_address="games@host.test"))
    table = seat_table(factory, "testcards")
    result, reply = table.send(1, "langue fr\n")
    result, reply = table.send(1, "courrier résumé")  # "mail digest", in French
    assert result.reason == "mail digest"
    assert "Votre réglage du courrier dans [" in reply and "« courrier résumé » : un état " \
        "complet quand c'est à vous de jouer ; un résumé par jour de tout le reste." in reply
    table.send(0, "say hello Ben")
    start = _last_outbound(factory)
    assert send_digests(factory, host, host.clock() + timedelta(days=1, minutes=1)) == 1
    [(subject, digest)] = _mails_to(factory, "ben@players.test", start)
    assert subject == f"[{table.tag}] Résumé du jour — Tour 1"
    assert "Test Cards [" in digest and "] : ce qui s'est passé depuis votre dernier résumé" \
        in digest
    assert "  - Ann à tout le monde : « hello Ben »" in digest
    assert english_left(digest, "fr") == []
