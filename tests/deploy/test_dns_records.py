"""``pbem dns`` prints the records the host's mail needs; ``pbem doctor --dns`` checks them
against a real DNS server (Debian's NSD on 127.0.0.1) serving exactly what ``pbem dns`` printed,
then with each record taken away in turn: one FAIL with its fix each time."""

from __future__ import annotations

import base64
import socket
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests.support import dnsserver
from tests.support.dkimkey import make_dkim_key

runner = CliRunner()
DOMAIN = "games.example.org"
ZONES = [DOMAIN, "127.in-addr.arpa"]


@pytest.fixture(scope="module")
def initialised(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One key and one initialised host for the module: (folder, config text)."""
    why = dnsserver.missing()
    if why:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("host")
    public = make_dkim_key(folder / "dkim", DOMAIN, "pbem")
    text = (f'data_dir = "{folder / "data"}"\n'
            f'[mail]\nfrom_address = "games@{DOMAIN}"\n'
            f'operator_address = "op@players.test"\n'
            f'[dns]\ndkim_selector = "pbem"\ndkim_public_key = "{public}"\n'
            'address = "127.0.0.1"\n')
    (folder / "config.toml").write_text(text)
    assert runner.invoke(app, ["--config", str(folder / "config.toml"), "init"]).exit_code == 0
    return folder, text


@pytest.fixture
def config(initialised: tuple[Path, str], tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own copy of the config (a test may change it)."""
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    path = tmp_path / "config.toml"
    path.write_text(initialised[1])
    return path


def pbem(config: Path, *args: str, code: int) -> str:
    result = runner.invoke(app, ["--config", str(config), *args])
    assert result.exit_code == code, result.output
    return result.output


def with_nameserver(config: Path, address: str) -> Path:
    path = config.with_name("with-ns.toml")
    path.write_text(config.read_text() + f'nameserver = "{address}"\n')
    return path


def records(printed: str) -> list[str]:
    return [ln for ln in printed.splitlines() if ln.strip() and not ln.startswith(";")]


def kind(line: str) -> str:
    """MX, A, PTR, or for a TXT record what it holds: SPF, DKIM or DMARC."""
    rtype = line.split()[3]
    if rtype != "TXT":
        return rtype
    value = line.split('"')[1]
    return next(k for k, start in (("SPF", "v=spf1"), ("DKIM", "v=DKIM1"),
                                   ("DMARC", "v=DMARC1")) if value.startswith(start))


def test_dns_prints_every_record(config: Path) -> None:
    out = pbem(config, "dns", code=0)
    lines = records(out)
    kinds = [ln.split()[3] for ln in lines]
    assert kinds == ["MX", "A", "TXT", "TXT", "TXT", "PTR"], out
    assert [ln.split() for ln in lines][:2] == [
        [f"{DOMAIN}.", "3600", "IN", "MX", "10", f"{DOMAIN}."],
        [f"{DOMAIN}.", "3600", "IN", "A", "127.0.0.1"]]
    assert '"v=spf1 mx -all"' in out
    assert f"pbem._domainkey.{DOMAIN}." in out and '"v=DKIM1; k=rsa; p=MIIB' in out
    assert '"v=DMARC1; p=quarantine; rua=mailto:op@players.test"' in out
    assert f"1.0.0.127.in-addr.arpa. 3600 IN PTR {DOMAIN}." in out
    assert f"; PTR: ask your hosting provider to set the reverse DNS of 127.0.0.1 to {DOMAIN}" \
        in out
    assert "; SPF: mail leaves through" not in out  # the Maildir outbox: this host sends
    relayed = config.with_name("relayed.toml")
    relayed.write_text(config.read_text().replace(
        "[dns]", '[outbound.smtp]\nhost = "smtp.relay.test"\n[dns]'))
    assert "; SPF: mail leaves through smtp.relay.test: add what its provider publishes for " \
        "it (e.g. include:...) before -all" in pbem(relayed, "dns", code=0)
    # A 2048-bit key does not fit one TXT string (255 bytes): it is split, never cut.
    dkim = next(ln for ln in lines if "DKIM1" in ln)
    assert all(len(s) <= 255 for s in dkim.split('"')[1::2]) and dkim.count('" "') >= 1


def test_doctor_passes_on_the_printed_zone_and_fails_once_per_missing_record(
        config: Path) -> None:
    printed = records(pbem(config, "dns", code=0))
    fixes = {
        "MX": ("FAIL DNS MX: games.example.org has no MX record",
               "fix: publish games.example.org. IN MX 10 games.example.org."),
        "A": ("FAIL DNS A: games.example.org has no A record",
              "fix: publish games.example.org. IN A 127.0.0.1"),
        "SPF": ("FAIL DNS SPF: games.example.org has no SPF record",
                   'fix: publish games.example.org. IN TXT "v=spf1 mx -all"'),
        "DKIM": ("FAIL DNS DKIM: pbem._domainkey.games.example.org has no DKIM record",
                  'fix: publish pbem._domainkey.games.example.org. IN TXT "v=DKIM1; k=rsa; p='),
        "DMARC": ("FAIL DNS DMARC: games.example.org has no DMARC record",
                   "fix: publish _dmarc.games.example.org. IN TXT \"v=DMARC1; p=quarantine;"),
        "PTR": ("FAIL DNS PTR: 127.0.0.1 has no reverse DNS (PTR)",
                "fix: ask your hosting provider to set the reverse DNS of 127.0.0.1 to "
                "games.example.org"),
    }
    server = dnsserver.serve(printed, ZONES)
    try:
        out = pbem(with_nameserver(config, server.address), "doctor", "--dns", code=0)
    finally:
        server.stop()
    for name in ("MX", "A", "SPF", "DKIM", "DMARC", "PTR"):
        assert f"ok   DNS {name}:" in out, out
    assert "FAIL" not in out
    assert sorted(kind(ln) for ln in printed) == sorted(fixes)
    for gone, (fail, fix) in fixes.items():
        kept = [ln for ln in printed if kind(ln) != gone]
        server = dnsserver.serve(kept, ZONES)
        try:
            out = pbem(with_nameserver(config, server.address), "doctor", "--dns", code=1)
        finally:
            server.stop()
        flat = " ".join(out.split())
        assert flat.count("FAIL") == 1, out
        assert fail in flat and fix in flat, out


def test_doctor_says_so_in_one_line_when_no_dns_server_answers(config: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))  # a port nobody answers on, held so nothing else takes it
        silent = f"127.0.0.1:{s.getsockname()[1]}"
        out = pbem(with_nameserver(config, silent), "doctor", "--dns", code=1)
    fails = [ln for ln in out.splitlines() if "FAIL" in ln]
    assert len(fails) == 1 and f"FAIL DNS: no DNS server answered ({silent})" in fails[0], out
    assert "the records were not checked" in out
    assert "fix: check the network, or set [dns] nameserver" in " ".join(out.split())
    assert "Traceback" not in out


