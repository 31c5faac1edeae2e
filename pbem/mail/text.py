"""HTML mail made text: one line per block or break, quoted parts marked ``>`` as a text
client marks them, so one reader (pbem.mail.reply) finds the new text of any reply.

A stdlib ``HTMLParser`` walks the tags without recursion: ten thousand nested blockquotes cost
ten thousand steps. A Markdown converter (html2text) would escape and decorate the very
characters orders are written with; this one keeps text as typed.
"""

from __future__ import annotations

from html.parser import HTMLParser

_BLOCK = frozenset({
    "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
    "table", "ul", "ol", "dl", "dt", "dd", "hr", "section", "article", "header", "footer"})
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "wbr", "area", "col", "embed",
                   "source", "track", "param", "base"})
_HIDDEN = frozenset({"script", "style", "head", "title", "template"})
# Containers that hold the quoted mail: Gmail's, Thunderbird's attribution, Yahoo's, Proton's,
# and Apple's and everyone's blockquote.
_QUOTE_CLASSES = frozenset({"gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote",
                            "gmail_extra", "zmail_extra", "ymail_android_signature_quoted"})
# Outlook puts the quoted mail after these, not inside them: all that follows is the quote
# (Hotmail's rule "stopSpelling" too).
_QUOTE_FROM_HERE = frozenset({"divrplyfwdmsg", "outlookmessageheader", "appendonsend",
                              "mail-editor-reference-message-container", "stopspelling"})
# A signature's container: written under a "-- " line, as a text client would, so the reader
# sets it aside (and names it) like any signature.
_SIGNATURES = frozenset({"gmail_signature", "moz-signature", "signature",
                         "protonmail_signature_block", "ms-outlook-mobile-signature",
                         "yahoo-signature", "applemailsignature"})
MATCH_DEPTH = 16  # open tags searched for an end tag's match; a stray end tag costs no more


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line: list[str] = []
        self._line_depth = 0
        self._open: list[tuple[str, bool, bool]] = []  # tag, hidden, quote
        self._hidden = 0
        self._depth = 0  # quote containers open
        self._rest_quoted = False
        self._has_text = False  # the line so far holds more than white space
        self._signed = False  # a signature's container was met

    def _quote_level(self) -> int:
        return self._depth + (1 if self._rest_quoted else 0)

    def _break(self) -> None:
        """End the line, if it holds text."""
        if not self._has_text and not self._line:
            self._line_depth = self._quote_level()
            return
        if self._has_text:
            text = " ".join("".join(self._line).split())
            self.lines.append(f"> {text}" if self._line_depth else text)
        self._line, self._has_text = [], False
        self._line_depth = self._quote_level()

    def _blank(self) -> None:
        """An empty line, as a paragraph's end or ``<div><br></div>`` shows one (one at most,
        and none in a quote)."""
        self._break()
        if self._quote_level() == 0 and self.lines and self.lines[-1]:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        quote = tag == "blockquote"
        if attrs:
            named = {(value or "").lower() for key, value in attrs if key in {"id", "name"}}
            classes = {c.lower() for key, value in attrs if key == "class"
                       for c in (value or "").split()}
            if named & _QUOTE_FROM_HERE or classes & _QUOTE_FROM_HERE:
                self._break()
                self._rest_quoted = True
                self._line_depth = self._quote_level()
            quote = quote or bool(classes & _QUOTE_CLASSES)
            if (classes | named) & _SIGNATURES and not self._signed:
                self._break()
                self._signed = True
                if self._quote_level() == 0:
                    self.lines.append("-- ")
        if tag == "br" and not self._has_text:
            self._blank()
        elif tag in _BLOCK or quote:
            self._break()
        if tag in _VOID:
            return
        hidden = tag in _HIDDEN
        self._open.append((tag, hidden, quote))
        if hidden:
            self._hidden += 1
        if quote:
            self._depth += 1
            self._line_depth = self._quote_level()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        open_tags = self._open
        for back in range(1, min(len(open_tags), MATCH_DEPTH) + 1):
            if open_tags[-back][0] == tag:
                for _ in range(back):
                    _, hidden, quote = open_tags.pop()
                    self._hidden -= hidden
                    self._depth -= quote
                break
        if tag == "p":
            self._blank()
        elif tag in _BLOCK:
            self._break()

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if not self._has_text and data.strip():
            self._line_depth = self._quote_level()
            self._has_text = True
        self._line.append(data)

    def text(self) -> str:
        self._break()
        return "\n".join(self.lines).strip("\n")


def html_to_text(html: str) -> str:
    """``html`` as text: its blocks and breaks as lines, quoted parts as ``>`` lines."""
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # broken HTML: keep what was read
        pass
    return parser.text()

