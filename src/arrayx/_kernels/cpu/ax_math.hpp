// Scalar helpers for the op expressions of ops.py, defined for every dtype they accept.
#pragma once
#include <cmath>
#include <limits>
#include "ax_types.hpp"

// The width of the level's vector registers: SSE2 or NEON at the baseline, AVX2, AVX-512.
#if defined(__AVX512F__)
#define AX_VEC_BYTES 64
#elif defined(__AVX2__)
#define AX_VEC_BYTES 32
#else
#define AX_VEC_BYTES 16
#endif

AX_LEVEL_BEGIN

// Full-width lanes of T (GCC and Clang vector extensions), loaded from unaligned memory.
template <class T> struct vec_of {
    typedef T type __attribute__((vector_size(AX_VEC_BYTES)));
};
template <class T> using vec_t = typename vec_of<T>::type;
template <class T> inline constexpr int vec_width = AX_VEC_BYTES / sizeof(T);
template <class T> inline vec_t<T> vload(const T* p) {
    vec_t<T> v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T> inline void vstore(T* p, vec_t<T> v) { std::memcpy(p, &v, sizeof v); }

template <class T> struct real_of { using type = T; };
template <class V> struct real_of<std::complex<V>> { using type = V; };
template <class T> using real_t = typename real_of<T>::type;

// --- integer arithmetic wraps modulo 2^bits, as NumPy's does ----------------------------------
// It runs in the unsigned type of the operands' promoted width: signed overflow is undefined in
// C++, and so is a product of two uint16 values promoted to int.
template <class T> using wrap_t = std::make_unsigned_t<decltype(+T())>;
template <class T> inline T add_(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
    else return a + b;
}
template <class T> inline T sub_(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
    else return a - b;
}
template <class T> inline T mul_(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
    else return a * b;
}
template <class T> inline T neg(T a) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(-static_cast<wrap_t<T>>(a));
    else return -a;
}

template <class T> inline real_t<T> absolute(T a) {
    if constexpr (is_complex_v<T>) return std::hypot(a.real(), a.imag());
    else if constexpr (std::is_unsigned_v<T>) return a;
    else if constexpr (std::is_integral_v<T>) return a < 0 ? neg(a) : a;
    else return std::fabs(a);
}
template <class T> inline T invert(T a) {
    if constexpr (std::is_same_v<T, bool8>) return !a;
    else return static_cast<T>(~a);
}
template <class T> inline T bit_and(T a, T b) { return static_cast<T>(a & b); }
template <class T> inline T bit_or(T a, T b) { return static_cast<T>(a | b); }
template <class T> inline T bit_xor(T a, T b) { return static_cast<T>(a ^ b); }
template <class T> inline bool is_nan(T a) {
    if constexpr (is_complex_v<T>) return std::isnan(a.real()) || std::isnan(a.imag());
    else if constexpr (std::is_floating_point_v<T>) return std::isnan(a);
    else return false;
}
template <class T> inline bool is_inf(T a) {
    if constexpr (is_complex_v<T>) return std::isinf(a.real()) || std::isinf(a.imag());
    else if constexpr (std::is_floating_point_v<T>) return std::isinf(a);
    else return false;
}
template <class T> inline bool is_finite(T a) {
    if constexpr (is_complex_v<T>) return std::isfinite(a.real()) && std::isfinite(a.imag());
    else if constexpr (std::is_floating_point_v<T>) return std::isfinite(a);
    else return true;
}
template <class T> inline real_t<T> real_part(T a) {
    if constexpr (is_complex_v<T>) return a.real();
    else return a;
}
template <class T> inline real_t<T> imag_part(T a) {
    if constexpr (is_complex_v<T>) return a.imag();
    else return real_t<T>(0);
}
template <class T> inline T conjugate(T a) {
    if constexpr (is_complex_v<T>) return std::conj(a);
    else return a;
}

AX_LEVEL_END

AX_LEVEL_BEGIN

