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
    else return -a;
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
    if constexpr (is_complex_v<T>) return dstd::conj(a);
    else return a;
}

// --- rounding (identity on integers) ---------------------------------------------------------
template <class T> AX_HD T ceil_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return dstd::ceil(a); else return a;
}
template <class T> AX_HD T floor_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return dstd::floor(a); else return a;
}
template <class T> AX_HD T trunc_(T a) {
    if constexpr (dstd::is_floating_point_v<T>) return dstd::trunc(a); else return a;
}
// Half to even (the default rounding mode), each part of a complex number on its own.
template <class T> AX_HD T round_(T a) {
    if constexpr (is_complex_v<T>) return T(dstd::nearbyint(a.real()), dstd::nearbyint(a.imag()));
    else if constexpr (dstd::is_floating_point_v<T>) return dstd::nearbyint(a);
    else return a;
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
            const T s(a.real() / m, a.imag() / m);
            return s / T(dstd::hypot(s.real(), s.imag()), V(0));
        }
        return a / T(h, V(0));
    } else if constexpr (dstd::is_floating_point_v<T>) {
        if (dstd::isnan(a)) return a;
        return static_cast<T>((a > 0) - (a < 0));
    } else if constexpr (dstd::is_unsigned_v<T>) {
        return static_cast<T>(a > 0);
    } else {
        return static_cast<T>((a > 0) - (a < 0));
    }
}

template <class T> AX_HD T reciprocal_(T a) { return T(1) / a; }

