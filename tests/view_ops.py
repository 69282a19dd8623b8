"""View operations drawn by hypothesis and replayed alike on NumPy and on arrayx arrays.

``draw_op`` draws one view operation for the current shape (its arguments are sometimes
invalid, so that errors are compared too), ``apply`` performs it with NumPy's or arrayx's
functions, and ``assert_view_of`` checks an arrayx view against NumPy's: values, shape, dtype,
strides in elements, the address of the first element, writeability and shared storage.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import to_np
from hypothesis import strategies as st

import arrayx as xp

VIEW_OPS = ("index", "permute", "mT", "T", "expand", "squeeze", "broadcast", "flip", "reshape")
# Operations whose results NumPy and the standard allow writing through.
WRITABLE_OPS = ("index", "permute", "mT", "T", "expand", "squeeze", "flip", "reshape")

index_items = st.one_of(
    st.builds(slice, st.integers(-7, 7) | st.none(), st.integers(-7, 7) | st.none(),
              st.sampled_from([None, 1, 2, 3, -1, -2, -3])),
    st.integers(-6, 5), st.just(None), st.just(Ellipsis))
# Basic indices with positive steps only (for consumers without negative strides: PyTorch).
forward_index_items = st.one_of(
    st.builds(slice, st.integers(-7, 7) | st.none(), st.integers(-7, 7) | st.none(),
              st.sampled_from([None, 1, 2, 3])),
    st.integers(-6, 5), st.just(None), st.just(Ellipsis))


def element_strides(a: np.ndarray) -> tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def draw_shape_of_size(data: st.DataObject, size: int) -> tuple[int, ...]:
    """A shape with ``size`` elements (one entry possibly -1), or rarely one without."""
    if size == 0:
        dims = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
        dims[data.draw(st.integers(0, len(dims) - 1))] = 0
    else:
        dims, left = [], size
        for _ in range(data.draw(st.integers(0, 3))):
            d = data.draw(st.sampled_from(divisors(left)))
            dims.append(d)
            left //= d
        dims.append(left)
        dims = list(data.draw(st.permutations(dims)))
        if data.draw(st.booleans()):
            dims[data.draw(st.integers(0, len(dims) - 1))] = -1
    if data.draw(st.integers(0, 9)) == 0:
        dims.append(2 if size else 1)  # the wrong size: both must refuse
        if dims.count(-1) and data.draw(st.booleans()):
            dims.append(-1)  # two unknown dimensions
    return tuple(dims)


def draw_op(data: st.DataObject, shape: tuple[int, ...], kinds: tuple[str, ...] = VIEW_OPS
            ) -> tuple[str, object]:
    """One view operation for an array of ``shape``; its arguments are sometimes invalid."""
    ndim = len(shape)
    size = math.prod(shape)
    if ndim > 8 or size > 600:
        kinds = tuple(k for k in kinds if k not in ("expand", "broadcast")) or ("index",)
    kind = data.draw(st.sampled_from(kinds))
    invalid = data.draw(st.integers(0, 9)) == 0
    if kind in ("index", "forward index"):
        items = index_items if kind == "index" else forward_index_items
        key = data.draw(st.lists(items, max_size=ndim + 1))
        if key.count(Ellipsis) > 1:
            key = [k for k in key if k is not Ellipsis]
        return "index", tuple(key)
    if kind == "permute":
        if invalid:
            return kind, tuple(data.draw(st.lists(st.integers(-ndim - 1, ndim), max_size=ndim)))
        return kind, tuple(data.draw(st.permutations(range(ndim))))
    if kind == "expand":
        k = data.draw(st.integers(1, 3))
        n = ndim + k
        axes = st.integers(-n - 1, n) if invalid else st.integers(-n, n - 1)
        if k == 1 and data.draw(st.booleans()):
            return kind, data.draw(axes)
        return kind, tuple(data.draw(st.lists(axes, min_size=k, max_size=k,
                                              unique=not invalid)))
    if kind == "squeeze":
        unit = [i for i, n in enumerate(shape) if n == 1]
        axes = data.draw(st.lists(st.sampled_from(unit), unique=True)) if unit else []
        if invalid:
            axes.append(data.draw(st.integers(-ndim - 1, ndim)))
        axes = [a - ndim if data.draw(st.booleans()) else a for a in axes]
        if len(axes) == 1 and data.draw(st.booleans()):
            return kind, axes[0]
        return kind, tuple(axes)
    if kind == "broadcast":
        target = [data.draw(st.integers(0, 3)) if n == 1 else n for n in shape]
        if invalid and any(n > 1 for n in shape):
            i = data.draw(st.sampled_from([i for i, n in enumerate(shape) if n > 1]))
            target[i] += 1
        lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
        if invalid and not lead and ndim:
            target = target[1:]  # fewer dimensions than the array
        return kind, tuple(lead + target)
    if kind == "flip":
        choice = data.draw(st.integers(0, 2))
        if choice == 0:
            return kind, None
        if choice == 1 or ndim == 0:
            return kind, data.draw(st.integers(-ndim - 1, ndim) if invalid
                                   else st.integers(-ndim, max(ndim - 1, -ndim)))
        return kind, tuple(data.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1,
                                              max_size=ndim, unique_by=lambda a: a % ndim)))
    if kind == "reshape":
        return kind, draw_shape_of_size(data, size)
    return kind, None


def apply(op: tuple[str, object], arr: np.ndarray | xp.Array) -> np.ndarray | xp.Array:
    """Apply a view operation with NumPy's or arrayx's functions, whichever owns ``arr``.

    NumPy gets a trailing ``...`` in an index so that it returns 0-d views, not scalars;
    ``reshape`` asks for a view (``copy=False``); ``.T`` is defined for 2-D arrays only by the
    standard, so NumPy's reversal of other ranks is not the oracle there, nor is NumPy's
    squeeze of a 0-d array along axis 0.
    """
    is_np = isinstance(arr, np.ndarray)
    mod = np if is_np else xp
    kind, arg = op
    if kind == "index":
        if is_np and Ellipsis not in arg:
            arg = (*arg, Ellipsis)
        return arr[arg]
    if kind == "permute":
        return mod.permute_dims(arr, arg)
    if kind == "mT":
        return arr.mT if not is_np or arr.ndim >= 2 else np.linalg.matrix_transpose(arr)
    if kind == "T":
        if is_np and arr.ndim != 2:
            raise ValueError("the standard defines .T for 2-D arrays only")
        return arr.T
    if kind == "expand":
        return mod.expand_dims(arr, axis=arg)
    if kind == "squeeze":
        if is_np and arr.ndim == 0 and arg != ():
            # NumPy lets axis 0 and -1 through for 0-d arrays; the standard has no such axes.
            raise np.exceptions.AxisError(arg, 0)
        return mod.squeeze(arr, axis=arg)
    if kind == "broadcast":
        return mod.broadcast_to(arr, arg)
    if kind == "flip":
        if is_np and arr.ndim == 0 and arg is None:
            return arr[...]  # NumPy returns a scalar here; the flip of a 0-d array is itself
        return mod.flip(arr, axis=arg)
    return mod.reshape(arr, arg, copy=False)


def assert_view_of(view: xp.Array, expected: np.ndarray, base: xp.Array,
                   writeable: bool = True) -> None:
    """``view`` is NumPy's ``expected`` (a view of ``to_np(base)``): same values, shape,
    dtype, element strides (on axes longer than 1), first-element address and (unless
    ``writeable`` is False) writeability, over ``base``'s storage: nothing copied."""
    assert isinstance(view, xp.Array)
    assert view.shape == expected.shape
    assert view.dtype == expected.dtype
    got = to_np(view)
    np.testing.assert_array_equal(got, expected)
    assert view._storage is base._storage
    if writeable:
        assert bool(view._writeable) == expected.flags.writeable
    if expected.size > 0 and view.device == xp.Device("cpu"):
        # Strides and addresses against NumPy's view of the same memory (on a device, to_np
        # copies; the view algebra is the same Layout code there).
        for n, s_ax, s_np in zip(expected.shape, view._layout.strides,
                                 element_strides(expected), strict=True):
            if n > 1:
                assert s_ax == s_np, (op_context(view), expected.strides)
        start = to_np(base)
        moved = (view._layout.offset - base._layout.offset) * expected.itemsize
        assert address(expected) - address(start) == moved, op_context(view)
        assert address(got) == address(expected)
        assert np.shares_memory(got, start)


