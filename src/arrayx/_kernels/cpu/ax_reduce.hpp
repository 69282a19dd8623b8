// Reductions as folds: out = op(out, x) over the reduced axes, in the accumulator dtype.
// The engine lays the output over the input's shape with stride 0 on the reduced axes, so one
// 2-D kernel serves both memory orders: when the inner axis is reduced (output inner stride 0)
// each row is folded (contiguous float sums in full-width lanes merged pairwise, strided ones
// by NumPy's blocked pairwise scheme); when the inner axis is kept, rows are accumulated into
// the output row, eight at a time (streaming, as NumPy does for axis 0 of a C-ordered array).
#pragma once
#include <algorithm>
#include <cstring>
#include <limits>
#include "ax_fold_ops.hpp"
#include "../ax_math.hpp"
#include "ax_vec.hpp"

AX_LEVEL_BEGIN

// `extreme` marks max (1) and min (-1): their contiguous rows take `extreme_run`.
struct fold_sum {
    static constexpr int extreme = 0;
    template <class A> static A identity() { return A(0); }
    template <class A> static A f(A a, A b) { return add_(a, b); }
};
struct fold_prod {
    static constexpr int extreme = 0;
    template <class A> static A identity() { return A(1); }
    template <class A> static A f(A a, A b) { return mul_(a, b); }
};
struct fold_max {
    static constexpr int extreme = 1;
    template <class A> static A identity() {
        if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
        else if constexpr (std::is_same_v<A, bool8>) return A(false);
        else return std::numeric_limits<A>::lowest();
    }
    template <class A> static A f(A a, A b) { return maximum_(a, b); }
};
struct fold_min {
    static constexpr int extreme = -1;
    template <class A> static A identity() {
        if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
        else if constexpr (std::is_same_v<A, bool8>) return A(true);
        else return std::numeric_limits<A>::max();
    }
    template <class A> static A f(A a, A b) { return minimum_(a, b); }
};

// Over p[0..i) for the largest i <= n that is a multiple of 4 vectors, in full-width lanes:
// the extreme into `acc`, false when an element is NaN. max/min keep the accumulator on ties
// and NaNs (maxpd's `x > r ? x : r`); NaNs are tracked in a mask of their own. n >= 4 vectors.
template <bool Max, class T>
bool extreme_lanes(const T* p, int64_t n, T& acc, int64_t& i) {
    using V = vec_t<T>;
    using M = decltype(V{} != V{});
    constexpr int W = vec_width<T>;
    V r[4];
    M nan = M{} != M{};
    for (int k = 0; k < 4; ++k) r[k] = vload(p + k * W);
    for (i = 0; i + 4 * W <= n; i += 4 * W) {
        for (int k = 0; k < 4; ++k) {
            const V x = vload(p + i + k * W);
            r[k] = Max ? (x > r[k] ? x : r[k]) : (x < r[k] ? x : r[k]);
            nan |= x != x;
        }
    }
    bool any = false;
    for (int j = 0; j < W; ++j) any |= nan[j] != 0;
    acc = r[0][0];
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < W; ++j) acc = Max ? maximum_(acc, r[k][j]) : minimum_(acc, r[k][j]);
    return !any;
}

// The largest (Max) or smallest element of the contiguous run p[0..n), n >= 1; NaN if any
// element is NaN.
template <bool Max, class T>
T extreme_run(const T* p, int64_t n) {
    if constexpr (std::is_same_v<T, bool8>) {
        // any (Max) and all over raw bytes, so the loop vectorises; one canonical byte out.
        const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
        uint8_t r = 0;
        if constexpr (Max) {
            for (int64_t i = 0; i < n; ++i) r |= b[i];
            return bool8(r != 0);
        } else {
            for (int64_t i = 0; i < n; ++i) r |= static_cast<uint8_t>(b[i] == 0);
            return bool8(r == 0);
        }
    }
    int64_t i = 0;
    T acc = p[0];
    if constexpr (std::is_floating_point_v<T>) {
        if (n >= 4 * vec_width<T> && !extreme_lanes<Max>(p, n, acc, i))
            return std::numeric_limits<T>::quiet_NaN();
    }
    for (; i < n; ++i) acc = Max ? maximum_(acc, p[i]) : minimum_(acc, p[i]);
    return acc;
}

