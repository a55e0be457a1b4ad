#!/usr/bin/env python3
"""Drives the page of `statechart inspect` in headless Chromium through the DevTools protocol.

Usage: inspector_browser.py PAGE_URL [--live] [--screenshot FILE] [--chromium PATH]

The page is the inspector of Examples/media-player.scxml. The script clicks the event buttons
(data-event), fills the event data, advances the virtual clock, scrubs and selects past steps of
the timeline and resumes from one, and checks after each action which states carry the class
`active` (data-state). It checks the chart's geometry as the browser draws it, after load (fitted
to the window), after steps and after zooming: no transition label overlaps another or a state's
name, and every state's box and name is inside the chart's view; and that the arrows drawn as
taken are those of the last step's transitions. Every wait is bounded (10 s). Only the standard library is used: the
WebSocket client for the DevTools protocol is written here.

With --live, the page is that of a document running live on the wall clock (`statechart inspect
kettle.scxml --clock real`, an IsolatedSCXMLSession on the main actor): the script switches the
kettle on, and checks that its delayed send brings it back to idle by itself, 200 ms later.
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TIMEOUT = 10.0


class DevToolsSocket:
    """A minimal WebSocket client (RFC 6455): text frames out, masked; frames in, reassembled."""

    def __init__(self, url):
        parts = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + ("?" + parts.query if parts.query else "")
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the DevTools socket closed during the handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("the DevTools socket refused the upgrade: " + head.decode(errors="replace"))
        self.next_id = 0

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("the DevTools socket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, payload):
        header = bytearray([0x81])
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack(">H", length)
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", length)
        mask = os.urandom(4)
        header += mask
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(bytes(header) + masked)

    def _receive_message(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise RuntimeError("the DevTools socket was closed by Chromium")
            if opcode in (0x9, 0xA):
                continue
            message += payload
            if first & 0x80:
                return json.loads(message.decode())

    def call(self, method, **params):
        self.next_id += 1
        identifier = self.next_id
        self._send_frame(json.dumps({"id": identifier, "method": method, "params": params}).encode())
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = self._receive_message()
            if message.get("id") == identifier:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
        raise RuntimeError(f"{method}: no answer in {TIMEOUT} s")


class Page:
    def __init__(self, devtools):
        self.devtools = devtools

    def evaluate(self, expression):
        result = self.devtools.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what):
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        message = self.evaluate("document.getElementById('message').textContent")
        raise AssertionError(f"waited {TIMEOUT} s for {what}; the page shows active states "
                             f"{self.active()} and events {self.events()}; message: {message!r}")

    def active(self):
        return self.evaluate(
            "[...document.querySelectorAll('[data-state].active')].map(e => e.getAttribute('data-state'))")

    def events(self):
        return self.evaluate(
            "[...document.querySelectorAll('#events [data-event]')].map(e => e.getAttribute('data-event'))")

    def click(self, selector):
        found = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false; e.click(); return true; }})()")
        if not found:
            raise AssertionError(f"the page has no {selector}")

    def wait_active(self, expected, absent=()):
        condition = " && ".join(
            [f"!!document.querySelector('[data-state=\"{name}\"].active')" for name in expected]
            + [f"!document.querySelector('[data-state=\"{name}\"].active')" for name in absent])
        self.wait_for(condition, f"active {expected}, inactive {list(absent)}")


# The chart's geometry on the page, as the browser draws it: problems, or an empty list. Label boxes
# must not intersect one another or a state's name; every state's box and name must be inside the
# chart's visible area (after fitting).
GEOMETRY = r"""
(() => {
  const area = document.getElementById('chart').getBoundingClientRect();
  const problems = [];
  const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                            a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const inside = (a) => a.left >= area.left - 0.5 && a.top >= area.top - 0.5 &&
                        a.right <= area.right + 0.5 && a.bottom <= area.bottom + 0.5;
  const names = [];
  for (const group of document.querySelectorAll('#chart g[data-state]')) {
    const id = group.getAttribute('data-state');
    const shape = group.querySelector(':scope > rect, :scope > circle');
    const name = group.querySelector(':scope > text');
    if (!shape || !name) { problems.push(`${id} is not drawn`); continue; }
    if (!inside(shape.getBoundingClientRect())) problems.push(`the box of ${id} is outside the view`);
    if (!inside(name.getBoundingClientRect())) problems.push(`the name of ${id} is outside the view`);
    names.push([id, name.getBoundingClientRect()]);
  }
  const labels = [...document.querySelectorAll('#chart g.transition > text')]
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      if (overlap(labels[i][1], labels[j][1])) problems.push(`labels '${labels[i][0]}' and '${labels[j][0]}' overlap`);
    }
    for (const [id, box] of names) {
      if (overlap(labels[i][1], box)) problems.push(`label '${labels[i][0]}' overlaps the name of ${id}`);
    }
  }
  return problems;
})()
"""

# Whether the arrows drawn as taken are those of the transitions of the step shown.
HIGHLIGHT = r"""
(() => {
  const step = shown();
  const expected = new Set();
  for (const t of step.transitions) {
    if (t.source === undefined || t.source === null) continue;
    for (const target of t.targets) expected.add(t.source + ' -> ' + target);
  }
  const taken = [...document.querySelectorAll('#chart g.transition.taken')]
    .map((g) => g.getAttribute('data-source') + ' -> ' + g.getAttribute('data-target'));
  return { expected: [...expected].sort(), taken: [...new Set(taken)].sort() };
})()
"""


def check_geometry(page, when):
    problems = page.evaluate(GEOMETRY)
    check(problems == [], f"{when}: no label overlaps another or a state's name, every state inside the view"
          + (f" (found: {problems})" if problems else ""))


def check_highlight(page, when):
    found = page.evaluate(HIGHLIGHT)
    check(found["taken"] == found["expected"] and found["expected"],
          f"{when}: the arrows drawn taken are the last step's transitions, {found['expected']}"
          + ("" if found["taken"] == found["expected"] else f" (drawn: {found['taken']})"))


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message)


def live_checks(page):
    """The kettle, live on the wall clock: switched on, it boils and goes back to idle by itself."""
    page.wait_active(["idle"], absent=["heating"])
    check(page.evaluate("document.querySelectorAll('svg [data-state]').length") >= 2,
          "the live document's chart is drawn as SVG with a data-state on each state")
    check(page.events() == ["switch.on"], "the buttons are the events idle takes: switch.on")
    page.click('#events [data-event="switch.on"]')
    page.wait_for("document.querySelectorAll('#timeline li').length >= 3",
                  "the timeline to show the event's step and the timer's")
    page.wait_active(["idle"], absent=["heating"])
    check(True, "200 ms after switch.on, the delayed send brought the kettle back to idle by itself")
    page.click('#timeline li[data-step="1"]')
    page.wait_for("document.body.classList.contains('past')", "the page to show a past step")
    page.wait_active(["heating"], absent=["idle"])
    check(True, "step 1 of the timeline shows the kettle heating")
    print("live inspector page: all checks passed")


def find_chromium(given):
    for candidate in [given, "chromium", "chromium-browser", "google-chrome"]:
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    raise SystemExit("Chromium is not installed (apt-get install chromium)")


def start_chromium(chromium, prefix):
    """Starts headless Chromium (1400×900) on a profile of its own, with its DevTools server on
    loopback; returns the process, the profile's folder and its blank page."""
    profile = tempfile.mkdtemp(prefix=prefix)
    browser = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--window-size=1400,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.monotonic() > deadline or browser.poll() is not None:
                raise SystemExit("Chromium did not start its DevTools server")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=TIMEOUT))
        target = next(t for t in targets if t.get("type") == "page")
        return browser, profile, Page(DevToolsSocket(target["webSocketDebuggerUrl"]))
    except BaseException:
        stop_chromium(browser, profile)
        raise


