// Scalar helpers for the op expressions of ops.py, defined for every dtype they accept: one
// source for the CPU kernels (g++, in the ISA level's namespace) and the CUDA ones (nvcc and
// NVRTC, __host__ __device__ on libcu++'s cuda::std). The includer has declared the dtypes
// (cpu/ax_types.hpp or cuda/ax_types.cuh: T_, is_complex_v, is_boolean_v, real_t).
#pragma once
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#define AX_MATH_STD cuda::std
#define AX_MATH_BEGIN namespace ax {
#define AX_MATH_END }
#else
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include "cpu/ax_types.hpp"
#define AX_HD inline
#define AX_MATH_STD std
#define AX_MATH_BEGIN AX_LEVEL_BEGIN
#define AX_MATH_END AX_LEVEL_END
#endif

AX_MATH_BEGIN

namespace dstd = AX_MATH_STD;

// --- integer arithmetic wraps modulo 2^bits, as NumPy's does ----------------------------------
// It runs in the unsigned type of the operands' promoted width: signed overflow is undefined in
// C++, and so is a product of two uint16 values promoted to int.
template <class T> using wrap_t = dstd::make_unsigned_t<decltype(+T())>;
// add and multiply of bools are NumPy's logical or and and.
template <class T> AX_HD T add_(T a, T b) {
    if constexpr (is_boolean_v<T>) return T(bool(a) || bool(b));
    else if constexpr (dstd::is_integral_v<T>)
        return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
    else return a + b;
}
template <class T> AX_HD T sub_(T a, T b) {
    if constexpr (dstd::is_integral_v<T> && !is_boolean_v<T>)
        return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
    else return a - b;
}
template <class T> AX_HD T mul_(T a, T b) {
    if constexpr (is_boolean_v<T>) return T(bool(a) && bool(b));
    else if constexpr (dstd::is_integral_v<T>)
        return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
    else return a * b;
}
template <class T> AX_HD T neg(T a) {
    if constexpr (is_boolean_v<T>) return a;
    else if constexpr (dstd::is_integral_v<T>) return static_cast<T>(-static_cast<wrap_t<T>>(a));
#ifdef __CUDA_ARCH__
    // IEEE 754's negate flips the sign bit of every value, a NaN's too (as x86's and NumPy's);
    // the GPU's negation leaves a NaN's sign unspecified (negative(nan) kept the sign bit clear).
    else if constexpr (is_complex_v<T>) return T(neg(a.real()), neg(a.imag()));
    else if constexpr (sizeof(T) == 4) return __uint_as_float(__float_as_uint(a) ^ 0x80000000u);
    else return __longlong_as_double(__double_as_longlong(a) ^ (1ll << 63));
#else
    else return -a;
#endif
}
template <class T> AX_HD real_t<T> absolute(T a) {
    if constexpr (is_complex_v<T>) return dstd::hypot(a.real(), a.imag());
    else if constexpr (is_boolean_v<T> || dstd::is_unsigned_v<T>) return a;
    else if constexpr (dstd::is_integral_v<T>) return a < 0 ? neg(a) : a;
    else return dstd::fabs(a);
}
template <class T> AX_HD T invert(T a) {
    if constexpr (is_boolean_v<T>) return !a;
    else return static_cast<T>(~a);
}
// A bitwise operand: booleans as bytes (the same instructions; Clang warns of '&' on bools).
template <class T> AX_HD auto bits(T a) {
    if constexpr (is_boolean_v<T>) return static_cast<unsigned char>(a);
    else return a;
}
template <class T> AX_HD T bit_and(T a, T b) { return static_cast<T>(bits(a) & bits(b)); }
template <class T> AX_HD T bit_or(T a, T b) { return static_cast<T>(bits(a) | bits(b)); }
template <class T> AX_HD T bit_xor(T a, T b) { return static_cast<T>(bits(a) ^ bits(b)); }
template <class T> AX_HD bool is_nan(T a) {
    if constexpr (is_complex_v<T>) return dstd::isnan(a.real()) || dstd::isnan(a.imag());
    else if constexpr (dstd::is_floating_point_v<T>) return dstd::isnan(a);
    else return false;
}
template <class T> AX_HD bool is_inf(T a) {
    if constexpr (is_complex_v<T>) return dstd::isinf(a.real()) || dstd::isinf(a.imag());
    else if constexpr (dstd::is_floating_point_v<T>) return dstd::isinf(a);
    else return false;
}
template <class T> AX_HD bool is_finite(T a) {
    if constexpr (is_complex_v<T>) return dstd::isfinite(a.real()) && dstd::isfinite(a.imag());
    else if constexpr (dstd::is_floating_point_v<T>) return dstd::isfinite(a);
    else return true;
}
template <class T> AX_HD real_t<T> real_part(T a) {
    if constexpr (is_complex_v<T>) return a.real();
    else return a;
}
template <class T> AX_HD real_t<T> imag_part(T a) {
    if constexpr (is_complex_v<T>) return a.imag();
    else return real_t<T>(0);
}
template <class T> AX_HD T conjugate(T a) {
    if constexpr (is_complex_v<T>) return T(a.real(), neg(a.imag()));  // a NaN's sign too (neg)
    else return a;
}

