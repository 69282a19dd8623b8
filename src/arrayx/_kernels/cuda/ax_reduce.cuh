// Reductions on the device, in two stages without atomics. The reduced axes come last in the
// coalesced layout: the leading ``nkept`` axes index the outputs, the rest the elements folded
// into each. A block folds one chunk of one output's elements (a strided loop per thread, then
// warp shuffles and one shared-memory step across warps) and writes one partial result at
// out[output * chunks + chunk]. With chunks == 1 that is the result; otherwise the partials,
// a C-contiguous (outputs, chunks) array, are folded by the contiguous kernel with one chunk.
// Blocks have a multiple of 32 threads, at most 1024.
#pragma once
#include "ax_elementwise.cuh"

namespace ax {

enum : unsigned { FULL_MASK = 0xffffffffu };  // every lane of a warp

// The folds of ../cpu/ax_reduce.hpp, with the same identities (over bool, max is "any" and
// min is "all").
struct fold_sum {
    template <class A> AX_DEV static A identity() { return A(0); }
    template <class A> AX_DEV static A f(A a, A b) { return add_(a, b); }
};
struct fold_prod {
    template <class A> AX_DEV static A identity() { return A(1); }
    template <class A> AX_DEV static A f(A a, A b) { return mul_(a, b); }
};
struct fold_max {
    template <class A> AX_DEV static A identity() {
        if constexpr (cuda::std::is_floating_point_v<A>)
            return -cuda::std::numeric_limits<A>::infinity();
        else return cuda::std::numeric_limits<A>::lowest();
    }
    template <class A> AX_DEV static A f(A a, A b) { return maximum_(a, b); }
};
struct fold_min {
    template <class A> AX_DEV static A identity() {
        if constexpr (cuda::std::is_floating_point_v<A>)
            return cuda::std::numeric_limits<A>::infinity();
        else return cuda::std::numeric_limits<A>::max();
    }
    template <class A> AX_DEV static A f(A a, A b) { return minimum_(a, b); }
};

// Warp shuffles of any dtype: narrow integers and bool travel as int, complex numbers by part.
template <class T> AX_DEV T shfl_down(T v, unsigned d) {
    if constexpr (is_complex_v<T>) return T(shfl_down(v.real(), d), shfl_down(v.imag(), d));
    else if constexpr (sizeof(T) < 4)
        return static_cast<T>(__shfl_down_sync(FULL_MASK, static_cast<int>(v), d));
    else return __shfl_down_sync(FULL_MASK, v, d);
}
template <class T> AX_DEV T shfl_up(T v, unsigned d) {
    if constexpr (is_complex_v<T>) return T(shfl_up(v.real(), d), shfl_up(v.imag(), d));
    else if constexpr (sizeof(T) < 4)
        return static_cast<T>(__shfl_up_sync(FULL_MASK, static_cast<int>(v), d));
    else return __shfl_up_sync(FULL_MASK, v, d);
}

// Uninitialised shared memory for 32 values of A (complex types have constructors, which
// __shared__ variables may not).
template <class A>
struct WarpSlots {
    alignas(A) unsigned char bytes[32 * sizeof(A)];
    AX_DEV A& operator[](unsigned i) { return reinterpret_cast<A*>(bytes)[i]; }
};

// Folds v over the block; thread 0 gets the result. Ends with a barrier, so the caller may
// reuse ``slots`` at once.
template <class Op, class A>
AX_DEV A block_fold(A v, WarpSlots<A>& slots) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
    for (unsigned d = 16; d > 0; d >>= 1) v = Op::f(v, shfl_down(v, d));
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? slots[lane] : Op::template identity<A>();
#pragma unroll
        for (unsigned d = 16; d > 0; d >>= 1) v = Op::f(v, shfl_down(v, d));
    }
    __syncthreads();
    return v;
}

// The layout of a strided reduction, passed by value: 4 + 2 * NDIM integers of type I.
template <int NDIM, class I>
struct ReduceParams {
    I n_out;            // outputs: the product of the kept extents
    I n_red;            // elements folded into each output
    I chunks;           // blocks (partial results) per output, 1 <= chunks <= max(n_red, 1)
    I nkept;            // axes [0, nkept) are kept, axes [nkept, NDIM) reduced
    I shape[NDIM];
    I strides[1][NDIM]; // the input's, in elements
};

// Calls body(output, first, end, base) for each (output, chunk) pair of this block, where
// [first, end) is the chunk's range of reduced positions; base is unused by contiguous inputs.
template <class I, class Body>
AX_DEV void for_each_chunk(I n_out, I n_red, I chunks, Body body) {
    using U = uindex_t<I>;
    const U len = (U(n_red) + U(chunks) - 1) / U(chunks);
    for (U pair = blockIdx.x; pair < U(n_out) * U(chunks); pair += gridDim.x) {
        const U out = pair / U(chunks), first = (pair % U(chunks)) * len;
        const U end = first + len < U(n_red) ? first + len : U(n_red);
        body(pair, out, first, end);
    }
}