// The first i in [from, n) with p[i] == v (one is there): 16 comparisons to a bit mask at a
// time, which the compiler makes one vector compare, not 16 branches.
template <class T>
int64_t first_equal(const T* p, int64_t from, int64_t n, T v) {
    int64_t i = from;
    for (; i + 16 <= n; i += 16) {
        uint32_t hits = 0;
        for (int j = 0; j < 16; ++j) hits |= static_cast<uint32_t>(p[i + j] == v) << j;
        if (hits) return i + __builtin_ctz(hits);
    }
    for (;; ++i)
        if (p[i] == v) return i;
}

// The index of the first largest (Max) or smallest element of p[0..n), n >= 1, a NaN counting
// as the extreme: blocks are reduced with `extreme_run`, and only the block holding the answer
// is scanned for its position.
template <bool Max, class T>
int64_t arg_extreme_run(const T* p, int64_t n) {
    constexpr int64_t B = 1024;
    T best = p[0];
    int64_t block = 0;
    for (int64_t b = 0; b < n; b += B) {
        const int64_t m = std::min(B, n - b);
        const T e = extreme_run<Max>(p + b, m);
        if (is_nan(e)) {
            for (int64_t i = b;; ++i)
                if (is_nan(p[i])) return i;
        }
        if (Max ? e > best : e < best) {
            best = e;
            block = b;
        }
    }
    return first_equal(p, block, n, best);
}

template <class T>
void argextreme_rows(const char* data, int64_t* out, int64_t rows, int64_t n, bool want_max) {
    for (int64_t r = 0; r < rows; ++r) {
        const T* row = reinterpret_cast<const T*>(data) + r * n;
        out[r] = want_max ? arg_extreme_run<true>(row, n) : arg_extreme_run<false>(row, n);
    }
}

constexpr int64_t PAIRWISE_BLOCK = 128;

// Elements as they are read, or mapped first (var's squared deviations from a centre).
struct as_read {
    template <class A> A operator()(A x) const { return x; }
};
template <class A> struct squared_deviation {
    A centre;
    template <class X> X operator()(X x) const { const X d = x - centre; return d * d; }
};

// Sums and products of a contiguous run fold in full-width lanes: blocks of 8 * fold_unroll
// vectors go through fold_unroll vectors of independent accumulators (each lane adds 8
// elements of a block), and the blocks' vectors are combined pairwise, as a binary counter
// merges them: a float sum's rounding error grows with the logarithm of the length, as NumPy's
// pairwise sum's does, and the lanes are summed only once, at the end.
// Four accumulator vectors of up to 32 bytes, two of AVX-512's 64: with four zmm accumulators
// (2 KB blocks) a float64 sum read memory at two thirds of the rate it reaches with two.
template <class A>
inline constexpr int fold_unroll = sizeof(vec_t<A>) >= 64 ? 2 : 4;
template <class Op, class A>
inline constexpr bool fold_in_lanes =
    (std::is_floating_point_v<A> || std::is_integral_v<A>) && Op::extreme == 0;