def mirror(x: xp.Array) -> np.ndarray:
    """NumPy's array of ``x``'s values with ``x``'s element strides: ``x`` itself on the CPU;
    for a device array, a host copy laid out as ``x`` is (so that NumPy decides as arrayx
    must whether a view of it needs a copy)."""
    a = to_np(x)
    if x.device == xp.Device("cpu") or a.size == 0:
        return a
    strides = x._layout.strides
    low = sum(s * (n - 1) for s, n in zip(strides, x.shape, strict=True) if s < 0)
    high = sum(s * (n - 1) for s, n in zip(strides, x.shape, strict=True) if s > 0)
    buffer = np.empty(high - low + 1, dtype=a.dtype)
    m = np.lib.stride_tricks.as_strided(buffer[-low:], x.shape,
                                        [s * a.itemsize for s in strides])
    np.copyto(m, a)  # overlapping (zero-stride) elements receive one value each time
    if not x._writeable:
        m.flags.writeable = False
    return m


def op_context(view: xp.Array) -> str:
    return f"layout {view._layout!r}"


def replay(data: st.DataObject, base: xp.Array, steps: int,
           kinds: tuple[str, ...] = VIEW_OPS, done: list | None = None
           ) -> tuple[xp.Array, np.ndarray]:
    """Apply ``steps`` drawn view operations to ``base`` and to NumPy's view of it, checking
    every result (or that both refuse an invalid one); return the final pair. The operations
    that succeeded are appended to ``done`` when it is given."""
    x, e = base, mirror(base)
    for _ in range(steps):
        op = draw_op(data, e.shape, kinds)
        try:
            expected = apply(op, e)
        except (IndexError, ValueError) as exc:
            # NumPy's AxisError is both; arrayx's AxisError is too.
            raised = tuple(k for k in (IndexError, ValueError) if isinstance(exc, k))
            with pytest.raises(raised):
                apply(op, x)
            continue
        got = apply(op, x)
        assert_view_of(got, expected, base)
        x, e = got, expected
        if done is not None:
            done.append(op)
    return x, e