template <class Op, class A, int NDIM, class I>
AX_DEV void reduce_strided(const ReduceParams<NDIM, I>& p, const A* in, A* out) {
    __shared__ WarpSlots<A> slots;
    const int nk = static_cast<int>(p.nkept);
    for_each_chunk<I>(p.n_out, p.n_red, p.chunks, [&](auto pair, auto o, auto first, auto end) {
        I base[1], off[1];
        unravel<NDIM, 1, I>(p.shape, p.strides, o, 0, nk, base);
        A acc = Op::template identity<A>();
        for (auto j = first + threadIdx.x; j < end; j += blockDim.x) {
            unravel<NDIM, 1, I>(p.shape, p.strides, j, nk, NDIM, off);
            acc = Op::f(acc, in[base[0] + off[0]]);
        }
        acc = block_fold<Op>(acc, slots);
        if (threadIdx.x == 0) out[pair] = acc;
    });
}
// Sixteen bytes of a row: four 4-byte or two 8-byte elements, read by one load instruction.
template <class A>
struct alignas(16) Lanes16 {
    A v[16 / sizeof(A)];
};

// Folds row[first, end) over the block's threads, four independent accumulators per thread:
// one load at a time leaves the memory system half idle (48% of the H200's bandwidth against
// 88% for CUB's sum). Real 4- and 8-byte elements are read 16 bytes at a time from the first
// 16-byte boundary on (sum of 10^8 float32: 79% of the H200's bandwidth read one element at
// a time); the elements before it and after the last whole 16 bytes one at a time.
template <class Op, class A, class U>
AX_DEV A fold_range(const A* row, U first, U end) {
    A acc0 = Op::template identity<A>(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    const U step = blockDim.x;
    U j = first + threadIdx.x;
    if constexpr (cuda::std::is_arithmetic_v<A> && (sizeof(A) == 4 || sizeof(A) == 8)) {
        constexpr U W = 16 / sizeof(A);
        const U mis = U((reinterpret_cast<cuda::std::uintptr_t>(row + first) & 15u) / sizeof(A));
        const U head = mis == 0 ? 0 : (W - mis < end - first ? W - mis : end - first);
        const U nvec = (end - first - head) / W;
        const Lanes16<A>* vec = reinterpret_cast<const Lanes16<A>*>(row + first + head);
        if (threadIdx.x < head) acc0 = Op::f(acc0, row[first + threadIdx.x]);
        U k = threadIdx.x;
        for (; k + 3 * step < nvec; k += 4 * step) {
            const Lanes16<A> a = vec[k], b = vec[k + step], c = vec[k + 2 * step],
                             d = vec[k + 3 * step];
#pragma unroll
            for (U l = 0; l < W; ++l) {
                acc0 = Op::f(acc0, a.v[l]);
                acc1 = Op::f(acc1, b.v[l]);
                acc2 = Op::f(acc2, c.v[l]);
                acc3 = Op::f(acc3, d.v[l]);
            }
        }
        for (; k < nvec; k += step) {
            const Lanes16<A> a = vec[k];
#pragma unroll
            for (U l = 0; l < W; ++l) acc0 = Op::f(acc0, a.v[l]);
        }
        j = first + head + nvec * W + threadIdx.x;
    }
    for (; j + 3 * step < end; j += 4 * step) {
        acc0 = Op::f(acc0, row[j]);
        acc1 = Op::f(acc1, row[j + step]);
        acc2 = Op::f(acc2, row[j + 2 * step]);
        acc3 = Op::f(acc3, row[j + 3 * step]);
    }
    for (; j < end; j += step) acc0 = Op::f(acc0, row[j]);
    return Op::f(Op::f(acc0, acc1), Op::f(acc2, acc3));
}

template <class Op, class A, class I>
AX_DEV void reduce_contiguous(I n_out, I n_red, I chunks, const A* in, A* out) {
    __shared__ WarpSlots<A> slots;
    for_each_chunk<I>(n_out, n_red, chunks, [&](auto pair, auto o, auto first, auto end) {
        A acc = fold_range<Op>(in + o * uindex_t<I>(n_red), first, end);
        acc = block_fold<Op>(acc, slots);
        if (threadIdx.x == 0) out[pair] = acc;
    });
}

// Folds over the rows of contiguous columns (a C-ordered array reduced over its leading
// axes, such as sum(axis=0) of a matrix). A block of 32 x 8 threads covers 32 neighbouring
// columns and chunk blockIdx.y of the rows: thread (x, y) folds rows y, y + 8, ... of the
// chunk in its column, so a warp reads 32 neighbouring elements of one row, then row 0 of the
// block folds the 8 partials of each column. Results go to out[chunk * cols + column]; with
// more than one chunk they are partials that a second launch, one chunk, folds the same way.
template <class Op, class A, class I>
AX_DEV void colreduce_contiguous(I rows, I cols, I row_stride, I chunks, const A* in, A* out) {
    using U = uindex_t<I>;
    __shared__ WarpSlots<A> slots[8];
    const U col = U(blockIdx.x) * 32u + U(threadIdx.x);
    const U len = (U(rows) + U(chunks) - 1) / U(chunks);
    const U first = U(blockIdx.y) * len;
    const U end = first + len < U(rows) ? first + len : U(rows);
    A acc = Op::template identity<A>();
    if (col < U(cols))
        for (U r = first + threadIdx.y; r < end; r += blockDim.y)
            acc = Op::f(acc, in[static_cast<I>(r) * row_stride + static_cast<I>(col)]);
    slots[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && col < U(cols)) {
        for (unsigned y = 1; y < blockDim.y; ++y) acc = Op::f(acc, slots[y][threadIdx.x]);
        out[U(blockIdx.y) * U(cols) + col] = acc;
    }
}

// --- argmax / argmin: (value, position) pairs; the first NaN wins, then the first extreme ---
// Whether (b, ib) beats (a, ia); a negative position marks an empty slot.
template <bool Max, class A>
AX_DEV bool beats(A a, cuda::std::int64_t ia, A b, cuda::std::int64_t ib) {
    if (ib < 0) return false;
    if (ia < 0) return true;
    const bool na = is_nan(a), nb = is_nan(b);
    if (na || nb) return nb && (!na || ib < ia);
    if (Max ? ascending(a, b) : ascending(b, a)) return true;
    if (Max ? ascending(b, a) : ascending(a, b)) return false;
    return ib < ia;
}

template <bool Max, class A>
AX_DEV void block_argfold(A& v, cuda::std::int64_t& iv, WarpSlots<A>& vs,
                          WarpSlots<cuda::std::int64_t>& is) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
    for (unsigned d = 16; d > 0; d >>= 1) {
        const A w = shfl_down(v, d);
        const cuda::std::int64_t iw = shfl_down(iv, d);
        if (beats<Max>(v, iv, w, iw)) { v = w; iv = iw; }
    }
    if (lane == 0) { vs[warp] = v; is[warp] = iv; }
    __syncthreads();
    if (warp == 0) {
        iv = -1;
        if (lane < nwarps) { v = vs[lane]; iv = is[lane]; }
#pragma unroll
        for (unsigned d = 16; d > 0; d >>= 1) {
            const A w = shfl_down(v, d);
            const cuda::std::int64_t iw = shfl_down(iv, d);
            if (beats<Max>(v, iv, w, iw)) { v = w; iv = iw; }
        }
    }
    __syncthreads();
}

