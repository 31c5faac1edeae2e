"""A real authoritative DNS server for tests: Debian's NSD on 127.0.0.1, a port of its own.

Zones are given as zone-file lines (what ``pbem dns`` prints); each zone gets its SOA and NS
here. NSD runs in the foreground from a config in a temp dir, as the user running the test
(no chroot, no user switch, no remote control), and is stopped by the pid this module started.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import dns.exception
import dns.message
import dns.query

NSD = shutil.which("nsd") or ("/usr/sbin/nsd" if Path("/usr/sbin/nsd").exists() else None)


def missing() -> str | None:
    return None if NSD else "NSD is not installed (apt-get install nsd)"


def free_udp_tcp_port() -> int:
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
            try:
                u.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


def zone_of(line: str, zones: list[str]) -> str | None:
    """The longest zone that owns the record on ``line``."""
    owner = line.split()[0].rstrip(".").lower()
    inside = [z for z in zones if owner == z or owner.endswith("." + z)]
    return max(inside, key=len) if inside else None


class DnsServer:
    def __init__(self, zones: dict[str, list[str]]) -> None:
        self.zones = zones  # zone name -> record lines
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-nsd-"))
        self.port = free_udp_tcp_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _write(self) -> Path:
        conf = [
            "server:",
            f"  ip-address: 127.0.0.1@{self.port}",
            '  username: ""',
            '  chroot: ""',
            f'  zonesdir: "{self.dir}"',
            f'  pidfile: "{self.dir}/nsd.pid"',
            f'  logfile: "{self.dir}/nsd.log"',
            '  database: ""',
            f'  zonelistfile: "{self.dir}/zone.list"',
            f'  xfrdfile: "{self.dir}/xfrd.state"',
            f'  xfrdir: "{self.dir}"',
            "  server-count: 1",
            "  verbosity: 1",
            "remote-control:",
            "  control-enable: no",
        ]
        for name, lines in self.zones.items():
            soa = [f"$ORIGIN {name}.", "$TTL 300",
                   f"@ IN SOA ns.{name}. hostmaster.{name}. 1 3600 600 86400 300",
                   f"@ IN NS ns.{name}.", "ns IN A 127.0.0.1"]
            (self.dir / f"{name}.zone").write_text("\n".join([*soa, *lines]) + "\n")
            conf += ["zone:", f"  name: {name}", f'  zonefile: "{name}.zone"']
        path = self.dir / "nsd.conf"
        path.write_text("\n".join(conf) + "\n")
        return path

    def log(self) -> str:
        path = self.dir / "nsd.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def start(self) -> DnsServer:
        assert NSD is not None
        conf = self._write()
        check = subprocess.run([str(Path(NSD).with_name("nsd-checkconf")), str(conf)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        self.proc = subprocess.Popen([NSD, "-d", "-c", str(conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        first = next(iter(self.zones))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nsd exited: {self.log()}")
            try:
                reply = dns.query.udp(dns.message.make_query(first, "SOA"), "127.0.0.1",
                                      port=self.port, timeout=0.5)
                if reply.answer:
                    return self
            except (dns.exception.Timeout, OSError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"nsd did not answer on {self.port}: {self.log()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)


def serve(lines: list[str], zones: list[str]) -> DnsServer:
    """NSD serving ``lines`` (records and ``;`` comments, as ``pbem dns`` prints them), each
    in the zone of ``zones`` that owns it."""
    records: dict[str, list[str]] = {z: [] for z in zones}
    for line in lines:
        if line.strip() and not line.lstrip().startswith(";"):
            zone = zone_of(line, zones)
            assert zone is not None, f"no zone for {line!r}"
            records[zone].append(line)
    return DnsServer(records).start()
