"""``orders`` ... ``end``: greetings, sign-offs and quoted replies around orders are left alone."""

from __future__ import annotations

from pbem.pipeline.letter import looks_like_prose, read_letter
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.conftest import ALICE, Table, hand, queued
from tests.support.playermail import mail


def test_only_the_lines_between_orders_and_end_are_read(factory: SessionFactory, host: Host,
                                                        table: Table) -> None:
    card = hand(factory, table, 0)[0]
    body = (f"Bonne journée à tous !\n\norders\nplay {card}\nend\n\nCheers,\nAlice\n"
            f"secret {table.secrets[0]}\n"
            "-- \nAlice Liddell, Wonderland\n\n"
            "On Mon, 23 Nov 2026 at 10:00, Test Host <games@host.test> wrote:\n"
            "> It is your turn.\n> play 99\n")
    result = process_raw(factory, mail(ALICE, f"Re: [{table.tag}] Turn 1 — your move", body),
                         host)
    assert result.status == "applied", result.reason
    assert card not in hand(factory, table, 0)
    reply = queued(factory)[0][1]
    assert f"Done. Your orders were played:\n> play {card}\n" in reply
    assert "(3 lines outside \"orders\" ... \"end\" were left unread.)" in reply


def test_without_markers_a_note_is_refused_with_how_to_use_them(
        factory: SessionFactory, host: Host, table: Table) -> None:
    # A greeting above the orders and a closing under them are set aside (test_reply_corpus);
    # a note that is neither is read, and refused where it stands.
    card = hand(factory, table, 0)[0]
    body = f"I hope this works.\nplay {card}\nsecret {table.secrets[0]}"
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]", body), host)
    assert result.status == "rejected"
    [(_, text)] = queued(factory)
    assert "Line 1 of your mail (\"I hope this works.\")" in text
    assert ("That line reads like a note, not an order. To write greetings or notes around "
            "your orders, put a line \"orders\" before them and a line \"end\" after them: "
            "only the lines between are read.") in text
    assert card in hand(factory, table, 0)


def test_markers_keep_host_lines_and_body_line_numbers() -> None:
    letter = read_letter("check\nHi all,\nORDERS\n  play 3  \nsecret s3\nEnd\nplay 4\nbye")
    assert letter.command == "check" and letter.secret == "s3" and letter.marked
    assert letter.orders == [(4, "play 3")]
    assert letter.ignored == 3  # "Hi all,", "play 4" after end, "bye"


def test_without_markers_every_line_is_an_order_as_before() -> None:
    letter = read_letter("play 3\nplay 4")
    assert not letter.marked and letter.orders == [(1, "play 3"), (2, "play 4")]


def test_prose_is_told_from_orders() -> None:
    assert looks_like_prose("Bonne journée à tous !")
    assert looks_like_prose("Cheers,")
    assert looks_like_prose("thanks")
    assert not looks_like_prose("play 7")
    assert not looks_like_prose("larva pink 1A2")
