"""``history``: a seat gets the game so far as its seat saw it, the page ``pbem game export
--format html --as`` writes, attached; a page too large, a wrong tag and a mail without the
seat's secret are answered with what to do."""

from __future__ import annotations

import dataclasses
from email.message import EmailMessage
from email.utils import make_msgid

from pbem.ops.archive import seat_page
from pbem.pipeline.one_mail import process_raw
from pbem.settings.config import Limits
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import Game
from tests.support.seated import ANN, Table
from tests.watch.conftest import Post, text


def history_mail(table: Table, host: Host, body: str, subject: str | None = None,
                 secret: str | None = None, frm: str = ANN) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = frm
    msg["To"] = host.mail.from_address
    msg["Subject"] = subject if subject is not None else f"Re: [{table.tag}] Test Cards"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"{body}\nsecret {secret or table.secrets[0]}\n")
    return msg


def send(post: Post, table: Table, host: Host, body: str, **kw: str) -> EmailMessage:
    result = process_raw(post.factory, bytes(history_mail(table, host, body, **kw)), host)
    (got,) = post.answers(result)
    return got[1]


def test_a_seat_gets_its_own_page_attached(post: Post, table: Table,
                                           factory: SessionFactory) -> None:
    host = dataclasses.replace(post.host, archive_page=seat_page)
    table.send(0, f"play {table.state().hands[0][0]}")
    reply = send(post, table, host, "history")
    assert str(reply["Subject"]) == f"[{table.tag}] The game so far"
    assert f"The history of [{table.tag}] as your seat saw it is attached" in text(reply)
    (page,) = list(reply.iter_attachments())
    assert page.get_filename() == f"{table.tag}-history.html"
    with factory() as s:
        game = s.get(Game, table.game_id)
        assert game is not None
        assert page.get_content() == seat_page(s, game, 0)  # what the export writes
    # By its tag, in a mail that names no game.
    reply = send(post, table, host, f"history {table.tag}", subject="the game so far?")
    assert len(list(reply.iter_attachments())) == 1


def test_a_page_too_large_says_how_to_get_it(post: Post, table: Table) -> None:
    host = dataclasses.replace(post.host, archive_page=seat_page,
                               limits=Limits(max_message_bytes=20_000))
    reply = send(post, table, host, "history")
    body = text(reply)
    assert str(reply["Subject"]) == f"[{table.tag}] Your \"history\" was not done"
    assert f"The history of [{table.tag}] is too large to mail here (" in body
    assert "mail from this host is at most 20 kB" in body
    assert f"Ask op@host.test for the page: they write it with \"pbem game export " \
           f"{table.tag} --format html --as 1\"." in body
    assert list(reply.iter_attachments()) == []


def test_another_games_tag_and_no_secret(post: Post, table: Table) -> None:
    host = dataclasses.replace(post.host, archive_page=seat_page)
    body = text(send(post, table, host, "history other-3"))
    assert f"\"other-3\" is not the tag of this mail's game, [{table.tag}]: write " \
           "\"history\" alone in a mail of the game you mean." in body
    # A watcher, or anyone without the seat's secret, gets no seat's page.
    reply = send(post, table, host, "history", secret="not-the-secret-at-all")
    assert list(reply.iter_attachments()) == []
    assert "The secret in your mail does not match your seat, so nothing was played." in \
        text(reply)


def test_an_unknown_tag_is_answered_as_any_mail_of_no_game(post: Post, table: Table) -> None:
    host = dataclasses.replace(post.host, archive_page=seat_page)
    reply = send(post, table, host, "history nosuch-9", subject="the game so far?")
    assert str(reply["Subject"]) == "Which game? Your mail was not used"
    assert "We could not tell which game your mail is for." in text(reply)
