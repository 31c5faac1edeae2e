"""A built wheel carries the mail templates, so `pip install .` (not editable) renders mail."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "MANIFEST.in", "README.md", "pbem", "templates", "pbem_testkit")


@pytest.mark.slow
def test_the_wheel_ships_every_template_and_renders_from_them(tmp_path: Path) -> None:
    src = tmp_path / "src"  # a copy: building in the checkout would leave build/ behind
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "-w", str(tmp_path / "w"),
                    "--no-deps", "-q"], check=True, timeout=240)
    (wheel,) = (tmp_path / "w").glob("pbem-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        shipped = set(zf.namelist())
        zf.extractall(tmp_path / "site")
    templates = sorted(p.relative_to(ROOT / "templates").as_posix()
                       for p in (ROOT / "templates").rglob("*.j2"))
    assert templates and {f"pbem/templates/{t}" for t in templates} <= shipped
    # The test kit (test servers, the test game) is for development: not in the wheel.
    assert not [n for n in shipped if n.startswith("pbem_testkit")], sorted(shipped)[:5]
    # Each game's templates ship inside its package.
    games = {p.relative_to(ROOT).as_posix()
             for p in (ROOT / "pbem" / "games").glob("*/templates/*.j2")}
    assert games and games <= shipped, sorted(games - shipped)
    # Every game's data files (components, card lists) ship too.
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pbem" / "games").glob("*/data/*")
            if p.is_file()}
    assert data and data <= shipped, sorted(data - shipped)
    # The unpacked wheel, away from the checkout, finds and renders its own copy.
    env = {k: v for k, v in os.environ.items() if k != "PBEM_TEMPLATES"}
    env["PYTHONPATH"] = str(tmp_path / "site")
    out = subprocess.run(
        [sys.executable, "-c", "from pbem import rendering as render; "
         "print(render.templates_dir()); print(render.render_notice(['Hello.'], 'x-1'))"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True, timeout=60).stdout
    assert out.splitlines()[0] == str(tmp_path / "site" / "pbem" / "templates")
    assert "Hello." in out
    # Each game's status template is found through the registry, in the wheel's own copy.
    found = subprocess.run(
        [sys.executable, "-c", "from pbem.engine import registry; "
         "from pbem import rendering as render\n"
         "for name, game in sorted(registry.games().items()):\n"
         "    print(render.environment(game).get_template(f'{name}/status.txt.j2').filename)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True, timeout=60).stdout
    assert len(found.splitlines()) >= 3
    assert all(line.startswith(str(tmp_path / "site" / "pbem" / "games"))
               for line in found.splitlines()), found
