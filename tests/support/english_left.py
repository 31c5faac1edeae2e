"""Finding English left in a mail meant for another language, for the host and every game.

A fragment is a sentence or line of four words or more of an English msgid of the host's
catalogue (and the game's, when one is named), cut at placeholders, line ends and sentence
ends. A mail in ``lang`` must contain none of them, unless ``lang``'s own translation of that
message says it too (a name, a word the language borrows).
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import cache

from babel.messages.pofile import read_po

from pbem.catalogues.domains import HOST_DOMAIN, domains
from pbem.engine import registry

_PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd%]")
_PIECE_END = re.compile(r"\n|(?<=[.;:!?])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_TAG = re.compile(r"<[^>]+>")


@cache
def fragments(lang: str, game_name: str | None = None) -> tuple[str, ...]:
    """The English fragments a mail in ``lang`` must not contain."""
    found: set[str] = set()
    if game_name is not None:  # a former id or alias means the game's own catalogue too
        game_name = registry.get(game_name).name
    for name, domain in domains().items():
        if name not in (HOST_DOMAIN, game_name):
            continue
        with domain.po(lang).open("rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            said = " ".join(" ".join(str(s).split()) for s in strings)
            for text in ids:
                for piece in _PLACEHOLDER.split(str(text)):
                    for line in _PIECE_END.split(piece):
                        line = " ".join(line.strip(" .,;:()\"'«»").split())
                        if len(_WORD.findall(line)) >= 4 and line not in said:
                            found.add(line)
    return tuple(sorted(found))


def english_left(text: str, lang: str, game_name: str | None = None) -> list[str]:
    """The English fragments in ``text`` (plain text, or HTML: tags are dropped)."""
    plain = " ".join(html.unescape(_TAG.sub(" ", text)).split())
    return [f for f in fragments(lang, game_name) if f in plain]


# -- every message of a catalogue, read as a native reader would ---------------------------

# Common English words no French, German, Italian or Dutch sentence uses; a language's own
# words that look the same (German "die", Dutch "is") are taken out per language below.
_ENGLISH = """
the your you yours and with from this that these those which what when where who whose
there their they them then than but not only also just still every each some any other
others more most less least must should would could will shall can may might been being
has have had does did done was were are is be it its of to for by on at into onto over
under after before about again once here now yet how why all both either neither nor
played play plays move moves moved turn turns order orders game games player players mail
email reply send sent wait waiting nothing something everything anyone nobody everybody
please thanks welcome sorry help status card cards tile tiles stack stacks red yellow green
blue purple pink white orange black round score scores points point none one two three
four five six seven eight nine ten left right top bottom near far middle until deadline
"""
ENGLISH_WORDS = frozenset(_ENGLISH.split())

# Words of each language that are spelt as an English word above.
_NATIVE = {
    "fr": "a as est on son sont points point top score scores ton six sept huit orange",
    "de": "die was will also an in so hat am um bin wer rot top mail status orange",
    "it": "a e come dove me no top status sei tre orange email mail far bot",
    "nl": "is was are over al en of on wit top status mail had at score scores orange",
}
NATIVE = {lang: frozenset(words.split()) for lang, words in _NATIVE.items()}

_PLURAL_SLOT = re.compile(r"\w\((?:s|x|e|es|en|n|er|i|a|he|ne|nen)\)", re.IGNORECASE)
_LETTERS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# Not words of a sentence: an option's name (turn_limit) and typed values written as a player
# types them (on/off, red+yellow).
_TYPED = re.compile(r"\w+(?:_\w+)+|\w+(?:[/+]\w+)+")

# The other form of address, per language: its pronouns and the verb forms that go with them.
OTHER_FORM = {
    "fr": re.compile(r"\b(?:tu|toi|ton|ta|tes|te|t['’])(?=\W)", re.IGNORECASE),
    "it": re.compile(r"(?<=[a-zàèéìòù,;]\s)(?:Lei|Suo|Sua|Suoi|Sue|La|Le)\b"),
    # German "Sie"/"Ihr…"/"Ihnen" start a sentence as "she/they" too: only mid-sentence, or
    # after a verb ("Schreiben Sie"), is it the polite "you".
    "de": re.compile(r"(?<=[a-zäöüß,;)]\s)(?:Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b"
                     r"|\bIhnen\b"),
    "nl": re.compile(r"\b(?:u|uw|uzelf|bent u|hebt u|heeft u|kunt u|wilt u)\b",
                     re.IGNORECASE),
}


# Names, which every language writes as they are.
NAMES = ("Next Move Games", "Reef Encounter", "Play-by-email")


def english_words(text: str, lang: str, typed: frozenset[str] = frozenset()) -> list[str]:
    """The English words in ``text`` (a ``lang`` message, its placeholders filled), beyond
    those ``lang`` spells the same, names, and ``typed``: the English words a player may
    type (a game's order words), which a message may list on purpose."""
    native = NATIVE.get(lang, frozenset()) | typed
    for name in NAMES:
        text = text.replace(name, " ")
    return [w for w in _LETTERS.findall(_TYPED.sub(" ", text))
            if w.lower() in ENGLISH_WORDS and w.lower() not in native]


def plural_slots(text: str) -> list[str]:
    """Lazy plurals: "élevage(s)", "bateau(x)", "Punkt(e)", and a singular and its plural
    side by side ("Zucht/Zuchten", "boot/boten")."""
    both = [m.group(0) for m in _SLASHED.finditer(text)
            if _plain(m.group(2))[:2] == _plain(m.group(1))[:2]
            and len(m.group(2)) > len(m.group(1))]
    return _PLURAL_SLOT.findall(text) + both


_SLASHED = re.compile(r"\b([^\W\d_]{3,})/([^\W\d_]{3,})\b")


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold())
                   if not unicodedata.combining(c))


def other_form_of_address(text: str, lang: str) -> list[str]:
    """Words of the form of address ``lang``'s catalogues do not use (see their header)."""
    found = OTHER_FORM.get(lang)
    return found.findall(text) if found is not None else []
