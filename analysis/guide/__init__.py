"""The strategy guide: run every study into ``results/``, then write the guide page.

Each study writes into its own folder ``OUT/<study>/`` with a ``study.json``
index (title, settings, tables, charts with captions, headline numbers). A study
runs in a work folder and is moved into place only when finished, so a folder
is whole or absent; a rerun with the same settings skips finished studies, and
an interrupted fold-vs-check grid resumes from its finished blocks.

The page (``OUT/README.md`` and the self-contained ``OUT/guide.html``) is built
from those files alone (:mod:`analysis.guide.page`).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from analysis.core.atomic import remove_stale_temporaries
from analysis.core.io import package_version, write_json
from analysis.dilemma.decks import load_deck
from analysis.runners import Backend, Progress
from evaluator.errors import LabError

from .studies import STUDIES, Study

__all__ = ["GuideOptions", "GuideError", "run_guide", "STUDIES"]


class GuideError(LabError):
    """A guide option that cannot be used (unknown study, bad output folder)."""


@dataclass(frozen=True)
class GuideOptions:
    """What the guide computes: deck, preview mode, seed, and which studies."""

    deck: str = "reference"
    quick: bool = False
    seed: int = 0
    only: tuple[str, ...] = ()
    fresh: bool = False
    """Recompute every selected study, even one finished with the same settings, except the bulk
    solves (``Study.stored``) unless ``only`` names them."""
    backend: Backend | None = field(default=None, compare=False)
    """Where stochastic studies run (default: this process); never changes the numbers."""
    progress: Progress | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The options that decide the numbers, as plain data (the study index records them)."""
        return {k: v for k, v in asdict(self).items() if k not in ("backend", "progress")}

    def settings(self, study: Study) -> dict[str, Any]:
        """The settings that decide a study's numbers (a finished study is reused if equal)."""
        deck = load_deck(self.deck)
        return {"study": study.name, "deck": deck.label, "quick": self.quick, "seed": self.seed,
                "version": package_version(), "study_version": study.version}
        # (a change to a study's numbers must bump Study.version, or reruns keep old results)


def selected(only: tuple[str, ...]) -> list[Study]:
    """The studies to run, in guide order; ``only`` names some of them."""
    names = [s.name for s in STUDIES]
    for name in only:
        if name not in names:
            raise GuideError(f"unknown study {name!r} for --only: use {', '.join(names)}")
    return [s for s in STUDIES if not only or s.name in only]


def _read_results(out: Path, study: Study) -> dict[str, Any]:
    """The finished results a study reads (``Study.depends``), by the fingerprint of each one's index:
    a recomputed dependency changes this study's settings, so it is recomputed too."""
    import hashlib

    prints = {}
    for name in study.depends:
        index = out / name / "study.json"
        prints[name] = hashlib.sha256(index.read_bytes()).hexdigest()[:16] if index.exists() else None
    return {"reads": prints} if prints else {}


def run_guide(out: str | Path, options: GuideOptions = GuideOptions(),
              echo: Callable[[str], Any] = print, backend: Backend | None = None,
              progress: Progress | None = None) -> list[dict[str, Any]]:
    """Run the selected studies into ``out`` (skipping finished ones), then write the page."""
    from .page import write_page

    if backend is not None or progress is not None:
        options = replace(options, backend=backend or options.backend,
                          progress=progress or options.progress)

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise GuideError(f"--out {out} exists and is not a folder")
    load_deck(options.deck)  # fail early on a bad deck
    done = []
    for study in selected(options.only):
        settings = options.settings(study) | _read_results(out, study)
        final = out / study.name
        index = final / "study.json"
        keep = not options.fresh or (study.stored and study.name not in options.only)
        if keep and index.exists() and json.loads(index.read_text()).get("settings") == settings:
            how = "finished earlier with the same settings, kept"
            if options.fresh:
                how += f" (a stored bulk solve: `dilemma guide --fresh --only {study.name}` recomputes it)"
            echo(f"{study.name}: {how}")
            done.append(json.loads(index.read_text()))
            continue
        work = out / f".work-{study.name}"
        if options.fresh and work.exists():
            shutil.rmtree(work)  # no resuming either
        work.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(work)  # left by a guide run killed outright
        start = time.perf_counter()
        echo(f"{study.name}: {study.title}")
        info = study.run(work, options, echo)
        info.update(study=study.name, title=study.title, settings=settings,
                    seconds=round(time.perf_counter() - start, 1), options=options.as_dict())
        write_json(work / "study.json", info)
        shutil.rmtree(work / ".partial", ignore_errors=True)
        if final.exists():
            shutil.rmtree(final)
        work.rename(final)
        echo(f"{study.name}: done in {info['seconds']} s")
        done.append(info)
    page = write_page(out)
    echo(f"guide page: {page['markdown']} and {page['html']}")
    return done
