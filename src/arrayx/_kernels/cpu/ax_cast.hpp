// Strided copy-and-cast: one 2-D kernel per (source, destination) dtype pair.
// The driver (iterate.pyx) coalesces dimensions, iterates the outer ones and hands this
// kernel 2-D blocks (cache tiles when an operand is transposed); it walks them row by row.
#pragma once
#include "ax_types.hpp"

AX_LEVEL_BEGIN

// A float to an integer type as x86-64 code compiled for its baseline computes it, which is
// what NumPy's casts give there: truncated towards zero into an int32 for the signed types of
// up to 32 bits and for uint8/uint16 (cvttsd2si, whose answer for NaN and out-of-range values
// is INT32_MIN), into an int64 for int64 and uint32 (INT64_MIN when out of range), with values
// from 2^63 up reaching uint64 through the subtraction compilers emit (0 from 2^64); then the
// low bits.
// C++ leaves out-of-range conversions undefined and AVX-512's vcvttsd2usi answers them
// otherwise, so every ISA level computes them this way, with one answer.
template <class D, class F>
inline D float_to_int(F f) {
    if constexpr (sizeof(D) < 4 || (sizeof(D) == 4 && std::is_signed_v<D>)) {
        const bool in = f > F(-2147483649.0) && f < F(2147483648.0);
        return static_cast<D>(in ? static_cast<int32_t>(f) : INT32_MIN);
    } else {
        constexpr F two63 = F(9223372036854775808.0);
        uint64_t bits = uint64_t(1) << 63;
        if (f >= -two63 && f < two63)
            bits = static_cast<uint64_t>(static_cast<int64_t>(f));
        else if (std::is_same_v<D, uint64_t> && f >= two63)
            bits = f < 2 * two63
                ? static_cast<uint64_t>(static_cast<int64_t>(f - two63)) ^ (uint64_t(1) << 63)
                : 0;
        return static_cast<D>(bits);
    }
}

template <class D, class S>
inline D cast(S s) {
    if constexpr (std::is_same_v<D, S>) {
        return s;
    } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
        return float_to_int<D>(s);
    } else if constexpr (is_complex_v<S> && std::is_integral_v<D>) {
        return float_to_int<D>(s.real());
    } else if constexpr (is_complex_v<S>) {
        if constexpr (std::is_same_v<D, bool8>) {
            return s.real() != 0 || s.imag() != 0;
        } else if constexpr (is_complex_v<D>) {
            using V = typename D::value_type;
            return D(static_cast<V>(s.real()), static_cast<V>(s.imag()));
        } else {
            return static_cast<D>(s.real());
        }
    } else if constexpr (is_complex_v<D>) {
        using V = typename D::value_type;
        return D(static_cast<V>(s), V(0));
    } else {
        return static_cast<D>(s);
    }
}

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
    static const CastTable table;
    return table.fn[src_code][dst_code];
}

AX_LEVEL_END
