"""The new text of a reply (pbem.mail.reply, pbem.mail.text): each shape a client quotes in,
and the lines it must never take for a quote."""

from __future__ import annotations

import pytest

from pbem.mail.reading import unflowed
from pbem.mail.reply import new_text
from pbem.mail.text import html_to_text

QUOTE = "> Your move.\n> play 13\n> secret old"


def lines(text: str) -> list[str]:
    return [line for line in new_text(text).text.split("\n") if line.strip()]


@pytest.mark.parametrize("attribution", [
    "On Fri, 5 Dec 2026 at 10:00, Host <games@host.test> wrote:",
    "Le ven. 5 déc. 2026 à 10:00, Host <games@host.test> a écrit :",
    "Am Fr., 5. Dez. 2026 um 10:00 Uhr schrieb Host <games@host.test>:",
    "Il giorno ven 5 dic 2026 alle ore 10:00 Host <games@host.test> ha scritto:",
    "Op vr 5 dec 2026 om 10:00 schreef Host <games@host.test>:",
    "El vie, 5 dic 2026 a las 10:00, Host (<games@host.test>) escribió:",
    "Em sex., 5 de dez. de 2026 às 10:00, Host <games@host.test> escreveu:",
    "W dniu pt., 5.12.2026 o 10:00 Host <games@host.test> napisał(a):",
    "пятница, 5 декабря 2026 г., пользователь Host <games@host.test> написал:",
    "пт, 5 дек. 2026 г. в 10:00, Host <games@host.test>:",
    "Den fre 5 dec. 2026 kl 10:00 skrev Host <games@host.test>:",
    "Den fre. 5. dec. 2026 kl. 10.00 skrev Host <games@host.test>:",
    "pá 5. 12. 2026 v 10:00 odesílatel Host <games@host.test> napsal:",
    "2026年12月5日(金) 10:00 Host <games@host.test>:",
    "Host <games@host.test> 于2026年12月5日周五 10:00写道：",
    "* Host <games@host.test> [2026-12-05 10:00 +0100]:",
    "Host wrote:",
])
def test_an_attribution_over_a_quote_is_left_out_in_every_language(attribution: str) -> None:
    assert lines(f"play 19\n\n{attribution}\n{QUOTE}") == ["play 19"]


@pytest.mark.parametrize("attribution", [
    "On Fri, 5 Dec 2026 at 10:00, Host <games@host.test> wrote:",
    "--- On Fri, 12/5/26, Host <games@host.test> wrote:",
    "On Friday, December 5, 2026, 10:00:00 AM GMT+1, Host <games@host.test> wrote:",
    "пятница, 5 декабря 2026 г., пользователь Host <games@host.test> написал:",
])
def test_a_dated_attribution_over_an_unprefixed_quote_cuts_the_rest(attribution: str) -> None:
    assert lines(f"play 19\n\n{attribution}\n\nYour move.\nplay 13\nsecret old") == ["play 19"]


def test_an_attribution_folded_over_two_lines_is_left_out() -> None:
    folded = "On Fri, 5 Dec 2026 at 10:00, The Test Host of games\n<games@host.test> wrote:"
    assert lines(f"play 19\n\n{folded}\n{QUOTE}") == ["play 19"]
    assert lines(f"play 19\n\n{folded}\n\nYour move.\nplay 13") == ["play 19"]


def test_an_order_line_right_above_an_attribution_is_never_taken_for_its_first_half() -> None:
    order = "place pink polyp on 2F3 paying white and grey"
    assert lines(f"{order}\nHost <games@host.test> wrote:\n{QUOTE}") == [order]
    assert lines(f"{order}\nOn Fri, 5 Dec 2026 Host wrote:\n\nYour move.") == [order]


def test_a_players_own_sentence_ending_in_wrote_does_not_cut_the_mail() -> None:
    # undated: not a client's attribution over an unprefixed quote
    assert lines("Here is what I wrote:\nplay 19") == ["Here is what I wrote:", "play 19"]


@pytest.mark.parametrize("heads", [
    ("From: Host <games@host.test>", "Sent: Friday, 5 December 2026 10:00", "To: Alice",
     "Subject: [reef-12] your move"),
    ("*From:* Host <games@host.test>", "*Sent:* Friday, 5 December 2026 10:00", "*To:* Alice",
     "*Subject:* [reef-12] your move"),
    ("De : Host", "Envoyé : vendredi 5 décembre 2026 10:00", "À : Alice", "Objet : partie"),
    ("Von: Host", "Gesendet: Freitag, 5. Dezember 2026 10:00", "An: Alice", "Betreff: Zug"),
    ("Da: Host", "Inviato: venerdì 5 dicembre 2026 10:00", "A: Alice", "Oggetto: mossa"),
    ("Van: Host", "Verzonden: vrijdag 5 december 2026 10:00", "Aan: Alice", "Onderwerp: zet"),
    ("От: Host", "Отправлено: 5 декабря 2026 г. 10:00", "Кому: Alice", "Тема: ход"),
    ("差出人: Host", "送信日時: 2026年12月5日 10:00", "宛先: Alice", "件名: 手番"),
    ("Date: Fri, 5 Dec 2026 10:00", "Subject: [reef-12] your move"),  # Hotmail's HTML
])
def test_a_header_block_cuts_the_quoted_mail_under_it(heads: tuple[str, ...]) -> None:
    assert lines("play 19\n\n" + "\n".join(heads) + "\n\nYour move.\nplay 13") == ["play 19"]


