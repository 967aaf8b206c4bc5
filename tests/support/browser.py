"""Open a built site in headless Chromium and record everything a hostile page could make it do.

    with browse_site(Path("site")) as site:
        page, record = site.open("agents/x/")
        assert record.clean, record.summary()
        screenshot(page, "agent-page")

The site is served by ``http.server`` on 127.0.0.1 (port 0, a daemon thread). The browser is the system's
Chromium (``/usr/bin/chromium``) driven by Playwright; no browser is downloaded. Every request to a host
other than the loopback server is recorded *and aborted*, so a test never reaches the network.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize

__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DEFAULT_THEME_STUBS",
    "PageRecord",
    "SiteBrowser",
    "browse_site",
    "browser_unavailable_reason",
    "launch_chromium",
    "screenshot",
    "serve_directory",
]

CHROMIUM = Path(os.environ.get("A2A_DOCGEN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
ARTIFACTS = Path(__file__).resolve().parents[1] / "_artifacts"
"""Screenshots and traces (git-ignored)."""

VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

DEFAULT_THEME_STUBS = {
    r"https://cdnjs\.cloudflare\.com/ajax/libs/highlight\.js/[0-9.]+/(?:languages/)?[A-Za-z0-9_-]+\.min\.js": (
        "window.hljs = window.hljs || {highlightAll: function () {}};"
    ),
    r"https://cdnjs\.cloudflare\.com/ajax/libs/highlight\.js/[0-9.]+/styles/[A-Za-z0-9_-]+\.min\.css": "",
}
"""The built-in MkDocs theme loads highlight.js and its style from cdnjs; offline, stubs stand in for them."""


def browser_unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.is_file():
        return f"Chromium is not installed at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package 'playwright' is not installed"
    return None


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def serve_directory(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port); yields the base URL, ending in ``/``."""
    handler = functools.partial(_QuietHandler, directory=os.fspath(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextlib.contextmanager
def launch_chromium() -> Iterator[Browser]:
    """The system Chromium, headless, with background networking off."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.fspath(CHROMIUM), headless=True, args=list(CHROMIUM_ARGS)
        )
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class PageRecord:
    """What happened while a page was open."""

    url: str
    dialogs: list[str] = field(default_factory=list)
    """``"<type>: <message>"`` of every alert/confirm/prompt/beforeunload (all dismissed)."""
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    """Uncaught exceptions in page scripts."""
    external_requests: list[str] = field(default_factory=list)
    """Requests (aborted) to any host other than the loopback server."""
    stubbed: list[str] = field(default_factory=list)
    """Requests for a theme's own CDN scripts, answered locally with a stub (see ``DEFAULT_THEME_STUBS``)."""

    @property
    def clean(self) -> bool:
        return not (self.dialogs or self.page_errors or self.external_requests)

    def summary(self) -> str:
        parts = [f"{self.url}:"]
        for label, items in (
            ("dialogs", self.dialogs),
            ("page errors", self.page_errors),
            ("external requests", self.external_requests),
            ("console errors", self.console_errors),
        ):
            if items:
                parts.append(f"  {label}: {items}")
        return "\n".join(parts)


def _is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return True  # data:, blob:, about: never leave the machine
    return (parts.hostname or "") in LOOPBACK_HOSTS


class SiteBrowser:
    """A served site and a browser context whose pages are all recorded."""

    def __init__(
        self, context: BrowserContext, base_url: str, stubs: Mapping[str, str] | None = None
    ) -> None:
        self.context = context
        self.base_url = base_url
        self.stubs = [(re.compile(pattern), body) for pattern, body in (stubs or {}).items()]
        self.records: list[PageRecord] = []
        self._current: PageRecord | None = None
        context.route("**/*", self._route)

    def _route(self, route: Route) -> None:
        url = route.request.url
        if _is_loopback(url):
            route.continue_()
            return
        for pattern, body in self.stubs:
            if pattern.fullmatch(url):
                if self._current is not None:
                    self._current.stubbed.append(url)
                kind = "text/css" if urlsplit(url).path.endswith(".css") else "text/javascript"
                route.fulfill(status=200, content_type=kind, body=body)
                return
        if self._current is not None:
            self._current.external_requests.append(url)
        route.abort()

    def url(self, path: str = "") -> str:
        return self.base_url + path.lstrip("/")

    def new_page(self, path: str = "") -> tuple[Page, PageRecord]:
        """A new tab recording into a fresh ``PageRecord`` for ``path`` (not navigated yet)."""
        record = PageRecord(self.url(path))
        self.records.append(record)
        self._current = record
        page = self.context.new_page()

        def on_dialog(dialog: Any) -> None:
            record.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda error: record.page_errors.append(str(error)))
        page.on(
            "console",
            lambda message: record.console_errors.append(message.text) if message.type == "error" else None,
        )
        page.on(
            "websocket",
            lambda socket: None if _is_loopback(socket.url) else record.external_requests.append(socket.url),
        )
        page.on(
            "framenavigated",
            lambda frame: None if _is_loopback(frame.url) else record.external_requests.append(frame.url),
        )
        return page, record

    def open(self, path: str = "", *, settle_ms: int = 300, interact: bool = True) -> tuple[Page, PageRecord]:
        """Open ``path`` (relative to the site root), wait for the load event and let timers run.

        With ``interact``, the mouse then moves over the page and it scrolls to the bottom, to trigger
        payloads that wait for hover or visibility.
        """
        page, record = self.new_page(path)
        page.goto(record.url, wait_until="load")
        page.wait_for_timeout(settle_ms)
        if interact:
            page.mouse.move(VIEWPORT["width"] // 2, VIEWPORT["height"] // 2)
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            page.wait_for_timeout(50)
        return page, record


@contextlib.contextmanager
def browse_site(
    site_dir: Path,
    *,
    browser: Browser | None = None,
    stubs: Mapping[str, str] | None = None,
    context_options: Mapping[str, Any] | None = None,
) -> Iterator[SiteBrowser]:
    """Serve ``site_dir`` and open a fresh browser context on it (reusing ``browser`` when given).

    ``stubs`` maps URL patterns (regular expressions) to script bodies served instead of the network;
    ``context_options`` are Playwright's ``new_context`` options (``viewport``, ``color_scheme``, ...).
    """
    with contextlib.ExitStack() as stack:
        base_url = stack.enter_context(serve_directory(site_dir))
        if browser is None:
            browser = stack.enter_context(launch_chromium())
        options: dict[str, Any] = {
            "viewport": VIEWPORT,
            "service_workers": "block",
            **(context_options or {}),
        }
        context = browser.new_context(**options)
        stack.callback(context.close)
        yield SiteBrowser(context, base_url, stubs)


def screenshot(page: Page, name: str, *, directory: Path = ARTIFACTS, full_page: bool = False) -> Path:
    """Save a PNG of ``page`` as ``<directory>/<name>.png`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.png"
    page.screenshot(path=os.fspath(path), full_page=full_page)
    return path
