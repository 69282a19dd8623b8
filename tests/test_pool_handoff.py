"""The thread pool's job handoff when a worker wakes late: built from the pool's own header
with the submitting thread held between a job's fields and its opening (``pool_handoff.cpp``),
every unit must run once and none after ``parallel_for`` returns."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
HEADERS = HERE.parent / "src" / "arrayx" / "_kernels" / "cpu"


def compiler() -> list[str] | None:
    """The C++ compiler the build would use (``CXX``, else ``c++`` or ``g++``), or None."""
    named = shlex.split(os.environ.get("CXX", ""))
    for command in ([named] if named else []) + [["c++"], ["g++"], ["clang++"]]:
        if shutil.which(command[0]):
            return command
    return None


def test_a_late_worker_runs_no_unit_of_the_next_job(tmp_path: Path) -> None:
    cxx = compiler()
    if cxx is None:
        pytest.skip("no C++ compiler")
    program = tmp_path / "pool_handoff"
    subprocess.run([*cxx, "-O2", "-std=c++17", "-pthread", f"-I{HEADERS}",
                    str(HERE / "native" / "pool_handoff.cpp"), "-o", str(program)],
                   check=True, capture_output=True, timeout=120)
    run = subprocess.run([str(program), "300"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert run.stdout.strip().endswith("0 bad of 300")
