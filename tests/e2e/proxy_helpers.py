"""Reverse proxies in front of the league for the tests, as real processes on 127.0.0.1.

* :class:`CaddyProxy`: Caddy running ``deploy/league/Caddyfile`` as shipped, only its site
  address (``https://localhost:PORT``), its certificate (a test CA's, :func:`make_test_ca`) and
  its upstream port changed, with global options that keep it off ports 80/443/2019.
* :class:`PlainProxy`: a byte-for-byte TCP forward (:class:`~tests.e2e.fault_proxy.FaultProxy`
  without faults) in its own process: a proxy that adds no ``X-Forwarded-For``.
"""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.pg_server import free_port

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "league" / "Caddyfile"
SITE = "liga.example.org {"
UPSTREAM = "reverse_proxy 127.0.0.1:8090"


def missing_caddy() -> str | None:
    return None if shutil.which("caddy") else "Caddy is not installed: apt install caddy (dev.sh test does)"


@dataclass(frozen=True)
class LocalCA:
    """A certificate authority made for one test and a certificate for ``localhost`` it signed."""

    ca: Path  # the CA's certificate (what a club trusts: SSL_CERT_FILE)
    cert: Path  # localhost's certificate
    key: Path

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_test_ca(directory: Path, name: str = "Skattisch Test-CA") -> LocalCA:
    """A CA (EC keys: fast) and a certificate for localhost and 127.0.0.1 signed by it, via openssl."""
    directory.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", f"/CN={name}", "-keyout", "ca.key", "-out", "ca.pem", cwd=directory)
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
             "-keyout", "localhost.key", "-out", "localhost.csr", cwd=directory)
    (directory / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                       "extendedKeyUsage=serverAuth\n", encoding="utf-8")
    _openssl("x509", "-req", "-in", "localhost.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-days", "2", "-extfile", "san.ext", "-out", "localhost.pem", cwd=directory)
    return LocalCA(directory / "ca.pem", directory / "localhost.pem", directory / "localhost.key")


def caddyfile_for_test(upstream_port: int, https_port: int, http_port: int, tls: LocalCA, storage: Path) -> str:
    """deploy/league/Caddyfile for this machine: the same site block, a test site address and certificate."""
    shipped = CADDYFILE.read_text(encoding="utf-8")
    assert shipped.count(SITE) == 1 and shipped.count(UPSTREAM) == 1, "the Caddyfile's site or upstream moved"
    site = shipped.replace(SITE, f"https://localhost:{https_port} {{\n\ttls {tls.cert} {tls.key}")
    site = site.replace(UPSTREAM, f"reverse_proxy 127.0.0.1:{upstream_port}")
    return ("{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n"
            f"\thttp_port {http_port}\n\thttps_port {https_port}\n\tstorage file_system {storage}\n}}\n\n" + site)


class CaddyProxy:
    """Caddy terminating HTTPS on ``https://localhost:PORT`` in front of the league's port."""

    def __init__(self, upstream_port: int, tls: LocalCA, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        config = directory / "Caddyfile"
        config.write_text(caddyfile_for_test(upstream_port, self.port, free_port(), tls, directory / "data"),
                          encoding="utf-8")
        env = {**os.environ, "HOME": str(directory), "XDG_DATA_HOME": str(directory / "data"),
               "XDG_CONFIG_HOME": str(directory / "config")}
        self.log = (directory / "caddy.log").open("w")
        self.process = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                                        env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"https://localhost:{self.port}"
        self._wait(tls)

    def _wait(self, tls: LocalCA) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + "/api/v1/hello", timeout=2, context=tls.context()):
                    return
            except OSError:
                time.sleep(0.1)
        self.close()
        raise AssertionError(f"Caddy did not start: {Path(self.log.name).read_text(encoding='utf-8')[-2000:]}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


class PlainProxy:
    """A TCP forward to ``upstream_port`` in its own process: passes the bytes, adds no header."""

    def __init__(self, upstream_port: int) -> None:
        code = ("import sys, time\nfrom tests.e2e.fault_proxy import FaultProxy\n"
                f"proxy = FaultProxy({upstream_port}, faults=None)\nprint(proxy.start(), flush=True)\n"
                "sys.stdin.read()\nproxy.close()\n")
        self.process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())
        self.url = f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()  # its end: it closes the proxy and exits
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
