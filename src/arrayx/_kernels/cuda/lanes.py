"""Sorts, searches, set runs, gathers, scatters and products on a GPU, through CuPy.

The design lets these call the libraries made for them (CUB and Thrust sorts, cuBLAS) on
zero-copy views of arrayx's memory: :class:`Lanes` is the engine's lane entries (see the end of
``_engine.pyx``) written once against an array module ``xm`` and a ``view`` that sees device
memory as one of its arrays. The CUDA backend mixes it in with CuPy; the tests' host stand-in
(``tests/fake_cuda.py``) with NumPy, so the engine's glue is checked without a GPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arrayx._kernels import dtypes
from arrayx._kernels.cuda import library

__all__ = ["Lanes"]

BOOL = dtypes.NAMES.index("bool")


class Lanes:
    """The engine's lane, set, gather and product entries over ``self.xm`` views."""

    xm: object
    """The array module (CuPy on a GPU)."""

    def view(self, address: int, shape: Sequence[int], strides: Sequence[int],
             code: int) -> object:
        """``shape`` elements of dtype ``code`` at ``address`` with element ``strides``, as
        an array of ``xm`` sharing the memory."""
        raise NotImplementedError

    def linalg_checked(self) -> object:
        """The context in which the library's solvers raise ``numpy.linalg.LinAlgError`` for a
        singular or not positive definite matrix."""
        raise NotImplementedError

    def fft(self, name: str, a: object, **kwargs: object) -> object:
        """``xm.fft.<name>(a, **kwargs)`` (``numpy.fft``'s keywords) of the arrayx array
        ``a``, on its device."""
        return library.fft(name, a, **kwargs)

    def lapack(self, name: str) -> Callable:
        """The LAPACK entry ``name`` on this device, with ``linalg/_lapack.pyx``'s contract;
        a singular or not positive definite matrix raises ``numpy.linalg.LinAlgError``
        (``lu_factor`` factors those too)."""
        entry = getattr(library, name)
        if name == "lu_factor":
            return entry

        def checked(x: object, *args: object) -> object:
            with self.linalg_checked():
                return entry(x, *args)

        return checked

    def _flat(self, address: int, n: int, code: int) -> object:
        return self.view(address, (n,), (1,), code)

    def _rows(self, address: int, rows: int, n: int, code: int) -> object:
        return self.view(address, (rows, n), (n, 1), code)

    def _scatter_add(self, out: object, idx: object, values: object) -> None:
        """``out[idx] += values`` with repeated indices adding up."""
        raise NotImplementedError

    def _argsort(self, v: object) -> object:
        """The stable sorting permutation of each row of ``v`` (CuPy's sorts are stable)."""
        return self.xm.argsort(v, axis=-1)

    # --- sorting and searching ---------------------------------------------------------------

    def _keys(self, v: object, code: int, in_place: bool) -> object:
        """The sort keys of ``v``: itself, but a bool array's bytes as 0 or 1 (memory from
        elsewhere, a DLPack producer's, may hold other nonzero bytes for True), written back
        when ``in_place``."""
        if code != BOOL:
            return v
        truth = v.view("uint8") != 0
        if in_place:
            v[...] = truth
            return v
        return truth

    def _ordered(self, v: object) -> object:
        """``v`` as keys that CuPy's kernels compare as IEEE 754 compares ``v``: float32 as
        unsigned integers in the same order (-0.0 and 0.0 one key, every NaN the largest), since
        CuPy compiles its kernels to flush float32 subnormals to zero (two subnormals would
        compare equal); other dtypes as they are."""
        xm = self.xm
        if v.dtype != xm.float32:
            return v
        bits = v.view(xm.uint32)
        bits = xm.where(bits == 0x80000000, xm.uint32(0), bits)
        keys = xm.where(bits >> 31 == 1, ~bits, bits | xm.uint32(0x80000000))
        return xm.where(xm.isnan(v), xm.uint32(0xFFFFFFFF), keys)

    def _descending(self, v: object) -> object:
        """Keys whose stable ascending order is ``v``'s descending one with the NaNs last."""
        xm = self.xm
        if v.dtype != xm.float32:
            return -v
        return xm.where(xm.isnan(v), xm.uint32(0xFFFFFFFF), ~self._ordered(v))

    def _complex_order(self, v: object, desc: bool) -> object:
        """The stable sorting permutation of each row of complex ``v`` in the CPU's order,
        NumPy's: the numbers, then R + nanj, nan + Rj and nan + nanj, each by real part, then
        imaginary part (CuPy's argsort orders the NaNs otherwise); descending, the numbers in
        descending order and then every value with a NaN part, in its first order. Stable sorts
        by the imaginary parts, by the real parts, then (ascending) by which parts are NaN."""
        xm = self.xm
        real, imag = xm.ascontiguousarray(v.real), xm.ascontiguousarray(v.imag)
        nan_real, nan_imag = xm.isnan(real), xm.isnan(imag)
        if desc:
            nan = nan_real | nan_imag
            real, imag = (xm.where(nan, xm.nan, part).astype(part.dtype) for part in (real, imag))
        key = self._descending if desc else self._ordered
        order = self._argsort(key(imag))
        real = xm.take_along_axis(real, order, axis=-1)
        order = xm.take_along_axis(order, self._argsort(key(real)), axis=-1)
        if desc:
            return order
        kind = (2 * nan_real + nan_imag).astype(xm.uint8)
        kind = xm.take_along_axis(kind, order, axis=-1)
        return xm.take_along_axis(order, self._argsort(kind), axis=-1)

    def _complex_rank(self, s: object, values: object, right: bool) -> object:
        """``searchsorted(s, values)`` for complex ``s`` sorted in the CPU's order: how many
        elements of ``s`` come before each value in one stable sort of both, the values first
        (left: before the elements equal to them) or last (right)."""
        xm = self.xm
        n, m = s.shape[0], values.shape[0]
        both = xm.concatenate([s, values] if right else [values, s])[None, :]
        order = self._complex_order(both, False)[0]
        from_s = (order < n) if right else (order >= m)
        before = xm.cumsum(from_s) - from_s
        out = xm.empty(m, dtype=xm.int64)
        out[order[~from_s] - (n if right else 0)] = before[~from_s]
        return out

    def _unequal(self, a: object, b: object) -> object:
        """``a != b`` elementwise as IEEE 754 compares (NaN unequal to itself)."""
        xm = self.xm
        if a.dtype == xm.complex64:
            pa, pb = a.view(xm.float32), b.view(xm.float32)
            return self._unequal(pa[..., 0::2], pb[..., 0::2]) | self._unequal(
                pa[..., 1::2], pb[..., 1::2])
        if a.dtype == xm.float32:
            return (self._ordered(a) != self._ordered(b)) | xm.isnan(a)
        return a != b

    def sort_rows(self, code: int, address: int, rows: int, n: int, desc: bool) -> None:
        """Sort each of ``rows`` contiguous rows of ``n`` in place (stable)."""
        v = self._keys(self._rows(address, rows, n, code), code, True)
        if v.dtype.kind == "c":
            v[...] = self.xm.take_along_axis(v, self._complex_order(v, desc), axis=-1)
        elif v.dtype.kind == "f":
            # Through the stable permutation, so that -0.0 and 0.0 (equal) keep their order, as
            # the CPU's stable sort keeps them; descending with the NaNs last, as ascending.
            keys = self._descending(v) if desc else self._ordered(v)
            v[...] = self.xm.take_along_axis(v, self._argsort(keys), axis=-1)
        elif desc:
            v[...] = self.xm.sort(v[:, ::-1], axis=-1)[:, ::-1]
        else:
            v.sort(axis=-1)

    def argsort_rows(self, code: int, address: int, out: int, rows: int, n: int,
                     desc: bool) -> None:
        """The stable sorting permutation of each row, into int64 ``out``."""
        v = self._keys(self._rows(address, rows, n, code), code, False)
        o = self._rows(out, rows, n, 4)
        if v.dtype.kind == "c":
            o[...] = self._complex_order(v, desc)
        elif desc and v.dtype.kind == "f":
            o[...] = self._argsort(self._descending(v))  # NaNs last, ties in their first order
        elif desc:
            # Stable descending: the reversed order of a stable ascending sort of the reversed
            # row keeps equal elements in their first order.
            o[...] = (n - 1 - self._argsort(v[:, ::-1]))[:, ::-1]
        else:
            o[...] = self._argsort(v)

    def searchsorted(self, code: int, address: int, n: int, sorter: int | None, values: int,
                     m: int, right: bool, out: int) -> None:
        """Where each of ``m`` values goes among ``n`` sorted ones (through ``sorter``)."""
        xm = self.xm
        s = self._flat(address, n, code)
        if sorter is not None:
            order = self._flat(sorter, n, 4)
            if n and bool(((order < 0) | (order >= n)).any()):
                bad = int(order[(order < 0) | (order >= n)][0])
                raise IndexError(f"sorter holds an index out of range: {bad}")
            s = s[order]
        v = self._flat(values, m, code)
        if s.dtype.kind == "c":
            self._flat(out, m, 4)[...] = self._complex_rank(s, v, right)
            return
        self._flat(out, m, 4)[...] = xm.searchsorted(self._ordered(s), self._ordered(v),
                                                     side="right" if right else "left")

    def run_starts(self, code: int, address: int, n: int, starts: int) -> int:
        """Where each run of equal elements of ``n`` sorted ones starts; the run count."""
        xm = self.xm
        if n == 0:
            return 0
        s = self._flat(address, n, code)
        new = xm.empty(n, dtype=bool)
        new[0] = True
        new[1:] = self._unequal(s[1:], s[:-1])
        found = xm.nonzero(new)[0]
        self._flat(starts, found.size, 4)[...] = found
        return int(found.size)

    def run_lengths(self, starts: int, groups: int, n: int, counts: int) -> None:
        """The length of each run from where they start."""
        if groups == 0:
            return
        s = self._flat(starts, groups, 4)
        c = self._flat(counts, groups, 4)
        c[:-1] = s[1:] - s[:-1]
        c[-1:] = n - s[-1:]

    def run_labels(self, order: int, starts: int, groups: int, n: int, labels: int) -> None:
        """Each element's run, through the sorting permutation ``order``."""
        xm = self.xm
        if n == 0:
            return
        position = xm.arange(n, dtype=xm.int64)
        run = xm.searchsorted(self._flat(starts, groups, 4), position, side="right") - 1
        self._flat(labels, n, 4)[self._flat(order, n, 4)] = run

    def isin(self, code: int, table: int, n: int, values: int, m: int, invert: bool,
             out: int) -> None:
        """Whether each of ``m`` values occurs among ``n`` sorted ones."""
        xm = self.xm
        v = self._flat(values, m, code)
        o = self._flat(out, m, 0)
        if n == 0:
            o[...] = invert
            return
        t = self._flat(table, n, code)
        # A complex table is sorted in NumPy's NaN order, which CuPy's searchsorted does not
        # follow (it compares real parts first whatever the imaginary part): ranks from
        # _complex_rank.
        at = xm.minimum(self._complex_rank(t, v, False) if t.dtype.kind == "c" else
                        xm.searchsorted(self._ordered(t), self._ordered(v)), n - 1)
        found = ~self._unequal(t[at], v)
        o[...] = ~found if invert else found

    # --- masks --------------------------------------------------------------------------------

    def count_true(self, address: int, shape: Sequence[int]) -> int:
        """How many of the C-contiguous bools are true."""
        return int(self.xm.count_nonzero(self.view(address, shape, _c_strides(shape), 0)))

    def nonzero(self, address: int, shape: Sequence[int], count: int,
                outs: Sequence[int]) -> None:
        """The positions of the true elements, one int64 array of ``count`` per axis."""
        found = self.xm.nonzero(self.view(address, shape, _c_strides(shape), 0))
        for positions, out in zip(found, outs, strict=True):
            self._flat(out, count, 4)[...] = positions

    def compress_rows(self, code: int, address: int, mask: int, n: int, row: int,
                      out: int) -> None:
        """The rows of ``row`` elements where the ``n`` bools are true, packed at ``out``."""
        m = self._flat(mask, n, 0)
        picked = self._rows(address, n, row, code)[m]
        self._rows(out, picked.shape[0], row, code)[...] = picked

    def expand_rows(self, code: int, address: int, mask: int, n: int, row: int, values: int,
                    repeat: bool) -> None:
        """The rows of ``values`` written over the rows where the ``n`` bools are true (its one
        row over each with ``repeat``)."""
        m = self._flat(mask, n, 0)
        rows = self._rows(address, n, row, code)
        count = 1 if repeat else int(self.xm.count_nonzero(m))
        rows[m] = self._rows(values, count, row, code)

    # --- gathers and scatters -----------------------------------------------------------------

    def gather(self, code: int, src: int, size: int, idx: int, m: int, out: int) -> None:
        """``out[i] = src[idx[i]]`` (indices trusted; ``size`` elements at ``src``)."""
        self._flat(out, m, code)[...] = self._flat(src, size, code)[self._flat(idx, m, 4)]

    def take(self, code: int, address: int, n: int, stride: int, idx: int, m: int,
             out: int) -> int:
        """``out[i] = x[idx[i]]`` along ``n`` elements ``stride`` apart, negative indices
        counting from the end: the first position whose index is out of range, or -1."""
        xm = self.xm
        i = self._flat(idx, m, 4)
        bad = (i < -n) | (i >= n)
        if m and bool(bad.any()):
            return int(xm.argmax(bad))
        x = self.view(address, (n,), (stride,), code)
        self._flat(out, m, code)[...] = x[xm.where(i < 0, i + n, i)]
        return -1

    def scatter_add(self, code: int, values: int, idx: int, m: int, out: int, n: int) -> int:
        """``out[idx[i]] += values[i]``: the first ``i`` whose index is out of range, or -1."""
        xm = self.xm
        i = self._flat(idx, m, 4)
        bad = (i < 0) | (i >= n)
        if m and bool(bad.any()):
            return int(xm.argmax(bad))
        target, v = self._flat(out, n, code), self._flat(values, m, code)
        if target.dtype.kind == "c":
            # CuPy's add.at takes no complex numbers: the real and imaginary parts are the
            # floats at 2k and 2k + 1, added as such.
            part = target.real.dtype
            pairs = xm.stack([2 * i, 2 * i + 1], axis=-1).reshape(-1)
            self._scatter_add(target.view(part), pairs, v.view(part))
        elif target.dtype.itemsize < 4:
            # Nor 8- and 16-bit integers: added in int64 and wrapped back, as in place.
            wide = target.astype(xm.int64)
            self._scatter_add(wide, i, v.astype(xm.int64))
            target[...] = wide.astype(target.dtype)
        else:
            self._scatter_add(target, i, v)
        return -1

    def _block_positions(self, offs: int, nb: int, rshape: Sequence[int],
                         rstrides: Sequence[int]) -> object:
        xm = self.xm
        inner = xm.zeros(tuple(rshape), dtype=xm.int64)
        for axis, (extent, stride) in enumerate(zip(rshape, rstrides, strict=True)):
            shape = [1] * len(rshape)
            shape[axis] = extent
            inner = inner + (xm.arange(extent, dtype=xm.int64) * stride).reshape(shape)
        return self._flat(offs, nb, 4).reshape((nb,) + (1,) * len(rshape)) + inner

    def gather_blocks(self, code: int, src: int, size: int, offs: int, nb: int,
                      rshape: Sequence[int], rstrides: Sequence[int], out: int) -> None:
        """The ``nb`` strided blocks at the element offsets ``offs`` of ``src`` (``size``
        elements from ``src``), packed into the C-contiguous ``out``."""
        shape = (nb, *rshape)
        self.view(out, shape, _c_strides(shape), code)[...] = self._flat(src, size, code)[
            self._block_positions(offs, nb, rshape, rstrides)]

    def scatter_blocks(self, code: int, dst: int, size: int, offs: int, nb: int,
                       rshape: Sequence[int], rstrides: Sequence[int], values: int) -> None:
        """The C-contiguous ``values`` written over ``nb`` strided blocks of ``dst``."""
        shape = (nb, *rshape)
        positions = self._block_positions(offs, nb, rshape, rstrides).reshape(-1)
        v = self.view(values, shape, _c_strides(shape), code).reshape(-1)
        if positions.size > 1:
            # A position written twice takes its last value, as in order (NumPy's rule; a GPU
            # scatter writes repeated positions in no set order): the last of each run of
            # equal positions in their stable sorted order.
            order = self._argsort(positions)
            ordered = positions[order]
            last = self.xm.ones(positions.size, dtype=bool)
            last[:-1] = ordered[1:] != ordered[:-1]
            keep = order[last]
            positions, v = positions[keep], v[keep]
        self._flat(dst, size, code)[positions] = v

    # --- fills and products -------------------------------------------------------------------

    def zero_triangle(self, code: int, address: int, batch: int, rows: int, cols: int, k: int,
                      keep_lower: bool) -> None:
        """Zero each matrix above diagonal ``k`` (``keep_lower``) or below it."""
        v = self.view(address, (batch, rows, cols), (rows * cols, cols, 1), code)
        v[...] = self.xm.tril(v, k) if keep_lower else self.xm.triu(v, k)

    def matmul(self, code: int, a: tuple, b: tuple, out: tuple) -> None:
        """``a @ b`` into ``out``; each is ``(address, shape, element strides)`` of dtype
        ``code``, and ``out`` has the product's shape (C-contiguous)."""
        o = self.view(out[0], out[1], out[2], code)
        self.xm.matmul(self.view(a[0], a[1], a[2], code), self.view(b[0], b[1], b[2], code),
                       out=o)
        if (len(a[1]) == 2 and a[0] == b[0] and tuple(a[1]) == tuple(b[1])[::-1]
                and tuple(a[2]) == tuple(b[2])[::-1]):
            # A Gram product (X @ X.mT, X.mT @ X) is symmetric, as the CPU's syrk makes it;
            # cuBLAS's gemm rounds the two triangles apart: the upper one is mirrored.
            o[...] = self.xm.triu(o) + self.xm.triu(o, 1).T


def _c_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    step = 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))