// --- rounding (identity on integers) ---------------------------------------------------------
template <class T> inline T ceil_(T a) {
    if constexpr (std::is_floating_point_v<T>) return std::ceil(a); else return a;
}
template <class T> inline T floor_(T a) {
    if constexpr (std::is_floating_point_v<T>) return std::floor(a); else return a;
}
template <class T> inline T trunc_(T a) {
    if constexpr (std::is_floating_point_v<T>) return std::trunc(a); else return a;
}
// Half to even (the default rounding mode), each part of a complex number on its own.
template <class T> inline T round_(T a) {
    if constexpr (is_complex_v<T>) return T(std::nearbyint(a.real()), std::nearbyint(a.imag()));
    else if constexpr (std::is_floating_point_v<T>) return std::nearbyint(a);
    else return a;
}

template <class T> inline T sign_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V n = std::numeric_limits<V>::quiet_NaN();
        if (std::isnan(a.real()) || std::isnan(a.imag())) return T(n, n);
        // One infinite part points along its axis (as NumPy); two make inf/inf, NaN.
        if (std::isinf(a.real()) && std::isinf(a.imag())) return T(n, n);
        if (std::isinf(a.real())) return T(std::copysign(V(1), a.real()), std::copysign(V(0), a.imag()));
        if (std::isinf(a.imag())) return T(std::copysign(V(0), a.real()), std::copysign(V(1), a.imag()));
        if (a.real() == 0 && a.imag() == 0) return T(0, 0);
        return a / T(std::hypot(a.real(), a.imag()), V(0));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return a;
        return static_cast<T>((a > 0) - (a < 0));
    } else if constexpr (std::is_unsigned_v<T>) {
        return static_cast<T>(a > 0);
    } else {
        return static_cast<T>((a > 0) - (a < 0));
    }
}

template <class T> inline T reciprocal_(T a) { return T(1) / a; }

// --- exponentials and logarithms of complex numbers the standard library lacks ---------------
template <class T> inline T expm1_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V x = a.real(), y = a.imag();
        if (!std::isfinite(x) || !std::isfinite(y)) return std::exp(a) - T(1);
        if (x == 0 && y == 0) return T(V(0), y);
        const V s = std::sin(y / 2);
        return T(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
    } else {
        return std::expm1(a);
    }
}
template <class T> inline T log1p_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const V x = a.real(), y = a.imag();
        if (std::isfinite(x) && std::isfinite(y) && std::fabs(x) < V(0.5) && std::fabs(y) < V(0.5)) {
            // log|1 + z| = 0.5 * log1p(2x + x^2 + y^2), accurate for small z.
            return T(V(0.5) * std::log1p(x * (2 + x) + y * y), std::atan2(y, 1 + x));
        }
        // 1 + x on the real part alone: adding a complex 1 would turn an imaginary -0 into +0.
        return std::log(T(1 + x, y));
    } else {
        return std::log1p(a);
    }
}
template <class T> inline T log2_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        const T l = std::log(a);
        return T(l.real() / std::log(V(2)), l.imag() / std::log(V(2)));
    } else {
        return std::log2(a);
    }
}

// tanh(+-inf + iy) for finite y is +-1 with a zero imaginary part of y's sign (the standard's
// special case; C's ctanh takes the zero's sign from sin(2y)).
template <class T> inline T tanh_(T a) {
    if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        if (std::isinf(a.real()) && std::isfinite(a.imag()))
            return T(std::copysign(V(1), a.real()), std::copysign(V(0), a.imag()));
    }
    return std::tanh(a);
}

template <class T> inline T logaddexp_(T a, T b) {
    if (a == b) return a + static_cast<T>(0.693147180559945309417232121458176568);
    const T d = a - b;
    if (d > 0) return a + std::log1p(std::exp(-d));
    if (d <= 0) return b + std::log1p(std::exp(d));
    return d;  // NaN
}