def test_a_wrong_record_is_named_with_what_it_should_be(config: Path) -> None:
    printed = records(pbem(config, "dns", code=0))
    changed = [ln.replace("p=quarantine", "p=none") for ln in printed]
    changed = [ln.replace('"v=spf1 mx -all"', '"v=spf1 a:elsewhere.test -all"') for ln in changed]
    server = dnsserver.serve(changed, ZONES)
    try:
        out = " ".join(pbem(with_nameserver(config, server.address), "doctor", "--dns",
                            code=1).split())
    finally:
        server.stop()
    assert "FAIL DNS DMARC: games.example.org's DMARC policy is p=none" in out
    assert "FAIL DNS SPF: games.example.org's SPF record is 'v=spf1 a:elsewhere.test -all', " \
        "not 'v=spf1 mx -all'" in out
    assert out.count("FAIL") == 2


def test_an_spf_record_of_the_operators_own_that_lets_this_host_send(config: Path) -> None:
    printed = records(pbem(config, "dns", code=0))
    own = [ln.replace('"v=spf1 mx -all"', '"v=spf1 ip4:127.0.0.1 include:relay.test ~all"')
           for ln in printed]
    server = dnsserver.serve(own, ZONES)
    try:
        out = pbem(with_nameserver(config, server.address), "doctor", "--dns", code=0)
    finally:
        server.stop()
    assert "ok   DNS SPF: games.example.org: v=spf1 ip4:127.0.0.1 include:relay.test ~all" in out


def test_a_dkim_record_of_another_key_or_an_unreadable_key_file(
        config: Path, initialised: tuple[Path, str], tmp_path: Path) -> None:
    printed = records(pbem(config, "dns", code=0))
    other = make_dkim_key(tmp_path / "other", DOMAIN, "pbem")
    config.write_text(config.read_text().replace(str(initialised[0] / "dkim" / "pbem.pub"),
                                                 str(other)))
    server = dnsserver.serve(printed, ZONES)
    try:
        out = " ".join(pbem(with_nameserver(config, server.address), "doctor", "--dns",
                            code=1).split())
        assert "FAIL DNS DKIM: pbem._domainkey.games.example.org holds another key than " \
            "[dns] dkim_public_key" in out and out.count("FAIL") == 1
        other.unlink()
        out = " ".join(pbem(with_nameserver(config, server.address), "doctor", "--dns",
                            code=1).split())
        assert f"FAIL DNS DKIM: dkim_public_key {other}: No such file or directory" in out
        assert "fix: set [dns] dkim_public_key to the signer's public key (PEM)" in out
    finally:
        server.stop()


def test_an_ed25519_key_gets_its_own_record_form(tmp_path: Path) -> None:
    from pbem.ops.dns_records import dkim_value

    key = tmp_path / "ed.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)],
                   check=True, capture_output=True)
    pem = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout"], check=True,
                         capture_output=True, text=True).stdout
    raw = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"],
                         check=True, capture_output=True).stdout
    assert dkim_value(pem) == f"v=DKIM1; k=ed25519; p={base64.b64encode(raw[-32:]).decode()}"
    with pytest.raises(ValueError, match="not a PEM public key"):
        dkim_value("ssh-ed25519 AAAA")
