"""Watching in the five languages: the command words of each, the answer in the sender's
language; ``help`` lists the new commands; the ``turn`` and ``digest`` settings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from pbem.i18n import translator
from pbem.pipeline.handlers.help import help_lines
from pbem.store import SessionFactory
from pbem.store.tables import Watch
from tests.support.seated import Table
from tests.watch.conftest import ZOE, Post, text

WORDS = {"en": ("watch", "unwatch", "You watch this game"),
         "fr": ("suivre", "désabonner", "Vous suivez cette partie"),
         "de": ("zuschauen", "abbestellen", "Du schaust diesem Spiel zu"),
         "it": ("segui", "smetti", "Segui questa partita"),
         "nl": ("volgen", "ontvolgen", "Je volgt dit spel")}
ASKED = {"en": "Stop watching this game? code", "fr": "Ne plus suivre cette partie ? code",
         "de": "Diesem Spiel nicht mehr zuschauen? Code",
         "it": "Smettere di seguire questa partita? codice",
         "nl": "Dit spel niet meer volgen? code"}


@pytest.mark.parametrize("lang", list(WORDS))
def test_watch_and_unwatch_in_each_language(post: Post, table: Table, lang: str) -> None:
    watch, unwatch, confirmed = WORDS[lang]
    result = post.watch(ZOE, f"{watch} {table.tag}", lang=lang)
    assert result.status == "applied", result.reason
    assert post.answer(result)[0].strip() == f"[{table.tag}] {confirmed}"
    asked = post.answer(post.send(ZOE, f"{unwatch} {table.tag}", lang=lang))[0]
    assert " ".join(asked.split()).startswith(f"[{table.tag}] {ASKED[lang]} "), asked


@pytest.mark.parametrize("lang", list(WORDS))
def test_help_lists_watch_unwatch_and_history(lang: str) -> None:
    watch, unwatch, _ = WORDS[lang]
    lines = "\n".join(help_lines(translator(lang)))
    assert f"  {watch} TAG [" in lines
    assert f"  {unwatch} TAG " in lines
    history = {"en": "history", "fr": "récit", "de": "verlauf", "it": "cronaca",
               "nl": "verloop"}[lang]
    assert f"  {history} " in lines


def test_turn_mails_once_a_turn_and_digest_once_a_day(post: Post, table: Table,
                                                      factory: SessionFactory) -> None:
    post.watch(ZOE, f"watch {table.tag} turn")
    post.watch("yan@watchers.test", f"watch {table.tag} digest")
    assert post.watchers_pass() == []  # nothing played since the confirmation
    # The test game counts no turns of its own: each move is a turn, as its mails name them.
    table.send(0, f"play {table.state().hands[0][0]}")
    (turn,) = post.watchers_pass()
    assert "Since your last mail of this game:" in text(turn)
    assert post.watchers_pass() == []
    # The digest's day has not passed since the watch began.
    assert post.watchers_pass("yan@watchers.test") == []
    with factory() as s:
        for w in s.exec(select(Watch)).all():
            w.mailed_at = w.created - timedelta(days=2)
            s.add(w)
        s.commit()
    (digest,) = post.watchers_pass("yan@watchers.test")
    assert str(digest["Subject"]).startswith(f"[{table.tag}] Daily digest — Turn ")
    assert f"Test Cards [{table.tag}]: what happened since your last digest" in text(digest)
