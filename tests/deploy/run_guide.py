"""Run the deploy guide's commands (docs/operators/deploy.md), as written, on a fresh Debian 12
without systemd.

    python -m tests.deploy.run_guide sqlite|postgresql [--keep] [--cache DIR]
    python -m tests.deploy.run_guide sqlite|postgresql --podman podman [--systemd]

The guide's shell blocks are taken in order: a block tagged ``sh`` always, one tagged
``sh <variant>`` when the variant is chosen (sqlite | postgresql, and no-systemd, or systemd
with ``--podman ... --systemd``; and snakeoil: certbot needs the domain to point here). The
one line changed is ``REPO=``: it names a bare clone of this checkout's HEAD (commit first:
uncommitted changes are not in it).

By default the guide runs as root in a Debian 12 root made by ``debootstrap`` (kept in
``--cache`` and copied for each run), chrooted, with no init at all: in namespaces of its own
(network, PID, mount, UTS), so its Postfix (``inet_interfaces = all``), Dovecot and
supervisord are reachable from nowhere else and all end with the run; ``slirp4netns`` gives it
the way out to Debian's mirror and PyPI. This machine's CA bundle is handed to pip
(``PIP_CERT``) in case its way out re-signs TLS.

After the guide, in the same root: the supervisor must be running ``pbem serve`` as the pbem
user (the guide's own long-running line); ``sendmail root`` and mail to postmaster@ must land in
``/var/mail/root``; the backup must be mode 600; then a game is made with two players on
``players.test`` (local users there: the one thing added on top of the guide, standing in for
the players' providers) and ``guide_player.py`` plays a seated player's order by mail through
Postfix and Dovecot, and waits for pbem's reply. Then NSD (installed there for the check)
serves what ``pbem dns`` printed on 127.0.0.1:5353: ``pbem doctor --dns`` must pass against
it, and ``guide_mailcheck.py`` checks every mail the host sent a player (DKIM, SPF and DMARC
against that zone, TLS from pbem to Postfix).

Where this cannot run (not root, no debootstrap/unshare/slirp4netns, or no podman when asked)
it prints one ``SKIP`` line and exits 0. It takes minutes (the first run also debootstraps),
so it is not part of the pytest suite; tests/deploy/test_mail_stack.py checks the shipped files
there.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "docs/operators/deploy.md"
PLAYER = Path(__file__).with_name("guide_player.py")
MAILCHECK = Path(__file__).with_name("guide_mailcheck.py")
MIRROR = "http://deb.debian.org/debian"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")

AFTER = r"""
set -eux
PBEM="runuser -u pbem -- env PBEM_CONFIG=/etc/pbem/config.toml /opt/pbem/venv/bin/pbem"
cd /

# The guide's long-running line runs, as the pbem user, under the supervisor it set up.
SERVE='^/opt/pbem/venv/bin/python3? /opt/pbem/venv/bin/pbem serve$'
for _ in $(seq 60); do pgrep -u pbem -f "$SERVE" && break; sleep 1; done
if [ -x /usr/bin/supervisorctl ]; then supervisorctl status pbem-serve | grep RUNNING; fi
pgrep -u pbem -f "$SERVE"

# System mail and postmaster reach root's mailbox; Postfix writes a log.
printf 'Subject: guide system mail\n\nfrom cron\n' | sendmail root
printf 'Subject: guide postmaster\n\nhello\n' | sendmail postmaster@games.example.org
for _ in $(seq 60); do
  grep -q '^Subject: guide postmaster' /var/mail/root 2>/dev/null \
    && grep -q '^Subject: guide system mail' /var/mail/root && break
  sleep 1
done
grep '^Subject: guide system mail' /var/mail/root
grep '^Subject: guide postmaster' /var/mail/root
if [ -f /var/log/postfix.log ] || ! [ -d /run/systemd/system ]; then
  grep 'postfix/' /var/log/postfix.log | tail -3
fi

# The backup is for root only.
test "$(stat -c %a /var/backups/pbem)" = 700
ls -l /var/backups/pbem
for f in /var/backups/pbem/pbem-*; do test "$(stat -c %a "$f")" = 600; test -s "$f"; done

# Two players: local users on players.test (the players' providers, for this check only).
useradd ann
useradd bob
postconf -e "mydestination = $(postconf -h mydestination), players.test"
postfix reload
TYPE=$($PBEM games | sed -n 's/^\([a-z0-9_-]*\): .*(2–[0-9]* players)$/\1/p' | head -1)
test -n "$TYPE"
$PBEM game new "$TYPE" --seat "Ann <ann@players.test>" --seat "Bob <bob@players.test>" \
  --seed guide
/opt/pbem/venv/bin/python /guide/guide_player.py play ann@players.test bob@players.test
test "$(doveadm mailbox status -u games@games.example.org messages INBOX)" = "INBOX messages=0"
doveadm mailbox status -u games@games.example.org messages pbem/processed \
  | grep -E 'messages=[1-9]'
