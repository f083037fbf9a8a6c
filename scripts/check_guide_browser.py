"""Open the guide page in headless Chromium, screenshot it, and check that every image loads.

Usage: ``python scripts/check_guide_browser.py results/guide.html [--screenshot shot.png]
[--click SPOT LINE CLASS ...]`` (``--click``: the strategy browser's speed, :func:`click_browser`).
Exit code 0 when the page has images and all of them decoded; 1 otherwise; 2 when
no Chromium is installed (``apt-get install chromium``).

How: a copy of the page gets a small script that, once the page has loaded, records
how many images there are and which failed (``complete`` and ``naturalWidth > 0``)
on ``<body>``; Chromium's ``--dump-dom`` prints the DOM after it ran.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = """<script>
window.addEventListener('load', () => {
  const imgs = Array.from(document.images);
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt || i.src.slice(0, 40));
  document.body.setAttribute('data-images', JSON.stringify({images: imgs.length, broken: broken}));
});
</script>"""

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--virtual-time-budget=20000",
)


def find_chromium() -> str | None:
    """The Chromium (or Chrome) executable, if one is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_in_page(page: str | Path, script: str, attribute: str, timeout: float = 120) -> str:
    """Load a copy of ``page`` with ``script`` added at the end of ``<body>`` in headless Chromium;
    return the value the script left in ``<body data-ATTRIBUTE>`` (HTML entities decoded)."""
    chromium = find_chromium()
    if chromium is None:
        raise FileNotFoundError("no Chromium found: apt-get install chromium")
    page = Path(page).resolve()
    html_text = page.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / page.name
        probe.write_text(html_text.replace("</body>", script + "</body>", 1), encoding="utf-8")
        flags = [*FLAGS, f"--user-data-dir={Path(tmp) / 'profile'}"]
        dom = subprocess.run([chromium, *flags, "--dump-dom", probe.as_uri()],
                             capture_output=True, text=True, timeout=timeout).stdout
    found = re.search(rf'data-{attribute}="([^"]*)"', dom)
    if not found:
        raise RuntimeError(f"the page did not finish loading in Chromium (no data-{attribute} in the DOM)")
    return html.unescape(found.group(1))


CLICKS = """<script>
window.addEventListener('load', () => {
  const root = document.getElementById('spot-browser');
  const out = {ready: root.dataset.ready === '1', ready_ms: +root.dataset.readyMs};
  const pick = (id, value) => { const el = document.getElementById(id); if (!el) return;  // (a page before 3 players)
                                el.value = String(value); el.dispatchEvent(new Event('change')); };
  const spot = JSON.parse(document.getElementById('spot-data').textContent).spots[%(spot)d];
  out.seats = spot.seats || 2;
  const t0 = performance.now();
  pick('sb-seats', out.seats);
  out.seats_ms = performance.now() - t0;
  pick('sb-family', spot.family); pick('sb-state', spot.state);
  pick('sb-spot', %(spot)d); pick('sb-line', %(line)d); pick('sb-made', %(made)d);
  out.switch_ms = performance.now() - t0;
  out.spot = +document.getElementById('sb-spot').value;
  out.line = +document.getElementById('sb-line').value;
  const cell = root.querySelector('.sb-cell[data-cls="%(cls)s"]');
  const t1 = performance.now();
  cell.click();
  out.click_ms = performance.now() - t1;
  out.info = document.getElementById('sb-info').textContent;
  out.header = Array.from(root.querySelectorAll('#sb-detail thead th')).map(th => th.textContent);
  out.rows = Array.from(root.querySelectorAll('#sb-detail tbody tr')).map(
    tr => Array.from(tr.children).map(td => td.textContent));
  out.selected = Array.from(root.querySelectorAll('.sb-selected')).map(c => c.dataset.cls);
  document.body.setAttribute('data-browser', JSON.stringify(out));
});
</script>"""


def click_browser(page: str | Path, spot: int, line: int, cls: str, made: int = -1, timeout: float = 120) -> dict:
    """In the page's strategy browser: switch to the player count of spot ``spot`` (its index in the
    browser data, heads-up or three-handed), choose its family, game state and board, decision
    ``line`` and made-hand filter ``made`` (-1 for all), click class ``cls``; return what it shows
    (the spot and decision chosen, info line, the holdings table's header and rows) and the time to
    the first view, of the player-count switch, of the whole switch and of the click (ms)."""
    script = CLICKS % {"spot": spot, "line": line, "made": made, "cls": cls}
    return json.loads(run_in_page(page, script, "browser", timeout))


def check_page(page: str | Path, screenshot: str | Path | None = None, timeout: float = 120) -> dict:
    """Load ``page`` in headless Chromium; return ``{"images": n, "broken": [...]}``."""
    result = json.loads(run_in_page(page, PROBE, "images", timeout))
    if screenshot:
        shot = Path(screenshot).resolve()
        shot.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([find_chromium(), *FLAGS, f"--user-data-dir={Path(tmp) / 'profile'}",
                            f"--screenshot={shot}", "--window-size=1280,2400", Path(page).resolve().as_uri()],
                           capture_output=True, text=True, timeout=timeout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--click", nargs=3, action="append", metavar=("SPOT", "LINE", "CLASS"), default=[],
                        help="also time the strategy browser: switch to the player count of spot SPOT (its index in "
                             "the browser data), choose it and decision LINE (indices), click class CLASS; "
                             "prints the first view, player-count switch, whole switch and click in ms "
                             "(repeatable)")
    args = parser.parse_args()
    try:
        for spot, line, cls in args.click:
            shown = click_browser(args.page, int(spot), int(line), cls)
            print(f"spot {spot} ({shown['seats']} players), decision {line}, class {cls}: first view "
                  f"{shown['ready_ms']:.0f} ms, player-count switch {shown['seats_ms']:.1f} ms, switch "
                  f"{shown['switch_ms']:.1f} ms, click {shown['click_ms']:.1f} ms, {len(shown['rows'])} holdings shown")
        result = check_page(args.page, args.screenshot)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    ok = result["images"] > 0 and not result["broken"]
    print(f"{args.page}: {result['images']} images, {len(result['broken'])} broken"
          + (f" ({', '.join(result['broken'])})" if result["broken"] else "")
          + (f"; screenshot {args.screenshot}" if args.screenshot else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
