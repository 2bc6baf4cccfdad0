"""A visitor without a browser: Streamlit's own websocket protocol (``streamlit.proto``), nothing drawn.

What a browser tab does, as far as the server can tell:

* ``GET /<page>`` (the HTML, keeping any cookie it sets: a sticky reverse proxy's), then — the
  page shell, on by default — every ``./static/…`` file the HTML names, ``/_stcore/health`` and
  ``/_stcore/host-config``, over six keep-alive connections as a browser would;
* the websocket ``/_stcore/stream`` (subprotocol ``streamlit``, the cookies sent), then one
  ``BackMsg.rerun_script`` naming the page by its address (``page_name``: how ``st.navigation``
  picks the page a URL names) with the link's query string and a ``ContextInfo``;
* a move: one step of one enabled sidebar slider, sent as ``rerun_script`` with every slider's
  value (``WidgetStates``), the page's script hash (from the ``navigation`` message) and the query
  string the app last set (``page_info_changed``: the address bar).

A run ends at a ``script_finished`` that ends the chain (``FINISHED_EARLY_FOR_RERUN`` means an
``st.rerun()`` goes on); deltas count from the run's ``new_session``. A slider's value follows the
frontend's rule: a widget new to the client takes ``value`` when ``set_value``, else ``default``; a
known one keeps the client's value unless the server sets it. Times are the server's part of a
wait, from the message sent to the run's end on the wire: a browser adds its own drawing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gzip
import hashlib
import http.client
import http.cookies
import random
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider as SliderProto

#: the statuses that end a run chain
ENDS = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR)
MAIN, SIDEBAR = 0, 1  # a delta path's first number: the root container
#: a download button's file id is drawn at random on every run: left out when telling two views apart
_VOLATILE = {"download_button": ("deferred_file_id", "url")}
#: the threads that fetch page shells (asyncio's default pool has cores + 4 threads: too few for 20 visitors)
_SHELLS = concurrent.futures.ThreadPoolExecutor(128, thread_name_prefix="shell")


class ProtocolError(RuntimeError):
    """The server said something this client does not expect (an HTTP error, an unknown page)."""


@dataclass
class Slider:
    id: str
    label: str
    lo: float
    hi: float
    step: float
    value: list[float]
    enabled: bool
    in_sidebar: bool


@dataclass
class Run:
    """One run chain as the client saw it."""

    seconds: float  # message sent -> the chain's last script_finished
    deltas: int
    view: str  # a digest of the main area's deltas, volatile fields left out
    exceptions: list[str] = field(default_factory=list)
    not_found: bool = False
    biggest: int = 0  # the largest message of the run, bytes


def _stable(delta) -> bytes:
    if delta.WhichOneof("type") == "new_element":
        kind = delta.new_element.WhichOneof("type")
        if kind in _VOLATILE:
            delta = type(delta).FromString(delta.SerializeToString())
            for name in _VOLATILE[kind]:
                getattr(delta.new_element, kind).ClearField(name)
    return delta.SerializeToString(deterministic=True)


class _Http:
    """GETs on keep-alive connections (one per thread), with one cookie jar."""

    def __init__(self, base: str, timeout: float):
        u = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = u.hostname, u.port, timeout
        self.cookies: dict[str, str] = {}
        self._conns: dict[int, http.client.HTTPConnection] = {}

    def header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def get(self, target: str) -> bytes:
        key = threading.get_ident()
        for attempt in (0, 1):
            conn = self._conns.get(key)
            if conn is None:
                conn = self._conns[key] = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                headers = {"Accept-Encoding": "gzip"}
                if self.cookies:
                    headers["Cookie"] = self.header()
                conn.request("GET", target, headers=headers)
                r = conn.getresponse()
                body = r.read()
                for value in r.headers.get_all("Set-Cookie") or []:
                    jar = http.cookies.SimpleCookie(value)
                    self.cookies.update({k: m.value for k, m in jar.items()})
                if r.status != 200:
                    raise ProtocolError(f"GET {target}: HTTP {r.status}")
                return body
            except (http.client.HTTPException, OSError):
                conn.close()
                self._conns.pop(key, None)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()


def _shell(http_: _Http, page: str, assets: bool) -> int:
    """The page's HTML and (``assets``) what it links; returns the bytes received."""
    body = http_.get("/" + page)
    html = (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode("utf-8", "replace")
    if not assets:
        return len(body)
    targets = sorted(set(re.findall(r'(?:src|href)="\./(static/[^"]+)"', html)) | {"favicon.png"})
    targets = ["/" + t for t in targets] + ["/_stcore/health", "/_stcore/host-config"]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:  # a browser's connections per host
        return len(body) + sum(pool.map(lambda t: len(http_.get(t)), targets))


def fetch_shell(base: str, page: str = "") -> int:
    """A page shell (HTML and static files), as a new visitor's browser fetches it; its bytes."""
    http_ = _Http(base.rstrip("/"), 60.0)
    try:
        return _shell(http_, page, True)
    finally:
        http_.close()


class Visitor:
    """One visitor: ``await open()``, then ``move`` / ``goto`` as often as wanted, then ``close()``."""

    def __init__(self, base: str, page: str = "", query: str = "", *, assets: bool = True, timeout: float = 120.0):
        self.base, self.page, self.query = base.rstrip("/"), page.strip("/"), query
        self.assets, self.timeout = assets, timeout
        self.http = _Http(self.base, timeout)
        self.ws = None
        self.page_hash = ""
        self.pages: dict[str, str] = {}  # url path -> page script hash, from the navigation message
        self.sliders: dict[str, Slider] = {}
        self._values: dict[str, list[float]] = {}  # the client's widget state, by id
        self.last: Run | None = None
        self.shell_seconds = 0.0
        self.shell_bytes = 0

    # ---- the wire -----------------------------------------------------------------------------------
    def _message(self, *, first: bool, widgets: dict[str, list[float]] | None = None) -> bytes:
        bm = BackMsg()
        cs = bm.rerun_script
        cs.query_string = self.query
        if first:
            cs.page_name = self.page
        else:
            cs.page_script_hash = self.page_hash
        for wid, values in (widgets or {}).items():
            w = cs.widget_states.widgets.add()
            w.id = wid
            w.double_array_value.data[:] = values
        ci = cs.context_info
        ci.timezone, ci.timezone_offset, ci.locale = "UTC", 0, "en-US"
        ci.url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
        ci.color_scheme = "light"
        return bm.SerializeToString()

    async def _run(self, message: bytes) -> Run:
        t0 = time.perf_counter()
        await self.ws.send(message)
        started, deltas, biggest = False, 0, 0
        view = hashlib.sha256()
        exceptions: list[str] = []
        not_found = False
        seen: dict[str, Slider] = {}
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no end of run within {self.timeout:.0f} s")
            data = await asyncio.wait_for(self.ws.recv(), left)
            biggest = max(biggest, len(data))
            m = ForwardMsg.FromString(data)
            kind = m.WhichOneof("type")
            if kind == "new_session":
                started, deltas, exceptions, seen, view = True, 0, [], {}, hashlib.sha256()
            elif kind == "navigation":
                self.page_hash = m.navigation.page_script_hash
                self.pages = {p.url_pathname: p.page_script_hash for p in m.navigation.app_pages}
            elif kind == "page_info_changed":
                self.query = m.page_info_changed.query_string
            elif kind == "page_not_found":
                not_found = True
            elif kind == "ref_hash":
                raise ProtocolError("the server referred to a cached message (this client declares none)")
            elif kind == "delta" and started:
                deltas += 1
                path = list(m.metadata.delta_path)
                if path and path[0] == MAIN:
                    view.update(repr(path).encode() + _stable(m.delta))
                if m.delta.WhichOneof("type") == "new_element":
                    el = m.delta.new_element
                    what = el.WhichOneof("type")
                    if what == "exception":
                        exceptions.append(f"{el.exception.type}: {el.exception.message[:160]}")
                    elif what == "slider" and el.slider.type != SliderProto.SELECT_SLIDER:  # (its state is text)
                        s = el.slider
                        if s.set_value or s.id not in self._values:
                            self._values[s.id] = list(s.value if s.set_value else s.default)
                        seen[s.label] = Slider(s.id, s.label, s.min, s.max, s.step, self._values[s.id],
                                               not s.disabled, bool(path) and path[0] == SIDEBAR)
            elif kind == "session_event" and m.session_event.WhichOneof("type") == "script_compilation_exception":
                exceptions.append(f"compile error: {m.session_event.script_compilation_exception.message[:160]}")
            elif kind == "script_finished" and started and m.script_finished in ENDS:
                self.sliders = seen
                self._values = {k: v for k, v in self._values.items() if k in {s.id for s in seen.values()}}
                self.last = Run(time.perf_counter() - t0, deltas, view.hexdigest(), exceptions, not_found, biggest)
                return self.last

    # ---- a visitor ----------------------------------------------------------------------------------
    async def open(self) -> Run:
        """Arrive: the page shell, the websocket, the first run. ``Run.seconds`` is from arrival
        (shell included) to the first run's end: the first page."""
        t0 = time.perf_counter()
        loop = asyncio.get_running_loop()
        self.shell_bytes = await loop.run_in_executor(_SHELLS, _shell, self.http, self.page, self.assets)
        self.shell_seconds = time.perf_counter() - t0
        url = self.base.replace("http://", "ws://", 1) + "/_stcore/stream"
        headers = {"Cookie": self.http.header()} if self.http.cookies else None
        self.ws = await websockets.connect(url, subprotocols=["streamlit"], additional_headers=headers, proxy=None,
                                           max_size=None, ping_interval=None, compression=None,
                                           open_timeout=self.timeout)
        run = await self._run(self._message(first=True))
        run.seconds = time.perf_counter() - t0
        return run

    def movable(self) -> list[Slider]:
        return [s for s in self.sliders.values() if s.in_sidebar and s.enabled and s.hi > s.lo and s.step > 0]

    async def move(self, rng: random.Random) -> tuple[Slider, Run, bool] | None:
        """One step of a random enabled sidebar slider (turned back at its ends) and its run:
        ``(slider, run, the main area changed)``; None when no slider can move."""
        choices = self.movable()
        if not choices:
            return None
        s = rng.choice(choices)
        old = s.value[0]
        up = rng.random() < 0.5
        if old + s.step > s.hi + 1e-9:
            up = False
        elif old - s.step < s.lo - 1e-9:
            up = True
        new = min(max(round(old + (s.step if up else -s.step), 9), s.lo), s.hi)
        widgets = {x.id: list(x.value) for x in self.sliders.values()}
        widgets[s.id] = [new, *s.value[1:]]
        self._values[s.id] = widgets[s.id]
        before = self.last
        run = await self._run(self._message(first=False, widgets=widgets))
        return s, run, before is None or run.view != before.view

    async def goto(self, page: str, query: str = "") -> Run:
        """Another page in the same session, as a click in the navigation."""
        page = page.strip("/")
        if page not in self.pages:
            raise ProtocolError(f"no page {page!r} in the app's navigation")
        self.page, self.query, self.page_hash = page, query, self.pages[page]
        return await self._run(self._message(first=False))

    async def close(self) -> None:
        self.http.close()
        if self.ws is not None:
            await self.ws.close()
            self.ws = None
