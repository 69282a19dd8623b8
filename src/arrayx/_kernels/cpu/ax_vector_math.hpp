// Transcendental functions over full vectors, from glibc's vector math library (libmvec) at
// the AVX2 and AVX-512 levels. libmvec's functions keep C's special values (NaN, infinities,
// signed zeros): lanes holding one are recomputed by the scalar function. setup.py defines
// AX_HAVE_LIBMVEC when the library links; without it, and at the baseline, every op keeps its
// scalar loop. ops.py's VECTOR_MATH says which ops take these functions (AX_VECTOR_MATH_1/2
// lines in the generated ax_ops.hpp).
#pragma once
#include <cstdint>
#include <cstring>
#include "../ax_math.hpp"
#include "ax_vec.hpp"

#if defined(AX_HAVE_LIBMVEC) && defined(__x86_64__) && (defined(__AVX512F__) || defined(__AVX2__))
#define AX_MVEC 1
#include <immintrin.h>
#if defined(__AVX512F__)
#define AX_MV_D1(name) _ZGVeN8v_##name
#define AX_MV_F1(name) _ZGVeN16v_##name##f
#define AX_MV_D2(name) _ZGVeN8vv_##name
#define AX_MV_F2(name) _ZGVeN16vv_##name##f
typedef __m512d ax_mvd;
typedef __m512 ax_mvf;
#else
#define AX_MV_D1(name) _ZGVdN4v_##name
#define AX_MV_F1(name) _ZGVdN8v_##name##f
#define AX_MV_D2(name) _ZGVdN4vv_##name
#define AX_MV_F2(name) _ZGVdN8vv_##name##f
typedef __m256d ax_mvd;
typedef __m256 ax_mvf;
#endif
#endif

AX_LEVEL_BEGIN

// vector_math<Op, T>::f maps a vector of T through Op, where a library provides it.
template <class Op, class T> struct vector_math {
    static constexpr bool available = false;
};

#ifdef AX_MVEC
template <class T> struct mv_type;
template <> struct mv_type<double> { using type = ax_mvd; };
template <> struct mv_type<float> { using type = ax_mvf; };

#define AX_VECTOR_MATH_1(OP, NAME)                                                              \
    extern "C" ax_mvd AX_MV_D1(NAME)(ax_mvd);                                                   \
    extern "C" ax_mvf AX_MV_F1(NAME)(ax_mvf);                                                   \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x) { return AX_MV_D1(NAME)(x); }                                 \
    };                                                                                          \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x) { return AX_MV_F1(NAME)(x); }                                 \
    };
#define AX_VECTOR_MATH_2(OP, NAME)                                                              \
    extern "C" ax_mvd AX_MV_D2(NAME)(ax_mvd, ax_mvd);                                           \
    extern "C" ax_mvf AX_MV_F2(NAME)(ax_mvf, ax_mvf);                                           \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x, ax_mvd y) { return AX_MV_D2(NAME)(x, y); }                    \
    };                                                                                          \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x, ax_mvf y) { return AX_MV_F2(NAME)(x, y); }                    \
    };

// a * b + c in one rounding, for the vector types of the level.
#if defined(__AVX512F__)
inline __m512d fma_v(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }
#else
inline __m256d fma_v(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }
#endif

// float64 tanh from expm1, which libmvec computes in about half the time of its tanh (its
// float32 tanh is faster than its expm1, and stays): for t = expm1(-2|x|), in (-1, 0] and never
// overflowing, tanh|x| = -t / (t + 2), and x's sign goes back on the result (so -0 stays -0
// and NaN stays NaN). The quotient is corrected once for the roundings of t + 2 (exact by
// Fast2Sum, |t| <= 2) and of the division (exact by FMA), so it is within about half an ULP
// of -t / (t + 2); expm1's own error reaches the result at most doubled (2 / (t + 2) <= 2).
extern "C" ax_mvd AX_MV_D1(expm1)(ax_mvd);
inline ax_mvd tanh_from_expm1(ax_mvd x) {
    typedef int64_t B __attribute__((vector_size(sizeof(ax_mvd))));
    const B sign = (B)x & (B)(-ax_mvd{});
    const ax_mvd t = AX_MV_D1(expm1)((ax_mvd)((B)x ^ sign) * -2.0);
    const ax_mvd d = t + 2.0;
    const ax_mvd d_low = (2.0 - d) + t;
    const ax_mvd q = -t / d;
    const ax_mvd rest = fma_v(-q, d, -t) - q * d_low;
    return (ax_mvd)((B)(q + rest / d) | sign);
}

#define AX_VECTOR_TANH(OP)                                                                      \
    extern "C" ax_mvf AX_MV_F1(tanh)(ax_mvf);                                                   \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x) { return tanh_from_expm1(x); }                                \
    };                                                                                          \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x) { return AX_MV_F1(tanh)(x); }                                 \
    };

// The lanes of one vector from p[0..m), m <= the width; the missing lanes repeat p[0] so that
// they compute an ordinary value.
template <class T, class V>
inline V load_part(const T* p, int64_t m) {
    constexpr int W = sizeof(V) / sizeof(T);
    T buf[W];
    for (int k = 0; k < W; ++k) buf[k] = p[k < m ? k : 0];
    V v;
    std::memcpy(&v, buf, sizeof v);
    return v;
}

// o[j] = Op(a[j]) over contiguous runs; o may be a itself.
template <class Op, class T>
void vector_map1(const T* a, T* o, int64_t n) {
    using V = typename mv_type<T>::type;
    constexpr int W = sizeof(V) / sizeof(T);
    int64_t j = 0;
    for (; j + W <= n; j += W) {
        V x;
        std::memcpy(&x, a + j, sizeof x);
        const V y = vector_math<Op, T>::f(x);
        std::memcpy(o + j, &y, sizeof y);
    }
    if (j < n) {
        const V y = vector_math<Op, T>::f(load_part<T, V>(a + j, n - j));
        std::memcpy(o + j, &y, (n - j) * sizeof(T));
    }
}

// o[j] = Op(a[j * sa], b[j * sb]) with each of sa, sb either 1 or 0 (a broadcast scalar).
template <class Op, class T>
void vector_map2(const T* a, int64_t sa, const T* b, int64_t sb, T* o, int64_t n) {
    using V = typename mv_type<T>::type;
    // Static, so that the lambda below reads it without a capture (GCC and Clang agree).
    static constexpr int W = sizeof(V) / sizeof(T);
    auto lanes = [](const T* p, int64_t s, int64_t j, int64_t m) {
        if (s == 0) {
            T buf[W];
            for (int k = 0; k < W; ++k) buf[k] = p[0];
            V v;
            std::memcpy(&v, buf, sizeof v);
            return v;
        }
        if (m == W) {
            V v;
            std::memcpy(&v, p + j, sizeof v);
            return v;
        }
        return load_part<T, V>(p + j, m);
    };
    for (int64_t j = 0; j < n; j += W) {
        const int64_t m = n - j < W ? n - j : W;
        const V y = vector_math<Op, T>::f(lanes(a, sa, j, m), lanes(b, sb, j, m));
        std::memcpy(o + j, &y, m * sizeof(T));
    }
}
#endif

AX_LEVEL_END
