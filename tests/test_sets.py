"""Set functions against NumPy: unique_* (NaNs each distinct) and isin."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DTYPES_BY_KIND, arrays, long_rows, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)
small = st.sampled_from(DTYPES_BY_KIND["real"]).flatmap(
    lambda d: hnp.arrays(d, shapes, elements=st.sampled_from([0, 1, 2, 5]).map(d.type)
                         if d.kind != "f" else st.sampled_from([0.0, 1.0, -2.5, np.nan])))


def test_nans_are_each_distinct() -> None:
    x = xp.asarray([np.nan, 1.0, np.nan])
    values, counts = xp.unique_counts(x)
    assert values.shape == (3,) and to_np(counts).tolist() == [1, 1, 1]


@given(a=small)
def test_unique_all_matches_numpy(a: np.ndarray) -> None:
    got = xp.unique_all(xp.asarray(a))
    values, indices, inverse, counts = np.unique(a, return_index=True, return_inverse=True,
                                                 return_counts=True, equal_nan=False)
    np.testing.assert_array_equal(to_np(got.values), values)
    np.testing.assert_array_equal(to_np(got.counts), counts)
    np.testing.assert_array_equal(to_np(got.inverse_indices), inverse.reshape(a.shape))
    finite = ~np.isnan(values) if values.dtype.kind == "f" else np.ones(values.shape, bool)
    np.testing.assert_array_equal(to_np(got.indices)[finite], indices[finite])
    np.testing.assert_array_equal(to_np(xp.unique_values(xp.asarray(a))), values)
    v, inv = xp.unique_inverse(xp.asarray(a))
    np.testing.assert_array_equal(to_np(v)[to_np(inv)], a)


@pytest.mark.parametrize("kind", ["integer", "real_float", "bool"])
@given(data=st.data())
def test_unique_of_long_arrays_matches_numpy(kind: str, data: st.DataObject) -> None:
    # Long enough for the radix sort: each function against np.unique (NaNs each distinct,
    # -0.0 and 0.0 one value; first indices through the stable order).
    a = data.draw(long_rows(DTYPES_BY_KIND[kind]))
    x = xp.asarray(a)
    values, indices, inverse, counts = np.unique(a, return_index=True, return_inverse=True,
                                                 return_counts=True, equal_nan=False)
    inverse = inverse.reshape(a.shape)
    np.testing.assert_array_equal(to_np(xp.unique_values(x)), values)
    got_counts = xp.unique_counts(x)
    np.testing.assert_array_equal(to_np(got_counts.values), values)
    np.testing.assert_array_equal(to_np(got_counts.counts), counts)
    got_inverse = xp.unique_inverse(x)
    np.testing.assert_array_equal(to_np(got_inverse.values), values)
    np.testing.assert_array_equal(to_np(got_inverse.inverse_indices), inverse)
    got = xp.unique_all(x)
    np.testing.assert_array_equal(to_np(got.values), values)
    np.testing.assert_array_equal(to_np(got.inverse_indices), inverse)
    np.testing.assert_array_equal(to_np(got.counts), counts)
    finite = ~np.isnan(values) if values.dtype.kind == "f" else np.ones(values.shape, bool)
    np.testing.assert_array_equal(to_np(got.indices)[finite], indices[finite])
    flat = a.reshape(-1)
    np.testing.assert_array_equal(flat[to_np(got.indices)], to_np(got.values))


@given(a=small, b=arrays(DTYPES_BY_KIND["real"], shape=shapes), invert=st.booleans())
def test_isin(a: np.ndarray, b: np.ndarray, invert: bool) -> None:
    got = xp.isin(xp.asarray(a), xp.asarray(b), invert=invert)
    np.testing.assert_array_equal(to_np(got), np.isin(a, b, invert=invert))
