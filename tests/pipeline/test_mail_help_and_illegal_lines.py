"""Help from the player's own game, step numbers within the line, every independently bad line
answered once and the nearest legal cells suggested — on real servers: mail in by IMAP
(pymap), replies out by SMTP (aiosmtpd)."""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import Any

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.nearest import distance
from pbem.games.riff.state import area_row
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.games.test_help_examples import examples
from tests.pipeline.test_end_to_end import as_message, servers, text_of
from tests.support.playermail import mail

pytestmark = pytest.mark.slow

HOST = Host(mail=MailConfig(from_address="games@host.test"))
PLAYERS = [("Ann", "ann@players.test"), ("Ben", "ben@players.test"),
           ("Cy", "cy@players.test")]


class Served:
    """A game whose mail goes through the real servers."""

    def __init__(self, factory: SessionFactory, imap: Any, smtp: Any, game: str,
                 options: dict[str, Any] | None = None, players: int = 3) -> None:
        self.factory, self.imap, self.smtp = factory, imap, smtp
        self.players = PLAYERS[:players]
        with factory() as s:
            row, _ = api.create_game(s, game, self.players, options or {}, "help-and-lines",
                                     host=HOST)
            s.commit()
            self.tag, self.game_id = row.tag, row.id
        self.deliver()
        self.secrets = [re.findall(r"Your secret is: (\S+)", self.last(i)[1])[0]
                        for i in range(len(self.players))]

    @property
    def rules(self) -> Any:
        with self.factory() as s:
            return registry.get(api.get_game(s, self.tag).game_type)

    def state(self) -> Any:
        with self.factory() as s:
            return api.current_state(s, api.get_game(s, self.tag))

    def deliver(self) -> None:
        api.deliver_outbox(self.factory, SmtpSender(self.smtp.settings), HOST)

    def last(self, seat: int) -> tuple[EmailMessage, str]:
        address = self.players[seat][1]
        for item in reversed(list(self.smtp.messages)):
            msg = as_message(item)
            if address in str(msg["To"]):
                return msg, text_of(msg)
        raise AssertionError(f"no mail to {address}")

    def send(self, seat: int, body: str) -> tuple[str, str, str]:
        """Mail ``body`` (with the seat's secret) by IMAP; (status, subject, reply text)."""
        self.imap.deliver(mail(self.players[seat][1], f"Re: [{self.tag}] Reef",
                               f"{body}\nsecret {self.secrets[seat]}"))
        done = api.process_inbox(self.factory, ImapInbox(self.imap.settings),
                                 SmtpSender(self.smtp.settings), HOST)
        [result] = done.results
        msg, text = self.last(seat)
        return result.status, str(msg["Subject"]), text

    def past_setup(self) -> None:
        """Every seat answers the setup step (the game's default answer), by mail."""
        while (state := self.state()).phase == "setup":
            seat = min(self.rules.waiting_for(state))
            status, _, text = self.send(seat, self.rules.default_order(state, seat))
            assert status == "applied", text


@pytest.fixture
def reef3(request: pytest.FixtureRequest, factory: SessionFactory) -> Served:
    imap, smtp = servers(request)
    return Served(factory, imap, smtp, "reef-encounter")


def test_help_by_mail_shows_this_games_boards_only(reef3: Served) -> None:
    status, _, text = reef3.send(1, "help")
    assert status == "ignored"
    text = text.split("HOW TO WRITE YOUR ORDERS", 1)[1].split("Start your email with", 1)[0]
    state = reef3.state()
    [missing] = {1, 2, 3, 4} - set(state.boards)
    assert f"This game's boards: {', '.join(map(str, state.boards))}." in text
    assert not re.search(rf"\b{missing}[A-G][1-6]\b", text)
    lines = examples("reef-encounter", text)
    assert len(lines) >= 25
    for line in lines:
        reef3.rules.parse(state, 1, line)


def legal(rules: Any, state: Any, seat: int, order: str) -> bool:
    try:
        rules.apply(state, seat, rules.parse(state, seat, order), Chance("legal?"))
    except IllegalOrder:
        return False
    return True


def nearest_legal(rules: Any, state: Any, seat: int, typed: str, order: str) -> list[str]:
    """Every cell of the game's boards where ``order`` (with {} for the cell) is legal, checked
    by playing it, nearest to ``typed`` (a cell key) first."""
    cells = [k for b in state.boards for k in rock_cells()[b]
             if legal(rules, state, seat, order.format(k.replace(":", "")))]
    return sorted(cells, key=lambda k: distance(typed, k))


def assert_nearest(suggested: list[str], found: list[str], typed: str) -> None:
    """The suggestion: legal cells, at most 3, none farther than a legal cell left out."""
    keys = [f"{c[0]}:{c[1:]}" for c in suggested]
    assert found and 1 <= len(keys) == min(3, len(found))
    assert set(keys) <= set(found)
    assert max(distance(typed, k) for k in keys) <= min(
        (distance(typed, k) for k in found if k not in keys), default=99999)