@pytest.mark.parametrize("separator", [
    "-----Original Message-----", "-----Ursprüngliche Nachricht-----",
    "-----Message d'origine-----", "________________________________",
    "---------- Forwarded message ---------", "Begin forwarded message:",
])
def test_a_separator_cuts_the_quoted_mail_under_it(separator: str) -> None:
    assert lines(f"play 19\n\n{separator}\nFrom: Host\nplay 13") == ["play 19"]


def test_bottom_posted_and_inline_replies_keep_the_text_below_and_between_quotes() -> None:
    bottom = "On 05/12/2026 10:00, Host wrote:\n> Your move.\n> play 13\n\nplay 19\nsecret s"
    assert lines(bottom) == ["play 19", "secret s"]
    inline = "> Your move.\n\nplay 19\n\n> Send your secret.\n>> secret old\n\nsecret s"
    assert new_text(inline).text == "\nplay 19\n\n\nsecret s"  # line numbers kept


def test_signature_and_mobile_lines_are_set_aside_with_their_line_numbers() -> None:
    read = new_text("play 19\nSent from my BlackBerry\n-- \nAlex\nwww.alex.test\n\n> quote")
    assert read.text == "play 19"
    assert read.signature == ((2, "Sent from my BlackBerry"), (4, "Alex"), (5, "www.alex.test"))


@pytest.mark.parametrize("line", [
    "Sent from my iPhone", "Envoyé de mon iPhone", "Von meinem iPhone gesendet",
    "Inviato da iPhone", "Verzonden vanaf mijn iPhone", "Enviado desde mi iPhone",
    "Enviado do meu iPhone", "Wysłane z mojego iPhone'a", "Отправлено с iPhone",
    "Skickat från min iPhone", "Sendt fra min iPhone", "Odesláno z iPhonu", "iPhoneから送信",
    "发自我的iPhone", "Get Outlook for Android", "Sent from Yahoo Mail on Android",
])
def test_a_mobile_clients_line_is_set_aside_in_every_language(line: str) -> None:
    assert new_text(f"play 19\n\n{line}").signature == ((3, line),)


@pytest.mark.parametrize(("html", "text"), [
    ('<div>play 19</div><div class="gmail_quote"><div class="gmail_attr">On … wrote:</div>'
     '<blockquote class="gmail_quote">play 13</blockquote></div>', "play 19"),
    ('<div>play 19</div><div class="moz-cite-prefix">On … wrote:</div>'
     '<blockquote type="cite">play 13</blockquote>', "play 19"),
    ('<div>play 19</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg">'
     '<b>From:</b> Host</div><div>play 13</div>', "play 19"),
    ('<div>play 19</div><div id="OutlookMessageHeader">From: Host</div><p>play 13</p>',
     "play 19"),
    ('<div>play 19</div><div class="yahoo_quoted"><div>On … wrote:</div>play 13</div>',
     "play 19"),
    ('<div>play 19</div><blockquote type="cite"><div>On … wrote:</div>play 13</blockquote>'
     '<div>secret s</div>', "play 19\nsecret s"),
    ('<div>play 19</div><hr id="stopSpelling">Date: Fri, 5 Dec<br>Subject: move<br>play 13',
     "play 19"),
    ("<p>play 19<br>secret s</p><ul><li>a</li><li>b</li></ul>", "play 19\nsecret s\n\na\nb"),
    ("<div>Hi,</div><div><br></div><div>play 19</div><div><br></div><div><br></div><div>x</div>",
     "Hi,\n\nplay 19\n\nx"),
])
def test_html_quote_containers_are_quotes_and_blocks_are_lines(html: str, text: str) -> None:
    assert new_text(html_to_text(html)).text == text


def test_an_html_signature_container_is_a_signature_set_aside() -> None:
    html = ('<div>play 19</div><div>secret s</div><div class="gmail_signature">Alex Smith<br>'
            'CEO, Example</div><div class="gmail_quote">On … wrote:<blockquote>play 13'
            '</blockquote></div>')
    read = new_text(html_to_text(html))
    assert read.text == "play 19\nsecret s"
    assert read.signature == ((4, "Alex Smith"), (5, "CEO, Example"))


def test_format_flowed_is_unflowed_with_and_without_delsp() -> None:
    flowed = "On Fri, 5 Dec 2026 at 10:00, Host <games@host.te \nst> wrote:\n> play \n> 13\n"
    assert unflowed(flowed, delsp=True).split("\n") == [
        "On Fri, 5 Dec 2026 at 10:00, Host <games@host.test> wrote:", "> play13", ""]
    assert unflowed(flowed, delsp=False).split("\n")[1] == "> play 13"
    assert unflowed("play \n19\n-- \nAlex", delsp=False) == "play 19\n-- \nAlex"
