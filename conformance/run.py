"""Run the official array API conformance suite (data-apis/array-api-tests) against arrayx.

Usage::

    python conformance/run.py PATH_TO_ARRAY_API_TESTS [--report FILE] [pytest arguments ...]

or with ``ARRAY_API_TESTS_DIR`` set. The checkout is never downloaded here: obtain and pin it
as ``shared/CONFORMANCE.md`` says. The run uses ``conformance/xfails.txt`` (and
``xfails_cuda.txt`` with ``ARRAYX_DEVICE=cuda:N``) and prints
``passed=N failed=N skipped=N xfailed=N`` last; the exit status is pytest's.

``--report FILE`` also writes the run as JSON: when and where it ran, the suite's and the
spec's commits, the totals and the counts of each test file. The documentation's conformance
page reads that file from ``docs/_data/conformance.json``.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from arrayx._bench import cpu_model

HERE = Path(__file__).resolve().parent
OUTCOMES = ("passed", "failed", "skipped", "xfailed")


def _git_head(path: Path) -> str:
    """The commit checked out at ``path`` (``"unknown"`` when git cannot tell)."""
    result = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"],
                            capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else "unknown"


def _outcome(test: dict) -> str:
    """A pytest-json-report test entry's outcome, with errors counted as failures."""
    outcome = test.get("outcome", "failed")
    return "failed" if outcome == "error" else outcome


def _xfails_file(tmp: Path) -> Path:
    """The run's xfails file: ``xfails.txt``, with ``xfails_cuda.txt`` added where the
    default device is a GPU (``ARRAYX_DEVICE=cuda:N``), written into ``tmp``."""
    base = HERE / "xfails.txt"
    if not os.environ.get("ARRAYX_DEVICE", "cpu").startswith("cuda"):
        return base
    merged = tmp / "xfails.txt"
    merged.write_text(base.read_text() + (HERE / "xfails_cuda.txt").read_text())
    return merged


def build_report(data: dict, suite: Path, options: list[str]) -> dict:
    """The run as the documentation's conformance page reads it.

    Parameters
    ----------
    data : dict
        pytest-json-report's report of the run.
    suite : Path
        The suite's checkout.
    options : list of str
        The pytest options the run was given beyond the runner's own.

    Returns
    -------
    dict
        ``measured`` (UTC), ``machine``, ``arrayx`` (version and commit), ``suite`` and
        ``spec`` commits, ``api_version``, ``max_examples``, ``totals`` and ``files`` (the
        counts of each test file).
    """
    import arrayx

    files: dict[str, dict[str, int]] = {}
    for test in data.get("tests", []):
        name = test["nodeid"].split("::", 1)[0]
        counts = files.setdefault(name, dict.fromkeys(OUTCOMES, 0))
        outcome = _outcome(test)
        counts[outcome] = counts.get(outcome, 0) + 1
    totals = dict.fromkeys(OUTCOMES, 0)
    for counts in files.values():
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
    examples = "50"
    for at, option in enumerate(options[:-1]):
        if option == "--max-examples":
            examples = options[at + 1]
    return {
        "measured": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.system()}",
        "arrayx": {"version": arrayx.__version__, "commit": _git_head(HERE)},
        "suite": {"repository": "data-apis/array-api-tests", "commit": _git_head(suite)},
        "spec": {"repository": "data-apis/array-api",
                 "commit": _git_head(suite / "array-api")},
        "api_version": "2025.12",
        "max_examples": int(examples),
        "totals": totals,
        "files": dict(sorted(files.items())),
    }


def main(argv: list[str]) -> int:
    args = list(argv)
    report_file = None
    if "--report" in args:
        at = args.index("--report")
        report_file = Path(args[at + 1]).resolve()
        del args[at:at + 2]
    suite = os.environ.get("ARRAY_API_TESTS_DIR")
    if args and not args[0].startswith("-"):
        suite = args.pop(0)
    if not suite or not (Path(suite) / "array_api_tests").is_dir():
        print("usage: python conformance/run.py PATH_TO_ARRAY_API_TESTS [pytest args]\n"
              "(or set ARRAY_API_TESTS_DIR); see shared/CONFORMANCE.md to obtain the suite",
              file=sys.stderr)
        return 2
    suite_path = Path(suite).resolve()
    targets = [a for a in args if a.startswith("array_api_tests")]
    options = [a for a in args if not a.startswith("array_api_tests")]
    if not targets:
        targets = ["array_api_tests/"]
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="arrayx", ARRAY_API_TESTS_VERSION="2025.12")
    with tempfile.TemporaryDirectory() as tmp:
        json_file = Path(tmp) / "report.json"
        env.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tmp) / "hypothesis"))
        cmd = [
            sys.executable, "-m", "pytest", *targets,
            # Test ids relative to the suite (the xfails file names them so) wherever the
            # checkout lies: pytest 9 would otherwise take them relative to a project above it.
            f"--rootdir={suite_path}",
            "--xfails-file", str(_xfails_file(Path(tmp))),
            "--disable-deadline", "--max-examples", "50",
            "--json-report", f"--json-report-file={json_file}", "-p", "no:cacheprovider",
            "-W", "ignore::DeprecationWarning",
            *options,
        ]
        rc = subprocess.call(cmd, cwd=suite_path, env=env)
        counts = dict.fromkeys(OUTCOMES, 0)
        if json_file.exists():
            data = json.loads(json_file.read_text())
            summary = data.get("summary", {})
            for key in counts:
                counts[key] = summary.get(key, 0)
            counts["failed"] += summary.get("error", 0)
            if report_file is not None:
                record = build_report(data, suite_path, options)
                report_file.write_text(json.dumps(record, indent=1) + "\n")
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
