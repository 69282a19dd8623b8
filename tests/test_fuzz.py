"""The fuzzers of ``fuzz_cases.py``, each in a child interpreter so a crash fails its test.

Besides indexing, conversion, creation, DLPack and pickles, ``ufunc_protocol`` draws NumPy's
ufuncs and their methods on arrayx arrays with ``dtype=``, ``out=``, ``where=`` and mixed
operands (NumPy arrays, lists, scalars), and ``huge`` joins, pads, copies and views arrays of
up to 2^63 elements.

The default run draws a few hundred cases per fuzzer (derandomized, so CI is repeatable); the
``thorough`` hypothesis profile (``ARRAYX_HYPOTHESIS_PROFILE=thorough``) draws 10^5 fresh
random cases each, and ``ARRAYX_FUZZ_EXAMPLES`` sets any other count.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
THOROUGH = os.environ.get("ARRAYX_HYPOTHESIS_PROFILE") == "thorough"
EXAMPLES = int(os.environ.get("ARRAYX_FUZZ_EXAMPLES", 100_000 if THOROUGH else 1000))
FUZZERS = ["index", "asarray", "asarray_mutating", "creation", "dlpack_args",
           "dlpack_capsules", "pickle", "ufunc_protocol", "huge"]


@pytest.mark.parametrize("name", FUZZERS)
def test_fuzzer(name: str, tmp_path: Path) -> None:
    log = tmp_path / "case.txt"
    r = subprocess.run(
        [sys.executable, "-W", "ignore", str(HERE / "fuzz_cases.py"), name, str(EXAMPLES),
         str(log)], capture_output=True, text=True, timeout=None if THOROUGH else 600)
    if r.returncode < 0:
        case = log.read_text() if log.exists() else "(none recorded)"
        pytest.fail(f"the fuzzer's interpreter died of signal {-r.returncode} on the case\n"
                    f"{case}\n{r.stderr[-3000:]}")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-5000:]
    assert f"{name}: {EXAMPLES} cases, no crash, no mismatch" in r.stdout
