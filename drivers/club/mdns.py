"""Discovery on the club's LAN: the laptop advertises ``_skattisch._tcp`` by mDNS (python-zeroconf),
the table finds it without configuration (a configured URL stays the fallback).

``interfaces`` limits both sides to some addresses (the tests use ``["127.0.0.1"]``); by
default zeroconf uses every interface. Nothing touches the network at import.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Sequence
from typing import Any

__all__ = ["SERVICE_TYPE", "Advertisement", "find_laptop"]

SERVICE_TYPE = "_skattisch._tcp.local."


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    if interfaces:
        return Zeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)
    return Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)


def _own_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (what the tables can reach)."""
    import ifaddr

    found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return found or ["127.0.0.1"]


class Advertisement:
    """The laptop's mDNS record while the collector runs: name, port, protocol version."""

    def __init__(self, name: str, port: int, *, interfaces: Sequence[str] | None = None) -> None:
        from zeroconf import ServiceInfo

        addresses = list(interfaces) if interfaces else _own_addresses()
        label = re.sub(r"[^A-Za-z0-9 _-]", "", name)[:40] or "Skattisch"
        host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:40] or "skattisch"
        self.info = ServiceInfo(
            SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=port, properties={"v": "1", "path": "/"},
            addresses=[socket.inet_aton(a) for a in addresses], server=f"{host}.local.")
        self._zc = _zeroconf(interfaces)
        try:
            self._zc.register_service(self.info, allow_name_change=True)
        except BaseException:
            self._zc.close()
            raise

    def close(self) -> None:
        try:
            self._zc.unregister_service(self.info)
        finally:
            self._zc.close()


def find_laptop(*, timeout: float = 3.0, interfaces: Sequence[str] | None = None) -> str | None:
    """The URL of the first laptop found by mDNS within ``timeout`` seconds, else None."""
    from zeroconf import ServiceBrowser, ServiceStateChange

    found: list[str] = []
    seen = threading.Event()

    def changed(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change is not ServiceStateChange.Added or found:
            return
        info = zeroconf.get_service_info(service_type, name, timeout=int(timeout * 1000))
        if info is None or not info.port:
            return
        addresses = info.parsed_addresses()
        if addresses:
            found.append(f"http://{addresses[0]}:{info.port}")
            seen.set()

    zc = _zeroconf(interfaces)
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[changed])
        seen.wait(timeout)
        browser.cancel()
    finally:
        zc.close()
    return found[0] if found else None
