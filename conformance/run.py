"""Run the official array API conformance suite (data-apis/array-api-tests) against arrayx.

Usage::

    python conformance/run.py PATH_TO_ARRAY_API_TESTS [pytest arguments ...]

or with ``ARRAY_API_TESTS_DIR`` set. The checkout is never downloaded here: obtain and pin it
as ``shared/CONFORMANCE.md`` says. The run uses ``conformance/xfails.txt`` and prints
``passed=N failed=N skipped=N xfailed=N`` last; the exit status is pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    args = list(argv)
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
        report = Path(tmp) / "report.json"
        env.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tmp) / "hypothesis"))
        cmd = [
            sys.executable, "-m", "pytest", *targets,
            "--xfails-file", str(HERE / "xfails.txt"),
            "--disable-deadline", "--max-examples", "50",
            "--json-report", f"--json-report-file={report}", "-p", "no:cacheprovider",
            "-W", "ignore::DeprecationWarning",
            *options,
        ]
        rc = subprocess.call(cmd, cwd=suite_path, env=env)
        counts = {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0}
        if report.exists():
            summary = json.loads(report.read_text()).get("summary", {})
            for key in counts:
                counts[key] = summary.get(key, 0)
            counts["failed"] += summary.get("error", 0)
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