// --- rounding (identity on integers) ---------------------------------------------------------
// A NaN passes through as it is, its sign kept (libcu++'s truncf gives the canonical NaN).
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define AX_KEEP_NAN(a, EXPR) ((a) != (a) ? (a) : (EXPR))
#else
#define AX_KEEP_NAN(a, EXPR) (EXPR)
#endif
template <class T> AX_HD T ceil_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return AX_KEEP_NAN(a, dstd::ceil(a));
    else return a;
}
template <class T> AX_HD T floor_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return AX_KEEP_NAN(a, dstd::floor(a));
    else return a;
}
template <class T> AX_HD T trunc_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return AX_KEEP_NAN(a, dstd::trunc(a));
    else return a;
}
// Half to even (the default rounding mode), each part of a complex number on its own.
template <class T> AX_HD T round_(T a) {
    if constexpr (is_complex_v<T>)
        return T(AX_KEEP_NAN(a.real(), dstd::nearbyint(a.real())),
                 AX_KEEP_NAN(a.imag(), dstd::nearbyint(a.imag())));
    else if constexpr (dstd::is_floating_point_v<T>) return AX_KEEP_NAN(a, dstd::nearbyint(a));
    else return a;
}
#undef AX_KEEP_NAN

// (x + iy) / (h + 0i) as Smith's complex division computes it (zeros' signs included), without
// its overflow for h near the largest float.
template <class V> AX_HD dstd::complex<V> divide_by_real(V x, V y, V h) {
    return dstd::complex<V>((x + y * V(0)) / h, (y - x * V(0)) / h);
}
template <class T> AX_HD T sign_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V n = dstd::numeric_limits<V>::quiet_NaN();
        if (dstd::isnan(a.real()) || dstd::isnan(a.imag())) return T(n, n);
        // One infinite part points along its axis (as NumPy); two make inf/inf, NaN.
        if (dstd::isinf(a.real()) && dstd::isinf(a.imag())) return T(n, n);
        if (dstd::isinf(a.real()))
            return T(dstd::copysign(V(1), a.real()), dstd::copysign(V(0), a.imag()));
        if (dstd::isinf(a.imag()))
            return T(dstd::copysign(V(0), a.real()), dstd::copysign(V(1), a.imag()));
        if (a.real() == 0 && a.imag() == 0) return T(0, 0);
        const V h = dstd::hypot(a.real(), a.imag());
        if (!(h <= dstd::numeric_limits<V>::max()) || h < dstd::numeric_limits<V>::min()) {
            // |z| overflows or is subnormal: divide by the larger part first, so the result
            // keeps unit modulus (NumPy's z / |z| gives 0 or a part of 1 there).
            const V m = dstd::fmax(dstd::fabs(a.real()), dstd::fabs(a.imag()));
            const V sr = a.real() / m, si = a.imag() / m;
            return divide_by_real(sr, si, dstd::hypot(sr, si));
        }
        return divide_by_real(a.real(), a.imag(), h);
    } else if constexpr (dstd::is_floating_point_v<T>) {
        if (dstd::isnan(a)) return a;
        return static_cast<T>((a > 0) - (a < 0));
    } else if constexpr (dstd::is_unsigned_v<T>) {
        return static_cast<T>(a > 0);
    } else {
        return static_cast<T>((a > 0) - (a < 0));
    }
}


// --- real transcendental functions within one ULP of the correctly rounded result ------------
// On the CPU a real function is evaluated in a wider type and rounded once: float in double,
// and double in x87 long double (64-bit significand) for the functions where glibc's double
// version strays up to 2 ULP (sinh, cosh, tanh, asinh, acosh, atanh, log10; the others are
// within 1). The wider result is within a few of its own ULPs, 2^-11 of the narrow type's ULP
// or less, so the rounded result is within 0.5 + 2^-11 ULP of the true value. Complex
// arguments on the host, and real ones on the device, keep the type they come in.
template <class T> struct wide_type { using type = T; };
template <class T> struct extended_type { using type = T; };
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
template <> struct wide_type<float> { using type = double; };
template <> struct extended_type<float> { using type = double; };
#if defined(__x86_64__) || defined(__i386__)
template <> struct extended_type<double> { using type = long double; };
#endif
#endif
// On the device complex<float> is evaluated in complex<double> (log1p_ and log2_ below; the
// functions of complex_device take complex<double>): libcu++'s complex<float> functions overflow
// in intermediate values (cos(90i) gave NaN for its imaginary part).
template <class T> struct wide_complex { using type = T; };
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
template <> struct wide_complex<dstd::complex<float>> { using type = dstd::complex<double>; };
#endif

// NAME_(a) is std::FN(a) evaluated in WIDE<T>::type for real T.
#define AX_WIDE_1(NAME, FN, WIDE)                                                             \
    template <class T> AX_HD T NAME(T a) {                                                    \
        if constexpr (is_complex_v<T>) return dstd::FN(a);                                   \
        else return static_cast<T>(dstd::FN(static_cast<typename WIDE<T>::type>(a)));        \
    }
#define AX_WIDE_2(NAME, FN, WIDE)                                                             \
    template <class T> AX_HD T NAME(T a, T b) {                                               \
        using W = typename WIDE<T>::type;                                                     \
        return static_cast<T>(dstd::FN(static_cast<W>(a), static_cast<W>(b)));               \
    }
