#!/usr/bin/env python3
"""Checks the geometry of the library's SVG pictures in headless Chromium, on the boxes the browser
gives the text it draws (getBBox), not on estimates:

- no transition label overlaps another label or a state's name;
- every state (data-state) is drawn, with a box of some size, inside the picture's viewBox, its name
  inside its box.

Usage: svg_geometry.py FILE.svg... [--chromium PATH]

Prints one line per picture that fails, with what overlaps, and a summary; exits 1 if any fails.
Chromium is started, and the DevTools protocol spoken, as inspector_browser.py does.
"""

import json
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inspector_browser import find_chromium, start_chromium, stop_chromium  # noqa: E402

# Measured in the page: returns the problems of the picture in <body>.
CHECK = r"""
(() => {
  const svg = document.querySelector('svg');
  if (!svg) return ['no <svg> element'];
  const problems = [];
  const view = svg.viewBox.baseVal;
  const box = (element) => element.getBBox();
  const overlap = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 &&
                            a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
  const inside = (a, outer) => a.x >= outer.x - 0.5 && a.y >= outer.y - 0.5 &&
                               a.x + a.width <= outer.x + outer.width + 0.5 &&
                               a.y + a.height <= outer.y + outer.height + 0.5;
  const states = [...svg.querySelectorAll('g[data-state]')];
  const names = [];
  for (const group of states) {
    const id = group.getAttribute('data-state');
    const shape = group.querySelector(':scope > rect, :scope > circle');
    const name = group.querySelector(':scope > text');
    if (!shape || !name) { problems.push(`state ${id} is not drawn`); continue; }
    const shapeBox = box(shape);
    if (shapeBox.width <= 0 || shapeBox.height <= 0) problems.push(`state ${id} has an empty box`);
    if (!inside(shapeBox, view)) problems.push(`state ${id} is outside the picture`);
    const nameBox = box(name);
    if (!inside(nameBox, shapeBox)) problems.push(`the name of ${id} leaves its box`);
    names.push([id, nameBox]);
  }
  const labels = [...svg.querySelectorAll('g.transition > text')].map((t) => [t.textContent, box(t), t.parentNode]);
  for (let i = 0; i < labels.length; i++) {
    const [text, b, group] = labels[i];
    const where = `${group.getAttribute('data-source')} → ${group.getAttribute('data-target')}`;
    if (!inside(b, view)) problems.push(`the label '${text}' (${where}) is outside the picture`);
    for (let j = i + 1; j < labels.length; j++) {
      if (overlap(b, labels[j][1])) problems.push(`the labels '${text}' and '${labels[j][0]}' overlap`);
    }
    for (const [id, nameBox] of names) {
      if (overlap(b, nameBox)) problems.push(`the label '${text}' (${where}) overlaps the name of ${id}`);
    }
  }
  return problems.concat([`#states ${states.length}`, `#labels ${labels.length}`]);
})()
"""


def main():
    arguments = sys.argv[1:]
    chromium = find_chromium(arguments[arguments.index("--chromium") + 1] if "--chromium" in arguments else None)
    files = [a for a in arguments if a.endswith(".svg")]
    if not files:
        raise SystemExit(__doc__)
    browser, profile, page = start_chromium(chromium, "svg-geometry-chromium-")
    failed = 0
    states = labels = 0
    try:
        for name in files:
            svg = pathlib.Path(name).read_text(encoding="utf-8")
            # Parsed as SVG (not HTML), then adopted into the page, as the inspector inserts it.
            page.evaluate(
                "(() => { const parsed = new DOMParser().parseFromString(" + json.dumps(svg)
                + ", 'image/svg+xml'); document.body.replaceChildren(document.adoptNode(parsed.documentElement)); })()")
            found = page.evaluate(CHECK)
            counts = {line.split()[0]: int(line.split()[1]) for line in found if line.startswith("#")}
            states += counts.get("#states", 0)
            labels += counts.get("#labels", 0)
            problems = [line for line in found if not line.startswith("#")]
            if problems:
                failed += 1
                print(f"{name}: " + "; ".join(problems))
    finally:
        stop_chromium(browser, profile)
    print(f"{len(files)} pictures, {states} states, {labels} labels: {len(files) - failed} without overlap, {failed} with")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
