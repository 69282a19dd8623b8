// Elementwise loop templates: one unary and one binary 2-D kernel, instantiated per op (a
// functor generated from ops.py) and per dtype. Operands are inputs first, output last.
// Contiguous and scalar-operand rows get their own loops so the compiler vectorises them.
#pragma once
#include "ax_cast.hpp"
#include "../ax_math.hpp"
#include "ax_vector_math.hpp"

AX_LEVEL_BEGIN

enum Result { R_SAME, R_BOOL, R_REAL };

template <class T, int R> struct result_of { using type = T; };
template <class T> struct result_of<T, R_BOOL> { using type = bool; };
template <class T> struct result_of<T, R_REAL> { using type = real_t<T>; };

template <class Op, class T, class R>
void unary_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    for (int64_t i = 0; i < n0; ++i) {
        const T* __restrict a = reinterpret_cast<const T*>(ptrs[0]) + i * st[0];
        R* __restrict o = reinterpret_cast<R*>(ptrs[1]) + i * st[2];
        const int64_t sa = st[1], so = st[3];
        if (sa == 1 && so == 1) {
#ifdef AX_MVEC
            if constexpr (vector_math<Op, T>::available && std::is_same_v<T, R>) {
                vector_map1<Op, T>(a, o, n1);
                continue;
            }
#endif
            for (int64_t j = 0; j < n1; ++j) o[j] = static_cast<R>(Op::f(a[j]));
        } else {
            for (int64_t j = 0; j < n1; ++j) o[j * so] = static_cast<R>(Op::f(a[j * sa]));
        }
    }
}

template <class Op, class T, class R>
void binary_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    for (int64_t i = 0; i < n0; ++i) {
        const T* a = reinterpret_cast<const T*>(ptrs[0]) + i * st[0];
        const T* b = reinterpret_cast<const T*>(ptrs[1]) + i * st[2];
        R* o = reinterpret_cast<R*>(ptrs[2]) + i * st[4];
        const int64_t sa = st[1], sb = st[3], so = st[5];
#ifdef AX_MVEC
        if constexpr (vector_math<Op, T>::available && std::is_same_v<T, R>) {
            if (so == 1 && (sa == 0 || sa == 1) && (sb == 0 || sb == 1)) {
                vector_map2<Op, T>(a, sa, b, sb, o, n1);
                continue;
            }
        }
#endif
        if (sa == 1 && sb == 1 && so == 1) {
            for (int64_t j = 0; j < n1; ++j) o[j] = static_cast<R>(Op::f(a[j], b[j]));
        } else if (sa == 0 && sb == 1 && so == 1) {
            const T av = a[0];
            for (int64_t j = 0; j < n1; ++j) o[j] = static_cast<R>(Op::f(av, b[j]));
        } else if (sa == 1 && sb == 0 && so == 1) {
            const T bv = b[0];
            for (int64_t j = 0; j < n1; ++j) o[j] = static_cast<R>(Op::f(a[j], bv));
        } else {
            for (int64_t j = 0; j < n1; ++j)
                o[j * so] = static_cast<R>(Op::f(a[j * sa], b[j * sb]));
        }
    }
}

// One row of where: both values read, then one kept. A select, not a branch: a random
// condition mispredicts half of a branch's outcomes (3.5 ns an element at 10^5 float64,
// NumPy's time too), and a select vectorizes. SX and SY are the value strides the compiler
// knows (1, or 0 for a broadcast scalar), -1 where they are read at run time.
template <class T, int SX, int SY>
inline void where_row(const bool8* c, const T* x, const T* y, T* o, int64_t n, int64_t sc,
                      int64_t sx, int64_t sy, int64_t so) {
    if constexpr (SX >= 0) sx = SX;
    if constexpr (SY >= 0) sy = SY;
    for (int64_t j = 0; j < n; ++j) {
        const T a = x[j * sx], b = y[j * sy];
        // A compiler selects scalars, not structs: complex parts and bool bytes one by one.
        if constexpr (is_complex_v<T>) {
            const bool k = c[j * sc];
            o[j * so] = T(k ? a.real() : b.real(), k ? a.imag() : b.imag());
        } else if constexpr (is_boolean_v<T>) {
            o[j * so].v = c[j * sc] ? a.v : b.v;
        } else {
            o[j * so] = c[j * sc] ? a : b;
        }
    }
}

// out = cond ? x : y, with cond bool and x, y, out of one dtype.
template <class T>
void where_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    for (int64_t i = 0; i < n0; ++i) {
        const bool8* c = reinterpret_cast<const bool8*>(ptrs[0]) + i * st[0];
        const T* x = reinterpret_cast<const T*>(ptrs[1]) + i * st[2];
        const T* y = reinterpret_cast<const T*>(ptrs[2]) + i * st[4];
        T* o = reinterpret_cast<T*>(ptrs[3]) + i * st[6];
        const int64_t sc = st[1], sx = st[3], sy = st[5], so = st[7];
        if (sc == 1 && so == 1 && sx == 1 && sy == 1) {
            where_row<T, 1, 1>(c, x, y, o, n1, 1, 1, 1, 1);
        } else if (sc == 1 && so == 1 && sx == 1 && sy == 0) {
            where_row<T, 1, 0>(c, x, y, o, n1, 1, 1, 0, 1);
        } else if (sc == 1 && so == 1 && sx == 0 && sy == 1) {
            where_row<T, 0, 1>(c, x, y, o, n1, 1, 0, 1, 1);
        } else {
            where_row<T, -1, -1>(c, x, y, o, n1, sc, sx, sy, so);
        }
    }
}

// The makers of the op tables (ax_ops.hpp): an op's kernel for the codes of its kinds.
template <class Op, int Res>
struct Unary {
    template <int C>
    static loop2d_fn make() {
        return &unary_2d<Op, T_<C>, typename result_of<T_<C>, Res>::type>;
    }
};
template <class Op, int Res>
struct Binary {
    template <int C>
    static loop2d_fn make() {
        return &binary_2d<Op, T_<C>, typename result_of<T_<C>, Res>::type>;
    }
};
template <class Op, unsigned Kinds, int Res>
using UnaryMaker = OfKinds<Kinds, Unary<Op, Res>>;
template <class Op, unsigned Kinds, int Res>
using BinaryMaker = OfKinds<Kinds, Binary<Op, Res>>;

struct WhereMaker {
    template <int C>
    static loop2d_fn make() { return &where_2d<T_<C>>; }
};

inline loop2d_fn where_kernel(int code) {
    static const struct W { loop2d_fn fn[NCODES]; W() { fill_table<WhereMaker>(fn); } } t;
    return t.fn[code];
}

template <int N>
struct KernelTable { loop2d_fn fn[N][NCODES]; };

AX_LEVEL_END
