"""The ISA level the kernels run at: chosen at import, capped by ARRAYX_CPU_LEVEL.

Each check runs in a fresh interpreter, since the level is chosen once, at import. The rest of
the suite runs at whatever level the environment gives; CI (``.ci/run``) runs it at every
level this machine has.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from arrayx._kernels.cpu import dispatch

PROBE = """
import json, numpy as np, arrayx as xp
from arrayx._kernels.cpu import dispatch
rng = np.random.default_rng(0)
a = rng.standard_normal(100_003)
x = xp.asarray(a)
print(json.dumps({
    "level": dispatch.level(),
    "sum": float(xp.sum(x)),
    "exp": np.asarray(xp.exp(x)).tolist()[:1000],
    "max": float(xp.max(x)),
    "argmax": int(xp.argmax(x)),
}))
"""


def run_probe(cap: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("ARRAYX_CPU_LEVEL", None)
    if cap is not None:
        env["ARRAYX_CPU_LEVEL"] = cap
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=120)


def test_levels_are_ordered_and_the_baseline_is_always_there() -> None:
    assert dispatch.LEVELS == ("baseline", "avx2", "avx512")
    assert dispatch.built_levels()[0] == "baseline"
    assert set(dispatch.supported_levels()) <= set(dispatch.built_levels())
    assert dispatch.level() in dispatch.supported_levels()


def test_unset_cap_takes_the_best_level() -> None:
    done = run_probe(None)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["level"] == dispatch.supported_levels()[-1]


@pytest.mark.parametrize("cap", dispatch.LEVELS)
def test_cap_gives_the_best_level_up_to_it(cap: str) -> None:
    done = run_probe(cap)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    supported = dispatch.supported_levels()
    allowed = [lv for lv in supported if dispatch.LEVELS.index(lv) <= dispatch.LEVELS.index(cap)]
    assert result["level"] == allowed[-1]
    rng = np.random.default_rng(0)
    a = rng.standard_normal(100_003)
    np.testing.assert_allclose(result["sum"], a.sum(), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(result["exp"], np.exp(a[:1000]), rtol=4e-16 * 4)
    assert result["max"] == a.max()
    assert result["argmax"] == int(np.argmax(a))


@pytest.mark.parametrize("cap", ["AVX2", "sse2", "x86-64-v4", "fast"])
def test_unknown_cap_is_an_error_naming_the_accepted_values(cap: str) -> None:
    done = run_probe(cap)
    assert done.returncode != 0
    assert "ValueError" in done.stderr
    assert "ARRAYX_CPU_LEVEL must be one of baseline, avx2, avx512" in done.stderr
