"""PyTorch for the tests that compare arrayx with it, or a skip that says how to get it."""

from types import ModuleType

import pytest

REASON = ("PyTorch is not installed (not in the test extra: the README says how to install its "
          "CPU build, which these tests use)")


def import_torch() -> ModuleType:
    """``torch``, or skip the calling test (or module) with ``REASON``."""
    return pytest.importorskip("torch", reason=REASON)
