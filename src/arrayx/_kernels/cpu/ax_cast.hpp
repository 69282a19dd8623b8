// Strided copy-and-cast: one 2-D kernel per (source, destination) dtype pair.
// The driver (iterate.pyx) coalesces dimensions, iterates the outer ones and hands this
// kernel 2-D blocks (cache tiles when an operand is transposed); it walks them row by row.
#pragma once
#include <limits>
#include "../ax_math.hpp"

AX_LEVEL_BEGIN

// A float to an integer type as x86-64 code compiled for its baseline computes it, which is
// what NumPy's casts give there. cvttsd2si truncates towards zero into 32 or 64 bits and answers
// NaN and out-of-range values with the most negative integer; the signed types of up to 32 bits
// and uint8/uint16 take the 32-bit conversion, int64 the 64-bit one, and uint32/uint64 the
// compilers' sequence: values from 2^31 (2^63) up are converted less 2^31 (2^63), that bit
// set back afterwards. Then the low bits. C++ leaves out-of-range conversions undefined and
// AVX-512's vcvttsd2usi answers them otherwise, so every ISA level computes them this way.
template <class I, class F>
inline I truncate_to(F f) {
    constexpr F lim = F(std::numeric_limits<I>::max()) + F(1);  // 2^31 or 2^63, exact
    return f >= -lim && f < lim ? static_cast<I>(f) : std::numeric_limits<I>::min();
}
template <class D, class F>
inline D float_to_int(F f) {
    if constexpr (sizeof(D) < 4 || (sizeof(D) == 4 && std::is_signed_v<D>)) {
        return static_cast<D>(truncate_to<int32_t>(f));
    } else if constexpr (std::is_signed_v<D>) {
        return truncate_to<int64_t>(f);
    } else {
        using I = std::make_signed_t<D>;
        constexpr F half = F(std::numeric_limits<I>::max()) + F(1);
        constexpr D top = D(1) << (8 * sizeof(D) - 1);
        if (f >= half) return static_cast<D>(static_cast<D>(truncate_to<I>(f - half)) ^ top);
        return static_cast<D>(truncate_to<I>(f));
    }
}

struct numpy_float_to_int {
    template <class D, class F> static D to(F f) { return float_to_int<D>(f); }
};
template <class D, class S>
inline D cast(S s) { return cast_via<D, S, numpy_float_to_int>(s); }

template <class S, class D>
inline void cast_row(const S* __restrict src, int64_t ss, D* __restrict dst, int64_t ds, int64_t n) {
    if (ss == 1 && ds == 1) {
        if constexpr (std::is_same_v<S, D>) {
            std::memcpy(dst, src, n * sizeof(D));
        } else {
            for (int64_t i = 0; i < n; ++i) dst[i] = cast<D>(src[i]);
        }
    } else if (ss == 0) {
        const D v = cast<D>(src[0]);
        if (ds == 1) {
            for (int64_t i = 0; i < n; ++i) dst[i] = v;
        } else {
            for (int64_t i = 0; i < n; ++i) dst[i * ds] = v;
        }
    } else {
        for (int64_t i = 0; i < n; ++i) dst[i * ds] = cast<D>(src[i * ss]);
    }
}

// dst[i, j] = src[i, j] for i < n0, j < n1; operand 0 is the source, 1 the destination.
template <class S, class D>
void cast_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const S* src = reinterpret_cast<const S*>(ptrs[0]);
    D* dst = reinterpret_cast<D*>(ptrs[1]);
    for (int64_t i = 0; i < n0; ++i) cast_row(src + i * st[0], st[1], dst + i * st[2], st[3], n1);
}

template <int SC>
struct CastRow {
    template <int DC>
    static loop2d_fn make() { return &cast_2d<T_<SC>, T_<DC>>; }
};
struct CastTable {
    loop2d_fn fn[NCODES][NCODES];
    template <int... Ss>
    void fill_rows(std::integer_sequence<int, Ss...>) { (fill_table<CastRow<Ss>>(fn[Ss]), ...); }
    CastTable() { fill_rows(std::make_integer_sequence<int, NCODES>{}); }
};

inline loop2d_fn cast_kernel(int src_code, int dst_code) {
    return table_of<CastTable>().fn[src_code][dst_code];
}

AX_LEVEL_END