def test_three_bad_lines_answered_once_with_steps_in_their_line_and_nearest_cells(
        reef3: Served) -> None:
    reef3.past_setup()
    state = reef3.state()
    rules = reef3.rules
    seat = state.to_move
    [missing] = {1, 2, 3, 4} - set(state.boards)
    board = state.boards[0]
    sand = next(f"{board}{c}{r}" for c in "ABCDEFG" for r in range(1, 7)
                if f"{board}:{c}{r}" not in rock_cells()[board])
    empty = next(k for k in rock_cells()[board] if k not in state.polyps
                 and k not in state.shrimps).replace(":", "")
    colour = sorted(c for c, n in state.players[seat].larva.items() if n)[0]
    take = rules.default_order(state, seat).strip().splitlines()[-1]
    body = ("Hello all, my move!\n\norders\n"
            f"shrimp new {missing}D5\n"                # line 4: a board not in this game
            f"move shrimp {empty} to {empty[0]}D4\n"   # line 5: no shrimp there
            f"larva {colour}: {sand}\n"                # line 6: its 2nd step is on sand
            f"{take}\nend\nCheers, Ann")
    status, subject, text = reef3.send(seat, body)
    assert status == "rejected"
    assert subject == f"[{reef3.tag}] Order refused: lines 4, 5, 6"
    flat = " ".join(text.split())
    assert "3 lines of your mail break a rule:" in flat
    assert (f'Line 4 of your mail ("shrimp new {missing}D5"): step 1 (shrimp new {missing}D5): '
            f"board {missing} is not in this game") in flat
    assert (f'Line 5 of your mail ("move shrimp {empty} to {empty[0]}D4"): step 1 (move shrimp '
            f"{empty} to {empty[0]}D4):") in flat
    assert "(checked without the steps above that break a rule)" in flat
    assert (f'Line 6 of your mail ("larva {colour}: {sand}"): the polyp on {sand}: {sand} is sand; '
            "nothing can stand there") in flat
    said = re.findall(r"Suggestion: the nearest cells? where this would be legal: ([0-9A-G, ]+)",
                      text)
    assert len(said) == 2, text  # the shrimp and the sand cell; a move has no cell to offer
    shrimp = nearest_legal(rules, state, seat, f"{missing}:D5", f"shrimp new {{}}\n{take}")
    assert_nearest(said[0].split(", "), shrimp, f"{missing}:D5")
    placed = nearest_legal(rules, state, seat, f"{sand[0]}:{sand[1:]}",
                           f"larva {colour}: {{}}\n{take}")
    assert_nearest(said[1].split(", "), placed, f"{sand[0]}:{sand[1:]}")
    assert reef3.rules.to_json(reef3.state()) == reef3.rules.to_json(state)  # nothing played


def test_the_step_counts_within_the_line_the_player_wrote(reef3: Served) -> None:
    reef3.past_setup()
    state = reef3.state()
    seat = state.to_move
    colour = sorted(c for c, n in state.players[seat].larva.items() if n)[0]
    rules = reef3.rules
    take = rules.default_order(state, seat).strip().splitlines()[-1]
    growth = next(k.replace(":", "") for b in state.boards for k in rock_cells()[b]
                  if legal(rules, state, seat, f"larva {colour}: {k.replace(':', '')}\n{take}"))
    board = growth[0]
    sand = next(f"{board}{c}{r}" for c in "ABCDEFG" for r in range(1, 7)
                if f"{board}:{c}{r}" not in rock_cells()[int(board)])
    status, subject, text = reef3.send(seat, f"# my turn\nlarva {colour}: {growth} {sand}\n{take}")
    assert status == "rejected"
    assert subject == f"[{reef3.tag}] Order refused: line 2"
    # Steps 1 and 2 of that line are the larva cube and the first polyp; the second polyp is
    # refused, named by its cell (the cell is sand, or the player has no second polyp of the
    # colour behind the screen).
    assert (f'Line 2 of your mail ("larva {colour}: {growth} {sand}"): the polyp on {sand}: '
            in " ".join(text.split())), text


def test_das_riff_answers_every_bad_line_before_a_card_turns(
        request: pytest.FixtureRequest, factory: SessionFactory) -> None:
    imap, smtp = servers(request)
    riff = Served(factory, imap, smtp, "riff", players=2)
    state = riff.state()
    seat = state.to_move
    status, subject, text = riff.send(seat, "orders\nbuy 8 near\npass\nattach red male to coral 4"
                                            "\nshark my blue female\nend")
    assert status == "rejected"
    assert subject == f"[{riff.tag}] Order refused: lines 2, 4, 5"
    flat = " ".join(text.split())
    assert "3 lines of your mail break a rule:" in flat
    assert 'Line 2 of your mail ("buy 8 near"):' in flat and "no boat in column 8" in flat
    assert 'Line 4 of your mail ("attach red male to coral 4"):' in flat
    assert 'Line 5 of your mail ("shark my blue female"):' in flat
    assert flat.count("(checked without the lines above that break a rule)") == 2
    assert riff.rules.to_json(riff.state()) == riff.rules.to_json(state)
    # "buy 8 near": the nearest face-up cards this player could buy instead, checked here by
    # playing "buy <place>" on every place (a face-down card's would depend on what it is).
    said = re.search(r"Suggestion: the nearest places? where this would be legal: (.+)", text)
    assert said is not None, text
    suggested = said[1].split(", ")
    rows = ("near", "middle", "far middle", "far")
    places = [(c, r) for c in range(8) for r in range(4)]

    def far(p: tuple[int, int]) -> int:
        return abs(p[0] - 7) + abs(p[1] - 0)

    legal_places = [p for p in places
                    if legal(riff.rules, state, seat, f"buy {p[0] + 1} {rows[p[1]]}")
                    and (slot := state.area[area_row(seat, p[1])][p[0]]) is not None
                    and slot["up"]]
    assert legal_places and 1 <= len(suggested) == min(3, len(legal_places))
    named = [(int(s.split(" ", 1)[0]) - 1, rows.index(s.split(" ", 1)[1])) for s in suggested]
    assert set(named) <= set(legal_places)
    assert max(map(far, named)) <= min((far(p) for p in legal_places if p not in named),
                                       default=99)
