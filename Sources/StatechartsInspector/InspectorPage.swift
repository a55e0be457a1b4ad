#if Inspector
/// The inspector's page: one HTML file with its style, and its script.
///
/// The chart's SVG comes from `/api/chart` and is parsed and inserted as nodes; each state is a
/// group with `data-state`, given the class `active` while the state is active. Each event button
/// carries `data-event`. The script reads the token from the page's address and puts it on every
/// request. The page has no inline script, so that a Content Security Policy of `script-src
/// 'self'` holds.
enum InspectorPage {
    /// The page, which loads ``script`` with `token`: the page holds no script of its own.
    ///
    /// - Parameter token: The server's token, which ``InspectorRequestPolicy/isValidToken(_:)``
    ///   has checked holds only characters that need no escaping in a URL or in markup.
    static func html(token: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Statechart inspector</title>
        <style>
        :root { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 14px; color: #222; }
        body { margin: 0; display: grid; grid-template-columns: 1fr 360px; grid-template-rows: auto 1fr; height: 100vh; }
        header { grid-column: 1 / 3; display: flex; gap: 16px; align-items: baseline; padding: 8px 16px;
          border-bottom: 1px solid #ddd; background: #fafafa; }
        header h1 { font-size: 16px; margin: 0; }
        #status { color: #666; }
        main { overflow: hidden; display: flex; flex-direction: column; min-width: 0; min-height: 0; }
        #toolbar { display: flex; gap: 4px; align-items: center; padding: 4px 12px; border-bottom: 1px solid #eee; }
        #zoom-level { color: #666; font-size: 12px; min-width: 44px; }
        #chart { flex: 1; overflow: auto; padding: 12px; cursor: grab; min-height: 0; }
        #chart.panning { cursor: grabbing; user-select: none; }
        #chart svg { display: block; }
        #scrub { width: 100%; }
        aside { overflow: auto; border-left: 1px solid #ddd; padding: 8px 12px; }
        h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.04em; color: #666; margin: 14px 0 6px; }
        button { font: inherit; padding: 3px 10px; margin: 2px; border: 1px solid #bbb; border-radius: 4px;
          background: #fff; cursor: pointer; }
        button:hover { background: #f0f0f0; }
        button:disabled { color: #aaa; cursor: default; }
        textarea, input { font: 12px ui-monospace, Menlo, monospace; width: 100%; box-sizing: border-box; }
        pre { font: 12px ui-monospace, Menlo, monospace; background: #f6f6f6; padding: 6px; margin: 0;
          white-space: pre-wrap; word-break: break-all; max-height: 220px; overflow: auto; }
        #message { color: #b00020; min-height: 1em; }
        #timeline { list-style: none; padding: 0; margin: 0; max-height: 300px; overflow: auto; }
        #timeline li { padding: 3px 6px; border-radius: 4px; cursor: pointer; font-size: 13px; }
        #timeline li:hover { background: #f0f0f0; }
        #timeline li.selected { background: #ffe7a3; }
        #timeline .changes { color: #666; font-size: 11px; }
        #viewing { display: none; background: #fff4d6; border: 1px solid #e6c060; padding: 6px; border-radius: 4px; }
        body.past #viewing { display: block; }
        body.past #events button { display: none; }
        .row { display: flex; gap: 6px; align-items: center; }
        .row input[type=number] { width: 90px; }
        </style>
        </head>
        <body>
        <header><h1 id="name">Statechart</h1><span id="status">connecting…</span><span id="time"></span></header>
        <main>
          <div id="toolbar"><button id="fit" title="Fit the chart to the window">Fit</button>
            <button id="zoom-out" title="Zoom out">−</button><button id="zoom-in" title="Zoom in">+</button>
            <span id="zoom-level"></span></div>
          <div id="chart"></div>
        </main>
        <aside>
          <div id="message"></div>
          <div id="viewing">Viewing step <span id="viewing-index"></span>.
            <button id="resume">Resume from here</button> <button id="live">Back to now</button></div>
          <h2>Events</h2>
          <div id="events"></div>
          <textarea id="data" rows="2" placeholder='event data as JSON, for example {"level": 3}'></textarea>
          <h2>Clock</h2>
          <div class="row"><input id="advance-by" type="number" min="0" step="any" value="1"> s
            <button id="advance">Advance</button>
            <label><input id="real-time" type="checkbox" style="width:auto"> real time</label></div>
          <h2>Configuration</h2>
          <pre id="configuration"></pre>
          <h2>Data</h2>
          <pre id="datamodel"></pre>
          <h2>Pending timers</h2>
          <pre id="timers"></pre>
          <h2>Timeline</h2>
          <input id="scrub" type="range" min="0" max="0" value="0" aria-label="Step shown">
          <ol id="timeline"></ol>
        </aside>
        <script src="/inspector.js?token=\#(token)"></script>
        </body>
        </html>
        """#
    }

    /// The page's script, served as `/inspector.js`.
    static let script = #"""
        "use strict";
        const token = new URLSearchParams(location.search).get("token") || "";
        let timeline = [];
        let selected = null;
        let abilities = { sending: false, timeTravel: false, clock: false };
        const $ = (id) => document.getElementById(id);

        function api(path, body) {
          const options = { headers: { "Authorization": "Bearer " + token } };
          if (body !== undefined) {
            options.method = "POST";
            options.headers["Content-Type"] = "application/json";
            options.body = JSON.stringify(body);
          }
          return fetch(path, options).then(async (response) => {
            const json = await response.json();
            if (!response.ok) throw new Error(json.error ? json.error.message : response.statusText);
            $("message").textContent = "";
            return json;
          }).catch((error) => { $("message").textContent = error.message; throw error; });
        }

        function shown() {
          if (selected !== null) {
            const step = timeline.find((s) => s.index === selected);
            if (step) return step;
            selected = null;
          }
          return timeline[timeline.length - 1];
        }

        // The arrows of the transitions `step` took: from each one's source to each of its targets.
        function highlight(step) {
          const taken = new Set();
          for (const transition of step.transitions || []) {
            if (transition.source === undefined || transition.source === null) continue;
            for (const target of transition.targets) taken.add(transition.source + "\u0000" + target);
          }
          document.querySelectorAll("#chart g.transition").forEach((element) => {
            const key = element.getAttribute("data-source") + "\u0000" + element.getAttribute("data-target");
            element.classList.toggle("taken", taken.has(key));
          });
        }

        function took(step) {
          const taken = (step.transitions || []).filter((t) => t.source !== undefined && t.source !== null);
          return taken.map((t) => t.source + " → " + (t.targets.length ? t.targets.join(", ") : "itself")).join("; ");
        }

        function render() {
          const step = shown();
          if (!step) return;
          const snapshot = step.snapshot;
          const active = new Set(snapshot.configuration);
          document.querySelectorAll("[data-state]").forEach((element) => {
            element.classList.toggle("active", active.has(element.getAttribute("data-state")));
          });
          highlight(step);
          const scrub = $("scrub");
          scrub.min = String(timeline[0].index);
          scrub.max = String(timeline[timeline.length - 1].index);
          scrub.value = String(step.index);
          document.body.classList.toggle("past", selected !== null);
          document.body.setAttribute("data-step", String(timeline[timeline.length - 1].index));
          $("viewing-index").textContent = String(step.index);
          $("resume").disabled = !abilities.timeTravel;
          $("status").textContent = snapshot.status;
          $("time").textContent = "t = " + snapshot.time.toFixed(3) + " s";
          $("configuration").textContent = snapshot.configuration.join("\n");
          $("datamodel").textContent = JSON.stringify(snapshot.data, null, 2);
          $("timers").textContent = snapshot.timers.length === 0 ? "none" :
            snapshot.timers.map((t) => t.name + " in " + Math.max(0, t.due - snapshot.time).toFixed(3) + " s" +
              "  (at t = " + t.due.toFixed(3) + " s" + (t.id ? ", id " + t.id : "") + ")").join("\n");
          const events = $("events");
          events.replaceChildren();
          for (const name of snapshot.events) {
            const button = document.createElement("button");
            button.textContent = name;
            button.setAttribute("data-event", name);
            button.disabled = !abilities.sending;
            button.addEventListener("click", () => send(name));
            events.appendChild(button);
          }
          if (snapshot.events.length === 0) events.textContent = snapshot.status === "running" ? "none now" : "finished";
          const list = $("timeline");
          list.replaceChildren();
          for (const entry of timeline) {
            const item = document.createElement("li");
            item.setAttribute("data-step", String(entry.index));
            if (entry.index === step.index && selected !== null) item.classList.add("selected");
            const title = document.createElement("div");
            title.textContent = entry.index + ". " + entry.label;
            const changes = document.createElement("div");
            changes.className = "changes";
            const transitions = took(entry);
            changes.textContent = "t = " + entry.snapshot.time.toFixed(3) + " s" +
              (transitions ? "  took " + transitions : "") +
              (entry.exited.length ? "  exited " + entry.exited.join(", ") : "") +
              (entry.entered.length ? "  entered " + entry.entered.join(", ") : "") +
              (entry.messages.length ? "  " + entry.messages.join("; ") : "");
            item.append(title, changes);
            item.addEventListener("click", () => {
              selected = entry.index === timeline[timeline.length - 1].index ? null : entry.index;
              render();
            });
            list.appendChild(item);
          }
          list.scrollTop = list.scrollHeight;
        }

        function send(name) {
          const text = $("data").value.trim();
          const body = { name };
          if (text !== "") {
            try { body.data = JSON.parse(text); }
            catch (error) { $("message").textContent = "the event data is not JSON: " + error.message; return; }
          }
          api("/api/events", body).catch(() => {});
        }

        $("resume").addEventListener("click", () => {
          if (selected === null) return;
          const step = selected;
          selected = null;
          api("/api/resume", { step }).catch(() => {});
        });
        $("live").addEventListener("click", () => { selected = null; render(); });
        $("scrub").addEventListener("input", (event) => {
          const index = Number(event.target.value);
          selected = index === timeline[timeline.length - 1].index ? null : index;
          render();
        });

        // Zoom and pan. The picture is fitted to the window when it loads and when the window
        // changes size, until the zoom is set by hand.
        let zoom = 1;
        let fitted = true;
        function chartSize() {
          const svg = document.querySelector("#chart svg");
          if (!svg || !svg.viewBox.baseVal) return null;
          return { svg, width: svg.viewBox.baseVal.width, height: svg.viewBox.baseVal.height };
        }
        function applyZoom(value) {
          const size = chartSize();
          if (!size) return;
          zoom = Math.min(8, Math.max(0.05, value));
          size.svg.setAttribute("width", String(size.width * zoom));
          size.svg.setAttribute("height", String(size.height * zoom));
          $("zoom-level").textContent = Math.round(zoom * 100) + " %";
        }
        function fit() {
          const size = chartSize();
          if (!size) return;
          const area = $("chart");
          const style = getComputedStyle(area);
          const width = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
          const height = area.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - 2;
          fitted = true;
          applyZoom(Math.min(width / size.width, height / size.height));
        }
        $("fit").addEventListener("click", fit);
        $("zoom-in").addEventListener("click", () => { fitted = false; applyZoom(zoom * 1.25); });
        $("zoom-out").addEventListener("click", () => { fitted = false; applyZoom(zoom / 1.25); });
        window.addEventListener("resize", () => { if (fitted) fit(); });
        let pan = null;
        $("chart").addEventListener("pointerdown", (event) => {
          pan = { x: event.clientX, y: event.clientY, left: $("chart").scrollLeft, top: $("chart").scrollTop };
          $("chart").classList.add("panning");
        });
        window.addEventListener("pointermove", (event) => {
          if (!pan) return;
          $("chart").scrollLeft = pan.left - (event.clientX - pan.x);
          $("chart").scrollTop = pan.top - (event.clientY - pan.y);
        });
        window.addEventListener("pointerup", () => { pan = null; $("chart").classList.remove("panning"); });
        $("advance").addEventListener("click", () => {
          const seconds = Number($("advance-by").value);
          api("/api/clock", { advance: seconds }).catch(() => {});
        });
        $("real-time").addEventListener("change", (event) => {
          api("/api/clock", { realTime: event.target.checked }).catch(() => { event.target.checked = false; });
        });

        // The chart's SVG, parsed as XML and inserted as nodes, never as HTML: nothing in it runs
        // (no script, no foreign object, no link, no event handler), whatever a state's name holds.
        function chartNodes(text) {
          const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
          const root = parsed.documentElement;
          if (root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length > 0) {
            throw new Error("the chart is not SVG");
          }
          for (const element of Array.from(root.querySelectorAll("*"))) {
            const name = element.localName.toLowerCase();
            if (["script", "foreignobject", "a", "iframe", "image", "use", "animate", "set"].includes(name)) {
              element.remove();
              continue;
            }
            for (const attribute of Array.from(element.attributes)) {
              const attributeName = attribute.name.toLowerCase();
              if (attributeName.startsWith("on") || attributeName === "href" || attributeName.endsWith(":href")) {
                element.removeAttribute(attribute.name);
              }
            }
          }
          return document.importNode(root, true);
        }

        function connect() {
          const socket = new WebSocket("ws://" + location.host + "/api/updates?token=" + encodeURIComponent(token));
          socket.addEventListener("message", (event) => {
            const message = JSON.parse(event.data);
            if (message.type === "timeline") timeline = message.steps;
            if (message.type === "step") {
              const last = timeline[timeline.length - 1];
              if (last && last.index === message.step.index) timeline[timeline.length - 1] = message.step;
              else timeline.push(message.step);
            }
            if (message.realTime !== undefined) $("real-time").checked = message.realTime;
            document.body.setAttribute("data-connected", "true");
            render();
          });
          socket.addEventListener("close", () => {
            document.body.setAttribute("data-connected", "false");
            $("status").textContent = "disconnected; retrying…";
            setTimeout(connect, 1000);
          });
        }

        api("/api/chart").then((chart) => {
          abilities = chart.abilities;
          document.title = chart.name + " — Statechart inspector";
          $("name").textContent = chart.name;
          $("chart").replaceChildren(chartNodes(chart.svg));
          fit();
          $("advance").disabled = !abilities.clock;
          $("real-time").disabled = !abilities.clock;
          $("data").disabled = !abilities.sending;
          connect();
        }).catch(() => {});
        """#
}
#endif
