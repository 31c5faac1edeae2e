"""The Python message finder: what the interpreter calls is what the catalogue holds."""

from __future__ import annotations

from pbem.catalogues.pysource import Found, messages

SOURCE = '''
msg["Subject"] = "not a message"           # a subscript of a variable named like a marker
lines.append(msg("Final ranking: {places}.", places=join(
    [msg("{place}. {players}", place=n, players=p) for n, p in ranks])))
row = f(values=[msg("{colour} {value}", colour=c, value=v) for c, v in items])
text = msg("orders start with {verbs}", verbs=[cmsg("order verb", f) for f in FORMS])
count = nmsg("one shrimp", "{n} shrimps", n)
late = npgettext("clock", "{n} day", "{n} days", n)
tr.msg("a method call is a marker too")
msg(name)                                   # not a literal: nothing to extract
msg("")                                     # empty: nothing to extract
msg("adjacent " "literals")
'''


def test_nested_markers_are_found_and_subscripts_are_not() -> None:
    found = list(messages(SOURCE))
    assert Found(3, "Final ranking: {places}.", None) in found
    assert Found(4, "{place}. {players}", None) in found
    assert Found(5, "{colour} {value}", None) in found
    assert Found(6, "orders start with {verbs}", None) in found
    assert Found(6, "FORMS", "order verb") not in found
    assert Found(7, ("one shrimp", "{n} shrimps"), None) in found
    assert Found(8, ("{n} day", "{n} days"), "clock") in found
    assert Found(9, "a method call is a marker too", None) in found
    assert Found(12, "adjacent literals", None) in found
    ids = [m.id for m in found]
    assert "Subject" not in ids and "not a message" not in ids
    assert len(found) == 8


def test_a_context_marker_needs_both_literals() -> None:
    assert list(messages('cmsg("verb", "pass")\ncmsg(ctx, "pass")\ncmsg("verb", word)')) == [
        Found(1, "pass", "verb")]
