"""A known player's mail is answered, and its valid orders played, even when it forgets the
game's tag or names a player the way people do: real .eml files through the real pipeline
(Maildir inbox, database, outbox)."""

from __future__ import annotations

import email
import mailbox
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.ops import api
from pbem.pipeline.one_mail import Result
from pbem.pipeline.seat_secrets import hash_secret
from pbem.settings.host import Host
from pbem.store import OutboundMessage, Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.corpus import EML

ZOE = "zoe@players.test"
PLAYERS = [("Ann Lefèvre", ALICE), ("Bob Müller", BOB), ("Zoë Martin", ZOE)]
SECRETS = ("reef1-ann-secret", "reef1-bob-secret", "reef1-zoe-secret")
HANDS = [[5, 12, 4], [6, 2, 1], [24, 13, 11]]  # dealt by the seed "reef1"


def seat_game(factory: SessionFactory, tag: str, players: list[tuple[str, str]]) -> int:
    """``players`` at a new game of the test cards tagged ``tag``, with the fixtures' secrets."""
    with factory() as s:
        game, _ = api.create_game(s, "testcards", players, seed="reef1", tag=tag)
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id)):
            seat.secret_hash = hash_secret(SECRETS[seat.index], seat.secret_salt)
            s.add(seat)
        s.commit()
        assert game.id is not None
        return game.id


@pytest.fixture
def reef1(factory: SessionFactory) -> SessionFactory:
    seat_game(factory, "reef-1", PLAYERS)
    with factory() as s:
        assert api.current_state(s, api.get_game(s, "reef-1")).hands == HANDS
    return factory


