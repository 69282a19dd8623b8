"""Sphinx directives that show measured results from the JSON files the project's commands write.

``.. conformance-results::`` reads ``docs/_data/conformance.json`` (``python conformance/run.py
SUITE --report FILE``); ``.. benchmark-results::`` reads ``docs/_data/benchmarks.json``
(``python -m benchmarks --json FILE``); ``.. workload-results::`` reads
``docs/_data/workloads.json`` (``python -m benchmarks workloads --json FILE``). All render
tables, so the pages never restate numbers by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

DATA = Path(__file__).resolve().parents[1] / "_data"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown pipe table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


class _DataDirective(SphinxDirective):
    """A directive that renders Markdown built from one JSON file of ``docs/_data``.

    The measured pages are MyST Markdown, whose parser reads a directive's nested content, so
    the tables are Markdown pipe tables.
    """

    filename = ""

    def markdown(self, data: dict) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        path = DATA / self.filename
        self.env.note_dependency(str(path))
        container = nodes.container()
        lines = self.markdown(json.loads(path.read_text()))
        self.state.nested_parse(StringList(lines, str(path)), self.content_offset, container)
        return container.children


class ConformanceResults(_DataDirective):
    """The conformance run: where and when, against what, the totals, each file's counts."""

    filename = "conformance.json"

    def markdown(self, data: dict) -> list[str]:
        suite, spec, totals = data["suite"], data["spec"], data["totals"]
        lines = _table(["run", ""], [
            ["measured", data["measured"]],
            ["machine", data["machine"]],
            ["arrayx", f"{data['arrayx']['version']} (commit `{data['arrayx']['commit']}`)"],
            ["suite", f"`{suite['repository']}` at `{suite['commit']}`"],
            ["spec", f"`{spec['repository']}` at `{spec['commit']}`"],
            ["standard version", data["api_version"]],
            ["hypothesis examples per test", str(data["max_examples"])],
        ])
        lines += ["", *_table(["passed", "failed", "skipped", "xfailed"],
                              [[str(totals[k]) for k in ("passed", "failed", "skipped",
                                                         "xfailed")]])]
        if data.get("note"):
            lines += ["", "```{note}", data["note"], "```"]
        files = data.get("files") or {}
        if files:
            rows = [[f"`{name}`", *(str(c.get(k, 0)) for k in
                                       ("passed", "failed", "skipped", "xfailed"))]
                    for name, c in files.items()]
            lines += ["", *_table(["file", "passed", "failed", "skipped", "xfailed"], rows)]
        return lines


class BenchmarkResults(_DataDirective):
    """The benchmark run: where and when, and each case's times and ratio."""

    filename = "benchmarks.json"

    def markdown(self, data: dict) -> list[str]:
        env = data["environment"]
        lines = _table(["run", ""], [
            ["measured", data["measured"]],
            ["CPU", f"{data['cpu']}, {data['cpus']} CPUs"],
            ["arrayx threads", env.get("arrayx threads", str(data["threads"]))],
            ["NumPy", f"{env.get('numpy', '?')}, BLAS: {env.get('numpy blas', '?')}"],
            ["repeats", "`--quick` (7 per case)" if data["quick"] else "21 per case"],
            ["load average at the end (1 min)", env.get("load average (1 min)", "?")],
        ])
        load = env.get("load average (1 min)", "?")
        if load != "?" and float(load) >= 0.5 * data["cpus"]:
            lines += ["", "```{warning}",
                      f"The machine was busy during this run (a load average of {load} on "
                      f"{data['cpus']} CPUs, from other jobs). Busy cores stall arrayx's "
                      "threaded kernels far more than NumPy's single-threaded loops, so the "
                      "cases of 10^6 elements and more read slower here than on an idle "
                      "machine.", "```"]
        rows = []
        for case in data["cases"]:
            target = "" if case["target"] is None else f"≤ {case['target']}"
            rows.append([case["suite"], case["case"], _time(case["arrayx_s"]),
                         _time(case["numpy_s"]), f"{case['ratio']:.2f}", target])
        lines += ["", *_table(["suite", "case", "arrayx", "NumPy", "ratio", "target"], rows)]
        return lines


class WorkloadResults(_DataDirective):
    """The whole programs: each library's time and arrayx's ratios."""

    filename = "workloads.json"

    def markdown(self, data: dict) -> list[str]:
        env, seconds = data["environment"], data["seconds"]
        libs = list(seconds)
        lines = _table(["run", ""], [
            ["measured", data["measured"]],
            ["CPU", f"{env.get('cpu', '?')}, {env.get('cpus', '?')} CPUs"],
            ["arrayx", f"{env.get('arrayx threads', '?')}, ISA level "
                       f"{env.get('arrayx ISA level', '?')}"],
            ["NumPy", f"{env.get('numpy', '?')}, dispatch {env.get('numpy dispatch', '?')}"],
            ["rounds", f"{data['rounds']} rounds of {data['reps']} runs per library, each in "
                       "its own process" + (", one busy process beside" if data["busy"]
                                            else "")],
        ])

        def ratio(a: float | None, b: float | None) -> str:
            return "-" if a is None or b is None else f"{a / b:.2f}"

        rows = []
        for name in data["programs"]:
            ax = seconds["arrayx"].get(name)
            numpy = [v for v in (seconds.get("numpy", {}).get(name),
                                 seconds.get("numpy-avx2", {}).get(name)) if v is not None]
            rows.append([name, *("-" if seconds[lib].get(name) is None
                                 else _time(seconds[lib][name]) for lib in libs),
                         ratio(ax, min(numpy) if numpy else None),
                         ratio(ax, seconds.get("torch", {}).get(name)),
                         ratio(ax, seconds.get("arrayx-1", {}).get(name))])
        lines += ["", *_table(["program", *libs, "arrayx / NumPy's best", "arrayx / PyTorch",
                               "arrayx / arrayx-1"], rows)]
        return lines


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.2f} {unit}"
    return f"{seconds / 1e-9:.0f} ns"


def setup(app: Sphinx) -> dict:
    app.add_directive("conformance-results", ConformanceResults)
    app.add_directive("benchmark-results", BenchmarkResults)
    app.add_directive("workload-results", WorkloadResults)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
