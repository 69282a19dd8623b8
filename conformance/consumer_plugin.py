"""A pytest plugin that puts arrayx on the backend lists of consumers' own test suites.

SciPy (its ``xp`` fixture), scikit-learn (``yield_namespaces``) and array-api-extra (its
``Backend`` enum and ``library`` fixture) each test themselves against a list of array
libraries. Loaded with ``-p consumer_plugin``, this plugin adds arrayx to each list at run time,
without a change to their code, and keeps only the one backend a run tests, named by
``ARRAYX_CONSUMER_BACKEND``: ``arrayx`` (the default) or ``array_api_strict``, the reference.
``conformance/consumers.py`` runs the suites with it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

BACKEND = os.environ.get("ARRAYX_CONSUMER_BACKEND", "arrayx")


def _patch_sklearn() -> None:
    """scikit-learn's array-API tests are parametrized by ``yield_namespaces``: yield only ours."""
    try:
        from sklearn.utils import _array_api
    except ImportError:
        return

    def yield_namespaces(include_numpy_namespaces: bool = True) -> Any:
        yield BACKEND

    _array_api.yield_namespaces = yield_namespaces


def _patch_array_api_extra() -> None:
    """array-api-extra's tests run once per member of its ``Backend`` enum: add ``ARRAYX``."""
    try:
        from array_api_extra._lib._backends import Backend
    except ImportError:
        return
    if "ARRAYX" in Backend.__members__:
        return
    member = object.__new__(Backend)
    member._name_, member._value_ = "ARRAYX", "arrayx"
    Backend._member_map_["ARRAYX"] = member
    Backend._value2member_map_["arrayx"] = member
    Backend._member_names_.append("ARRAYX")
    type.__setattr__(Backend, "ARRAYX", member)


def _scipy_param() -> Any:
    """arrayx as one of SciPy's ``xp`` parameters, known to its skip markers."""
    import arrayx

    conftest = sys.modules.get("scipy.conftest")
    if conftest is not None:
        conftest.xp_known_backends.add("arrayx")
    return pytest.param(arrayx, id="arrayx", marks=pytest.mark.array_api_backends)


# At import, before pytest reads any conftest.py: array-api-extra's builds its fixture's
# parameters from the enum when it is imported.
_patch_sklearn()
_patch_array_api_extra()


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Narrow SciPy's ``xp`` and array-api-extra's ``library`` fixtures to ``BACKEND``."""
    for name in ("xp", "library"):
        if name not in metafunc.fixturenames:
            continue
        for fixturedef in metafunc._arg2fixturedefs.get(name, ()):
            params = fixturedef.params
            if not params or not hasattr(params[0], "id"):
                continue
            keep = [p for p in params if p.id == BACKEND]
            if not keep and BACKEND == "arrayx" and name == "xp":
                keep = [_scipy_param()]
            fixturedef.params = tuple(keep)
            fixturedef.ids = None


#: The eager libraries SciPy names in its skip markers. A test skipped for every one of them
#: (SciPy's "lazy backends only": Dask, JAX) tests lazy arrays, and arrayx is eager.
EAGER = {"numpy", "cupy", "torch", "array_api_strict"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip, on arrayx, the SciPy tests its markers skip for every eager library."""
    if BACKEND != "arrayx":
        return
    for item in items:
        skipped = {mark.args[0] for mark in item.iter_markers("skip_xp_backends") if mark.args}
        if EAGER <= skipped:
            item.add_marker(pytest.mark.skip(reason="eager arrayx: SciPy skips this test for "
                                                    "every eager library (lazy backends only)"))