// libcu++'s inverse trigonometric and hyperbolic functions of complex numbers stray far for
// complex<float> from |z| ~ 10^3 (asin(1 + 2720i) off in the second digit), lose digits for
// complex<double> there, and overflow to infinity for large |z|; its complex square root goes
// through polar form (sqrt(-1) = 6e-17 + i). On the device these are computed in complex<double>
// (complex<float> arguments too, rounded once at the end): the square root by the hypot
// formula, and the inverse functions by Kahan's formulas ("Branch cuts for complex elementary
// functions", 1987), which take square roots of 1 +- z and real atan2 and asinh only: no
// cancellation, no overflow below the largest double, and the branch cuts' signed zeros kept.
// Infinite and NaN parts take C99's Annex G values (the standard's special cases), which
// Kahan's formulas do not give. The host's std::complex is accurate and keeps its own.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace complex_device {
using D = dstd::complex<double>;
// Constants as values (a namespace-scope variable is not device memory).
#define kPi 3.14159265358979323846
#define kHalfPi 1.57079632679489661923
#define kQuarterPi 0.78539816339744830962
#define kNaN dstd::numeric_limits<double>::quiet_NaN()
#define kLn2 0.69314718055994530942
AX_HD bool finite(D z) { return dstd::isfinite(z.real()) && dstd::isfinite(z.imag()); }
// 1 - z and 1 + z part by part: (1, 0) - (x, 0) would give the imaginary part +0, not -0.
AX_HD D one_minus(D z) { return D(1.0 - z.real(), -z.imag()); }
AX_HD D one_plus(D z) { return D(1.0 + z.real(), z.imag()); }
AX_HD D sqrt_d(D z) {
    const double x = z.real(), y = z.imag();
    if (dstd::isinf(y)) return D(dstd::fabs(y), y);
    if (dstd::isnan(x)) return D(x, x);
    if (dstd::isinf(x)) {
        if (x > 0) return D(x, dstd::isnan(y) ? y : dstd::copysign(0.0, y));
        return D(dstd::isnan(y) ? y : 0.0, dstd::copysign(-x, y));
    }
    if (dstd::isnan(y)) return D(y, y);
    if (x == 0 && y == 0) return D(0.0, y);
    // t = sqrt((|x| + |z|) / 2), its argument scaled into range where it would overflow or
    // lose digits to underflow.
    double ax = dstd::fabs(x), ay = dstd::fabs(y), scale = 1.0;
    if (ax > 0x1p1020 || ay > 0x1p1020) {
        ax *= 0x1p-4; ay *= 0x1p-4; scale = 0x1p2;
    } else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
        ax *= 0x1p600; ay *= 0x1p600; scale = 0x1p-300;
    }
    const double t = scale * dstd::sqrt(0.5 * (ax + dstd::hypot(ax, ay)));
    if (x >= 0) return D(t, y / (2.0 * t));
    return D(dstd::fabs(y) / (2.0 * t), dstd::copysign(t, y));
}
// asinh and acosh of a z with an infinite or NaN part (C99 G.6.2.2 and G.6.2.1).
AX_HD D asinh_special(D z) {
    const double x = z.real(), y = z.imag();
    if (dstd::isnan(x)) {
        if (dstd::isinf(y)) return D(dstd::copysign(y, x), x);  // the sign C's casinh gives
        return D(x, y == 0 ? y : kNaN);
    }
    if (dstd::isnan(y)) return D(dstd::isinf(x) ? x : kNaN, y);
    if (dstd::isinf(x) && dstd::isinf(y)) return D(x, dstd::copysign(kQuarterPi, y));
    if (dstd::isinf(x)) return D(x, dstd::copysign(0.0, y));
    return D(dstd::copysign(y * y, x), dstd::copysign(kHalfPi, y));  // y infinite, x finite
}
AX_HD D acosh_special(D z) {
    const double x = z.real(), y = z.imag(), inf = dstd::fabs(x) + dstd::fabs(y);
    if (dstd::isnan(x)) return D(dstd::isinf(y) ? dstd::fabs(y) : x, x);
    if (dstd::isnan(y)) return D(dstd::isinf(x) ? dstd::fabs(x) : y, x == 0 ? kHalfPi : y);
    if (dstd::isinf(x) && dstd::isinf(y))
        return D(inf, dstd::copysign(x > 0 ? kQuarterPi : 3 * kQuarterPi, y));
    if (dstd::isinf(x)) return D(inf, dstd::copysign(x > 0 ? 0.0 : kPi, y));
    return D(inf, dstd::copysign(kHalfPi, y));  // y infinite, x finite
}
// asinh(z) = log(2z) + O(1 / z^2) where |z| > 2^28 (below an ULP), computed on |x| + i|y| and
// given z's signs back (asinh is odd and commutes with conj): Kahan's products of square roots
// would overflow near the largest double.
AX_HD bool large(D z) { return dstd::fmax(dstd::fabs(z.real()), dstd::fabs(z.imag())) > 0x1p28; }
// asin(z) and asinh(z) are z itself below 2^-28 (to z^3 / 6), where the square roots' halving
// would lose a subnormal z.
AX_HD bool tiny(D z) { return dstd::fabs(z.real()) < 0x1p-28 && dstd::fabs(z.imag()) < 0x1p-28; }
AX_HD D log_of_twice(double x, double y) {  // log(2 (x + iy)) without overflow in |z|
    const double big = dstd::fmax(dstd::fabs(x), dstd::fabs(y));
    const double small = dstd::fmin(dstd::fabs(x), dstd::fabs(y)), r = small / big;
    return D(kLn2 + dstd::log(big) + 0.5 * dstd::log1p(r * r),
             dstd::atan2(y, x));
}
AX_HD D asinh_large(D z) {
    const D w = log_of_twice(dstd::fabs(z.real()), dstd::fabs(z.imag()));
    return D(dstd::copysign(w.real(), z.real()), dstd::copysign(w.imag(), z.imag()));
}
AX_HD D asin_d(D z) {
    if (tiny(z)) return z;
    if (finite(z) && large(z)) {
        const D w = asinh_large(D(-z.imag(), z.real()));
        return D(w.imag(), -w.real());
    }
    if (!finite(z)) {  // asin(z) = -i asinh(iz)
        const D w = asinh_special(D(-z.imag(), z.real()));
        return D(w.imag(), -w.real());
    }
    const D a = sqrt_d(one_minus(z)), b = sqrt_d(one_plus(z));
    return D(dstd::atan2(z.real(), (a * b).real()), dstd::asinh((dstd::conj(a) * b).imag()));
}
AX_HD D acos_d(D z) {
    if (!finite(z) || large(z)) {  // acos(z) = -i acosh(z) where Im z >= 0 (or NaN), i acosh(z)
        const D w = finite(z) ? log_of_twice(z.real(), z.imag()) : acosh_special(z);
        if (dstd::signbit(z.imag()) && !dstd::isnan(z.imag())) return D(-w.imag(), w.real());
        return D(w.imag(), -w.real());
    }
    const D a = sqrt_d(one_minus(z)), b = sqrt_d(one_plus(z));
    return D(2.0 * dstd::atan2(a.real(), b.real()), dstd::asinh((dstd::conj(b) * a).imag()));
}
AX_HD D asinh_d(D z) {  // asinh(z) = -i asin(iz)
    if (!finite(z)) return asinh_special(z);
    if (tiny(z)) return z;
    if (large(z)) return asinh_large(z);
    const D w = asin_d(D(-z.imag(), z.real()));
    return D(w.imag(), -w.real());
}
AX_HD D acosh_d(D z) {  // acosh(z) = log(2z) + O(1 / z^2) for a large z
    if (!finite(z) || (z.real() == 0 && dstd::isnan(z.imag()))) return acosh_special(z);
    if (large(z)) return log_of_twice(z.real(), z.imag());
    const D a = sqrt_d(D(z.real() - 1.0, z.imag())), b = sqrt_d(one_plus(z));
    return D(dstd::asinh((dstd::conj(a) * b).real()), 2.0 * dstd::atan2(a.imag(), b.real()));
}
// exp, cosh, sinh, cos and sin as the C library computes them (glibc's templates): the finite
// formulas in double, e^|x| scaled past 709 so that only a result beyond the largest double
// overflows, and C99's special values with the signs glibc gives where C99 leaves them open.
AX_HD double exp_times(double x, double c, double scale = 1.0) {
    // c * scale * e^x for a power of two scale, scaled from the left so that neither a tiny c
    // underflows nor e^x overflows before the product would (a zero c keeps its sign)
    if (c == 0) return c;
    if (x <= 709) return c * (dstd::exp(x) * scale);
    return c * (dstd::exp(709.0) * scale) * dstd::exp(x - 709);
}
AX_HD D exp_d(D z) {
    const double x = z.real(), y = z.imag();
    if (dstd::isfinite(x)) {
        if (!dstd::isfinite(y)) return D(kNaN, kNaN);
        if (y == 0) return D(exp_times(x, 1.0), y);
        return D(exp_times(x, dstd::cos(y)), exp_times(x, dstd::sin(y)));
    }
    if (dstd::isinf(x)) {
        const double value = dstd::signbit(x) ? 0.0 : x;
        if (dstd::isfinite(y)) {
            if (y == 0) return D(value, y);
            return D(dstd::copysign(value, dstd::cos(y)), dstd::copysign(value, dstd::sin(y)));
        }
        if (!dstd::signbit(x)) return D(x, y - y);
        return D(0.0, dstd::copysign(0.0, y));
    }
    return D(kNaN, y == 0 ? y : kNaN);
}
AX_HD D cosh_d(D z) {
    const double x = z.real(), y = z.imag();
    if (dstd::isfinite(x)) {
        if (!dstd::isfinite(y)) return D(y - y, x == 0 ? 0.0 : kNaN);
        const double c = dstd::cos(y), s = y == 0 ? y : dstd::sin(y), ax = dstd::fabs(x);
        if (ax > 20)  // cosh and |sinh| are e^|x| / 2 to the last bit
            return D(exp_times(ax, c, 0.5), dstd::copysign(1.0, x) * exp_times(ax, s, 0.5));
        return D(dstd::cosh(x) * c, dstd::sinh(x) * s);
    }
    if (dstd::isinf(x)) {
        const double inf = dstd::fabs(x);
        if (dstd::isfinite(y) && y != 0)
            return D(dstd::copysign(inf, dstd::cos(y)),
                     dstd::copysign(inf, dstd::sin(y)) * dstd::copysign(1.0, x));
        if (y == 0) return D(inf, y * dstd::copysign(1.0, x));
        return D(inf, y - y);
    }
    return D(kNaN, y == 0 ? y : kNaN);
}
AX_HD D sinh_d(D z) {
    const bool negate = dstd::signbit(z.real());
    const double x = dstd::fabs(z.real()), y = z.imag();
    if (dstd::isfinite(x)) {
        if (!dstd::isfinite(y)) {
            if (x == 0) return D(negate ? -0.0 : 0.0, y - y);
            return D(kNaN, kNaN);
        }
        const double c = negate ? -dstd::cos(y) : dstd::cos(y), s = y == 0 ? y : dstd::sin(y);
        if (x > 20) return D(exp_times(x, c, 0.5), exp_times(x, s, 0.5));
        return D(dstd::sinh(x) * c, dstd::cosh(x) * s);
    }
    if (dstd::isinf(x)) {
        if (dstd::isfinite(y) && y != 0) {
            const double re = dstd::copysign(x, dstd::cos(y));
            return D(negate ? -re : re, dstd::copysign(x, dstd::sin(y)));
        }
        if (y == 0) return D(negate ? -x : x, y);
        return D(x, y - y);
    }
    return D(kNaN, y == 0 ? y : kNaN);
}
AX_HD D cos_d(D z) { return cosh_d(D(-z.imag(), z.real())); }  // cos(z) = cosh(iz)
// log(z) = log|z| + i arg(z), |z| taken apart from its scale where it would overflow or lose
// digits to underflow (libcu++'s log(abs(z)) gives inf near the largest double); C99's special
// values follow from log and atan2's own.
AX_HD double log_abs(double x, double y) {
    const double big = dstd::fmax(dstd::fabs(x), dstd::fabs(y));
    if (!dstd::isfinite(x) || !dstd::isfinite(y) || big == 0 ||
        (big > 0x1p-1000 && big < 0x1p1000))
        return dstd::log(dstd::hypot(x, y));  // in range, or 0, infinite or NaN
    const double r = dstd::fmin(dstd::fabs(x), dstd::fabs(y)) / big;
    return dstd::log(big) + 0.5 * dstd::log1p(r * r);
}
AX_HD D log_d(D z) { return D(log_abs(z.real(), z.imag()), dstd::atan2(z.imag(), z.real())); }
AX_HD D log10_d(D z) {
    const D l = log_d(z);
    return D(l.real() / 2.30258509299404568402, l.imag() / 2.30258509299404568402);
}
// atanh(z) = log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2 on
// |x| + i|y| with z's signs given back (odd, commutes with conj): z itself below 2^-28, and
// 1 / z (to within an ULP) above 2^28, where the squares would overflow. C99 G.6.2.3's values
// for infinite and NaN parts.
AX_HD D atanh_d(D z) {
    const double x = dstd::fabs(z.real()), y = dstd::fabs(z.imag());
    double re, im;
    if (dstd::isnan(x) || dstd::isnan(y)) {
        if (dstd::isinf(x)) return D(dstd::copysign(0.0, z.real()), z.imag());
        if (dstd::isinf(y))
            return D(dstd::copysign(0.0, z.real()), dstd::copysign(kHalfPi, z.imag()));
        if (x == 0 && dstd::isnan(y)) return z;
        return D(kNaN, kNaN);
    }
    if (x < 0x1p-28 && y < 0x1p-28) return z;
    if (dstd::isinf(x) || dstd::isinf(y)) {
        re = 0.0;
        im = kHalfPi;
    } else if (x > 0x1p28 || y > 0x1p28) {  // i pi/2 + 1/z, 1/z = (x - iy) / |z|^2
        const double big = dstd::fmax(x, y), r = dstd::fmin(x, y) / big;
        const double scale = 1 / (big * (1 + r * r));
        re = (x / big) * scale;
        im = kHalfPi - (y / big) * scale;
    } else if (x == 1 && y == 0) {
        re = dstd::numeric_limits<double>::infinity();
        im = 0.0;
    } else {
        // next to the pole at 1, (1 - x)^2 + y^2 underflows: log(4 / d) / 4 from log|1 - z|
        const bool pole = dstd::fmax(dstd::fabs(1 - x), y) < 0x1p-500;
        const double d = (1 - x) * (1 - x) + y * y;
        re = pole ? 0.5 * (kLn2 - log_abs(1 - x, y))
                  : 0.25 * dstd::log1p(4 * x / d);
        im = 0.5 * dstd::atan2(2 * y, (1 - x) * (1 + x) - y * y);
    }
    return D(dstd::copysign(re, z.real()), dstd::copysign(im, z.imag()));
}
AX_HD D atan_d(D z) {  // atan(z) = -i atanh(iz)
    const D w = atanh_d(D(-z.imag(), z.real()));
    return D(w.imag(), -w.real());
}
// tanh of a finite z: sinh(2x) / (cosh(2x) + cos(2y)) as sinh cosh and sin cos over
// sinh^2 + cos^2, and for |x| > 354 (where cosh^2 overflows) 1 + 4 sin cos e^(-2|x|) i.
AX_HD D tanh_d(D z) {
    const double x = z.real(), y = z.imag();
    const double s = y == 0 ? y : dstd::sin(y), c = dstd::cos(y);
    if (dstd::fabs(x) > 354) {
        const double rx = dstd::fabs(x) - 354, e = dstd::exp(708.0);
        double im = 4 * s * c / e;
        im /= rx > 354 ? e : dstd::exp(2 * rx);
        return D(dstd::copysign(1.0, x), im);
    }
    const double sh = dstd::sinh(x), ch = dstd::cosh(x);
    const double den = dstd::fabs(sh) > dstd::fabs(c) * 0x1p-52 ? sh * sh + c * c : c * c;
    return D(sh * ch / den, s * c / den);
}
AX_HD D sin_d(D z) {
    const bool negate = dstd::signbit(z.real());
    const double x = dstd::fabs(z.real()), y = z.imag();
    if (dstd::isfinite(y)) {
        if (dstd::isfinite(x)) {
            const double s = negate ? -dstd::sin(x) : dstd::sin(x), c = dstd::cos(x);
            const double ay = dstd::fabs(y);
            if (ay > 20)
                return D(exp_times(ay, s, 0.5), dstd::copysign(1.0, y) * exp_times(ay, c, 0.5));
            return D(dstd::cosh(y) * s, dstd::sinh(y) * c);
        }
        if (y == 0) return D(x - x, y);
        return D(kNaN, kNaN);
    }
    if (dstd::isinf(y)) {
        if (x == 0) return D(negate ? -0.0 : 0.0, y);
        if (dstd::isfinite(x)) {
            double re = dstd::copysign(dstd::fabs(y), dstd::sin(x));
            double im = dstd::copysign(dstd::fabs(y), dstd::cos(x));
            if (negate) re = -re;
            if (dstd::signbit(y)) im = -im;
            return D(re, im);
        }
        return D(x - x, dstd::fabs(y));
    }
    if (x == 0) return D(negate ? -0.0 : 0.0, kNaN);
    return D(kNaN, kNaN);
}
#undef kPi
#undef kHalfPi
#undef kQuarterPi
#undef kNaN
#undef kLn2
}  // namespace complex_device
// NAME_(a): the device's own complex function FN_d (in complex<double>) for complex T, else as
// AX_WIDE_1; on the host AX_WIDE_1 throughout.
#define AX_DEVICE_COMPLEX(NAME, FN, WIDE)                                                     \
    template <class T> AX_HD T NAME(T a) {                                                    \
        if constexpr (is_complex_v<T>)                                                        \
            return static_cast<T>(complex_device::FN##_d(complex_device::D(a)));              \
        else return static_cast<T>(dstd::FN(static_cast<typename WIDE<T>::type>(a)));        \
    }
template <class T> AX_HD T sqrt_(T a) {
    if constexpr (is_complex_v<T>) return static_cast<T>(complex_device::sqrt_d(a));
    else return dstd::sqrt(a);
}
#else
#define AX_DEVICE_COMPLEX(NAME, FN, WIDE) AX_WIDE_1(NAME, FN, WIDE)
template <class T> AX_HD T sqrt_(T a) { return std::sqrt(a); }
#endif
// FN_ for each FN: real arguments evaluated in wide_type, and in extended_type (the functions
// whose glibc double versions stray up to 2 ULP).
#define AX_IN_WIDE(FN) AX_DEVICE_COMPLEX(FN##_, FN, wide_type)
#define AX_IN_EXTENDED(FN) AX_DEVICE_COMPLEX(FN##_, FN, extended_type)
#define AX_WIDE_FUNCTIONS(X) X(acos) X(asin) X(atan) X(cos) X(sin) X(exp) X(log)
#define AX_EXTENDED_FUNCTIONS(X) X(acosh) X(asinh) X(atanh) X(cosh) X(sinh) X(log10)
AX_WIDE_FUNCTIONS(AX_IN_WIDE)
AX_EXTENDED_FUNCTIONS(AX_IN_EXTENDED)
#undef AX_WIDE_FUNCTIONS
#undef AX_EXTENDED_FUNCTIONS
#undef AX_IN_WIDE
#undef AX_IN_EXTENDED
#undef AX_DEVICE_COMPLEX
AX_WIDE_2(atan2_, atan2, wide_type)
AX_WIDE_2(hypot_, hypot, wide_type)
#undef AX_WIDE_1
#undef AX_WIDE_2

// --- exponentials and logarithms of complex numbers the standard library lacks ---------------
template <class T> AX_HD T expm1_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V x = a.real(), y = a.imag();
        if (!dstd::isfinite(x) || !dstd::isfinite(y)) return exp_(a) - T(1);
        if (x == 0 && y == 0) return T(V(0), y);
        const V s = dstd::sin(y / 2);
        return T(dstd::expm1(x) * dstd::cos(y) - 2 * s * s, dstd::exp(x) * dstd::sin(y));
    } else {
        return static_cast<T>(dstd::expm1(static_cast<typename wide_type<T>::type>(a)));
    }
}
template <class T> AX_HD T log1p_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V x = a.real(), y = a.imag();
        if (dstd::isfinite(x) && dstd::isfinite(y) && dstd::fabs(x) < V(0.5)
            && dstd::fabs(y) < V(0.5)) {
            // log|1 + z| = 0.5 * log1p(2x + x^2 + y^2), accurate for small z.
            return T(V(0.5) * dstd::log1p(x * (2 + x) + y * y), dstd::atan2(y, 1 + x));
        }
        // 1 + x on the real part alone: adding a complex 1 would turn an imaginary -0 into +0.
        using W = typename wide_complex<T>::type;
        using WV = typename W::value_type;
        return static_cast<T>(log_(W(WV(1) + WV(x), WV(y))));
    } else {
        return static_cast<T>(dstd::log1p(static_cast<typename wide_type<T>::type>(a)));
    }
}
template <class T> AX_HD T log2_(T a) {
    if constexpr (is_complex_v<T>) {
        using W = typename wide_complex<T>::type;
        using WV = typename W::value_type;
        const W l = log_(static_cast<W>(a));
        return static_cast<T>(W(l.real() / dstd::log(WV(2)), l.imag() / dstd::log(WV(2))));
    } else {
        return static_cast<T>(dstd::log2(static_cast<typename wide_type<T>::type>(a)));
    }
}

