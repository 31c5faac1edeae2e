"""A DKIM key made as the deploy guide (docs/operators/deploy.md) makes it:
``opendkim-genkey`` (2048-bit RSA) for the signer, ``openssl pkey -pubout`` for the public
half pbem reads. Where opendkim-tools is absent, openssl makes the same kind of key."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

GENKEY = shutil.which("opendkim-genkey") or (
    "/usr/sbin/opendkim-genkey" if Path("/usr/sbin/opendkim-genkey").exists() else None)


def make_dkim_key(folder: Path, domain: str, selector: str) -> Path:
    """Make ``folder/<selector>.private`` and return the public key's path (PEM)."""
    folder.mkdir(parents=True, exist_ok=True)
    private = folder / f"{selector}.private"
    if GENKEY:
        subprocess.run([GENKEY, "-b", "2048", "-d", domain, "-s", selector, "-D", str(folder)],
                       check=True, capture_output=True)
    else:
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt",
                        "rsa_keygen_bits:2048", "-out", str(private)], check=True,
                       capture_output=True)
    public = folder / f"{selector}.pub"
    subprocess.run(["openssl", "pkey", "-in", str(private), "-pubout", "-out", str(public)],
                   check=True, capture_output=True)
    return public
