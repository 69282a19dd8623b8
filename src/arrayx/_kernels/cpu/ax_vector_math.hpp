// Transcendental functions over full vectors at the AVX2 and AVX-512 levels, each within one
// ULP of the correctly rounded result: float32 through glibc's vector math library (libmvec)
// in float64, and a few float64 functions of our own (ax_vector_accurate.hpp); the other
// float64 functions keep the C library's scalar ones. libmvec's functions keep C's special
// values (NaN, infinities, signed zeros). setup.py defines AX_HAVE_LIBMVEC when the library
// links; without it, and at the baseline, every op keeps its scalar loop. ops.py's VECTOR_MATH
// and VECTOR_ACCURATE say which ops take these functions (AX_VECTOR_MATH_1/2 and
// AX_VECTOR_ACCURATE lines in the generated ax_ops.hpp).
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

#ifdef AX_MVEC
#include "ax_vector_accurate.hpp"
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

// Float32 vectors are computed in float64, each half of the lanes by the function of ax_mvd,
// and rounded once: libmvec's float64 functions are within 4 of their ULPs, 2^-27 float32 ULP,
// so the float32 result is within half an ULP and a hair of the true value (libmvec's float32
// functions stray up to 3 ULP).
// The low and high halves of a float32 vector widened to float64, and two float64 vectors
// rounded back into one float32 vector (each intrinsic's lane index a constant, as clang needs).
#if defined(__AVX512F__)
inline ax_mvd low_pd(ax_mvf x) { return _mm512_cvtps_pd(_mm512_castps512_ps256(x)); }
inline ax_mvd high_pd(ax_mvf x) {
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
}
inline ax_mvf join_ps(ax_mvd lo, ax_mvd hi) {
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(
        _mm512_cvtpd_ps(lo))), _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1));
}
#else
inline ax_mvd low_pd(ax_mvf x) { return _mm256_cvtps_pd(_mm256_castps256_ps128(x)); }
inline ax_mvd high_pd(ax_mvf x) { return _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)); }
inline ax_mvf join_ps(ax_mvd lo, ax_mvd hi) {
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}
#endif
template <class F> inline ax_mvf via_double(ax_mvf x, F f) {
    return join_ps(f(low_pd(x)), f(high_pd(x)));
}
template <class F> inline ax_mvf via_double(ax_mvf x, ax_mvf y, F f) {
    return join_ps(f(low_pd(x), low_pd(y)), f(high_pd(x), high_pd(y)));
}

// OP's float32 vectors through libmvec's float64 NAME; its float64 runs keep the C library's
// scalar function (within one ULP, where libmvec's strays up to 4).
#define AX_VECTOR_MATH_1(OP, NAME)                                                              \
    extern "C" ax_mvd AX_MV_D1(NAME)(ax_mvd);                                                   \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x) { return via_double(x, AX_MV_D1(NAME)); }                     \
    };
#define AX_VECTOR_MATH_2(OP, NAME)                                                              \
    extern "C" ax_mvd AX_MV_D2(NAME)(ax_mvd, ax_mvd);                                           \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x, ax_mvf y) { return via_double(x, y, AX_MV_D2(NAME)); }        \
    };
// OP's float64 vectors through FN of ax_vector_accurate.hpp (within one ULP), its float32
// vectors kept on libmvec (the op's AX_VECTOR_MATH_1 or _2 line).
#define AX_VECTOR_ACCURATE_FLOAT64_1(OP, FN)                                                    \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x) { return FN(x); }                                             \
    };
#define AX_VECTOR_ACCURATE_FLOAT64_2(OP, FN)                                                    \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x, ax_mvd y) { return FN(x, y); }                                \
    };
// OP's float64 vectors through FN of ax_vector_accurate.hpp (within one ULP), and its float32
// vectors through LEAN in float64.
#define AX_VECTOR_ACCURATE(OP, FN, LEAN)                                                        \
    template <> struct vector_math<OP, double> {                                                \
        static constexpr bool available = true;                                                 \
        static ax_mvd f(ax_mvd x) { return FN(x); }                                             \
    };                                                                                          \
    template <> struct vector_math<OP, float> {                                                 \
        static constexpr bool available = true;                                                 \
        static ax_mvf f(ax_mvf x) { return via_double(x, LEAN); }                               \
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
