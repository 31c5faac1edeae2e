"""MkDocs hook: the configuration reference page, written from the settings' definitions at
every build (never a copy kept in docs/, so it cannot drift)."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

from pbem.settings.reference import markdown

PAGE = "operators/configuration.md"


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, PAGE, content=markdown()))
    return files