// Positions count reduced elements in C order over the reduced axes (the runtime merges those
// axes but must not reorder them). ``out`` may be null: the last stage needs positions only.
template <bool Max, class A, int NDIM, class I>
AX_DEV void argreduce_strided(const ReduceParams<NDIM, I>& p, const A* in, A* out,
                              cuda::std::int64_t* out_index) {
    __shared__ WarpSlots<A> vs;
    __shared__ WarpSlots<cuda::std::int64_t> is;
    const int nk = static_cast<int>(p.nkept);
    for_each_chunk<I>(p.n_out, p.n_red, p.chunks, [&](auto pair, auto o, auto first, auto end) {
        I base[1], off[1];
        unravel<NDIM, 1, I>(p.shape, p.strides, o, 0, nk, base);
        A best{};
        cuda::std::int64_t ib = -1;
        for (auto j = first + threadIdx.x; j < end; j += blockDim.x) {
            unravel<NDIM, 1, I>(p.shape, p.strides, j, nk, NDIM, off);
            const A x = in[base[0] + off[0]];
            const auto ij = static_cast<cuda::std::int64_t>(j);
            if (beats<Max>(best, ib, x, ij)) { best = x; ib = ij; }
        }
        block_argfold<Max>(best, ib, vs, is);
        if (threadIdx.x == 0) {
            if (out) out[pair] = best;
            out_index[pair] = ib;
        }
    });
}
// ``in_index`` holds the positions of a first stage's partials, or is null (position j).
template <bool Max, class A, class I>
AX_DEV void argreduce_contiguous(I n_out, I n_red, I chunks, const A* in,
                                 const cuda::std::int64_t* in_index, A* out,
                                 cuda::std::int64_t* out_index) {
    __shared__ WarpSlots<A> vs;
    __shared__ WarpSlots<cuda::std::int64_t> is;
    for_each_chunk<I>(n_out, n_red, chunks, [&](auto pair, auto o, auto first, auto end) {
        const auto row = o * uindex_t<I>(n_red);
        A best{};
        cuda::std::int64_t ib = -1;
        for (auto j = first + threadIdx.x; j < end; j += blockDim.x) {
            const A x = in[row + j];
            const auto ij = in_index ? in_index[row + j] : static_cast<cuda::std::int64_t>(j);
            if (beats<Max>(best, ib, x, ij)) { best = x; ib = ij; }
        }
        block_argfold<Max>(best, ib, vs, is);
        if (threadIdx.x == 0) {
            if (out) out[pair] = best;
            out_index[pair] = ib;
        }
    });
}

}  // namespace ax
