"""Sphinx configuration of arrayx's documentation site."""

from __future__ import annotations

import sys
from pathlib import Path

import arrayx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "arrayx"
author = "the arrayx developers"
copyright = "the arrayx developers"
version = release = arrayx.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "measured",
    "numpy_dispatch",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

autosummary_generate = True
autosummary_imported_members = True
autodoc_docstring_signature = True
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3


html_theme = "pydata_sphinx_theme"
html_title = f"arrayx {release}"
html_static_path = ["_static"]
html_show_sourcelink = False
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "conformance": [], "benchmarks": []}
