// Reductions as folds: out = op(out, x) over the reduced axes, in the accumulator dtype.
// The engine lays the output over the input's shape with stride 0 on the reduced axes, so one
// 2-D kernel serves both memory orders: when the inner axis is reduced (output inner stride 0)
// each row is folded pairwise (NumPy's blocked pairwise scheme: accurate float sums, and eight
// independent accumulators the compiler vectorises); when the inner axis is kept, rows are
// accumulated into the output row (streaming, as NumPy does for axis 0 of a C-ordered array).
#pragma once
#include <limits>
#include "ax_math.hpp"

namespace ax {

struct fold_sum {
    template <class A> static A identity() { return A(0); }
    template <class A> static A f(A a, A b) { return a + b; }
};
struct fold_prod {
    template <class A> static A identity() { return A(1); }
    template <class A> static A f(A a, A b) { return a * b; }
};
struct fold_max {
    template <class A> static A identity() {
        if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
        else return std::numeric_limits<A>::lowest();
    }
    template <class A> static A f(A a, A b) { return maximum_(a, b); }
};
struct fold_min {
    template <class A> static A identity() {
        if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
        else return std::numeric_limits<A>::max();
    }
    template <class A> static A f(A a, A b) { return minimum_(a, b); }
};

constexpr int64_t PAIRWISE_BLOCK = 128;

template <class Op, class A>
A fold_row(const A* p, int64_t s, int64_t n) {
    if (n < 8) {
        A acc = Op::template identity<A>();
        for (int64_t i = 0; i < n; ++i) acc = Op::f(acc, p[i * s]);
        return acc;
    }
    if (n <= PAIRWISE_BLOCK) {
        A r[8];
        for (int k = 0; k < 8; ++k) r[k] = p[k * s];
        int64_t i = 8;
        if (s == 1) {
            for (; i + 8 <= n; i += 8)
                for (int k = 0; k < 8; ++k) r[k] = Op::f(r[k], p[i + k]);
        } else {
            for (; i + 8 <= n; i += 8)
                for (int k = 0; k < 8; ++k) r[k] = Op::f(r[k], p[(i + k) * s]);
        }
        A acc = Op::f(Op::f(Op::f(r[0], r[1]), Op::f(r[2], r[3])),
                      Op::f(Op::f(r[4], r[5]), Op::f(r[6], r[7])));
        for (; i < n; ++i) acc = Op::f(acc, p[i * s]);
        return acc;
    }
    int64_t half = (n / 2) - ((n / 2) % 8);
    return Op::f(fold_row<Op, A>(p, s, half), fold_row<Op, A>(p + half * s, s, n - half));
}

// Operand 0 is the input, operand 1 the output (stride 0 along the reduced axes).
template <class Op, class A>
void fold_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const A* in = reinterpret_cast<const A*>(ptrs[0]);
    A* out = reinterpret_cast<A*>(ptrs[1]);
    if (st[3] == 0) {
        for (int64_t i = 0; i < n0; ++i) {
            A* o = out + i * st[2];
            *o = Op::f(*o, fold_row<Op, A>(in + i * st[0], st[1], n1));
        }
        return;
    }
    for (int64_t i = 0; i < n0; ++i) {
        const A* row = in + i * st[0];
        A* o = out + i * st[2];
        if (st[1] == 1 && st[3] == 1) {
            for (int64_t j = 0; j < n1; ++j) o[j] = Op::f(o[j], row[j]);
        } else {
            for (int64_t j = 0; j < n1; ++j) o[j * st[3]] = Op::f(o[j * st[3]], row[j * st[1]]);
        }
    }
}

// out = op's identity, for every element of a C-contiguous buffer of n elements.
template <class Op, class A>
void fold_init(char* out, int64_t n) {
    A* o = reinterpret_cast<A*>(out);
    const A v = Op::template identity<A>();
    for (int64_t i = 0; i < n; ++i) o[i] = v;
}

using fold_init_fn = void (*)(char*, int64_t);

template <class Op, unsigned Kinds>
struct FoldMaker {
    template <int C>
    static loop2d_fn make() {
        if constexpr ((Kinds >> C) & 1u) return &fold_2d<Op, T_<C>>;
        else return nullptr;
    }
};
template <class Op, unsigned Kinds>
struct FoldInitMaker {
    template <int C>
    static fold_init_fn make() {
        if constexpr ((Kinds >> C) & 1u) return &fold_init<Op, T_<C>>;
        else return nullptr;
    }
};

enum FoldOp { FOLD_SUM = 0, FOLD_PROD, FOLD_MAX, FOLD_MIN, NFOLDS };

struct FoldTables {
    loop2d_fn fn[NFOLDS][NCODES];
    fold_init_fn init[NFOLDS][NCODES];
    FoldTables() {
        fill_table<FoldMaker<fold_sum, K_NUMERIC>>(fn[FOLD_SUM]);
        fill_table<FoldMaker<fold_prod, K_NUMERIC>>(fn[FOLD_PROD]);
        // Over bool, max is "any" and min is "all".
        fill_table<FoldMaker<fold_max, K_REAL | K_BOOL>>(fn[FOLD_MAX]);
        fill_table<FoldMaker<fold_min, K_REAL | K_BOOL>>(fn[FOLD_MIN]);
        fill_table<FoldInitMaker<fold_sum, K_NUMERIC>>(init[FOLD_SUM]);
        fill_table<FoldInitMaker<fold_prod, K_NUMERIC>>(init[FOLD_PROD]);
        fill_table<FoldInitMaker<fold_max, K_REAL | K_BOOL>>(init[FOLD_MAX]);
        fill_table<FoldInitMaker<fold_min, K_REAL | K_BOOL>>(init[FOLD_MIN]);
    }
};

inline const FoldTables& fold_tables() {
    static const FoldTables t;
    return t;
}
inline loop2d_fn fold_kernel(int op, int code) { return fold_tables().fn[op][code]; }
inline fold_init_fn fold_init_kernel(int op, int code) { return fold_tables().init[op][code]; }

}  // namespace ax
