"""Matrix products split over arrayx's pool (``_kernels/cpu/products.pyx``), each unit one call
of a single-threaded OpenBLAS: every way of cutting a product (rows or columns of a gemm, a
batch, rows or column ranges of a matrix-vector product, ranges of a dot, ranges or column
panels of a Gram matrix) against NumPy, and the sums cut by their shape alone (column ranges,
a dot's ranges, a Gram matrix's ranges and panels) the same bits on any number of threads.
A gemm cut into rows may round an element differently where a cut moves OpenBLAS's register
blocks, as OpenBLAS's own threads do."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import arrayx as xp

DTYPES = ["float32", "float64", "complex64", "complex128"]


@pytest.fixture
def restore_threads():
    threads = xp.get_num_threads()
    yield
    xp.set_num_threads(threads)


def _operand(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


# name: (operand shapes, the product on either namespace's arrays). Each is above the size
# from which its kind of product is split.
CASES: dict[str, tuple[tuple[tuple[int, ...], ...], Callable]] = {
    "gemm by rows": (((700, 300), (300, 200)), lambda a, b: a @ b),
    "gemm by columns": (((40, 300), (300, 900)), lambda a, b: a @ b),
    "gemm, transposed operands": (((300, 500), (260, 300)), lambda a, b: a.mT @ b.mT),
    "gemm, rows not a multiple of the unit": (((517, 129), (129, 131)), lambda a, b: a @ b),
    "batched gemm": (((3, 200, 150), (150, 170)), lambda a, b: a @ b),
    "many batches": (((9, 64, 64), (9, 64, 64)), lambda a, b: a @ b),
    "matrix @ vector, by rows": (((3000, 200), (200,)), lambda a, b: a @ b),
    "transposed matrix @ vector, in column ranges": (((40000, 30), (40000,)),
                                                      lambda a, b: a.mT @ b),
    "transposed matrix @ vector, by rows": (((200, 3000), (200,)), lambda a, b: a.mT @ b),
    "wide transposed matrix @ vector, in column ranges": (((300, 3000), (300,)),
                                                          lambda a, b: a.mT @ b),
    "vector @ matrix": (((40000,), (40000, 30)), lambda a, b: a @ b),
    "strided vector": (((20000, 30), (40000,)), lambda a, b: a.mT @ b[::2]),
    "dot": (((600_000,), (600_000,)), lambda a, b: a @ b),
    "tall Gram matrix, in ranges": (((20000, 60),), lambda a: a.mT @ a),
    "tall Gram matrix of the rows": (((60, 20000),), lambda a: a @ a.mT),
    "square Gram matrix, in panels": (((400, 400),), lambda a: a.mT @ a),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", list(CASES))
def test_split_product_matches_numpy(case: str, dtype: str) -> None:
    shapes, product = CASES[case]
    rng = np.random.default_rng(len(case))
    operands = [_operand(rng, s, dtype) for s in shapes]
    got = np.asarray(product(*[xp.asarray(o) for o in operands]))
    want = product(*[o.astype(dtype.replace("float32", "float64")
                              .replace("complex64", "complex128")) for o in operands])
    assert got.dtype == np.dtype(dtype)
    assert got.shape == want.shape
    # The longest sum is at most the longest dimension.
    k = max(max(shape) for shape in shapes)
    eps = np.finfo(dtype).eps
    scale = np.sqrt(max(k, 1)) * np.abs(want).max() if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=0, atol=40 * eps * scale)


CUT_BY_SHAPE = ["matrix @ vector, by rows", "transposed matrix @ vector, by rows",
                "transposed matrix @ vector, in column ranges",
                "wide transposed matrix @ vector, in column ranges", "vector @ matrix",
                "strided vector", "dot", "tall Gram matrix, in ranges",
                "tall Gram matrix of the rows", "square Gram matrix, in panels"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CUT_BY_SHAPE)
def test_products_cut_by_shape_round_the_same_on_any_thread_count(case: str, dtype: str,
                                                                  restore_threads) -> None:
    shapes, product = CASES[case]
    rng = np.random.default_rng(7)
    operands = [xp.asarray(_operand(rng, s, dtype)) for s in shapes]
    results = []
    for threads in (1, 2, 3):
        xp.set_num_threads(threads)
        results.append(np.asarray(product(*operands)))
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


@pytest.mark.parametrize("shape", [(20000, 60), (400, 400)])
def test_split_gram_matrix_is_exactly_symmetric(shape: tuple[int, int]) -> None:
    a = xp.asarray(np.random.default_rng(1).standard_normal(shape))
    g = np.asarray(a.mT @ a)
    np.testing.assert_array_equal(g, g.T)


def test_split_matrix_vector_product_ignores_nan_in_fresh_memory() -> None:
    # The partial vectors' scratch is not zeroed by the allocator: a BLAS that scales y by
    # beta = 0 must not see what it held.
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40000, 30))
    r = rng.standard_normal(40000)
    for _ in range(3):
        junk = xp.full(30 * 16, xp.nan)
        del junk
        got = np.asarray(xp.asarray(a).mT @ xp.asarray(r))
        assert np.isfinite(got).all()
        np.testing.assert_allclose(got, a.T @ r, rtol=1e-10, atol=1e-9)


def test_nan_and_inf_propagate_through_split_products() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((700, 300))
    b = rng.standard_normal((300, 200))
    a[5, 7] = np.nan
    a[600, 2] = np.inf
    got = np.asarray(xp.asarray(a) @ xp.asarray(b))
    want = a @ b
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
