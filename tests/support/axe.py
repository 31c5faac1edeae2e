"""axe-core (the accessibility engine browsers' own audits use) run on a page in Chromium.

The version is pinned in tests/a11y/package.json and package-lock.json; ``.ci/run`` installs
it with ``npm ci``. Where it is not installed, tests that ask for it are skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
# What a reader cannot get past: WCAG's A and AA failures axe rates serious or critical.
BLOCKING = ("serious", "critical")

_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                                     "wcag22aa", "best-practice"]},
                   resultTypes: ["violations"]})
  .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " + n.failureSummary)}))))
  .catch(e => done([{id: "axe-error", impact: "critical", help: String(e), nodes: []}]));
"""


def axe_source() -> str:
    """axe-core's script, or the test is skipped (npm ci in tests/a11y installs it)."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (cd tests/a11y && npm ci)")
    return AXE.read_text(encoding="utf-8")


def violations(driver: Any, where: str) -> list[str]:
    """axe's serious and critical violations of the page on show in ``driver``, one line
    each, naming ``where``."""
    driver.execute_script(axe_source())
    driver.set_script_timeout(120)
    found = driver.execute_async_script(_RUN)
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in found
            if v["impact"] in BLOCKING]