template <class Op, class A, class Map>
A fold_lanes(const A* p, int64_t n, Map m) {
    using V = vec_t<A>;
    constexpr int U = fold_unroll<A>, W = vec_width<A>, L = U * W;
    constexpr int64_t B = 8 * L;
    V stack[64];
    int top = 0;
    uint64_t count = 0;
    int64_t i = 0;
    for (; i + B <= n; i += B) {
        V r[U];
        for (int k = 0; k < U; ++k) r[k] = m(vload(p + i + k * W));
        for (int64_t j = L; j < B; j += L)
            for (int k = 0; k < U; ++k) r[k] = Op::f(r[k], m(vload(p + i + j + k * W)));
        for (int w = U / 2; w >= 1; w /= 2)
            for (int k = 0; k < w; ++k) r[k] = Op::f(r[k], r[k + w]);
        V s = r[0];
        for (uint64_t c = count; c & 1; c >>= 1) s = Op::f(stack[--top], s);
        stack[top++] = s;
        ++count;
    }
    V rest = V{} + Op::template identity<A>();
    for (; i + W <= n; i += W) rest = Op::f(rest, m(vload(p + i)));
    V total = rest;
    while (top > 0) total = Op::f(stack[--top], total);
    A lanes[W];
    std::memcpy(lanes, &total, sizeof lanes);
    for (int w = W / 2; w >= 1; w /= 2)
        for (int k = 0; k < w; ++k) lanes[k] = Op::f(lanes[k], lanes[k + w]);
    A acc = lanes[0];
    for (; i < n; ++i) acc = Op::f(acc, m(p[i]));
    return acc;
}

template <class Op, class A, class Map>
A fold_pairwise(const A* p, int64_t s, int64_t n, Map m);

// Float and complex products fold strictly in order, as NumPy's do: regrouped, a run such as
// [0, 5, 5, ...] can overflow one group to inf while another holds the 0, and 0 * inf is NaN
// where the product in order stays 0. `fold_2d` carries each output's running product through
// its rows (the chunks of a cast input, the rows of a fold over several axes), not a product
// per row multiplied in.
template <class Op, class A>
inline constexpr bool fold_in_order =
    std::is_same_v<Op, fold_prod> && !std::is_integral_v<A> && !std::is_same_v<A, bool8>;

// The fold of the run p[0], p[s], ..., p[(n - 1) s], each element mapped by m first.
template <class Op, class A, class Map = as_read>
A fold_row(const A* p, int64_t s, int64_t n, Map m = {}) {
    if constexpr (std::is_integral_v<A> || std::is_same_v<A, bool8>) {
        // Integer folds are exact in any order: integer sums and products wrap, so they run
        // in lanes of the unsigned type; the rest go one accumulator, in order.
        if constexpr (fold_in_lanes<Op, A>) {
            using U = std::make_unsigned_t<A>;
            if (s == 1 && n >= fold_unroll<U> * vec_width<U>)
                return static_cast<A>(fold_lanes<Op, U>(reinterpret_cast<const U*>(p), n, m));
        }
        A acc = Op::template identity<A>();
        for (int64_t i = 0; i < n; ++i) acc = Op::f(acc, m(p[i * s]));
        return acc;
    } else {
        if constexpr (fold_in_lanes<Op, A>) {
            if (s == 1 && n >= fold_unroll<A> * vec_width<A>) return fold_lanes<Op, A>(p, n, m);
        }
        return fold_pairwise<Op, A>(p, s, n, m);
    }
}

// NumPy's blocked pairwise scheme for float and complex runs: eight accumulators over blocks
// of PAIRWISE_BLOCK elements, the blocks combined pairwise.
template <class Op, class A, class Map>
A fold_pairwise(const A* p, int64_t s, int64_t n, Map m) {
    if (n < 8) {
        A acc = Op::template identity<A>();
        for (int64_t i = 0; i < n; ++i) acc = Op::f(acc, m(p[i * s]));
        return acc;
    }
    if (n <= PAIRWISE_BLOCK) {
        A r[8];
        for (int k = 0; k < 8; ++k) r[k] = m(p[k * s]);
        int64_t i = 8;
        if (s == 1) {
            for (; i + 8 <= n; i += 8)
                for (int k = 0; k < 8; ++k) r[k] = Op::f(r[k], m(p[i + k]));
        } else {
            for (; i + 8 <= n; i += 8)
                for (int k = 0; k < 8; ++k) r[k] = Op::f(r[k], m(p[(i + k) * s]));
        }
        A acc = Op::f(Op::f(Op::f(r[0], r[1]), Op::f(r[2], r[3])),
                      Op::f(Op::f(r[4], r[5]), Op::f(r[6], r[7])));
        for (; i < n; ++i) acc = Op::f(acc, m(p[i * s]));
        return acc;
    }
    int64_t half = (n / 2) - ((n / 2) % 8);
    return Op::f(fold_pairwise<Op, A>(p, s, half, m),
                 fold_pairwise<Op, A>(p + half * s, s, n - half, m));
}

