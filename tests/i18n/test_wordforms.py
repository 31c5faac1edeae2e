"""One folding for every word a player types: the host's commands and every game's orders."""

from __future__ import annotations

import pytest

from pbem.i18n.wordforms import fold
from pbem.pipeline.command_words import canonical, is_word, plain


@pytest.mark.parametrize(("typed", "folded"), [
    ("Vérifier", "verifier"),          # accents dropped
    ("PÊCHER", "pecher"),
    ("Weiß", "weiss"),                 # casefolded: ß is ss
    ("WEISS", "weiss"),
    ("ｐａｓｓ", "pass"),              # a phone's full-width letters are the letters
    ("ＰＡＳＳ", "pass"),
    ("ﬁn", "fin"),                     # a ligature is its letters
    ("Männchen", "mannchen"),
])
def test_fold(typed: str, folded: str) -> None:
    assert fold(typed) == folded


@pytest.mark.parametrize("typed", ["Straße", "ＨＥＬＰ", "Aïde", "ﬁn", "Ｓｔａｔｕｓ"])
def test_host_commands_fold_as_order_words_do(typed: str) -> None:
    # The host's command words once folded with NFKD + lower(): "ß" stayed "ß" there while
    # the games read it as "ss". A word must match alike wherever it is typed.
    assert plain(f"  {typed} ") == fold(typed)


def test_a_command_word_typed_in_full_width_or_any_case_is_read() -> None:
    assert is_word("ＨＥＬＰ", "help")
    assert canonical("  Ｓｔａｔｕｓ ") == "status"