// tanh(+-inf + iy) is +-1 with a zero imaginary part of y's sign (the standard's special case
// for finite y; C's ctanh takes the zero's sign from sin(2y) where |y| > 1).
template <class T> AX_HD T tanh_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        if (dstd::isinf(a.real()))
            return T(dstd::copysign(V(1), a.real()), dstd::copysign(V(0), a.imag()));
        // tanh(+-0 + i inf) and tanh(+-0 + i NaN) are +-0 + i NaN (libcu++ gives NaN + i NaN).
        if (a.real() == V(0) && !dstd::isfinite(a.imag()))
            return T(a.real(), dstd::numeric_limits<V>::quiet_NaN());
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
        if (dstd::isnan(a.real()) || !dstd::isfinite(a.imag()))
            return a.imag() == 0 ? a : T(dstd::numeric_limits<V>::quiet_NaN(),
                                         dstd::numeric_limits<V>::quiet_NaN());
        return static_cast<T>(complex_device::tanh_d(complex_device::D(a)));
#else
        return dstd::tanh(a);
#endif
    } else {
        return static_cast<T>(dstd::tanh(static_cast<typename extended_type<T>::type>(a)));
    }
}

// tan(z) = -i tanh(iz) on the device, with tanh's special values (libcu++'s tan(inf + 0i) is
// NaN + NaN i where C gives NaN + 0i).
template <class T> AX_HD T tan_(T a) {
    if constexpr (is_complex_v<T>) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
        using V = typename T::value_type;
        const T w = tanh_(T(-a.imag(), a.real()));
        const V x = a.real();
        if (dstd::isinf(a.imag()) && dstd::isfinite(x) && dstd::fabs(x) > 1)
            // the zero's sign of sin(2x), as C's ctan gives it
            return T(dstd::copysign(V(0), dstd::sin(x) * dstd::cos(x)), -w.real());
        return T(w.imag(), -w.real());
#else
        return dstd::tan(a);
#endif
    } else {
        return static_cast<T>(dstd::tan(static_cast<typename wide_type<T>::type>(a)));
    }
}

