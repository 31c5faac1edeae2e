"""Only what pyproject.toml cannot say: the mail templates ship inside the package.

The repository keeps them in the top-level ``templates/`` folder (games add
``templates/<game>/``); a built wheel carries a copy as ``pbem/templates/``, which
:func:`pbem.processor.render.templates_dir` prefers, so ``pip install .`` can render mail.
An editable install reads the repository's folder directly.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TEMPLATES = Path(__file__).parent / "templates"


class BuildPyWithTemplates(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for src in sorted(TEMPLATES.rglob("*.j2")):
            target = Path(self.build_lib) / "pbem" / "templates" / src.relative_to(TEMPLATES)
            self.mkpath(str(target.parent))
            self.copy_file(str(src), str(target))


setup(cmdclass={"build_py": BuildPyWithTemplates})