// --- maximum and minimum propagate NaNs ------------------------------------------------------
// NaN-propagating; written as one select so that loops over them vectorise.
// Over bool (the folds' any and all), the result is a canonical 0 or 1 byte.
template <class T> inline T maximum_(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return ((a > b) | (a != a)) ? a : b;
    else if constexpr (std::is_same_v<T, bool8>) return T(a || b);
    else return a > b ? a : b;
}
template <class T> inline T minimum_(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return ((a < b) | (a != a)) ? a : b;
    else if constexpr (std::is_same_v<T, bool8>) return T(a && b);
    else return a < b ? a : b;
}

// --- shifts: counts outside [0, bits) give 0 (or -1 for a negative value shifted right) -----
template <class T> inline T lshift(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return T(0);
    return static_cast<T>(static_cast<U>(a) << b);
}
template <class T> inline T rshift(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) {
        if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
        else return T(0);
    }
    return static_cast<T>(a >> b);
}

// --- floor division and remainder (Python's semantics; x // 0 and x % 0 are 0 for integers) --
template <class T> inline T floor_div(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (b == 0 || std::isinf(a) || std::isinf(b) || a != a || b != b) return std::floor(a / b);
        T mod = std::fmod(a, b);
        T div = (a - mod) / b;
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
        if (div != 0) {
            T fl = std::floor(div);
            if (div - fl > T(0.5)) fl += T(1);
            return fl;
        }
        return std::copysign(T(0), a / b);
    } else if constexpr (std::is_unsigned_v<T>) {
        return b == 0 ? T(0) : static_cast<T>(a / b);
    } else {
        if (b == 0) return T(0);
        if (b == T(-1)) return neg(a);
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
        return q;
    }
}
template <class T> inline T remainder_(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        T mod = std::fmod(a, b);
        if (b == 0) return mod;
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) mod += b;
        } else {
            mod = std::copysign(T(0), b);
        }
        return mod;
    } else if constexpr (std::is_unsigned_v<T>) {
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
template <class V> inline std::complex<V> cmul_(std::complex<V> a, std::complex<V> b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// Smith's division, as NumPy's complex quotient.
template <class V> inline std::complex<V> cdiv_(std::complex<V> a, std::complex<V> b) {
    const V ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const V abr = std::fabs(br), abi = std::fabs(bi);
    if (abr >= abi) {
        if (abr == 0 && abi == 0) return {ar / abr, ai / abi};
        const V rat = bi / br, scl = V(1) / (br + bi * rat);
        return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
    }
    const V rat = br / bi, scl = V(1) / (bi + br * rat);
    return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
template <class V> inline std::complex<V> cpower(std::complex<V> a, std::complex<V> b) {
    using C = std::complex<V>;
    const V br = b.real(), bi = b.imag();
    if (br == 0 && bi == 0) return C(1, 0);
    if (a.real() == 0 && a.imag() == 0) {
        if (br > 0) return C(0, 0);
        const V n = std::numeric_limits<V>::quiet_NaN();
        return C(n, n);
    }
    if (bi == 0 && std::fabs(br) < 100 && br == std::trunc(br)) {
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
    return std::pow(a, b);
}

template <class T> inline T power(T a, T b) {
    if constexpr (is_complex_v<T>) {
        return cpower(a, b);
    } else if constexpr (std::is_floating_point_v<T>) {
        return std::pow(a, b);
    } else {
        if constexpr (std::is_signed_v<T>) {
            if (b < 0) {
                if (a == 1) return T(1);
                if (a == -1) return (b & 1) ? T(-1) : T(1);
                return T(0);
            }
        }
        using U = wrap_t<T>;
        U base = static_cast<U>(a), result = 1;
        auto e = static_cast<std::make_unsigned_t<T>>(b);
        while (e) {
            if (e & 1) result = static_cast<U>(result * base);
            base = static_cast<U>(base * base);
            e >>= 1;
        }
        return static_cast<T>(result);
    }
}

AX_LEVEL_END