template <class T> AX_HD T logaddexp_(T a, T b) {
    if (a == b) return a + static_cast<T>(0.693147180559945309417232121458176568);
    const T d = a - b;
    if (d > 0) return a + dstd::log1p(dstd::exp(-d));
    if (d <= 0) return b + dstd::log1p(dstd::exp(d));
    return d;  // NaN
}

// --- maximum and minimum propagate NaNs ------------------------------------------------------
// NaN-propagating; written as one select so that loops over them vectorise.
// Over bool (the folds' any and all), the result is a canonical 0 or 1 byte.
template <class T> AX_HD T maximum_(T a, T b) {
    if constexpr (dstd::is_floating_point_v<T>) return ((a > b) | (a != a)) ? a : b;
    else if constexpr (is_boolean_v<T>) return T(a || b);
    else return a > b ? a : b;
}
template <class T> AX_HD T minimum_(T a, T b) {
    if constexpr (dstd::is_floating_point_v<T>) return ((a < b) | (a != a)) ? a : b;
    else if constexpr (is_boolean_v<T>) return T(a && b);
    else return a < b ? a : b;
}

// --- shifts: counts outside [0, bits) give 0 (or -1 for a negative value shifted right) -----
template <class T> AX_HD T lshift(T a, T b) {
    using U = dstd::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return T(0);
    return static_cast<T>(static_cast<U>(a) << b);
}
template <class T> AX_HD T rshift(T a, T b) {
    using U = dstd::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) {
        if constexpr (dstd::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
        else return T(0);
    }
    return static_cast<T>(a >> b);
}

