// Inclusive scans (cumulative_sum, cumulative_prod) along the last axis of a coalesced layout.
// One block per row (a grid-stride loop over rows): the row is walked in tiles of blockDim.x
// elements; each tile is scanned with warp shuffles and one shared-memory step across warps,
// and a running total carries from tile to tile. Blocks have a multiple of 32 threads, at most
// 1024. Floating-point sums associate in tree order, not left to right.
#pragma once
#include "ax_reduce.cuh"

namespace ax {

// Inclusive scan of v over the block, in thread order; ``total`` gets the block's total.
// Ends with a barrier, so the caller may reuse ``slots`` at once.
template <class Op, class A>
AX_DEV A block_scan(A v, WarpSlots<A>& slots, A& total) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const A u = shfl_up(v, d);
        if (lane >= d) v = Op::f(u, v);
    }
    if (lane == 31) slots[warp] = v;
    __syncthreads();
    if (warp == 0) {
        A w = lane < nwarps ? slots[lane] : Op::template identity<A>();
#pragma unroll
        for (unsigned d = 1; d < 32; d <<= 1) {
            const A u = shfl_up(w, d);
            if (lane >= d) w = Op::f(u, w);
        }
        if (lane < nwarps) slots[lane] = w;
    }
    __syncthreads();
    if (warp > 0) v = Op::f(slots[warp - 1], v);
    total = slots[nwarps - 1];
    __syncthreads();
    return v;
}

// Scans one row of n elements at in[j * si], writing out[j * so]. The first tile's results are
// its own scan, with no identity folded in (as NumPy's scans, which start from x[0]: 0.0 + -0.0
// would lose a leading -0.0, and (1 + 0j) * (inf + 0j) is inf + nanj).
template <class Op, class A, class U, class I>
AX_DEV void scan_row(const A* in, I si, A* out, I so, U n, WarpSlots<A>& slots) {
    A carry = Op::template identity<A>();
    for (U tile = 0; tile < n; tile += blockDim.x) {
        const U j = tile + threadIdx.x;
        A total;
        const A v = block_scan<Op>(j < n ? in[static_cast<I>(j) * si] : Op::template identity<A>(),
                                   slots, total);
        if (j < n) out[static_cast<I>(j) * so] = tile == 0 ? v : Op::f(carry, v);
        carry = tile == 0 ? total : Op::f(carry, total);
    }
}

// Strided: p.size is rows * n; axis NDIM - 1 is scanned, the others index the rows.
template <class Op, class A, int NDIM, class I>
AX_DEV void scan_strided(const Strided<NDIM, 2, I>& p, const A* in, A* out) {
    using U = uindex_t<I>;
    __shared__ WarpSlots<A> slots;
    const U n = static_cast<U>(p.shape[NDIM - 1]);
    const U rows = n == 0 ? U(0) : static_cast<U>(p.size) / n;
    for (U r = blockIdx.x; r < rows; r += gridDim.x) {
        I base[2];
        unravel<NDIM, 2, I>(p.shape, p.strides, r, 0, NDIM - 1, base);
        scan_row<Op>(in + base[0], p.strides[0][NDIM - 1], out + base[1], p.strides[1][NDIM - 1],
                     n, slots);
    }
}
// Contiguous: rows of n elements, one after another, in both operands.
template <class Op, class A, class I>
AX_DEV void scan_contiguous(I rows, I n, const A* in, A* out) {
    using U = uindex_t<I>;
    __shared__ WarpSlots<A> slots;
    for (U r = blockIdx.x; r < U(rows); r += gridDim.x)
        scan_row<Op>(in + r * U(n), I(1), out + r * U(n), I(1), U(n), slots);
}

}  // namespace ax
