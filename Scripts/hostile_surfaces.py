#!/usr/bin/env python3
"""Runs the hostile cases of Tests/HostileSurfaces/cases against the surfaces beside the document
path: the inspector (as a local server attacked from the same machine and from a browser), the
graph writers, the generator, the reader's per-element counts, terminal output, pipes and child
processes, and the Basic HTTP processor's client. Each case is one JSON file that says what it
does, what must happen, and why (the defect it guards against). Everything runs on loopback, each
step under a time limit.

    Scripts/hostile_surfaces.py STATECHART_BINARY [CASE ...]
"""
import json
import os
import re
import shutil
import sqlite3
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import xml.etree.ElementTree as ElementTree
from http.server import BaseHTTPRequestHandler, HTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "Tests", "HostileSurfaces", "cases")


class Skip(Exception):
    pass


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


# MARK: - The inspector


class Inspector:
    """`statechart inspect DOCUMENT [ARGUMENTS]` in the background, with its address read from
    --url-file. A case's "arguments" (such as ["--clock", "real"]) go on its command line."""

    def __init__(self, binary, document, work, arguments=()):
        self.url_file = os.path.join(work, "url")
        self.process = subprocess.Popen(
            [binary, "inspect", document, "--url-file", self.url_file] + list(arguments),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        deadline = time.time() + 30
        while time.time() < deadline:
            if os.path.exists(self.url_file) and os.path.getsize(self.url_file) > 0:
                break
            if self.process.poll() is not None:
                raise Failure("statechart inspect stopped: " + self.process.stderr.read().decode(errors="replace"))
            time.sleep(0.05)
        else:
            raise Failure("statechart inspect did not write its address in 30 s")
        with open(self.url_file) as handle:
            url = handle.read().strip()
        match = re.match(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9._~-]+)$", url)
        expect(match is not None, "unexpected address " + url)
        self.port = int(match.group(1))
        self.token = match.group(2)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def raw(self, method, target, headers=None, body=b"", read_all=True):
        """One request written byte for byte; (status, head, body)."""
        fields = {"Host": "127.0.0.1:%d" % self.port, "Connection": "close"}
        fields.update(headers or {})
        if body or method == "POST":
            fields["Content-Length"] = str(len(body))
        request = "%s %s HTTP/1.1\r\n" % (method, target)
        request += "".join("%s: %s\r\n" % item for item in fields.items()) + "\r\n"
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as connection:
            connection.sendall(request.encode("utf-8") + body)
            reply = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                reply += chunk
                if not read_all and b"\r\n\r\n" in reply:
                    break
        head, _, rest = reply.partition(b"\r\n\r\n")
        status_line = head.split(b"\r\n")[0].decode(errors="replace")
        expect(status_line.startswith("HTTP/1.1 "), "no answer: %r" % reply[:200])
        return int(status_line.split(" ")[1]), head.decode(errors="replace"), rest

    def api(self, path, payload=None):
        request = urllib.request.Request(
            "http://127.0.0.1:%d%s" % (self.port, path),
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"},
            data=None if payload is None else json.dumps(payload).encode())
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())


def with_token(inspector, target, placement):
    headers = {}
    if placement == "query":
        target += ("&" if "?" in target else "?") + "token=" + inspector.token
    elif placement == "bearer":
        headers["Authorization"] = "Bearer " + inspector.token
    return target, headers


def substitute(value, inspector):
    own = "http://127.0.0.1:%d" % inspector.port
    return value.replace("PORT", str(inspector.port)).replace("OWN", own)


