"""Run deploy/README.md's commands, as written, in a fresh Debian 12 container.

    python -m tests.deploy.run_guide sqlite no-systemd [--image debian:12] [--podman-arg ...]

The guide's shell blocks are taken in order: a block tagged ``sh`` always, one tagged
``sh <variant>`` when the variant is chosen (sqlite | postgresql, systemd | no-systemd). With
``systemd`` the container boots systemd as PID 1 (the image needs systemd installed). After the
guide, a mail from root@localhost goes through Postfix to pbem; the check passes when pbem's
answer is in root's mailbox and the handled mail in pbem/processed.

Needs podman and network access for apt and pip; it takes minutes, so it is not part of the
pytest suite (tests/deploy/test_mail_stack.py checks the shipped files there).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = {"sqlite", "postgresql", "systemd", "no-systemd"}

AFTER = r"""
set -eux
cd /
python3 - <<'PY'
import smtplib
from email.message import EmailMessage
m = EmailMessage()
m["From"], m["To"], m["Subject"] = "root@localhost", "games@games.example.org", "help"
m["Message-ID"] = "<guide-check@localhost>"
m.set_content("help\n")
with smtplib.SMTP("127.0.0.1", 25) as s:
    s.send_message(m)
PY
sleep 5
runuser -u pbem -- env PBEM_CONFIG=/etc/pbem/config.toml /opt/pbem/venv/bin/pbem process
for _ in $(seq 60); do grep -q '^From: pbem game master' /var/mail/root && break; sleep 1; done
grep '^From: pbem game master <games@games.example.org>' /var/mail/root
test "$(doveadm mailbox status -u games@games.example.org messages pbem/processed)" \
  = "pbem/processed messages=1"
test "$(doveadm mailbox status -u games@games.example.org messages INBOX)" = "INBOX messages=0"
echo "guide check passed"
"""


def guide_script(readme: str, variants: set[str]) -> str:
    """The guide's commands for ``variants``, in order, as one bash script."""
    guide = readme.partition("## A server of your own")[2].partition("## In a container")[0]
    parts = ["set -eux"]
    for info, body in re.findall(r"```(sh[^\n]*)\n(.*?)```", guide, re.S):
        words = info.split()
        if len(words) == 1 or words[1] in variants:
            parts.append(f"# ---- {info}\n{body}")
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs=2, help="sqlite|postgresql and systemd|no-systemd")
    parser.add_argument("--image", default="docker.io/library/debian:12")
    parser.add_argument("--podman", default="podman",
                        help='the podman command with global options, e.g. "podman --runtime '
                        'runc"')
    parser.add_argument("--podman-arg", action="append", default=[],
                        help="passed to podman run (e.g. a pip config volume)")
    args = parser.parse_args()
    variants = set(args.variants)
    if not variants <= VARIANTS or len(variants & {"sqlite", "postgresql"}) != 1:
        parser.error("choose one of sqlite/postgresql and one of systemd/no-systemd")
    work = Path(tempfile.mkdtemp(prefix="pbem-guide-"))
    src = work / "src"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], check=True,
                             capture_output=True).stdout
    src.mkdir()
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    (work / "guide.sh").write_text(guide_script((ROOT / "deploy/README.md").read_text(),
                                                variants))
    (work / "after.sh").write_text(AFTER)
    name = f"pbem-guide-{work.name[-8:].lower()}"
    podman = args.podman.split()
    run = [*podman, "run", "--name", name, "-v", f"{src}:/src", "-v", f"{work}:/guide:ro",
           *args.podman_arg]
    steps = "bash /guide/guide.sh && bash /guide/after.sh"
    try:
        if "systemd" in variants:
            subprocess.run([*run, "-d", "--systemd=always", args.image, "/sbin/init"],
                           check=True)
            done = subprocess.run([*podman, "exec", "-w", "/src", name, "bash", "-c",
                                   f"sleep 5 && {steps}"])
        else:
            done = subprocess.run([*run, "-w", "/src", args.image, "bash", "-c", steps])
    finally:
        subprocess.run([*podman, "rm", "-f", name], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"guide ({' + '.join(sorted(variants))}): "
          f"{'passed' if done.returncode == 0 else 'FAILED'}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
