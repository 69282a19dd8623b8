// Elementwise kernel bodies: unary, binary, where and cast, each in a strided form (NDIM
// coalesced axes, shape and strides passed in a Strided struct) and a contiguous form (every
// operand contiguous: a flat count). Operands are inputs first, output last; pointers point at
// each operand's first element. The generated extern "C" kernels call these, so a kernel is
// keyed by (op, dtypes, NDIM, contiguous, index type) and never by a shape.
#pragma once
#include "../ax_math.hpp"

namespace ax {

// The iteration space of a strided kernel, passed by value (CuPy: a NumPy structured scalar
// of 1 + NDIM + NOP * NDIM integers of type I). Axis NDIM - 1 varies fastest.
template <int NDIM, int NOP, class I>
struct Strided {
    I size;                  // elements in the iteration space
    I shape[NDIM];           // coalesced extents
    I strides[NOP][NDIM];    // per operand, in elements (negative and zero allowed)
};

// The element offsets of every operand at the C-order position ``idx`` over axes [lo, hi);
// ``shape`` and ``strides`` are the extents and each operand's strides of NDIM axes.
template <int NDIM, int NOP, class I>
AX_DEV void unravel(const I* shape, const I (*strides)[NDIM], uindex_t<I> idx, int lo, int hi,
                    I (&off)[NOP]) {
#pragma unroll
    for (int k = 0; k < NOP; ++k) off[k] = 0;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {
        if (d < lo || d >= hi) continue;
        uindex_t<I> c = idx;
        if (d > lo) {
            const uindex_t<I> n = static_cast<uindex_t<I>>(shape[d]);
            c = idx % n;
            idx /= n;
        }
#pragma unroll
        for (int k = 0; k < NOP; ++k) off[k] += static_cast<I>(c) * strides[k][d];
    }
}

template <int NDIM, int NOP, class I>
AX_DEV void offsets(const Strided<NDIM, NOP, I>& p, uindex_t<I> idx, I (&off)[NOP]) {
    unravel<NDIM, NOP, I>(p.shape, p.strides, idx, 0, NDIM, off);
}

// --- casts (../ax_math.hpp's cast_via); floats become integers by the plain conversion --------
struct plain_float_to_int {
    template <class D, class F> AX_HD static D to(F f) { return static_cast<D>(f); }
};
template <class D, class S>
AX_HD D cast(S s) { return cast_via<D, S, plain_float_to_int>(s); }

// The op of a cast kernel: a unary kernel whose functor converts.
template <class D>
struct op_cast_to {
    template <class S> AX_HD static D f(S a) { return cast<D>(a); }
};

// --- unary and binary ops (Op::f from the generated functors) --------------------------------
template <class Op, class T, class R, int NDIM, class I>
AX_DEV void unary_strided(const Strided<NDIM, 2, I>& p, const T* a, R* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(p.size); i += thread_step<I>()) {
        I off[2];
        offsets(p, i, off);
        o[off[1]] = static_cast<R>(Op::f(a[off[0]]));
    }
}
template <class Op, class T, class R, class I>
AX_DEV void unary_contiguous(I n, const T* a, R* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(n); i += thread_step<I>())
        o[i] = static_cast<R>(Op::f(a[i]));
}

template <class Op, class T, class R, int NDIM, class I>
AX_DEV void binary_strided(const Strided<NDIM, 3, I>& p, const T* a, const T* b, R* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(p.size); i += thread_step<I>()) {
        I off[3];
        offsets(p, i, off);
        o[off[2]] = static_cast<R>(Op::f(a[off[0]], b[off[1]]));
    }
}
template <class Op, class T, class R, class I>
AX_DEV void binary_contiguous(I n, const T* a, const T* b, R* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(n); i += thread_step<I>())
        o[i] = static_cast<R>(Op::f(a[i], b[i]));
}

// --- a cast between a row-major and a column-major view: tiles through shared memory --------
// out(r, c) = in(r, c) for r < rows, c < cols, with in(r, c) at in[r + c * in_ld] and out(r, c)
// at o[r * out_ld + c] (a transposed copy: x.T to C order). A block of 32 x 8 threads moves one
// 32 x 32 tile: it reads the tile along r and writes it along c, so both sides are coalesced.
template <class Op, class T, class R, class I>
AX_DEV void transpose_contiguous(I rows, I cols, I in_ld, I out_ld, const T* a, R* o) {
    __shared__ R tile[32][33];
    const I r0 = static_cast<I>(blockIdx.y) * 32, c0 = static_cast<I>(blockIdx.x) * 32;
    const I tx = static_cast<I>(threadIdx.x), ty = static_cast<I>(threadIdx.y);
#pragma unroll
    for (I k = 0; k < 32; k += 8) {
        const I r = r0 + tx, c = c0 + ty + k;
        if (r < rows && c < cols) tile[ty + k][tx] = static_cast<R>(Op::f(a[r + c * in_ld]));
    }
    __syncthreads();
#pragma unroll
    for (I k = 0; k < 32; k += 8) {
        const I r = r0 + ty + k, c = c0 + tx;
        if (r < rows && c < cols) o[r * out_ld + c] = tile[tx][ty + k];
    }
}

// --- out = cond ? x : y, with cond bool and x, y, out of one dtype ---------------------------
template <class T, int NDIM, class I>
AX_DEV void where_strided(const Strided<NDIM, 4, I>& p, const bool* c, const T* x, const T* y,
                          T* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(p.size); i += thread_step<I>()) {
        I off[4];
        offsets(p, i, off);
        o[off[3]] = c[off[0]] ? x[off[1]] : y[off[2]];
    }
}
template <class T, class I>
AX_DEV void where_contiguous(I n, const bool* c, const T* x, const T* y, T* o) {
    for (uindex_t<I> i = thread_start<I>(); i < uindex_t<I>(n); i += thread_step<I>())
        o[i] = c[i] ? x[i] : y[i];
}

}  // namespace ax