def arrive(factory: SessionFactory, host: Host, tmp_path: Path, name: str
           ) -> tuple[Result, list[tuple[str, EmailMessage]]]:
    """The fixture ``players/<name>`` delivered to a Maildir inbox and one pass run over it:
    its result, and the mails it queued (to, parsed)."""
    with factory() as s:
        before = s.exec(select(col(OutboundMessage.id))).all()
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add((EML / "players" / name).read_bytes())
    done = api.process_inbox(factory, MaildirInbox(tmp_path / "inbox"),
                             MaildirSender(tmp_path / "out"), host)
    (result,) = done.results
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id).not_in(before))
                      .order_by(col(OutboundMessage.id))).all()
        out = []
        for r in rows:
            parsed = email.message_from_bytes(r.raw, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            out.append((r.to_addr, parsed))
    return result, out


def text(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return " ".join(str(part.get_content()).split())  # as read, whatever the wrapping


def hands(factory: SessionFactory) -> list[list[int]]:
    with factory() as s:
        return api.current_state(s, api.get_game(s, "reef-1")).hands


def test_a_tagless_mail_from_a_player_of_one_game_plays_there_and_names_its_tag(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    result, out = arrive(reef1, host, tmp_path, "tagless-my-turn.eml")
    assert result.status == "applied", result.reason
    assert 6 not in hands(reef1)[1]
    [reply] = [m for to, m in out if to == BOB]
    assert reply["Subject"] == "[reef-1] Orders accepted"
    assert reply["In-Reply-To"] == "<tagless-my-turn@players.test>"
    assert ("Your mail's subject named no game, so it was read for [reef-1], the one game "
            "you play in. Next time reply to the game's mails, or keep [reef-1] in the "
            "subject.") in text(reply)
    assert {to for to, _ in out} == {ALICE, BOB, ZOE}  # the others hear of the move
    # The second tagless mail is answered as well: no limit meets a proved seat.
    result, out = arrive(reef1, host, tmp_path, "tagless-status.eml")
    assert (result.status, result.reason) == ("ignored", "status")
    [(to, status)] = out
    assert to == BOB and status["Subject"].startswith("[reef-1] ")
    assert "so it was read for [reef-1]" in text(status)


def test_a_tagless_mail_without_its_secret_is_told_so_and_which_game_it_was_read_for(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    answered = []
    for n in range(host.limits.unverified_replies_per_hour + 1):
        raw = (EML / "players" / "tagless-no-secret.eml").read_bytes().replace(
            b"<tagless-no-secret@", f"<tagless-no-secret-{n}@".encode())
        (tmp_path / f"no-secret-{n}.eml").write_bytes(raw)
        box = mailbox.Maildir(tmp_path / "inbox", create=True)
        box.add(raw)
        done = api.process_inbox(reef1, MaildirInbox(tmp_path / "inbox"),
                                 MaildirSender(tmp_path / "out"), host)
        (result,) = done.results
        assert result.status == "rejected" and result.reason.startswith("no secret")
        answered.append(len(result.queued))
    # Unproven mail keeps its hourly limit: the player's address is not a mail cannon.
    assert answered == [1] * host.limits.unverified_replies_per_hour + [0]
    assert hands(reef1)[1] == HANDS[1]
    with reef1() as s:
        first = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).first()
        assert first is not None
        reply = email.message_from_bytes(first.raw, policy=policy.default)
    assert isinstance(reply, EmailMessage)
    assert reply["Subject"] == "[reef-1] No secret line: nothing played"
    assert "Your mail had no \"secret\" line, so nothing was played." in text(reply)
    assert "so it was read for [reef-1]" in text(reply)


def test_a_tagless_mail_from_a_player_of_several_games_gets_their_list(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    seat_game(reef1, "reef-2", [("Bob Müller", BOB), ("Cleo", "cleo@players.test")])
    result, out = arrive(reef1, host, tmp_path, "tagless-my-turn.eml")
    assert result.status == "rejected"
    assert hands(reef1)[1] == HANDS[1]  # played nowhere
    [(to, reply)] = out
    assert to == BOB
    assert reply["Subject"] == "Which game? Your mail named none"
    assert reply["In-Reply-To"] == "<tagless-my-turn@players.test>"
    assert ("Your mail's subject named no game, and you play in several, so nothing was "
            "played. Your games: [reef-1] [reef-2]") in text(reply)


def test_a_stranger_without_a_tag_still_gets_the_one_note(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    raw = (EML / "players" / "tagless-my-turn.eml").read_bytes().replace(
        b"bob@players.test", b"nobody@players.test")
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(raw)
    done = api.process_inbox(reef1, MaildirInbox(tmp_path / "inbox"),
                             MaildirSender(tmp_path / "out"), host)
    (result,) = done.results
    assert (result.status, result.reason) == ("rejected", "no game identified")


def test_say_to_a_first_name_is_delivered_and_a_bad_talk_line_undoes_no_orders(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    result, out = arrive(reef1, host, tmp_path, "say-to-first-name.eml")
    assert result.status == "applied", result.reason
    assert 12 not in hands(reef1)[0]  # the orders played
    mails = {to: m for to, m in out}
    assert set(mails) == {ALICE, BOB, ZOE}  # one mail each: the talk rides on the move's
    ann = text(mails[ALICE])
    assert mails[ALICE]["Subject"] == "[reef-1] Orders accepted"
    assert "Sent to Bob Müller: I will take the high cards next round" in ann
    assert "Sent to Zoë Martin: good luck" in ann
    assert ("Not sent: your talk line 3, \"say to Bobby: hi\". \"say to Bobby: ...\": there "
            "is no player Bobby in this game.") in ann
    assert "I will take the high cards" in text(mails[BOB])
    assert "good luck" in text(mails[ZOE]) and "high cards" not in text(mails[ZOE])


def test_a_game_line_naming_no_game_is_not_guessed_at(
        reef1: SessionFactory, host: Host, tmp_path: Path) -> None:
    raw = (EML / "players" / "tagless-my-turn.eml").read_bytes().replace(
        b"play 6\n", b"game reef-9\nplay 6\n")
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(raw)
    done = api.process_inbox(reef1, MaildirInbox(tmp_path / "inbox"),
                             MaildirSender(tmp_path / "out"), host)
    (result,) = done.results
    assert (result.status, result.reason) == ("rejected", "no game identified")
    assert hands(reef1)[1] == HANDS[1]