// --- real transcendental functions within one ULP of the correctly rounded result ------------
// On the CPU a real function is evaluated in a wider type and rounded once: float in double,
// and double in x87 long double (64-bit significand) for the functions where glibc's double
// version strays up to 2 ULP (sinh, cosh, tanh, asinh, acosh, atanh, log10; the others are
// within 1). The wider result is within a few of its own ULPs, 2^-11 of the narrow type's ULP
// or less, so the rounded result is within 0.5 + 2^-11 ULP of the true value. Complex
// arguments, and every argument on the device, keep the type they come in.
template <class T> struct wide_type { using type = T; };
template <class T> struct extended_type { using type = T; };
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
template <> struct wide_type<float> { using type = double; };
template <> struct extended_type<float> { using type = double; };
#if defined(__x86_64__) || defined(__i386__)
template <> struct extended_type<double> { using type = long double; };
#endif
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
// complex<double> there, and overflow to infinity for large |z|. On the device they are
// computed in complex<double> by Kahan's formulas ("Branch cuts for complex elementary
// functions", 1987), which take square roots of 1 +- z and real atan2 and asinh only: no
// cancellation, no overflow below the largest double, and the branch cuts' signed zeros kept.
// The host's std::complex is accurate and keeps its own.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace complex_device {
using D = dstd::complex<double>;
// 1 - z and 1 + z part by part: (1, 0) - (x, 0) would give the imaginary part +0, not -0.
AX_HD D one_minus(D z) { return D(1.0 - z.real(), -z.imag()); }
AX_HD D one_plus(D z) { return D(1.0 + z.real(), z.imag()); }
AX_HD D asin_d(D z) {
    const D a = dstd::sqrt(one_minus(z)), b = dstd::sqrt(one_plus(z));
    return D(dstd::atan2(z.real(), (a * b).real()), dstd::asinh((dstd::conj(a) * b).imag()));
}
AX_HD D acos_d(D z) {
    const D a = dstd::sqrt(one_minus(z)), b = dstd::sqrt(one_plus(z));
    return D(2.0 * dstd::atan2(a.real(), b.real()), dstd::asinh((dstd::conj(b) * a).imag()));
}
AX_HD D asinh_d(D z) {  // asinh(z) = -i asin(iz)
    const D w = asin_d(D(-z.imag(), z.real()));
    return D(w.imag(), -w.real());
}
AX_HD D acosh_d(D z) {
    if (z.real() == 0 && dstd::isnan(z.imag())) return D(z.imag(), 1.57079632679489661923);
    const D a = dstd::sqrt(D(z.real() - 1.0, z.imag())), b = dstd::sqrt(one_plus(z));
    return D(dstd::asinh((dstd::conj(a) * b).real()), 2.0 * dstd::atan2(a.imag(), b.real()));
}
}  // namespace complex_device
#define AX_COMPLEX_INVERSE(NAME, FN)                                                          \
    template <class T> AX_HD T NAME(T a) {                                                    \
        if constexpr (is_complex_v<T>)                                                        \
            return static_cast<T>(complex_device::FN##_d(complex_device::D(a)));              \
        else return static_cast<T>(dstd::FN(static_cast<typename wide_type<T>::type>(a)));   \
    }
#else
#define AX_COMPLEX_INVERSE(NAME, FN) AX_WIDE_1(NAME, FN, wide_type)
#endif
AX_COMPLEX_INVERSE(acos_, acos)
AX_COMPLEX_INVERSE(asin_, asin)
AX_WIDE_1(atan_, atan, wide_type)
AX_WIDE_1(cos_, cos, wide_type)
AX_WIDE_1(sin_, sin, wide_type)
AX_WIDE_1(tan_, tan, wide_type)
AX_WIDE_1(exp_, exp, wide_type)
AX_WIDE_1(log_, log, wide_type)
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
AX_COMPLEX_INVERSE(acosh_, acosh)
AX_COMPLEX_INVERSE(asinh_, asinh)
#else
AX_WIDE_1(acosh_, acosh, extended_type)
AX_WIDE_1(asinh_, asinh, extended_type)
#endif
#undef AX_COMPLEX_INVERSE
AX_WIDE_1(atanh_, atanh, extended_type)
AX_WIDE_1(cosh_, cosh, extended_type)
AX_WIDE_1(sinh_, sinh, extended_type)
AX_WIDE_1(log10_, log10, extended_type)
AX_WIDE_2(atan2_, atan2, wide_type)
AX_WIDE_2(hypot_, hypot, wide_type)
#undef AX_WIDE_1
#undef AX_WIDE_2

// --- exponentials and logarithms of complex numbers the standard library lacks ---------------
template <class T> AX_HD T expm1_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V x = a.real(), y = a.imag();
        if (!dstd::isfinite(x) || !dstd::isfinite(y)) return dstd::exp(a) - T(1);
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
        return dstd::log(T(1 + x, y));
    } else {
        return static_cast<T>(dstd::log1p(static_cast<typename wide_type<T>::type>(a)));
    }
}
template <class T> AX_HD T log2_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const T l = dstd::log(a);
        return T(l.real() / dstd::log(V(2)), l.imag() / dstd::log(V(2)));
    } else {
        return static_cast<T>(dstd::log2(static_cast<typename wide_type<T>::type>(a)));
    }
}

// tanh(+-inf + iy) for finite y is +-1 with a zero imaginary part of y's sign (the standard's
// special case; C's ctanh takes the zero's sign from sin(2y)).
template <class T> AX_HD T tanh_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        if (dstd::isinf(a.real()) && dstd::isfinite(a.imag()))
            return T(dstd::copysign(V(1), a.real()), dstd::copysign(V(0), a.imag()));
        // tanh(+-0 + i inf) and tanh(+-0 + i NaN) are +-0 + i NaN (libcu++ gives NaN + i NaN).
        if (a.real() == V(0) && !dstd::isfinite(a.imag()))
            return T(a.real(), dstd::numeric_limits<V>::quiet_NaN());
        return dstd::tanh(a);
    } else {
        return static_cast<T>(dstd::tanh(static_cast<typename extended_type<T>::type>(a)));
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
template <class T> AX_HD bool ascending(T a, T b) {
    if constexpr (is_complex_v<T>) {
        if (is_nan(b)) return !is_nan(a);
        if (is_nan(a)) return false;
        return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    } else if constexpr (dstd::is_floating_point_v<T>) {
        if (b != b) return a == a;
        return a < b;
    } else {
        return a < b;
    }
}

AX_MATH_END
