"""``.. numpy-dispatch-table::``: what each NumPy function and ufunc runs on for arrayx arrays.

The rows come from ``arrayx._numpy_protocols.functions.table()``, which reads the dispatch
tables the protocols use, so the page cannot drift from the code.
"""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


class NumpyDispatchTable(SphinxDirective):
    """A Markdown pipe table: NumPy name | served by."""

    def run(self) -> list[nodes.Node]:
        from arrayx._numpy_protocols.functions import table

        lines = ["| NumPy | runs on |", "|---|---|"]
        lines += [f"| `numpy.{name}` | {'`' + by + '`' if by.startswith('arrayx') else by} |"
                  for name, by in table()]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, "numpy-dispatch-table"), self.content_offset,
                                container)
        return container.children


def setup(app: Sphinx) -> dict:
    app.add_directive("numpy-dispatch-table", NumpyDispatchTable)
    return {"parallel_read_safe": True}