// --- floor division and remainder (Python's semantics; x // 0 and x % 0 are 0 for integers) --
template <class T> AX_HD T floor_div(T a, T b) {
    if constexpr (dstd::is_floating_point_v<T>) {
        if (b == 0 || dstd::isinf(a) || dstd::isinf(b) || a != a || b != b)
            return dstd::floor(a / b);
        T mod = dstd::fmod(a, b);
        T div = (a - mod) / b;
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
        if (div != 0) {
            T fl = dstd::floor(div);
            if (div - fl > T(0.5)) fl += T(1);
            return fl;
        }
        return dstd::copysign(T(0), a / b);
    } else if constexpr (dstd::is_unsigned_v<T>) {
        return b == 0 ? T(0) : static_cast<T>(a / b);
    } else {
        if (b == 0) return T(0);
        if (b == T(-1)) return neg(a);
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
        return q;
    }
}
template <class T> AX_HD T remainder_(T a, T b) {
    if constexpr (dstd::is_floating_point_v<T>) {
        T mod = dstd::fmod(a, b);
        if (b == 0) return mod;
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) mod += b;
        } else {
            mod = dstd::copysign(T(0), b);
        }
        return mod;
    } else if constexpr (dstd::is_unsigned_v<T>) {
        return b == 0 ? T(0) : static_cast<T>(a % b);
    } else {
        if (b == 0 || b == T(-1)) return T(0);
        T r = static_cast<T>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
    }
}