// Operand 0 is the input, operand 1 the output (stride 0 along the reduced axes).
template <class Op, class A>
void fold_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const A* in = reinterpret_cast<const A*>(ptrs[0]);
    A* out = reinterpret_cast<A*>(ptrs[1]);
    if (st[3] == 0) {
        for (int64_t i = 0; i < n0; ++i) {
            A* o = out + i * st[2];
            if constexpr (Op::extreme != 0) {
                if (st[1] == 1) {
                    *o = Op::f(*o, extreme_run<(Op::extreme > 0)>(in + i * st[0], n1));
                    continue;
                }
            }
            if constexpr (fold_in_order<Op, A>) {
                const A* p = in + i * st[0];
                A acc = *o;
                for (int64_t j = 0; j < n1; ++j) acc = Op::f(acc, p[j * st[1]]);
                *o = acc;
                continue;
            }
            *o = Op::f(*o, fold_row<Op, A>(in + i * st[0], st[1], n1));
        }
        return;
    }
    int64_t i = 0;
    if (st[1] == 1 && st[3] == 1 && st[2] == 0 && !fold_in_order<Op, A>) {
        // Rows folded into one output row eight at a time (pairwise among the eight): an
        // eighth of the output traffic.
        for (; i + 8 <= n0; i += 8) {
            const A* r[8];
            for (int k = 0; k < 8; ++k) r[k] = in + (i + k) * st[0];
            for (int64_t j = 0; j < n1; ++j)
                out[j] = Op::f(out[j], Op::f(Op::f(Op::f(r[0][j], r[1][j]), Op::f(r[2][j], r[3][j])),
                                             Op::f(Op::f(r[4][j], r[5][j]), Op::f(r[6][j], r[7][j]))));
        }
    }
    for (; i < n0; ++i) {
        const A* row = in + i * st[0];
        A* o = out + i * st[2];
        if (st[1] == 1 && st[3] == 1) {
            for (int64_t j = 0; j < n1; ++j) o[j] = Op::f(o[j], row[j]);
        } else {
            for (int64_t j = 0; j < n1; ++j) o[j * st[3]] = Op::f(o[j * st[3]], row[j * st[1]]);
        }
    }
}

// out += (x - centre)^2 over the reduced axes: operand 0 the input, operand 1 the centre and
// operand 2 the output (both with stride 0 along the reduced axes). Rows along a reduced inner
// axis are summed pairwise; with the inner axis kept, rows accumulate into the output row.
template <class A>
void squared_deviations_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const A* in = reinterpret_cast<const A*>(ptrs[0]);
    const A* c = reinterpret_cast<const A*>(ptrs[1]);
    A* out = reinterpret_cast<A*>(ptrs[2]);
    int64_t i = 0;
    if (st[1] == 1 && st[3] == 1 && st[5] == 1 && st[2] == 0 && st[4] == 0) {
        // Rows into one output row (and one centre row) four at a time.
        for (; i + 4 <= n0; i += 4) {
            const A* r[4];
            for (int k = 0; k < 4; ++k) r[k] = in + (i + k) * st[0];
            for (int64_t j = 0; j < n1; ++j) {
                const A d0 = r[0][j] - c[j], d1 = r[1][j] - c[j];
                const A d2 = r[2][j] - c[j], d3 = r[3][j] - c[j];
                out[j] += (d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3);
            }
        }
    }
    for (; i < n0; ++i) {
        const A* row = in + i * st[0];
        const A* ci = c + i * st[2];
        A* o = out + i * st[4];
        if (st[5] == 0) {
            *o += fold_row<fold_sum, A>(row, st[1], n1, squared_deviation<A>{*ci});
        } else if (st[1] == 1 && st[3] == 1 && st[5] == 1) {
            for (int64_t j = 0; j < n1; ++j) {
                const A d = row[j] - ci[j];
                o[j] += d * d;
            }
        } else {
            for (int64_t j = 0; j < n1; ++j) {
                const A d = row[j * st[1]] - ci[j * st[3]];
                o[j * st[5]] += d * d;
            }
        }
    }
}
inline loop2d_fn squared_deviations_kernel(int code) {
    if (code == FLOAT32) return &squared_deviations_2d<float>;
    if (code == FLOAT64) return &squared_deviations_2d<double>;
    return nullptr;
}