def inspect_request(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        before = inspector.api("/api/snapshot")["configuration"] if case.get("unchanged") else None
        target, headers = with_token(inspector, case["target"], case.get("token", "none"))
        for name, value in case.get("headers", {}).items():
            headers[name] = substitute(value, inspector)
        status, _, _ = inspector.raw(case["method"], target, headers, case.get("body", "").encode())
        expect(status == case["status"], "answered %d, not %d" % (status, case["status"]))
        if before is not None:
            after = inspector.api("/api/snapshot")["configuration"]
            expect(after == before, "the machine moved: %s, then %s" % (before, after))
        return "answered %d" % status
    finally:
        inspector.stop()


def inspect_websocket(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        target, _ = with_token(inspector, case.get("target", "/api/updates"), "query")
        headers = {
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": substitute(case["origin"], inspector),
        }
        status, _, _ = inspector.raw("GET", target, headers, read_all=False)
        expect((status == 101) == case["upgraded"], "answered %d" % status)
        return "answered %d" % status
    finally:
        inspector.stop()


def inspect_page(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        status, head, body = inspector.raw("GET", "/?token=" + inspector.token)
        expect(status == 200, "the page answered %d" % status)
        policy = next((line.split(":", 1)[1] for line in head.split("\r\n")
                       if line.lower().startswith("content-security-policy:")), "")
        directives = [part.strip() for part in policy.split(";")]
        scripts = next((part for part in directives if part.startswith("script-src")), "")
        expect(scripts == "script-src 'self'", "script-src is %r" % scripts)
        page = body.decode()
        tags = re.findall(r"<script[^>]*>", page)
        expect(len(tags) == 1 and ' src="/inspector.js?token=' in tags[0], "script elements: %s" % tags)
        expect(re.search(r"\son[a-z]+\s*=", page) is None, "an inline handler in the page")
        _, _, script = inspector.raw("GET", "/inspector.js?token=" + inspector.token)
        expect(b"innerHTML" not in script, "the script still uses innerHTML")
        return "no inline script; " + scripts
    finally:
        inspector.stop()


def inspect_url_file(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        mode = oct(os.stat(inspector.url_file).st_mode & 0o777)
        expect(mode == "0o" + case["mode"].lstrip("0"), "mode %s" % mode)
        return "mode %s" % mode
    finally:
        inspector.stop()


def unsafe_svg(root):
    """What in an SVG tree would run or link: on* attributes, links, scripts."""
    found = []
    for element in root.iter():
        tag = element.tag.split("}")[-1].lower()
        if tag in ("script", "foreignobject", "a"):
            found.append(tag)
        for name, value in element.attrib.items():
            local = name.split("}")[-1].lower()
            if local.startswith("on") or local == "href" or "javascript:" in value.lower():
                found.append("%s=%r" % (local, value))
    return found


def inspect_chart(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        svg = inspector.api("/api/chart")["svg"]
        root = ElementTree.fromstring(svg)
        states = [element for element in root.iter() if "data-state" in element.attrib]
        expect(len(states) == case["states"], "%d states drawn" % len(states))
        expect(not unsafe_svg(root), "unsafe: %s" % unsafe_svg(root))
        return "%d states, nothing that runs" % len(states)
    finally:
        inspector.stop()


def resident_megabytes(pid):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def inspect_memory(case, binary, work):
    inspector = Inspector(binary, case["document"], work, case.get("arguments", []))
    try:
        inspector.api("/api/clock", {"realTime": True})
        peak = 0
        deadline = time.time() + case["seconds"]
        while time.time() < deadline:
            peak = max(peak, resident_megabytes(inspector.process.pid))
            time.sleep(0.5)
        expect(peak <= case["maximum-megabytes"], "%.0f MB resident" % peak)
        return "%.0f MB at most after %d s of real time" % (peak, case["seconds"])
    finally:
        # The clock may be far behind the wall with such a document: the process is ended, not
        # asked to stop after it catches up.
        inspector.process.kill()
        inspector.process.wait()


# MARK: - The tool


def printable_problem(data):
    """The first byte sequence a terminal would obey, or None."""
    text = data.decode("utf-8", errors="replace")
    for index, character in enumerate(text):
        code = ord(character)
        if (code < 0x20 and character not in "\n\t") or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029) \
                or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            return "U+%04X at %d in %r" % (code, index, text[max(0, index - 20):index + 20])
    return None


def prepare(case, work):
    """Files a tool case needs, and the environment it runs in."""
    environment = dict(os.environ)
    if "copy" in case:
        shutil.copy(os.path.join(ROOT, case["copy"]), case["arguments"][1].replace("WORK", work))
    if "write" in case:
        path = next(argument for argument in case["arguments"] if argument.startswith("WORK/"))
        with open(path.replace("WORK", work), "w", encoding="utf-8") as handle:
            handle.write(case["write"])
    if "generate-states" in case:
        count = case["generate-states"]
        with open(os.path.join(work, "big.scxml"), "w") as handle:
            handle.write('<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="s0">\n')
            for index in range(count):
                handle.write('<state id="s%d"><transition event="e%d.go" target="s%d"/></state>\n'
                             % (index, index, (index + 1) % count))
            handle.write("</scxml>\n")
    if "many-attributes" in case:
        with open(os.path.join(work, "attributes.scxml"), "w") as handle:
            handle.write('<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a" ')
            handle.write(" ".join('x%d="1"' % index for index in range(case["many-attributes"])))
            handle.write("/></scxml>\n")
    if "fake-dot" in case:
        folder = os.path.join(work, "bin")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "dot"), "w") as handle:
            handle.write("#!/bin/sh\n" + case["fake-dot"] + "\n")
        os.chmod(os.path.join(folder, "dot"), 0o755)
        environment["PATH"] = folder + ":" + environment.get("PATH", "")
    if "fleet-rows" in case:
        # A store as the tool finds it: its tables made by the tool itself (the first run of
        # `statechart fleet` on an empty SQLite file), then the case's rows written behind its back.
        path = os.path.join(work, "fleet.sqlite")
        sqlite3.connect(path).close()
        made = subprocess.run([binary_of(case), "fleet", path], capture_output=True, timeout=120, cwd=ROOT)
        expect(made.returncode == 0, "the store's tables: " + made.stderr.decode(errors="replace")[-300:])
        with sqlite3.connect(path) as database:
            for statement, values in case["fleet-rows"]:
                database.execute(statement, values)
    if case.get("needs") and shutil.which(case["needs"]) is None:
        raise Skip("%s is not installed" % case["needs"])
    return [argument.replace("WORK", work) for argument in case["arguments"]], environment


def binary_of(case):
    """The tool's binary, which `tool` records in the case before preparing it."""
    return case["__binary"]


def check_output(kind, output, work):
    if kind in ("xml", "svg"):
        root = ElementTree.fromstring(output)
        if kind == "svg":
            expect(not unsafe_svg(root), "unsafe: %s" % unsafe_svg(root))
        return "well-formed " + kind
    if kind == "dot":
        graph = subprocess.run(["dot", "-Tjson"], input=output, capture_output=True, timeout=60)
        expect(graph.returncode == 0, "dot cannot read it: " + graph.stderr.decode(errors="replace"))
        objects = json.loads(graph.stdout).get("objects", [])
        links = [item for item in objects if "URL" in item or "href" in item]
        expect(not links, "links in the graph: %s" % links)
        return "dot reads %d objects, no links" % len(objects)
    if kind == "json":
        value = json.loads(output)
        return "JSON of %d keys" % len(value)
    if kind == "swift":
        path = os.path.join(work, "generated.swift")
        with open(path, "wb") as handle:
            handle.write(output)
        parsed = subprocess.run(["swiftc", "-parse", path], capture_output=True, timeout=120)
        expect(parsed.returncode == 0, "swiftc -parse: " + parsed.stderr.decode(errors="replace")[:400])
        expect(b"\nlet pwned" not in output, "the file name is live code")
        return "swiftc -parse reads it"
    raise Failure("unknown output kind " + kind)


def tool(case, binary, work):
    case["__binary"] = binary
    arguments, environment = prepare(case, work)
    limit = case.get("seconds", 120)
    started = time.time()
    run = subprocess.run([binary] + arguments, capture_output=True, timeout=limit, cwd=ROOT, env=environment)
    seconds = time.time() - started
    expect(run.returncode in case["exit"], "exit %d: %s" % (run.returncode, run.stderr.decode(errors="replace")[-300:]))
    notes = ["exit %d in %.1f s" % (run.returncode, seconds)]
    if case.get("printable"):
        for stream, data in (("stdout", run.stdout), ("stderr", run.stderr)):
            problem = printable_problem(data)
            expect(problem is None, "%s: %s" % (stream, problem))
        notes.append("no control sequence")
    if "stderr-contains" in case:
        expect(case["stderr-contains"] in run.stderr.decode(errors="replace"), "stderr: " + run.stderr.decode()[-300:])
    if "stdout" in case:
        notes.append(check_output(case["stdout"], run.stdout, work))
    if "annotations" in case:
        notes.append(check_annotations(case["annotations"], run.stdout))
    return ", ".join(notes)


def check_annotations(count, output):
    """GitHub Actions annotations (`--format github`): exactly `count` workflow commands, each on a
    line of its own and each an `::error` with its properties before the first `::`, as the
    runner reads them; nothing a document or a file name holds starts a command or a property."""
    lines = output.decode("utf-8", errors="replace").split("\n")
    commands = [line for line in lines if line.lstrip().startswith("::")]
    expect(len(commands) == count, "%d workflow commands, not %d: %r" % (len(commands), count, commands[:5]))
    for command in commands:
        expect(command.startswith("::error "), "not an ::error command: %r" % command[:120])
        head = command[2:command.index("::", 2)]
        keys = [pair.split("=", 1)[0] for pair in head.split(" ", 1)[1].split(",")]
        expect(keys == ["file", "line", "col", "title"], "properties %r in %r" % (keys, command[:160]))
    return "%d annotations, each one command with its own properties" % count


def tool_pipe(case, binary, work):
    arguments, environment = prepare(case, work)
    process = subprocess.Popen([binary] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                               env=environment)
    process.stdout.read(16)
    process.stdout.close()
    try:
        _, errors = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise Failure("the tool did not end after its reader went away")
    expect(process.returncode != -signal.SIGPIPE, "killed by SIGPIPE")
    expect(b"Fatal error" not in errors, errors.decode(errors="replace")[-300:])
    return "exit %d after its reader went away" % process.returncode


# MARK: - The Basic HTTP processor


def http_redirect(case, binary, work):
    hits = []

    class Refused(BaseHTTPRequestHandler):
        def do_POST(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *arguments):
            pass

    refused = HTTPServer(("127.0.0.2", 0), Refused)

    class Redirecting(BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.2:%d/scxml/elsewhere" % refused.server_port)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *arguments):
            pass

    allowed = HTTPServer(("127.0.0.1", 0), Redirecting)
    for server in (refused, allowed):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with open(os.path.join(ROOT, case["document"])) as handle:
            text = handle.read().replace("ALLOWED_URL", "http://127.0.0.1:%d/scxml/here" % allowed.server_port)
        document = os.path.join(work, "redirect.scxml")
        with open(document, "w") as handle:
            handle.write(text)
        run = subprocess.run([binary, "run", document, "--http"], capture_output=True, timeout=60, cwd=ROOT)
        output = run.stdout.decode(errors="replace")
        if "--http" in run.stderr.decode(errors="replace") and run.returncode == 64:
            raise Skip("this build has no Basic HTTP processor")
        expect("[refused]" in output, "the send was not refused: " + output[-300:])
        expect(not hits, "the refused host was reached: %s" % hits)
        return "error.communication, and the refused host saw no request"
    finally:
        allowed.shutdown()
        refused.shutdown()


KINDS = {
    "inspect-request": inspect_request, "inspect-websocket": inspect_websocket, "inspect-page": inspect_page,
    "inspect-url-file": inspect_url_file, "inspect-chart": inspect_chart, "inspect-memory": inspect_memory,
    "tool": tool, "tool-pipe": tool_pipe, "http-redirect": http_redirect,
}


def main():
    binary = os.path.abspath(sys.argv[1])
    wanted = set(sys.argv[2:])
    passed = failed = skipped = 0
    for name in sorted(os.listdir(CASES)):
        if not name.endswith(".json") or (wanted and name[:-5] not in wanted):
            continue
        with open(os.path.join(CASES, name)) as handle:
            case = json.load(handle)
        work = tempfile.mkdtemp(prefix="hostile-surface-")
        try:
            note = KINDS[case["kind"]](case, binary, work)
            print("ok   %s: %s" % (name[:-5], note))
            passed += 1
        except Skip as reason:
            print("skip %s: %s" % (name[:-5], reason))
            skipped += 1
        except Exception as error:  # a failure, a timeout, a parse error: each fails the case
            print("FAIL %s: %s (%s)" % (name[:-5], error, case.get("why", "")))
            failed += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
        sys.stdout.flush()
    print("hostile surfaces: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
