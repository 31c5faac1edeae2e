"""What players read when the host plays for seats: a stand-in bot's order in the seat's own
order words, and one counted subject for several moves in a row instead of a list of names."""

from __future__ import annotations

from pbem.engine import registry
from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.pipeline import controllers
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.clocked import flat
from tests.pipeline.conftest import ALICE, BOB
from tests.pipeline.test_subjects import sent
from tests.support.english_left import english_words
from tests.support.playermail import mail

HOST = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))
CAROL = "carol@players.test"
REEF = "reef-2018"


def _table(factory: SessionFactory, seats: list[tuple[str, str]],
           **kw: object) -> tuple[str, list[str], int]:
    with factory() as s:
        game, secrets = api.create_game(s, REEF, seats, seed="autoplay", host=HOST,
                                        now=HOST.clock(), **kw)  # type: ignore[arg-type]
        s.commit()
        return game.tag, secrets, game.id or 0


def _send(factory: SessionFactory, tag: str, frm: str, secret: str, body: str) -> Result:
    return process_raw(factory, mail(frm, f"Re: [{tag}]", f"{body}\nsecret {secret}"), HOST)


def _mails(factory: SessionFactory, result: Result) -> dict[str, tuple[str, str]]:
    """(subject, flattened text) of each mail a result queued, by recipient."""
    out = {}
    for to, parsed in sent(factory, result).items():
        body = parsed.get_body(("plain",))
        assert body is not None
        out[to] = (str(parsed["Subject"]), flat(str(body.get_content())))
    return out


def _default(factory: SessionFactory, game_id: int, seat: int) -> str:
    rules = registry.get(REEF)
    with factory() as s:
        state = api.current_state(s, api.get_game(s, game_id))
    assert seat in rules.waiting_for(state)
    return str(rules.default_order(state, seat))


def test_a_stand_in_bots_order_is_told_in_the_seats_own_order_words(
        factory: SessionFactory) -> None:
    tag, secrets, game_id = _table(factory, [("Alice", ALICE), ("Bob", BOB)],
                                   languages=[None, "fr"],
                                   clocks=ClockSettings(timeout_policy="bot"))
    assert _send(factory, tag, BOB, secrets[1], "abandonner").status == "applied"
    told = []
    for _ in range(3):  # Alice's moves; each time the bot answers for Bob
        result = _send(factory, tag, ALICE, secrets[0], _default(factory, game_id, 0))
        assert result.status == "applied"
        _, bob = _mails(factory, result)[BOB]
        assert "Le bot qui vous remplace a joué : " in bob
        told.append(bob.split("Le bot qui vous remplace a joué : ")[1].split(" - ")[0])
    # French order words ("prendre 24"), none of the English the bot chose them in.
    assert all(t.split()[0] in ("prendre", "jouer") for t in told), told
    assert not any(english_words(t, "fr") for t in told), told


def test_several_moves_in_a_row_are_counted_in_one_subject(factory: SessionFactory) -> None:
    bot = controllers.bot_name(2, "random")
    tag, secrets, game_id = _table(factory, [("Alice", ALICE), ("Bob", BOB), (bot, ""),
                                             ("Carol", CAROL)],
                                   bots={2: "random"}, languages=["fr", None, None, "de"])
    addresses = [ALICE, BOB, "", CAROL]
    subjects: list[str] = []
    counted = 0
    for _ in range(12):
        rules = registry.get(REEF)
        with factory() as s:
            seat = min(rules.waiting_for(api.current_state(s, api.get_game(s, game_id))))
        result = _send(factory, tag, addresses[seat], secrets[seat],
                       _default(factory, game_id, seat))
        mails = _mails(factory, result)
        if seat == 1 and ALICE in mails:  # Bob's move, then the bot's: one count, no names
            subject = mails[ALICE][0]
            assert subject.startswith(f"[{tag}] Tour ") and " — 2 coups joués depuis le " \
                "tour " in subject, subject
            assert "Bob" not in subject and bot not in subject
            counted += 1
        if seat == 0 and CAROL in mails:  # Alice's move alone: Carol reads her name
            assert mails[CAROL][0].endswith(" — Alice hat gezogen"), mails[CAROL][0]
            subjects.append(mails[CAROL][0])
    assert counted >= 2 and len(subjects) >= 2, (counted, subjects)
