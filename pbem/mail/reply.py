"""The new text of a reply: what its writer typed, apart from the quoted mail and the signature.

Mail clients quote in many shapes: ``>`` lines under an attribution ("On … wrote:", in any
language, sometimes folded over two lines), the whole previous mail unprefixed under a header
block ("From: … Sent: …") or a separator ("-----Original Message-----"), and the writer's
text above the quote, below it, or between quoted blocks. HTML mails arrive here already made
text, their quote containers as ``>`` lines (pbem.mail.text).

Linear in the text: every line is looked at a bounded number of times, and the patterns run
only on lines of bounded length (an attribution or a header is never long).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LONGEST = 400  # characters: a longer line is never an attribution, header or signature
# A client folds a line near 72 or 78 characters: a shorter first line (an order, "play 7")
# was not folded, and joins no attribution.
FOLDED = 30
HEADER_WINDOW = 8  # lines in which a header block shows a second header
QUOTE_GAP = 2  # blank lines allowed between an attribution and its quote

# The verb of "On … wrote:" and its translations, which end the line with a colon; looked
# for as plain substrings of the lowered line (one pass each, in C).
_WROTE = ("wrote", "a écrit", "schrieb", "ha scritto", "schreef", "geschreven", "escribió",
          "escreveu", "napisał", "написал", "пишет", "skrev", "napsal", "のメッセージ", "のメール",
          "書きました", "写道", "寫道")
_DIGIT = re.compile(r"\d")
# A year or a time of day, as attributions date the quoted mail.
_WHEN = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|(?<!\d)\d{1,2}[:.h]\d\d(?!\d)")
# The line "-----Original Message-----", "---------- Forwarded message ---------" and their
# translations: dashes, words, dashes. Outlook's rule of underscores. Apple's and others'
# "Begin forwarded message:".
_SEPARATOR = re.compile(
    r"^(?:-{2,}\s*[^\W\d_][^-]{2,60}?\s*-{2,}|_{16,}"
    r"|begin forwarded message\s*:|début du message (?:réexpédié|transféré)\s*:"
    r"|anfang der weitergeleiteten nachricht\s*:|inizio messaggio inoltrato\s*:"
    r"|begin doorgestuurd bericht\s*:|comienzo del mensaje reenviado\s*:"
    r"|início da mensagem reencaminhada\s*:|начало пересылаемого сообщения\s*:)$",
    re.IGNORECASE,
)
# A header of a quoted mail's header block, with Outlook's optional bold stars: "*From:* …",
# "De : …", "От: …", "差出人: …".
_HEADER = re.compile(r"^\*{0,2}([^\W\d_][^\W\d_]*(?: [^\W\d_]+)?)\*{0,2}\s*[:：]")
_HEADER_KINDS = {
    "from": ("from", "de", "von", "da", "van", "od", "от", "från", "fra", "差出人", "发件人",
             "寄件者", "寄件人", "expéditeur", "remitente", "absender", "mittente", "afzender"),
    "sent": ("sent", "date", "datum", "envoyé", "gesendet", "inviato", "data", "verzonden",
             "enviado", "enviada", "fecha", "wysłano", "wysłane", "отправлено", "дата",
             "skickat", "sendt", "odesláno", "送信日時", "日付", "发送时间", "日期", "寄件日期",
             "envoyé le", "sent on", "enviada em", "enviado em", "data de envio"),
    "to": ("to", "à", "a", "an", "aan", "para", "do", "кому", "till", "til", "komu", "宛先",
           "收件人", "destinataire", "destinatario"),
    "cc": ("cc", "kopie", "cópia", "copia", "копия", "kopia", "抄送", "副本"),
    "subject": ("subject", "objet", "betreff", "oggetto", "onderwerp", "asunto", "assunto",
                "temat", "тема", "ämne", "emne", "předmět", "件名", "主题", "主旨"),
}
_HEADER_KIND = {word: kind for kind, words in _HEADER_KINDS.items() for word in words}
# A mobile client's line under the text: "Sent from my iPhone" and its translations, and the
# like of webmail apps.
_MOBILE = re.compile(
    r"^(?:"
    r"sent from (?:my |the )?.{1,60}|sent with .{1,60}|sent via .{1,60}|sent using .{1,60}"
    r"|get outlook for .{1,40}|sent from outlook.{0,40}"
    r"|envoyé (?:de|depuis) (?:mon |ma |l'|le )?.{1,60}|envoyé avec .{1,60}"
    r"|von meinem .{1,60} gesendet|gesendet von (?:meinem )?.{1,60}|gesendet mit .{1,60}"
    r"|inviato da .{1,60}|inviato con .{1,60}"
    r"|verzonden (?:vanaf|met|van) .{1,60}|verstuurd (?:vanaf|met|van) .{1,60}"
    r"|enviado (?:desde|do|de|con|com|a partir do) .{1,60}|enviada (?:desde|do|de) .{1,60}"
    r"|wysłane (?:z|ze|przy użyciu) .{1,60}"
    r"|отправлено (?:с|из|со) .{1,60}"
    r"|skickat från .{1,60}|skickades från .{1,60}|sendt fra .{1,60}"
    r"|odesláno z .{1,60}|odeslano z .{1,60}"
    r"|.{1,40}から送信|发自我的.{1,40}|從我的.{1,40}傳送|发自 .{1,40}"
    r")$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NewText:
    """A reply's own text: ``text`` (quotes removed, signature lines blanked or cut, so its
    line numbers are those of the new text) and ``signature``, each set-aside line with its
    number in the new text."""

    text: str
    signature: tuple[tuple[int, str], ...] = ()


def _bounded(line: str) -> str:
    return line.strip() if len(line) <= LONGEST else ""


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _ends_colon(stripped: str) -> bool:
    return stripped.endswith((":", "："))


def is_attribution(line: str, *, dated: bool = False) -> bool:
    """An "On … wrote:" line in one of the languages known; ``dated``: one that also names a
    date or an address, as every client's own attribution does (a player's "Here is what I
    wrote:" does not)."""
    stripped = _bounded(line)
    if not stripped or not _ends_colon(stripped):
        return False
    lowered = stripped.lower()
    if not any(verb in lowered for verb in _WROTE):
        return False
    return not dated or "@" in stripped or _DIGIT.search(stripped) is not None


