"""Table talk through the real pipeline: to all, to one seat, never to anyone else."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.ops import api, archive
from pbem.pipeline import talk
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import OutboundMessage, Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.playermail import mail

CAROL = "carol@players.test"


@pytest.fixture
def trio(factory: SessionFactory) -> tuple[str, list[str]]:
    with factory() as s:
        game, secrets = api.create_game(
            s, "testcards", [("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL)], seed="talk")
        s.commit()
        return game.tag, secrets


def mails_to(factory: SessionFactory, address: str) -> list[EmailMessage]:
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(OutboundMessage.to_addr == address)
                      .order_by(col(OutboundMessage.id))).all()
        out = []
        for r in rows:
            msg = email.message_from_bytes(r.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def test_say_reaches_every_other_player(factory: SessionFactory, host: Host,
                                        trio: tuple[str, list[str]]) -> None:
    tag, secrets = trio
    result = process_raw(factory, mail(ALICE, f"[{tag}]",
                                       f"say Good luck, all!\nsecret {secrets[0]}"), host)
    assert result.status == "applied", result.reason
    [reply] = mails_to(factory, ALICE)
    assert reply["Subject"] == f"[{tag}] Message sent"
    assert "Sent to everyone: Good luck, all!" in text_of(reply)
    for who in (BOB, CAROL):
        [note] = mails_to(factory, who)
        assert note["Subject"] == f"[{tag}] Alice says: Good luck, all!"
        assert "Alice (to everyone), in" in text_of(note)
        assert "Good luck, all!" in text_of(note)


def test_say_to_one_seat_never_reaches_the_others(factory: SessionFactory, host: Host,
                                                  trio: tuple[str, list[str]]) -> None:
    tag, secrets = trio
    secret_text = "I hold the 30, let us gang up on Carol"
    with factory() as s:
        card = sorted(api.current_state(s, api.get_game(s, tag)).hands[0])[0]
    # orders and talk in one mail: both done
    body = f"orders\nplay {card}\nsay to Bob: {secret_text}\nend\nsecret {secrets[0]}"
    result = process_raw(factory, mail(ALICE, f"[{tag}]", body), host)
    assert result.status == "applied", result.reason
    [accepted] = mails_to(factory, ALICE)
    assert accepted["Subject"] == f"[{tag}] Orders accepted"
    assert f"Sent to Bob: {secret_text}" in text_of(accepted)
    bob = [text_of(m) for m in mails_to(factory, BOB)]
    assert any("Alice (to you only)" in t and secret_text in t for t in bob)
    # Bob reads it in his log; Carol's log, mails and archive hold no trace of it.
    for who, seat in ((BOB, 1), (CAROL, 2)):
        process_raw(factory, mail(who, f"[{tag}]", f"log\nsecret {secrets[seat]}"), host)
    bob_log = text_of(mails_to(factory, BOB)[-1])
    assert "Alice says" in bob_log and f"Alice to Bob: \"{secret_text}\"" in bob_log
    carol = mails_to(factory, CAROL)
    assert carol, "Carol got her status and her log"
    for m in carol:
        assert secret_text not in m.as_string() and "says" not in text_of(m)
    with factory() as s:
        game = api.get_game(s, tag)
        for viewer in (None, 2):
            page = archive.render_page(archive.build(s, game, archive.Viewer(seat=viewer)))
            assert secret_text not in page
        assert secret_text in archive.render_page(archive.build(s, game,
                                                                archive.Viewer(seat=1)))
        assert api.replay_game(s, game).entries == 2  # a move and the talk, hashes agreeing


def test_say_to_an_unknown_player_is_not_sent_and_undoes_nothing_else(
        factory: SessionFactory, host: Host, trio: tuple[str, list[str]]) -> None:
    tag, secrets = trio
    with factory() as s:
        card = sorted(api.current_state(s, api.get_game(s, tag)).hands[0])[0]
    body = f"play {card}\nsay to Dave: hi\nsay to carol: psst\nsecret {secrets[0]}"
    result = process_raw(factory, mail(ALICE, f"[{tag}]", body), host)
    assert result.status == "applied", result.reason  # the orders play
    [reply] = mails_to(factory, ALICE)
    assert reply["Subject"] == f"[{tag}] Orders accepted"
    assert "Not sent: your talk line 1, \"say to Dave: hi\"." in text_of(reply)
    assert ("\"say to Dave: ...\": there is no player Dave in this game. Write \"say to NAME: "
            "your text\" with one of: Bob (2), Carol (3).") in text_of(reply)
    assert "Sent to Carol: psst" in text_of(reply)
    assert not any("hi" in text_of(m).split() for m in mails_to(factory, BOB))
    assert any("psst" in text_of(m) for m in mails_to(factory, CAROL))
    with factory() as s:
        assert card not in api.current_state(s, api.get_game(s, tag)).hands[0]


def test_talk_alone_to_an_unknown_player_sends_nothing(
        factory: SessionFactory, host: Host, trio: tuple[str, list[str]]) -> None:
    tag, secrets = trio
    result = process_raw(factory, mail(ALICE, f"[{tag}]", f"say to Dave: hi\nsecret "
                                       f"{secrets[0]}"), host)
    assert (result.status, result.reason) == ("rejected", "talk not sent")
    [reply] = mails_to(factory, ALICE)
    assert reply["Subject"] == f"[{tag}] Message not sent"
    assert "there is no player Dave in this game" in text_of(reply)
    assert mails_to(factory, BOB) == [] and mails_to(factory, CAROL) == []


def test_say_needs_a_text(factory: SessionFactory, host: Host,
                          trio: tuple[str, list[str]]) -> None:
    tag, secrets = trio
    process_raw(factory, mail(ALICE, f"[{tag}]", f"say to 2:\nsecret {secrets[0]}"), host)
    [reply] = mails_to(factory, ALICE)
    assert ("\"say\" needs a text: write \"say your text\" for everyone, or \"say to NAME: "
            "your text\" for one player.") in text_of(reply)


def test_a_name_is_matched_as_players_write_it_and_a_shared_first_name_is_not_guessed(
) -> None:
    seats = [Seat(game_id=1, index=i, name=name, address=f"p{i}@players.test", secret_salt="",
                  secret_hash="")
             for i, name in enumerate(["Ann Lefèvre", "Bob Smith", "Bob Jones", "Jürgen Weiß"])]
    speaker = seats[0]
    assert talk.listeners(seats, speaker, "to bob jones: hi") == ([seats[2]], "hi")
    assert talk.listeners(seats, speaker, "to JURGEN: hallo") == ([seats[3]], "hallo")
    assert talk.listeners(seats, speaker, "to jürgen weiss: hallo") == ([seats[3]], "hallo")
    assert talk.listeners(seats, speaker, "to  3 : hi") == ([seats[2]], "hi")
    with pytest.raises(talk.TalkError, match="there is no player bob in this game"):
        talk.listeners(seats, speaker, "to bob: which one?")