// The dot product of two contiguous runs of n real floats, in four vector accumulators.
template <class A> A dot_lanes(const A* x, const A* y, int64_t n) {
    using V = vec_t<A>;
    constexpr int W = vec_width<A>;
    V r[4] = {};
    int64_t j = 0;
    for (; j + 4 * W <= n; j += 4 * W)
        for (int k = 0; k < 4; ++k) r[k] += vload(x + j + k * W) * vload(y + j + k * W);
    for (; j + W <= n; j += W) r[0] += vload(x + j) * vload(y + j);
    const V t = (r[0] + r[1]) + (r[2] + r[3]);
    A lanes[W];
    std::memcpy(lanes, &t, sizeof lanes);
    for (int w = W / 2; w >= 1; w /= 2)
        for (int k = 0; k < w; ++k) lanes[k] += lanes[k + w];
    A total = lanes[0];
    for (; j < n; ++j) total += x[j] * y[j];
    return total;
}

// out += x * y over the reduced axes: operands 0 and 1 the factors, operand 2 the output
// (stride 0 along the reduced axes). A reduced inner axis is a dot product of two rows (in
// vector lanes for contiguous real rows); a kept inner axis accumulates into the output row.
template <class A>
void products_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const A* x = reinterpret_cast<const A*>(ptrs[0]);
    const A* y = reinterpret_cast<const A*>(ptrs[1]);
    A* out = reinterpret_cast<A*>(ptrs[2]);
    for (int64_t i = 0; i < n0; ++i) {
        const A* xr = x + i * st[0];
        const A* yr = y + i * st[2];
        A* o = out + i * st[4];
        if (st[5] != 0) {
            for (int64_t j = 0; j < n1; ++j) o[j * st[5]] += xr[j * st[1]] * yr[j * st[3]];
            continue;
        }
        if constexpr (std::is_floating_point_v<A>) {
            if (st[1] == 1 && st[3] == 1) {
                *o += dot_lanes(xr, yr, n1);
                continue;
            }
        }
        A total = A(0);
        for (int64_t j = 0; j < n1; ++j) total += xr[j * st[1]] * yr[j * st[3]];
        *o += total;
    }
}
struct ProductsMaker {
    template <int C> static loop2d_fn make() { return &products_2d<T_<C>>; }
};
inline loop2d_fn products_kernel(int code) { return float_kernel<ProductsMaker>(code); }

