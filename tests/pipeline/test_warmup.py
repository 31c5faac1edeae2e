"""`pbem serve` loads catalogues, command words and templates before its first pass, so no
player's order pays for them; then it freezes them out of the collector's walks."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# In a fresh interpreter: the caches start empty there, and the freeze stays out of this one.
SCRIPT = textwrap.dedent("""
    import gc
    from pbem.engine import registry
    from pbem.i18n import LANGUAGES, translate, translator
    from pbem import rendering as render
    from pbem.pipeline.seat_language import footer
    from pbem.pipeline.warmup import warm_up
    from pbem.pipeline.command_words import canonical
    from pbem.ops.services import start

    start()  # as `pbem serve` does before its first pass
    assert gc.get_freeze_count() == 0
    warm_up()
    frozen = gc.get_freeze_count()
    compiled = translate._mo.cache_info().misses
    kept = translate.catalogues().made()
    templates = {k: len(e.cache) for k, e in render.TEMPLATES.environments.items()}

    # What a first pass asks for: every seat's language with every game's words, the footer,
    # a command word in French, every game's mail templates and the host's notice.
    for name in registry.games():
        rules = registry.get(name)
        env = render.environment(rules)
        for lang in LANGUAGES:
            footer(translator(lang, name))
        for template in ("layout.html.j2", "layout.txt.j2", f"{name}/status.html.j2"):
            env.get_template(template)
    render.environment().get_template("notice.txt.j2")
    assert canonical("vérifier") == "check"

    assert translate._mo.cache_info().misses == compiled, "a catalogue compiled after warm-up"
    assert translate.catalogues().made() == kept, "a translator made after warm-up"
    after = {k: len(e.cache) for k, e in render.TEMPLATES.environments.items()}
    assert after == templates, ("a template compiled after warm-up", templates, after)
    print(frozen, compiled, len(kept), sum(templates.values()))
""")


def test_warm_up_loads_what_a_first_pass_needs_and_freezes_it() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, compiled, translators, templates = map(int, done.stdout.split())
    assert frozen > 10_000  # the loaded catalogues and templates, out of the collector's walks
    assert compiled >= 5 and translators >= 5 * 4 and templates > 10