$PBEM game list

# The records `pbem dns` prints, served by NSD on 127.0.0.1:5353 (the domain's DNS provider,
# for this check only): `pbem doctor --dns` passes against them, and the mails the players got
# are signed (DKIM), allowed (SPF), aligned (DMARC) and came from pbem over TLS.
apt-get install -y nsd
python3 -m venv /root/mailcheck
/root/mailcheck/bin/pip install -q dkimpy pyspf dnspython
sed -i 's|^# address = .*|address = "127.0.0.1"|' /etc/pbem/config.toml
$PBEM dns | tee /root/records
install -d /root/nsd
printf '%s\n' '$TTL 300' '@ IN SOA ns hostmaster 1 3600 600 86400 300' '@ IN NS ns' \
  'ns IN A 127.0.0.1' > /root/nsd/head
{ cat /root/nsd/head; grep -v -e '^;' -e 'in-addr.arpa' /root/records; } \
  > /root/nsd/games.example.org.zone
{ cat /root/nsd/head; grep -v '^;' /root/records | grep 'in-addr.arpa'; } > /root/nsd/127.zone
printf '%s\n' 'server:' '  ip-address: 127.0.0.1@5353' '  username: ""' '  chroot: ""' \
  '  zonesdir: "/root/nsd"' '  pidfile: "/root/nsd/nsd.pid"' '  database: ""' \
  '  zonelistfile: "/root/nsd/zone.list"' '  xfrdfile: "/root/nsd/xfrd.state"' \
  'remote-control:' '  control-enable: no' \
  'zone:' '  name: games.example.org' '  zonefile: games.example.org.zone' \
  'zone:' '  name: 127.in-addr.arpa' '  zonefile: 127.zone' > /root/nsd/nsd.conf
nsd -c /root/nsd/nsd.conf
echo 'nameserver = "127.0.0.1:5353"' >> /etc/pbem/config.toml
$PBEM doctor --dns
/root/mailcheck/bin/python /guide/guide_mailcheck.py /var/mail/ann 127.0.0.1:5353
echo "guide check passed"
"""


def guide_script(readme: str, variants: set[str], repo: str) -> str:
    """The guide's commands for ``variants``, in order, as one bash script."""
    guide = readme.partition("## A server of your own")[2].partition("## In a container")[0]
    parts = ["set -eux"]
    for info, body in re.findall(r"```(sh[^\n]*)\n(.*?)```", guide, re.S):
        words = info.split()
        if len(words) == 1 or words[1] in variants:
            parts.append(f"# ---- {info}\n{body}")
    script = "\n".join(parts)
    script, found = re.subn(r"^REPO=\S+", f"REPO={repo}", script, count=1, flags=re.M)
    if not found:
        raise SystemExit("run_guide: the guide has no REPO= line to point at this checkout")
    return script


def skip(why: str) -> int:
    print(f"SKIP guide run: {why}")
    return 0


def missing_tools(podman: str | None) -> str | None:
    if podman:
        return None if shutil.which(podman.split()[0]) else f"{podman.split()[0]} not found"
    if os.geteuid() != 0:
        return "needs root (debootstrap, chroot, namespaces)"
    for tool, package in (("debootstrap", "debootstrap"), ("unshare", "util-linux"),
                          ("slirp4netns", "slirp4netns"), ("ip", "iproute2")):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            return f"{tool} not found (apt-get install {package})"
    return None


def base_root(cache: Path) -> Path:
    """A fresh debootstrap of Debian 12, made once and kept: each run copies it."""
    base = cache / "bookworm"
    if not (base / ".complete").exists():
        shutil.rmtree(base, ignore_errors=True)
        cache.mkdir(parents=True, exist_ok=True)
        print(f"debootstrap bookworm {base} (once; a few minutes)", flush=True)
        subprocess.run(["debootstrap", "bookworm", str(base), MIRROR], check=True,
                       stdout=subprocess.DEVNULL)
        (base / ".complete").touch()
    return base


def bare_clone(dest: Path) -> None:
    if subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True,
                      text=True, check=True).stdout.strip():
        print("run_guide: uncommitted changes are not in the run (it clones HEAD)", flush=True)
    branch = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--abbrev-ref", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--bare", "--branch", branch, str(ROOT), str(dest)],
                   check=True)