def stop_chromium(browser, profile):
    browser.terminate()
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
    shutil.rmtree(profile, ignore_errors=True)


def main():
    arguments = sys.argv[1:]
    if not arguments:
        raise SystemExit(__doc__)
    url = arguments[0]
    screenshot = arguments[arguments.index("--screenshot") + 1] if "--screenshot" in arguments else None
    chromium = find_chromium(arguments[arguments.index("--chromium") + 1] if "--chromium" in arguments else None)
    browser, profile, page = start_chromium(chromium, "inspector-chromium-")
    try:
        page.devtools.call("Page.enable")
        page.devtools.call("Page.navigate", url=url)

        page.wait_for("document.body && document.body.getAttribute('data-connected') === 'true'",
                      "the page to connect its WebSocket")
        if "--live" in arguments:
            live_checks(page)
            return
        page.wait_active(["stopped"], absent=["playing"])
        check(page.evaluate("document.querySelectorAll('svg [data-state]').length") >= 10,
              "the chart is drawn as SVG with a data-state on each state")
        check(sorted(page.events()) == ["eject", "play"], "the buttons are the events stopped takes: play, eject")
        check_geometry(page, "after load, fitted to the window")
        check(page.evaluate("document.getElementById('zoom-level').textContent.endsWith('%')"),
              "the zoom level is shown")

        page.click('#events [data-event="play"]')
        page.wait_active(["active", "playing", "audible"], absent=["stopped"])
        check("pause" in page.events() and "play" not in page.events(), "after play, the buttons follow the configuration")
        check_highlight(page, "after play")
        check(page.evaluate("document.querySelector('#timeline li:last-child').textContent.includes('took stopped → ')"),
              "the timeline says which transitions the step took")
        check_geometry(page, "after play")
        check(page.evaluate("[...document.querySelectorAll('[data-state].active.atomic > rect')]"
                            ".every((r) => getComputedStyle(r).fill !== getComputedStyle("
                            "document.querySelector('[data-state=\"active\"].active > rect')).fill)"),
              "the active leaves are filled apart from their active ancestors")
        page.click("#zoom-in")
        page.click("#zoom-in")
        page.click("#fit")
        check_geometry(page, "after zooming in and fitting again")

        page.evaluate("document.getElementById('data').value = '{\"to\": 30}'")
        page.click('#events [data-event="scrub"]')
        page.wait_active(["scrubbing"], absent=["playing"])
        check(page.evaluate("document.querySelector('#timeline li:last-child').textContent.includes('{\"to\":30}')"),
              "the timeline shows the event's data")
        page.evaluate("document.getElementById('data').value = ''")

        page.evaluate("document.getElementById('advance-by').value = '2'")
        page.click("#advance")
        page.wait_for("document.getElementById('time').textContent.startsWith('t = 2.000')",
                      "the virtual clock at 2 s")
        check(True, "the clock advances by 2 s")

        if screenshot:
            shot = page.devtools.call("Page.captureScreenshot", format="png")
            with open(screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            check(os.path.getsize(screenshot) > 10000, f"a screenshot of the page in {screenshot}")

        steps = page.evaluate("document.querySelectorAll('#timeline li').length")
        page.evaluate("(() => { const s = document.getElementById('scrub'); s.value = '0';"
                      " s.dispatchEvent(new Event('input')); })()")
        page.wait_for("document.body.classList.contains('past')", "the scrubber to show a past step")
        page.wait_active(["stopped"], absent=["playing"])
        check(True, "scrubbing the timeline to step 0 shows the start: stopped")
        page.click("#live")
        page.wait_for("!document.body.classList.contains('past')", "the page to show now again")
        page.click('#timeline li[data-step="1"]')
        page.wait_for("document.body.classList.contains('past')", "the page to show a past step")
        page.wait_active(["playing"], absent=["scrubbing"])
        check(True, "selecting step 1 of the timeline shows its configuration: playing")
        page.click("#resume")
        page.wait_for("!document.body.classList.contains('past') && "
                      "document.querySelectorAll('#timeline li').length === 2", "the timeline to end at step 1")
        page.wait_active(["playing"], absent=["scrubbing"])
        check(steps > 2, f"resuming from step 1 drops the {steps - 2} steps after it, and the machine plays again")

        page.click('#events [data-event="stop"]')
        page.wait_active(["stopped"], absent=["playing", "active"])
        check(True, "the machine resumed from step 1 takes events again: stop")
        print("inspector page: all checks passed")
    finally:
        stop_chromium(browser, profile)


if __name__ == "__main__":
    main()
