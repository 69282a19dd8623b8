// Cache-blocked matrix product for the dtypes BLAS does not cover (bool and the integers) and
// for floating-point products too small for a BLAS call to pay.
//
// c (m x n, rows n elements apart) += a (m x k, strides as0/as1) @ b (k x n, row stride bs0,
// unit column stride). Integers wrap modulo 2^bits as NumPy's do: signed products accumulate
// in the unsigned type of the same width (no signed overflow), narrow ones in `unsigned`.
// bool is logical: c[i, j] = any_p(a[i, p] and b[p, j]) (bool8 sums stay 0 or 1).
#pragma once
#include <algorithm>
#include <type_traits>

#include "ax_types.hpp"

namespace ax {

template <class T> struct mm_unsigned { using type = std::make_unsigned_t<T>; };

template <class T, bool = std::is_integral_v<T>>
struct mm_types {
    using acc = T;   // how c is stored while accumulating
    using wide = T;  // the arithmetic type of one multiply-add
};
template <class T>
struct mm_types<T, true> {
    using acc = typename mm_unsigned<T>::type;
    using wide = std::conditional_t<(sizeof(acc) < sizeof(unsigned)), unsigned, acc>;
};

using matmul_fn = void (*)(const char* a, int64_t as0, int64_t as1, const char* b, int64_t bs0,
                           char* c, int64_t m, int64_t n, int64_t k);

template <class T>
void matmul_rows(const char* a, int64_t as0, int64_t as1, const char* b, int64_t bs0, char* c,
                 int64_t m, int64_t n, int64_t k) {
    using A = typename mm_types<T>::acc;
    using W = typename mm_types<T>::wide;
    constexpr int64_t NB = 512;  // columns of b per panel
    constexpr int64_t KB = 128;  // rows of b per panel: a KB x NB panel stays in L2
    const T* ap = reinterpret_cast<const T*>(a);
    const T* bp = reinterpret_cast<const T*>(b);
    A* cp = reinterpret_cast<A*>(c);
    for (int64_t j0 = 0; j0 < n; j0 += NB) {
        const int64_t nb = std::min(NB, n - j0);
        for (int64_t p0 = 0; p0 < k; p0 += KB) {
            const int64_t kb = std::min(KB, k - p0);
            for (int64_t i = 0; i < m; ++i) {
                A* __restrict crow = cp + i * n + j0;
                const T* arow = ap + i * as0 + p0 * as1;
                for (int64_t p = 0; p < kb; ++p) {
                    const W av = static_cast<W>(static_cast<A>(arow[p * as1]));
                    const T* __restrict brow = bp + (p0 + p) * bs0 + j0;
                    for (int64_t j = 0; j < nb; ++j)
                        crow[j] = static_cast<A>(static_cast<W>(crow[j]) +
                                                 av * static_cast<W>(static_cast<A>(brow[j])));
                }
            }
        }
    }
}

// c (n x n, C-ordered) holds one triangle of a symmetric product; copy it onto the other:
// `from_lower` copies c[i, j] (i > j) to c[j, i], else the reverse. Tiles of 64 x 64 keep
// both the rows read and the columns written in cache.
template <class T>
void mirror_triangle(char* c_, int64_t n, bool from_lower) {
    T* c = reinterpret_cast<T*>(c_);
    constexpr int64_t B = 64;
    for (int64_t i0 = 0; i0 < n; i0 += B) {
        for (int64_t j0 = 0; j0 <= i0; j0 += B) {
            const int64_t i1 = std::min(n, i0 + B), j1 = std::min(n, j0 + B);
            for (int64_t i = i0; i < i1; ++i) {
                for (int64_t j = j0; j < std::min(j1, i); ++j) {
                    if (from_lower) c[j * n + i] = c[i * n + j];
                    else c[i * n + j] = c[j * n + i];
                }
            }
        }
    }
}
using mirror_fn = void (*)(char*, int64_t, bool);
struct MirrorMaker {
    template <int C> static mirror_fn make() { return &mirror_triangle<T_<C>>; }
};
inline mirror_fn mirror_kernel(int code) { return float_kernel<MirrorMaker>(code); }

// b (k x n, element strides bs0 and bs1) copied into k rows of `width` elements, zero past
// column n: the operand of the kernel for products with few columns (ax_skinny.hpp).
template <class T>
void pack_skinny(const char* b_, int64_t bs0, int64_t bs1, int64_t k, int64_t n, int64_t width,
                 char* out_) {
    const T* b = reinterpret_cast<const T*>(b_);
    T* out = reinterpret_cast<T*>(out_);
    for (int64_t p = 0; p < k; ++p) {
        for (int64_t j = 0; j < n; ++j) out[p * width + j] = b[p * bs0 + j * bs1];
        for (int64_t j = n; j < width; ++j) out[p * width + j] = T(0);
    }
}
using pack_fn = void (*)(const char*, int64_t, int64_t, int64_t, int64_t, int64_t, char*);
struct PackMaker {
    template <int C> static pack_fn make() { return &pack_skinny<T_<C>>; }
};
inline pack_fn pack_kernel(int code) { return float_kernel<PackMaker>(code); }

struct MatmulTable {
    matmul_fn fn[NCODES];
    template <int... Cs>
    void fill(std::integer_sequence<int, Cs...>) {
        ((fn[Cs] = &matmul_rows<T_<Cs>>), ...);
    }
    MatmulTable() { fill(std::make_integer_sequence<int, NCODES>{}); }
};

inline matmul_fn matmul_kernel(int code) { return table_of<MatmulTable>().fn[code]; }

}  // namespace ax
