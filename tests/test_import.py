"""What ``import arrayx`` loads and changes: no SciPy, no linalg or fft, no environment edits.

Each check runs in a fresh interpreter, since this process has long imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import arrayx

SCRIPT = """
import json, os, sys
before = dict(os.environ)
import arrayx as xp
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("scipy", "arrayx"))
env_changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
after_import = {"scipy": [m for m in loaded if m.startswith("scipy")],
                "lazy": [m for m in loaded if m.startswith(("arrayx.linalg", "arrayx.fft"))],
                "env": env_changed}
from arrayx._kernels import blas
bound_at_import = blas.is_bound()
x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
first_product = (x @ x).shape
after_matmul = blas.is_bound() and not bound_at_import
names = [xp.matmul.__name__, xp.tensordot.__name__, xp.vecdot.__name__,
         xp.linalg.det.__name__, xp.fft.fft.__name__]
print(json.dumps({"after_import": after_import, "product": first_product,
                  "blas_after_matmul": after_matmul, "names": names,
                  "listed": all(n in dir(xp) for n in ("linalg", "fft", "matmul"))}))
"""


def _run(env_extra: dict[str, str] | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMP_")}
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_loads_neither_scipy_nor_the_extensions() -> None:
    got = _run()
    assert got["after_import"]["scipy"] == []
    assert got["after_import"]["lazy"] == []
    # The first product loads BLAS; the lazy names resolve to the functions they name.
    assert got["product"] == [2, 2]
    assert got["blas_after_matmul"]
    assert got["names"] == ["matmul", "tensordot", "vecdot", "det", "fft"]
    assert got["listed"]


def test_import_sets_no_environment_variable() -> None:
    # OMP_WAIT_POLICY (or any other variable) applies to the whole process: arrayx leaves
    # it to the user.
    assert _run()["after_import"]["env"] == []
    assert _run({"OMP_WAIT_POLICY": "ACTIVE"})["after_import"]["env"] == []


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        arrayx.no_such_name  # noqa: B018
