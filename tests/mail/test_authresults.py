"""The receiving server's verdict (Authentication-Results) on real headers as mail servers
write them: pass, fail, another server's header, an unaligned domain, and a forged header the
sender put below ours."""

from __future__ import annotations

import pytest

from pbem.mail.authresults import verdict

OURS = "mx.host.test"
FROM = "alice@players.test"

# As rspamd writes them (one header, all three methods, comments in parentheses).
RSPAMD_PASS = (
    "Authentication-Results: mx.host.test;\n"
    "\tdkim=pass header.d=players.test header.s=dkim header.b=Ab3dEf1x;\n"
    "\tspf=pass (mx.host.test: domain of alice@players.test designates 192.0.2.10 as "
    "permitted sender) smtp.mailfrom=alice@players.test;\n"
    "\tdmarc=pass (policy=reject) header.from=players.test\n")
# OpenDKIM's own header (Postfix + OpenDKIM milter), the key length in a comment.
OPENDKIM_PASS = (
    "Authentication-Results: mx.host.test;\n"
    "\tdkim=pass (2048-bit key; unprotected) header.d=players.test "
    "header.i=@players.test header.a=rsa-sha256 header.s=mail header.b=AbCdEf12;\n"
    "\tdkim-atps=neutral\n")
# As Gmail's receiving servers write it (the authserv-id is theirs, not ours).
GMAIL = (
    "Authentication-Results: mx.google.com;\n"
    "       dkim=pass header.i=@players.test header.s=20230601 header.b=kQx1Yz9A;\n"
    "       spf=pass (google.com: domain of alice@players.test designates 192.0.2.10 as "
    "permitted sender) smtp.mailfrom=alice@players.test;\n"
    "       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=players.test\n")
# rspamd on a forged mail: nothing passes.
FAIL = (
    "Authentication-Results: mx.host.test;\n"
    "\tdkim=none;\n"
    "\tspf=softfail (mx.host.test: domain of alice@players.test does not designate "
    "203.0.113.66 as permitted sender) smtp.mailfrom=alice@players.test;\n"
    "\tdmarc=fail reason=\"SPF not aligned (relaxed), No valid DKIM\" "
    "header.from=players.test (policy=none)\n")
# Passes, but for the sender's own domain, not the From's.
UNALIGNED = (
    "Authentication-Results: mx.host.test;\n"
    "\tdkim=pass header.d=evil.test header.s=s1 header.b=zzzz;\n"
    "\tspf=pass smtp.mailfrom=bounce@mailer.evil.test;\n"
    "\tdmarc=none header.from=players.test\n")


def message(*headers: str, frm: str = FROM) -> bytes:
    head = "".join(headers) + (f"From: Alice <{frm}>\nTo: games@host.test\n"
                               "Subject: [x-1]\nMessage-ID: <m@players.test>\n\nplay 1\n")
    return head.encode()


@pytest.mark.parametrize("header", [RSPAMD_PASS, OPENDKIM_PASS])
def test_our_servers_pass_counts(header: str) -> None:
    assert verdict(message(header), FROM, OURS).ok


def test_a_subdomain_of_the_from_domain_is_aligned() -> None:
    header = OPENDKIM_PASS.replace("header.d=players.test", "header.d=mail.players.test")
    assert verdict(message(header), FROM, OURS).ok


def test_a_fail_is_refused_and_says_what_it_saw() -> None:
    got = verdict(message(FAIL), FROM, OURS)
    assert not got.ok
    assert got.why == ("mx.host.test found no DKIM, SPF or DMARC pass for players.test "
                       "(dkim=none, spf=softfail for players.test, dmarc=fail for players.test)")


def test_another_servers_header_is_no_verdict() -> None:
    got = verdict(message(GMAIL), FROM, OURS)
    assert (got.ok, got.why) == (False, "its topmost Authentication-Results header is from "
                                        "mx.google.com, not from mx.host.test")


def test_no_header_is_no_verdict() -> None:
    got = verdict(message(), FROM, OURS)
    assert (got.ok, got.why) == (False, "it has no Authentication-Results header from "
                                        "mx.host.test")


def test_a_pass_for_another_domain_is_refused() -> None:
    got = verdict(message(UNALIGNED), FROM, OURS)
    assert not got.ok
    assert "dkim=pass for evil.test, spf=pass for mailer.evil.test" in got.why


def test_a_forged_pass_below_our_fail_is_ignored() -> None:
    """The sender wrote a passing header in our server's name; ours, on top, failed."""
    assert not verdict(message(FAIL, RSPAMD_PASS), FROM, OURS).ok
    assert verdict(message(RSPAMD_PASS, FAIL), FROM, OURS).ok  # the order is what counts


def test_a_forged_pass_below_another_servers_header_is_ignored() -> None:
    """Our server added none (misconfigured): a forged one further down must not count."""
    assert not verdict(message(GMAIL, RSPAMD_PASS), FROM, OURS).ok


def test_an_unreadable_header_is_no_verdict() -> None:
    got = verdict(message("Authentication-Results: mx.host.test; ;;=\n"), FROM, OURS)
    assert not got.ok and got.why.startswith("its topmost Authentication-Results header "
                                             "cannot be read")


def test_authserv_id_is_compared_without_case() -> None:
    assert verdict(message(RSPAMD_PASS), FROM, "MX.Host.Test").ok


@pytest.mark.parametrize(("signed", "sender"), [
    ("test", "alice@players.test"),  # a public suffix is nobody's domain
    ("co.uk", "alice@players.co.uk"),
    ("other.co.uk", "alice@players.co.uk"),  # siblings under a public suffix
    ("evil.github.io", "alice@players.github.io"),  # a private registry's suffix
])
def test_a_public_suffix_is_never_aligned(signed: str, sender: str) -> None:
    domain = sender.rpartition("@")[2]
    header = OPENDKIM_PASS.replace("header.d=players.test", f"header.d={signed}").replace(
        "header.i=@players.test", f"header.i=@{signed}")
    got = verdict(message(header, frm=sender), sender, OURS)
    assert not got.ok and domain in got.why


def test_a_parent_within_the_organisation_is_aligned() -> None:
    sender = "alice@mail.players.co.uk"
    header = OPENDKIM_PASS.replace("header.d=players.test", "header.d=players.co.uk")
    assert verdict(message(header, frm=sender), sender, OURS).ok