// --- power: integers by squaring (wrapping; negative exponents truncate towards 0) ----------
// Complex powers follow NumPy's npy_cpow: z**0 is 1, 0**b is 0 when b's real part is > 0, small
// integer exponents multiply (so (1+infj)**1 is 1+infj); the rest is exp(b log z).
template <class V> AX_HD dstd::complex<V> cmul_(dstd::complex<V> a, dstd::complex<V> b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// Smith's division, as NumPy's complex quotient.
template <class V> AX_HD dstd::complex<V> cdiv_(dstd::complex<V> a, dstd::complex<V> b) {
    const V ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const V abr = dstd::fabs(br), abi = dstd::fabs(bi);
    if (abr >= abi) {
        if (abr == 0 && abi == 0) return {ar / abr, ai / abi};
        const V rat = bi / br, scl = V(1) / (br + bi * rat);
        return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
    }
    const V rat = br / bi, scl = V(1) / (bi + br * rat);
    return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
// a / b, complex by Smith's method (cdiv_), as NumPy's quotient: the compiler's own (libgcc's
// __divdc3, GCC 12) gave nan+nanj where the quotient overflows ((3+4j) / 1e-309, (1e308+1e308j)
// / 0.5: inf+infj).
template <class T> AX_HD T div_(T a, T b) {
    if constexpr (is_complex_v<T>) return cdiv_(a, b);
    else return a / b;
}
// 1 / a, complex by Smith's method with the numerator 1 folded in, as NumPy's reciprocal
// (1 / 1e-310j is -infj, its real part 0, where the general quotient gives nan-infj).
template <class T> AX_HD T reciprocal_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = real_t<T>;
        const V ar = a.real(), ai = a.imag();
        if (dstd::fabs(ai) <= dstd::fabs(ar)) {
            const V r = ai / ar, d = ar + ai * r;
            return {V(1) / d, -r / d};
        }
        const V r = ar / ai, d = ar * r + ai;
        return {r / d, V(-1) / d};
    } else {
        return T(1) / a;
    }
}
template <class V> AX_HD dstd::complex<V> cpower(dstd::complex<V> a, dstd::complex<V> b) {
    using C = dstd::complex<V>;
    const V br = b.real(), bi = b.imag();
    if (br == 0 && bi == 0) return C(1, 0);
    if (a.real() == 0 && a.imag() == 0) {
        if (br > 0) return C(0, 0);
        const V n = dstd::numeric_limits<V>::quiet_NaN();
        return C(n, n);
    }
    if (bi == 0 && dstd::fabs(br) < 100 && br == dstd::trunc(br)) {
        const int n = static_cast<int>(br);
        if (n == 1) return a;
        if (n == 2) return cmul_(a, a);
        if (n == 3) return cmul_(cmul_(a, a), a);
        int m = n < 0 ? -n : n;
        C r(1, 0), p = a;
        while (true) {
            if (m & 1) r = cmul_(r, p);
            m >>= 1;
            if (!m) break;
            p = cmul_(p, p);
        }
        return n < 0 ? cdiv_(C(1, 0), r) : r;
    }
    return dstd::pow(a, b);
}

