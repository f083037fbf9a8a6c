"""The guide page, built from result files only: ``README.md`` and a self-contained ``guide.html``.

The page is a list of blocks (headings, paragraphs, tables, figures) rendered
twice: as Markdown that any Git host shows, and as one HTML file with every
image embedded, which opens offline. Each study's text reads its own tables.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.core.io import write_text
from evaluator.errors import LabError

from ..charts import caption_text
from . import sections
from .blocks import Block
from .studies import STUDIES


def _load(out: Path) -> list[dict[str, Any]]:
    studies = []
    for study in STUDIES:
        index = out / study.name / "study.json"
        if index.exists():
            studies.append(json.loads(index.read_text(encoding="utf-8")))
    return studies


def deck_sentence(deck: str) -> str:
    """What the guide's numbers rest on, by the deck's own ``assumed`` label."""
    from analysis.dilemma.decks import load_deck

    try:
        d = load_deck(deck)
    except LabError:  # a deck file moved since the studies ran
        return f"The corner values and effects are those of the deck {deck}."
    if d.assumed:
        return (f"The {d.name} deck's corner values and effects are *assumed* values "
                "(RULES §1.7), not the printed cards.")
    if not d.plus.any() and not d.minus.any() and not d.effect_cards():
        return f"The {d.name} deck has no corner values or effect cards."
    return (f"The corner values and effects are those of the {d.name} deck as its file gives "
            f"them ({d.source}).")


def build_blocks(out: Path) -> list[Block]:
    """The page's blocks from the study folders found in ``out``."""
    studies = _load(out)
    blocks = [Block("h1", "Dilemma Hold'em strategy guide")]
    if not studies:
        return [*blocks, Block("p", "No results yet: run `dilemma guide --out results/`.")]
    first = studies[0]
    deck = first["settings"]["deck"]
    preview = any(s["settings"]["quick"] for s in studies)
    blocks.append(Block("p", (
        f"Computed by dilemma-lab {first['settings']['version']} on the **{deck}** deck "
        f"(seed {first['settings']['seed']}). Every figure names its deck, rules, method "
        "(exact or Monte Carlo with trials and standard error), seed and version. "
        + deck_sentence(deck))))
    if preview:
        blocks.append(Block("note", "PREVIEW (--quick): small trial counts and a reduced grid; "
                                    "every figure is marked as a preview. Run `make guide` for the full guide."))
    blocks.append(Block("h2", "Contents"))
    blocks.append(Block("files", items=[(s["title"], f"#{s['study']}") for s in studies]))
    for info in studies:
        folder = out / info["study"]
        blocks.append(Block("h2", info["title"], path=info["study"]))
        writer: Callable[[Path, dict[str, Any]], list[Block]] | None = getattr(
            sections, info["study"], None)
        if writer is not None:
            blocks.extend(writer(folder, info))
        for chart in sections.page_charts(info["study"], info.get("charts", [])):
            blocks.append(Block("figure", chart["title"], path=f"{info['study']}/{chart['png']}",
                                caption=_caption(folder, chart, info)))
        items = [(f"{t}.csv", f"{info['study']}/{t}.csv") for t in info.get("tables", [])]
        items += [(f"{t}.parquet", f"{info['study']}/{t}.parquet") for t in info.get("tables", [])]
        blocks.append(Block("p", f"Tables ({info['seconds']} s to compute; manifest with "
                                 "provenance beside each table):"))
        blocks.append(Block("files", items=sorted(items)))
    return blocks


def _caption(folder: Path, chart: dict[str, Any], info: dict[str, Any]) -> str:
    """The provenance line of a chart: its own game's manifest when a study has several."""
    manifests = info.get("manifests", {})
    game = next((g for g in manifests if chart["png"].startswith(f"{g}_")), None)
    return caption_text(manifests[game] if game else info.get("manifest", {}))


# ----------------------------------------------------------------------------- Markdown


def _md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4f}" if abs(v) < 10 else f"{v:,.1f}"
    return str(v)


def to_markdown(blocks: list[Block]) -> str:
    """The page as GitHub-flavoured Markdown (images link to the PNG files)."""
    out = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"# {b.text}")
        elif b.kind == "h2":
            anchor = f'<a id="{b.path}"></a>\n' if b.path else ""
            out.append(f"{anchor}## {b.text}")
        elif b.kind == "h3":
            out.append(f"### {b.text}")
        elif b.kind == "p":
            out.append(b.text)
        elif b.kind == "note":
            out.append(f"> **{b.text}**")
        elif b.kind == "table" and b.frame is not None:
            out.append(_md_table(b.frame))
        elif b.kind == "figure":
            out.append(f"![{b.text}]({b.path})\n\n*{b.text}.* <sub>{b.caption}</sub>")
        elif b.kind == "files":
            out.append("\n".join(f"- [{name}]({link})" for name, link in b.items))
        elif b.kind == "browser":
            out.append(f"*The strategy browser (pick the player count, a spot and a line, click a class) is in `guide.html`; "
                       f"its data: [{b.path}]({b.path}).*")
    return "\n\n".join(out) + "\n"


