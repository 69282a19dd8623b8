// Matrix products with few columns (c = a @ b, b of k x n with n at most SKINNY_VECTORS vectors
// of the level's width), which OpenBLAS runs at a fraction of its speed: on the 2-core Xeon
// (Emerald Rapids) (20000 x 200) @ (200 x 10) float64 took it 4.4 ms on one thread against
// 2.1 here, (1024 x 512) @ (512 x 10) 0.54 against 0.26, (200000 x 16) @ (16 x 32) 13.2
// against 4.7. Each group of R rows of a keeps its R x n sums in registers while b's rows,
// packed n wide and zero-padded to whole vectors (``pack_skinny``, ax_matmul.hpp), stream from
// the L1 or L2 cache; the sums run over k in order, one fused multiply-add a term.
//
// Built at the AVX-512 level only: at AVX2 the sums of 8 rows need more registers than it has
// and the kernel ran at OpenBLAS's AVX-512 speed (4.5 against 4.4 ms), so the other levels
// have no kernel (null) and take BLAS.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ax_types.hpp"
#include "ax_vec.hpp"
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

AX_LEVEL_BEGIN

#if defined(__AVX512F__)
// acc + a * b in one rounding (the build contracts nothing by itself: -ffp-contract=off).
inline vec_t<double> fused(vec_t<double> acc, double a, vec_t<double> b) {
    return vec_t<double>(_mm512_fmadd_pd(_mm512_set1_pd(a), __m512d(b), __m512d(acc)));
}
inline vec_t<float> fused(vec_t<float> acc, float a, vec_t<float> b) {
    return vec_t<float>(_mm512_fmadd_ps(_mm512_set1_ps(a), __m512(b), __m512(acc)));
}

// R rows of c (C-ordered, n columns, from cr) = R rows of a (from ar, element strides as0,
// as1) @ the packed b (k rows of V vectors): the R x V sums stay in registers.
template <class T, int V, int R>
void skinny_group(const T* ar, int64_t as0, int64_t as1, const T* b, T* cr, int64_t n,
                  int64_t k) {
    constexpr int W = vec_width<T>;
    using vt = vec_t<T>;
    vt acc[R][V];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < V; ++v) acc[r][v] = vt{};
    for (int64_t p = 0; p < k; ++p) {
        vt bv[V];
        for (int v = 0; v < V; ++v) bv[v] = vload(b + (p * V + v) * W);
        const T* ap = ar + p * as1;
        for (int r = 0; r < R; ++r) {
            const T av = ap[r * as0];
            for (int v = 0; v < V; ++v) acc[r][v] = fused(acc[r][v], av, bv[v]);
        }
    }
    const int full = int(n / W), tail = int(n % W);
    for (int r = 0; r < R; ++r, cr += n) {
        for (int v = 0; v < full; ++v) vstore(cr + v * W, acc[r][v]);
        if (tail) {
            T last[W];
            vstore(last, acc[r][full]);
            for (int j = 0; j < tail; ++j) cr[full * W + j] = last[j];
        }
    }
}

// Rows [row0, row0 + rows) of c: groups of R rows, then the last rows % R one at a time (each
// row's sums are the same either way).
template <class T, int V, int R>
void skinny_rows(const T* a, int64_t as0, int64_t as1, const T* b, T* c, int64_t n, int64_t k,
                 int64_t row0, int64_t rows) {
    const int64_t grouped = row0 + rows / R * R;
    int64_t i = row0;
    for (; i < grouped; i += R) skinny_group<T, V, R>(a + i * as0, as0, as1, b, c + i * n, n, k);
    for (; i < row0 + rows; ++i) skinny_group<T, V, 1>(a + i * as0, as0, as1, b, c + i * n, n, k);
}

template <class T>
void skinny_product(const char* a, int64_t as0, int64_t as1, const char* b, char* c, int64_t n,
                    int64_t k, int64_t row0, int64_t rows) {
    constexpr int W = vec_width<T>;
    const T* ap = reinterpret_cast<const T*>(a);
    const T* bp = reinterpret_cast<const T*>(b);
    T* cp = reinterpret_cast<T*>(c);
    switch ((n + W - 1) / W) {
        case 1: skinny_rows<T, 1, 8>(ap, as0, as1, bp, cp, n, k, row0, rows); break;
        case 2: skinny_rows<T, 2, 8>(ap, as0, as1, bp, cp, n, k, row0, rows); break;
        case 3: skinny_rows<T, 3, 4>(ap, as0, as1, bp, cp, n, k, row0, rows); break;
        default: skinny_rows<T, 4, 4>(ap, as0, as1, bp, cp, n, k, row0, rows); break;
    }
}

#endif

template <class T> inline skinny_fn skinny_kernel() {
#if defined(__AVX512F__)
    static_assert(AX_VEC_BYTES == SKINNY_VECTOR_BYTES, "pack_skinny pads to these vectors");
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return &skinny_product<T>;
#endif
    return nullptr;
}
struct SkinnyMaker { template <int C> static skinny_fn make() { return skinny_kernel<T_<C>>(); } };

AX_LEVEL_END