template <class T> AX_HD T power(T a, T b) {
    if constexpr (is_complex_v<T>) {
        return cpower(a, b);
    } else if constexpr (dstd::is_floating_point_v<T>) {
        // a * a is the correctly rounded square (the device's pow strays by an ULP or two).
        if (b == T(2)) return a * a;
        using W = typename wide_type<T>::type;
        return static_cast<T>(dstd::pow(static_cast<W>(a), static_cast<W>(b)));
    } else {
        if constexpr (dstd::is_signed_v<T>) {
            if (b < 0) {
                if (a == 1) return T(1);
                if (a == -1) return (b & 1) ? T(-1) : T(1);
                return T(0);
            }
        }
        using U = wrap_t<T>;
        U base = static_cast<U>(a), result = 1;
        auto e = static_cast<dstd::make_unsigned_t<T>>(b);
        while (e) {
            if (e & 1) result = static_cast<U>(result * base);
            base = static_cast<U>(base * base);
            e >>= 1;
        }
        return static_cast<T>(result);
    }
}

// --- casts: complex to real keeps the real part, to bool tests both parts ---------------------
// A real float (or a complex number's real part) becomes an integer through Convert::to<D>:
// the CPU's reproduces NumPy's x86-64 answers for values out of range (cpu/ax_cast.hpp), the
// device's is the plain conversion.
template <class D, class S, class Convert>
AX_HD D cast_via(S s) {
    if constexpr (dstd::is_same_v<D, S>) {
        return s;
    } else if constexpr (dstd::is_floating_point_v<S> && dstd::is_integral_v<D>
                         && !is_boolean_v<D>) {
        return Convert::template to<D>(s);
    } else if constexpr (is_complex_v<S> && dstd::is_integral_v<D> && !is_boolean_v<D>) {
        return Convert::template to<D>(s.real());
    } else if constexpr (is_complex_v<S>) {
        if constexpr (is_boolean_v<D>) {
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

// --- ascending order: NaNs last, complex numbers lexicographically (sorts, arg-reductions) ---
// Complex numbers in NumPy's order (its sorts' CLT): by real part, then imaginary part, a NaN
// part after every number, so R + Rj < R + nanj < nan + Rj < nan + nanj.
template <class T> AX_HD bool ascending(T a, T b) {
    if constexpr (is_complex_v<T>) {
        const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
        if (ar < br) return ai == ai || bi != bi;
        if (ar > br) return bi != bi && ai == ai;
        if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
        return br != br;
    } else if constexpr (dstd::is_floating_point_v<T>) {
        if (b != b) return a == a;
        return a < b;
    } else {
        return a < b;
    }
}

AX_MATH_END