// Scans: out[j] = op(start, in[0], ..., in[j]) along one run (without start, from in[0]),
// and the plain left-to-right fold of a run (the total a parallel scan's later ranges start
// from). Both go element by element, as a running sum does. A float run starts from in[0]
// itself, not from op's identity: +0.0 + -0.0 is +0.0, and NumPy's cumsum keeps a first -0.0.
// (Others start from op(identity, in[0]): a bool byte other than 0 and 1 comes out as 1.)
template <class Op, class A> inline A scan_first(A x) {
    if constexpr (std::is_floating_point_v<A> || is_complex_v<A>) return x;
    else return Op::f(Op::template identity<A>(), x);
}
template <class Op, class A>
void scan_run(const char* in_, int64_t n, int64_t s, char* out_, const char* start) {
    const A* in = reinterpret_cast<const A*>(in_);
    A* out = reinterpret_cast<A*>(out_);
    if (n <= 0) return;
    A acc = start ? Op::f(*reinterpret_cast<const A*>(start), in[0])
                  : scan_first<Op>(in[0]);
    out[0] = acc;
    if (s == 1) {
        for (int64_t j = 1; j < n; ++j) out[j] = acc = Op::f(acc, in[j]);
    } else {
        for (int64_t j = 1; j < n; ++j) out[j] = acc = Op::f(acc, in[j * s]);
    }
}
template <class Op, class A>
void total_run(const char* in_, int64_t n, int64_t s, char* out) {
    const A* in = reinterpret_cast<const A*>(in_);
    A acc = n > 0 ? scan_first<Op>(in[0]) : Op::template identity<A>();
    for (int64_t j = 1; j < n; ++j) acc = Op::f(acc, in[j * s]);
    *reinterpret_cast<A*>(out) = acc;
}
template <class Op> struct Scan {
    template <int C> static scan_fn make() { return &scan_run<Op, T_<C>>; }
};
template <class Op> struct Total {
    template <int C> static total_fn make() { return &total_run<Op, T_<C>>; }
};

// out = op's identity, for every element of a C-contiguous buffer of n elements.
template <class Op, class A>
void fold_init(char* out, int64_t n) {
    A* o = reinterpret_cast<A*>(out);
    const A v = Op::template identity<A>();
    for (int64_t i = 0; i < n; ++i) o[i] = v;
}

template <class Op> struct Fold {
    template <int C> static loop2d_fn make() { return &fold_2d<Op, T_<C>>; }
};
template <class Op> struct FoldInit {
    template <int C> static fold_init_fn make() { return &fold_init<Op, T_<C>>; }
};


// Filled from ops.py's REDUCE and SCAN (ax_fold_ops.hpp).
struct FoldTables {
    loop2d_fn fn[NFOLDS][NCODES];
    fold_init_fn init[NFOLDS][NCODES];
    scan_fn scan[NSCANS][NCODES];
    total_fn total[NSCANS][NCODES];
    FoldTables() {
#define AX_FILL_FOLD(id, Op, kinds)                        \
        fill_table<OfKinds<kinds, Fold<Op>>>(fn[id]);      \
        fill_table<OfKinds<kinds, FoldInit<Op>>>(init[id]);
#define AX_FILL_SCAN(id, Op, kinds)                        \
        fill_table<OfKinds<kinds, Scan<Op>>>(scan[id]);    \
        fill_table<OfKinds<kinds, Total<Op>>>(total[id]);
        AX_FOLDS(AX_FILL_FOLD)
        AX_SCANS(AX_FILL_SCAN)
#undef AX_FILL_FOLD
#undef AX_FILL_SCAN
    }
};

inline loop2d_fn fold_kernel(int op, int code) { return table_of<FoldTables>().fn[op][code]; }
// Scans share their fold's op id (FOLD_SUM, FOLD_PROD).
inline scan_fn scan_kernel(int op, int code) { return table_of<FoldTables>().scan[op][code]; }
inline total_fn total_kernel(int op, int code) { return table_of<FoldTables>().total[op][code]; }
struct ArgExtreme {
    template <int C> static argextreme_fn make() { return &argextreme_rows<T_<C>>; }
};
struct ArgExtremeTable {
    argextreme_fn fn[NCODES];
    ArgExtremeTable() { fill_table<OfKinds<ARG_REDUCE_KINDS, ArgExtreme>>(fn); }
};
inline argextreme_fn argextreme_kernel(int code) { return table_of<ArgExtremeTable>().fn[code]; }
inline fold_init_fn fold_init_kernel(int op, int code) {
    return table_of<FoldTables>().init[op][code];
}

AX_LEVEL_END