# ----------------------------------------------------------------------------- HTML

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.5}
h1{border-bottom:3px solid #1f4e79}h2{border-bottom:1px solid #ccc;margin-top:2em;color:#1f4e79}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .6em;
text-align:right}th{background:#eef3f8}figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:.85em;color:#444}.prov{color:#777;font-size:.8em;display:block}
.note{background:#fff4d6;border-left:4px solid #e0a800;padding:.5em 1em;font-weight:bold}
.sb{border:1px solid #ccc;padding:.5em 1em;margin:1em 0}.sb-controls label{margin-right:1em;white-space:nowrap}
.sb-main{display:flex;gap:1em;align-items:flex-start}.sb-grid{display:grid;grid-template-columns:repeat(10,52px);
gap:2px}.sb-cell{position:relative;height:34px;background:#eee;cursor:pointer;font-size:11px;overflow:hidden}
.sb-cell b{position:relative;padding:2px;color:#111;text-shadow:0 0 2px #fff}.sb-bar{position:absolute;top:0;
bottom:0}.sb-empty{opacity:.35}.sb-selected{outline:3px solid #1f4e79}.sb-detail{max-height:420px;overflow:auto}
.sb-legend span{margin-right:1em}.sb-legend i{display:inline-block;width:12px;height:12px;margin-right:4px}
"""


def _inline(text: str) -> str:
    """Escape text and render **bold**, *italic* and `code` spans."""
    import re

    t = html.escape(text)
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    t = re.sub(r"\*(.+?)\*", r"<i>\1</i>", t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def to_html(blocks: list[Block], out: Path) -> str:
    """The page as one HTML file with every image embedded (opens offline)."""
    body = []
    for b in blocks:
        if b.kind == "h1":
            body.append(f"<h1>{_inline(b.text)}</h1>")
        elif b.kind == "h2":
            body.append(f'<h2 id="{html.escape(b.path)}">{_inline(b.text)}</h2>')
        elif b.kind == "h3":
            body.append(f"<h3>{_inline(b.text)}</h3>")
        elif b.kind == "p":
            body.append(f"<p>{_inline(b.text)}</p>")
        elif b.kind == "note":
            body.append(f'<p class="note">{_inline(b.text)}</p>')
        elif b.kind == "table" and b.frame is not None:
            body.append(b.frame.to_html(index=False, border=0, float_format=lambda v: _cell(float(v))))
        elif b.kind == "figure":
            data = base64.b64encode((out / b.path).read_bytes()).decode("ascii")
            body.append(
                f'<figure><img alt="{html.escape(b.text)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{_inline(b.text)}<span class=\"prov\">{html.escape(b.caption)}</span>"
                "</figcaption></figure>")
        elif b.kind == "browser":
            body.append(_browser(out / b.path))
        elif b.kind == "files":
            body.append("<ul>" + "".join(
                f'<li><a href="{html.escape(link)}">{html.escape(name)}</a></li>' for name, link in b.items
            ) + "</ul>")
    title = "Dilemma Hold'em strategy guide"
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


ASSETS = Path(__file__).parent / "assets"

_BROWSER_HTML = """<div id="spot-browser" class="sb">
<div class="sb-controls"><label>players <select id="sb-seats"></select></label>
<label>family <select id="sb-family"></select></label>
<label>game state <select id="sb-state"></select></label>
<label>board <select id="sb-spot"></select></label>
<label>decision <select id="sb-line"></select></label>
<label>made hand <select id="sb-made"></select></label></div>
<p id="sb-info"></p><div id="sb-legend" class="sb-legend"></div>
<div class="sb-main"><div id="sb-grid" class="sb-grid"></div><div id="sb-detail" class="sb-detail"></div></div>
</div>"""


def _browser(data_file: Path) -> str:
    """The strategy browser: its markup, its data (JSON, ``</`` escaped) and its script."""
    data = data_file.read_text(encoding="utf-8").replace("</", "<\\/")
    script = (ASSETS / "browser.js").read_text(encoding="utf-8")
    return (f'{_BROWSER_HTML}<script type="application/json" id="spot-data">{data}</script>'
            f"<script>{script}</script>")


def write_page(out: str | Path) -> dict[str, Path]:
    """Write ``README.md`` and ``guide.html`` into the results folder ``out``."""
    out = Path(out)
    blocks = build_blocks(out)
    md = write_text(out / "README.md", to_markdown(blocks))
    page = write_text(out / "guide.html", to_html(blocks, out))
    return {"markdown": md, "html": page}
