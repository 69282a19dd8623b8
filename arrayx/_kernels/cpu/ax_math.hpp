// Scalar helpers for the op expressions of ops.py, defined for every dtype they accept.
#pragma once
#include <cmath>
#include "ax_types.hpp"

namespace ax {

template <class T> struct real_of { using type = T; };
template <class V> struct real_of<std::complex<V>> { using type = V; };
template <class T> using real_t = typename real_of<T>::type;

template <class T> inline real_t<T> absolute(T a) {
    if constexpr (is_complex_v<T>) return std::hypot(a.real(), a.imag());
    else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return a;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(a < 0 ? -a : a);
    else return std::fabs(a);
}
template <class T> inline T neg(T a) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a) );
    else return -a;
}
template <> inline bool neg<bool>(bool a) { return a; }
template <class T> inline T invert(T a) {
    if constexpr (std::is_same_v<T, bool>) return !a;
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

}  // namespace ax
