"""Run consumers' own array-API test suites against arrayx, with array-api-strict beside it.

Usage::

    python conformance/consumers.py [sklearn] [xpx] [scipy] [--xpx-dir PATH]
        [--scipy-modules M,M,...] [--strict] [--backends arrayx,array_api_strict]
        [--reference-on-failure] [--report FILE] [-- pytest arguments ...]

Each suite runs unchanged, from the installed package (SciPy, scikit-learn) or from a checkout
(array-api-extra's ``tests/main``, whose path ``--xpx-dir`` or ``ARRAY_API_EXTRA_DIR`` gives;
never downloaded here: its sdist holds it, ``pip download --no-deps --no-binary
array-api-extra array-api-extra==VERSION`` with the installed version, as ``.ci/run`` does).
``consumer_plugin.py`` adds arrayx to each suite's list of backends at run time and keeps
the one backend a run tests; each backend runs in its own process. ``--strict`` runs arrayx
with ``ARRAYX_STRICT=1``. The table printed last gives passed / failed / skipped per suite and
backend, and the tests that fail on arrayx but pass on array-api-strict, or that
array-api-strict skips; ``--report`` writes the failing test ids as JSON. The exit status is 1
when a test fails on arrayx that passes on array-api-strict, or when a run ran no test, else 0. With
``--reference-on-failure``, array-api-strict runs a suite only when a test of it failed on
arrayx (the exit status depends on nothing else; ``.ci/run`` saves the time so).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BACKENDS = ("arrayx", "array_api_strict")
#: SciPy's subpackages with array-API tests, for ``--scipy-modules``.
SCIPY_MODULES = ("cluster", "constants", "differentiate", "fft", "integrate", "interpolate",
                 "linalg", "ndimage", "optimize", "signal", "spatial", "special", "stats",
                 "_lib")


@dataclass
class Outcome:
    """One suite's run on one backend: the test ids by outcome, the backend's id taken out."""

    passed: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)
    log: str = ""

    def counts(self) -> str:
        return f"{len(self.passed)} / {len(self.failed)} / {len(self.skipped)}"


def _generic_id(test_id: str, backend: str) -> str:
    """A test id with its backend's parameter written as ``XP``, to match across backends."""
    return re.sub(rf"(?<=[\[\-]){re.escape(backend)}(?=[\]\-])", "XP", test_id)


def _read_junit(path: Path, backend: str) -> Outcome:
    out = Outcome()
    if not path.exists():
        return out
    for case in ET.parse(path).getroot().iter("testcase"):
        test_id = _generic_id(f"{case.get('classname')}::{case.get('name')}", backend)
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            out.failed.add(test_id)
        elif "skipped" in tags:
            out.skipped.add(test_id)
        else:
            out.passed.add(test_id)
    return out


def _sklearn_files() -> list[str]:
    """scikit-learn's test files that take their namespaces from ``yield_namespaces``."""
    import sklearn

    root = Path(sklearn.__file__).parent
    return sorted(str(p) for p in root.rglob("test_*.py")
                  if "yield_namespace" in p.read_text(encoding="utf-8", errors="replace"))


def suite_command(suite: str, args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The pytest arguments and extra environment for one suite."""
    env = {"SCIPY_ARRAY_API": "1"}
    if suite == "scipy":
        import scipy

        root = Path(scipy.__file__).parent
        modules = args.scipy_modules.split(",") if args.scipy_modules else SCIPY_MODULES
        paths = [str(root / m) for m in modules]
        return [*paths, "-m", "array_api_backends"], env
    if suite == "sklearn":
        return [*_sklearn_files(), "-k", "{backend}"], env
    if suite == "xpx":
        if not args.xpx_dir:
            raise SystemExit("array-api-extra's suite needs its checkout: --xpx-dir or "
                             "ARRAY_API_EXTRA_DIR")
        checkout = Path(args.xpx_dir).resolve()
        env["PYTHONPATH"] = str(checkout / "src")
        return [str(checkout / "tests" / "main"), "-p", "no:cacheprovider", "-p",
                "no:benchmark"], env
    raise SystemExit(f"unknown suite {suite!r}; choose from scipy, sklearn, xpx")


def run_suite(suite: str, backend: str, args: argparse.Namespace, workdir: Path) -> Outcome:
    """Run ``suite`` on ``backend`` in a child process and read its junit report."""
    paths, extra = suite_command(suite, args)
    paths = [p.replace("{backend}", backend) for p in paths]
    junit = workdir / f"{suite}-{backend}.xml"
    env = dict(os.environ, **extra, ARRAYX_CONSUMER_BACKEND=backend)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), extra.get("PYTHONPATH"), os.environ.get("PYTHONPATH")) if p)
    if args.strict and backend == "arrayx":
        env["ARRAYX_STRICT"] = "1"
    cmd = [sys.executable, "-m", "pytest", *paths, "-p", "consumer_plugin", "-q", "-rN",
           "--tb=line", f"--junitxml={junit}", "-n", str(args.jobs), *args.pytest_args]
    result = subprocess.run(cmd, env=env, cwd=workdir, capture_output=True, text=True)
    out = _read_junit(junit, backend)
    out.log = result.stdout[-4000:] + result.stderr[-4000:]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suites", nargs="*", default=["sklearn", "xpx", "scipy"])
    parser.add_argument("--xpx-dir", default=os.environ.get("ARRAY_API_EXTRA_DIR"))
    parser.add_argument("--scipy-modules", default=None)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--reference-on-failure", action="store_true")
    parser.add_argument("--jobs", "-n", type=int, default=2)
    parser.add_argument("--report", type=Path, default=None)
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.pytest_args = argv[cut + 1:]
    backends = args.backends.split(",")

    rows, report, regressions, empty = [], {}, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for suite in args.suites:
            runs = {}
            for b in backends:
                if (b != "arrayx" and args.reference_on_failure and "arrayx" in runs
                        and not runs["arrayx"].failed):
                    continue
                runs[b] = run_suite(suite, b, args, Path(tmp))
            ours, ref = runs.get("arrayx"), runs.get("array_api_strict")
            worse = sorted(ours.failed & ref.passed) if ours and ref else []
            skipped_ref = sorted(ours.failed & ref.skipped) if ours and ref else []
            regressions += len(worse)
            # Nothing fails here: nothing can fail here and pass there, run or not.
            known = ours is not None and (ref is not None or not ours.failed)
            rows.append((suite, *(runs[b].counts() if b in runs else "not run"
                                   for b in backends),
                         str(len(worse)) if known else "-",
                         str(len(skipped_ref)) if known else "-"))
            report[suite] = {b: sorted(r.failed) for b, r in runs.items()}
            report[suite]["fail_on_arrayx_pass_on_strict"] = worse
            for b, r in runs.items():
                if not (r.passed or r.failed or r.skipped):
                    empty += 1
                    print(f"{suite} on {b} ran no test:\n{r.log}", file=sys.stderr)
            for test_id in worse:
                print(f"  {suite}: fails on arrayx, passes on array-api-strict: {test_id}")

    mode = " (arrayx in strict mode)" if args.strict else ""
    head = ["suite", *(f"{b} passed / failed / skipped" for b in backends),
            "fail here, pass on strict", "fail here, strict skips"]
    print(f"\nconsumers' suites{mode}")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    return 1 if regressions or empty else 0


if __name__ == "__main__":
    sys.exit(main())