def run_chroot(work: Path, cache: Path, variants: set[str]) -> int:
    root = work / "root"
    subprocess.run(["cp", "-a", str(base_root(cache)), str(root)], check=True)
    guide = root / "guide"
    guide.mkdir(mode=0o755)
    bare_clone(guide / "pbem.git")
    (guide / "guide.sh").write_text(guide_script(README.read_text(), variants,
                                                 "/guide/pbem.git"))
    (guide / "after.sh").write_text(AFTER)
    shutil.copy(PLAYER, guide / "guide_player.py")
    shutil.copy(MAILCHECK, guide / "guide_mailcheck.py")
    (root / "etc/resolv.conf").write_text("nameserver 10.0.2.3\n")  # slirp4netns' DNS
    (root / "etc/hostname").write_text("guide-host\n")
    env = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root",
           "LANG=C.UTF-8", "TERM=dumb"]
    if HOST_CA.exists():
        shutil.copy(HOST_CA, root / "etc/host-ca-for-pip.crt")
        env.append("PIP_CERT=/etc/host-ca-for-pip.crt")
    inside = (
        "set -e; ip link set lo up; hostname guide-host;"
        "for _ in $(seq 100); do ip link show tap0 >/dev/null 2>&1 && break; sleep 0.1; done;"
        f"cd {root}; mount -t proc proc proc; mount -t sysfs sys sys;"
        "mount --rbind /dev dev; mount -t tmpfs -o mode=1777 tmpfs tmp;"
        f"exec chroot {root} /usr/bin/env -i {' '.join(env)} bash -c "
        "'cd /root && bash /guide/guide.sh && bash /guide/after.sh'")
    start = time.monotonic()
    box = subprocess.Popen(["unshare", "--net", "--pid", "--mount", "--uts", "--ipc", "--fork",
                            "--kill-child", "bash", "-c", inside])
    own = os.readlink("/proc/self/ns/net")
    for _ in range(100):  # until unshare has its own network namespace
        try:
            if os.readlink(f"/proc/{box.pid}/ns/net") != own:
                break
        except OSError:
            pass
        time.sleep(0.05)
    net = subprocess.Popen(["slirp4netns", "--configure", "--mtu=65520",
                            "--disable-host-loopback", str(box.pid), "tap0"],
                           stdout=subprocess.DEVNULL)
    try:
        code = box.wait()
    finally:
        if box.poll() is None:
            box.kill()
            box.wait()
        net.terminate()
        net.wait(10)
    print(f"guide run took {time.monotonic() - start:.0f} s", flush=True)
    return code


def run_podman(work: Path, podman: list[str], image: str, variants: set[str],
               extra: list[str]) -> int:
    bare_clone(work / "pbem.git")
    (work / "guide.sh").write_text(guide_script(README.read_text(), variants,
                                                "/guide/pbem.git"))
    (work / "after.sh").write_text(AFTER)
    shutil.copy(PLAYER, work / "guide_player.py")
    shutil.copy(MAILCHECK, work / "guide_mailcheck.py")
    work.chmod(0o755)
    name = f"pbem-guide-{work.name[-8:].lower()}"
    run = [*podman, "run", "--name", name, "-v", f"{work}:/guide:ro", *extra]
    steps = "bash /guide/guide.sh && bash /guide/after.sh"
    try:
        if "systemd" in variants:
            subprocess.run([*run, "-d", "--systemd=always", image, "/sbin/init"], check=True)
            return subprocess.run([*podman, "exec", "-w", "/root", name, "bash", "-c",
                                   f"sleep 5 && {steps}"]).returncode
        return subprocess.run([*run, "-w", "/root", image, "bash", "-c", steps]).returncode
    finally:
        subprocess.run([*podman, "rm", "-f", name], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("database", choices=["sqlite", "postgresql"])
    parser.add_argument("--cache", type=Path, default=Path("/var/tmp/pbem-guide"),
                        help="where the debootstrapped base root is kept between runs")
    parser.add_argument("--keep", action="store_true", help="keep the run's root afterwards")
    parser.add_argument("--podman", help='run in a container instead: the podman command with '
                        'global options, e.g. "podman --runtime runc"')
    parser.add_argument("--systemd", action="store_true",
                        help="with --podman: boot systemd as PID 1 (the image needs it)")
    parser.add_argument("--image", default="docker.io/library/debian:12")
    parser.add_argument("--podman-arg", action="append", default=[],
                        help="passed to podman run (e.g. a pip config volume)")
    args = parser.parse_args()
    if args.systemd and not args.podman:
        parser.error("--systemd needs --podman (a chroot has no init)")
    variants = {args.database, "systemd" if args.systemd else "no-systemd", "snakeoil"}
    why = missing_tools(args.podman)
    if why:
        return skip(why)
    work = Path(tempfile.mkdtemp(prefix="pbem-guide-", dir="/var/tmp"))
    try:
        if args.podman:
            code = run_podman(work, args.podman.split(), args.image, variants, args.podman_arg)
        else:
            code = run_chroot(work, args.cache, variants)
    finally:
        mounted = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()
                   if line.split()[1].startswith(str(work))]
        if args.keep or mounted:  # never delete through a mount still there (/dev!)
            print(f"kept: {work}" + (f" (still mounted: {mounted})" if mounted else ""))
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"guide ({' + '.join(sorted(variants))}): {'passed' if code == 0 else 'FAILED'}")
    return code


if __name__ == "__main__":
    sys.exit(main())