def _addressed(line: str) -> bool:
    """Any client's attribution: a line ending in a colon that names an address and a date or
    time ("2026年12月5日(土) 10:00 Alice <alice@example.org>:"), right above a quote."""
    stripped = _bounded(line)
    return _ends_colon(stripped) and "@" in stripped and _DIGIT.search(stripped) is not None


def _header_kind(line: str) -> str | None:
    stripped = _bounded(line)
    head = _HEADER.match(stripped)
    return None if head is None else _HEADER_KIND.get(head.group(1).lower())


def _header_block(lines: list[str], start: int) -> bool:
    """Whether a quoted mail's header block begins at ``start``: a header, then a header of
    another kind within a few lines."""
    first = _header_kind(lines[start])
    if first is None:
        return False
    for line in lines[start + 1:start + HEADER_WINDOW]:
        kind = _header_kind(line)
        if kind is not None and kind != first:
            return True
    return False


def _quote_follows(lines: list[str], after: int) -> bool:
    """Whether ``>`` lines follow line ``after`` (a few blank lines between allowed)."""
    for line in lines[after + 1:after + 2 + QUOTE_GAP]:
        if _quoted(line):
            return True
        if line.strip():
            return False
    return False


def _cuts(lines: list[str], i: int) -> bool:
    """Whether the rest of the mail from line ``i`` is the quoted mail (its top: a separator,
    a header block, or an attribution over an unprefixed quote)."""
    stripped = _bounded(lines[i])
    if not stripped:
        return False
    return (_SEPARATOR.match(stripped) is not None or _header_block(lines, i)
            or (is_attribution(stripped, dated=True) and not _quote_follows(lines, i)))


def _may_fold(lines: list[str], i: int) -> bool:
    """Whether lines ``i`` and ``i + 1`` may be one attribution folded: the first long (a
    client folds near 72 or 78 characters), naming a year or a time (which no order does),
    under a blank line or at the top, as clients write it; the second not a whole dated
    attribution of its own."""
    return (i + 1 < len(lines) and len(_bounded(lines[i])) >= FOLDED
            and (i == 0 or not lines[i - 1].strip())
            and _WHEN.search(_bounded(lines[i])) is not None
            and not (is_attribution(lines[i + 1]) and _DIGIT.search(lines[i + 1]) is not None))


def _attribution_at(lines: list[str], i: int) -> int:
    """How many lines (1 or 2) from ``i`` make an attribution above a ``>`` quote; 0 if none."""
    stripped = _bounded(lines[i])
    if not stripped or _quoted(stripped):
        return 0
    if _quote_follows(lines, i) and (is_attribution(stripped) or _addressed(stripped)):
        return 1
    if (_may_fold(lines, i) and not _quoted(lines[i + 1]) and not _addressed(lines[i + 1])):
        joined = f"{stripped} {_bounded(lines[i + 1])}"
        if (_bounded(lines[i + 1]) and _quote_follows(lines, i + 1)
                and (is_attribution(joined) or _addressed(joined))):
            return 2
    return 0


def _folded_top(lines: list[str], i: int) -> bool:
    """An attribution folded over lines ``i`` and ``i + 1`` above an unprefixed quote."""
    if not _may_fold(lines, i) or not _bounded(lines[i + 1]):
        return False
    joined = f"{_bounded(lines[i])} {_bounded(lines[i + 1])}"
    return (not is_attribution(lines[i], dated=True) and is_attribution(joined, dated=True)
            and not _quote_follows(lines, i + 1))


def without_quotes(text: str) -> list[str]:
    """The lines of ``text`` the writer typed: quoted lines, their attributions and
    everything under the top of an unprefixed quote left out."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _quoted(line):
            i += 1
            continue
        if _cuts(lines, i) or _folded_top(lines, i):
            break
        skip = _attribution_at(lines, i)
        if skip:
            i += skip
            continue
        kept.append(line.rstrip())
        i += 1
    return kept


def _is_delimiter(line: str) -> bool:
    return line.rstrip() == "--"


def new_text(text: str) -> NewText:
    """``text`` without its quotes; its signature (under a ``-- `` line) and mobile-client
    lines ("Sent from my iPhone") set aside with their line numbers."""
    kept = without_quotes(text)
    signature: list[tuple[int, str]] = []
    end = next((i for i, line in enumerate(kept) if _is_delimiter(line)), len(kept))
    signature += [(i + 1, line.strip()) for i, line in enumerate(kept[end + 1:], start=end + 1)
                  if line.strip()]
    body = kept[:end]
    for i, line in enumerate(body):
        stripped = _bounded(line)
        if stripped and _MOBILE.match(stripped):
            signature.append((i + 1, stripped))
            body[i] = ""
    while body and not body[-1].strip():
        body.pop()
    return NewText("\n".join(body), tuple(sorted(signature)))
