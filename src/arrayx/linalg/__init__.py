"""The standard's ``linalg`` extension: every function of 2025.12, over stacks of matrices.

Products run in arrayx (BLAS gemm for floating point, a blocked kernel for integers);
factorisations call LAPACK directly (the ILP64 OpenBLAS that NumPy itself calls, the library
of the BLAS, without the GIL); determinants, norms, ``pinv`` and ``matrix_rank`` are finished
on arrayx's own kernels. Every function takes stacks of matrices in the last two axes; the
batch axes broadcast where the standard says they do. A matrix that a function cannot handle
(singular, not positive definite) raises ``LinAlgError``.

This module loads on first use of ``arrayx.linalg`` (or of ``matmul``), with BLAS and LAPACK.

Examples
--------
>>> import arrayx as xp
>>> a = xp.asarray([[2.0, 1.0], [1.0, 3.0]])
>>> xp.linalg.solve(a, xp.asarray([3.0, 5.0]))
Array([0.8, 1.4], dtype=float64)
>>> xp.linalg.matrix_norm(xp.stack([a, 2 * a])).shape
(2,)
"""

from arrayx._manipulation import matrix_transpose
from arrayx.linalg._bridge import LinAlgError
from arrayx.linalg._decompositions import (
    EighResult,
    EigResult,
    QRResult,
    SVDResult,
    cholesky,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    qr,
    svd,
    svdvals,
)
from arrayx.linalg._diagonal import diagonal, trace
from arrayx.linalg._matmul import matmul
from arrayx.linalg._norms import matrix_norm, vector_norm
from arrayx.linalg._products import cross, outer, tensordot, vecdot
from arrayx.linalg._solve import (
    SlogdetResult,
    det,
    inv,
    matrix_power,
    matrix_rank,
    pinv,
    slogdet,
    solve,
)

__all__ = [
    "EigResult", "EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult",
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
    "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
    "vector_norm",
]
