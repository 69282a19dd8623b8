// Strided copy-and-cast: one 2-D kernel per (source, destination) dtype pair.
// The caller (copy.pyx) coalesces dimensions and iterates the outer ones; this kernel gets
// a 2-D block with element strides and walks it row by row, in cache tiles when the two
// operands disagree on which axis is contiguous (a transposed copy).
#pragma once
#include "ax_types.hpp"

namespace ax {

template <class D, class S>
inline D cast(S s) {
    if constexpr (std::is_same_v<D, S>) {
        return s;
    } else if constexpr (is_complex_v<S>) {
        if constexpr (std::is_same_v<D, bool>) {
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

constexpr int64_t TILE = 64;

// dst[i, j] = src[i, j] for i < n0, j < n1; operand 0 is the source, 1 the destination.
template <class S, class D>
void cast_2d(char** ptrs, const int64_t* st, int64_t n0, int64_t n1) {
    const S* src = reinterpret_cast<const S*>(ptrs[0]);
    D* dst = reinterpret_cast<D*>(ptrs[1]);
    const int64_t ss[2] = {st[0], st[1]};
    const int64_t ds[2] = {st[2], st[3]};
    const bool transposed = n0 > 1 && n1 >= TILE && n0 >= TILE &&
        ((ss[1] != 1 && ss[0] == 1) || (ds[1] != 1 && ds[0] == 1));
    if (!transposed) {
        for (int64_t i = 0; i < n0; ++i) cast_row(src + i * ss[0], ss[1], dst + i * ds[0], ds[1], n1);
        return;
    }
    for (int64_t i0 = 0; i0 < n0; i0 += TILE) {
        const int64_t i1 = i0 + TILE < n0 ? i0 + TILE : n0;
        for (int64_t j0 = 0; j0 < n1; j0 += TILE) {
            const int64_t j1 = j0 + TILE < n1 ? j0 + TILE : n1;
            for (int64_t i = i0; i < i1; ++i) {
                const S* s = src + i * ss[0];
                D* d = dst + i * ds[0];
                for (int64_t j = j0; j < j1; ++j) d[j * ds[1]] = cast<D>(s[j * ss[1]]);
            }
        }
    }
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

}  // namespace ax
