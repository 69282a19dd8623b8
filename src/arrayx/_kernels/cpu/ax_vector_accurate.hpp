// Float64 vector functions within one ULP of the correctly rounded result, for the ops whose
// speed the benchmarks hold against NumPy's own SIMD loops (libmvec's versions stray up to 3
// ULP). Included by ax_vector_math.hpp at the AVX2 and AVX-512 levels, where ax_mvd is the
// level's vector of doubles. The method is SLEEF's u10 one: a reduction that loses nothing
// (Cody-Waite with FMA, the rounding error kept as a second double), a polynomial whose own
// rounding stays far below the result's ULP, and the last additions as double-double sums, so
// that nearly all of the error is the final rounding.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

AX_LEVEL_BEGIN

typedef int64_t ax_mvi __attribute__((vector_size(sizeof(ax_mvd))));
// Lanes as unsigned: the bit arithmetic on doubles (exponent fields, sign bits) wraps here,
// where it would overflow int64 (undefined) for lanes left to the C library (NaN, huge x).
typedef uint64_t ax_mvu __attribute__((vector_size(sizeof(ax_mvd))));

#if defined(__AVX512F__)
inline ax_mvd fma_v(ax_mvd a, ax_mvd b, ax_mvd c) { return _mm512_fmadd_pd(a, b, c); }
// max(a, b), or b where either is NaN (the instruction's rule).
inline ax_mvd max_v(ax_mvd a, ax_mvd b) { return _mm512_max_pd(a, b); }
inline ax_mvd sqrt_v(ax_mvd a) { return _mm512_sqrt_pd(a); }
inline bool any_lane(ax_mvi m) { return _mm512_movepi64_mask((__m512i)m) != 0; }
// 1 / d within about one ULP for d in [1, 2]: the 14-bit estimate refined twice by Newton's
// method (2^-28, then the rounding), where a division (vdivpd) blocks its unit for 16 cycles.
inline ax_mvd recip_v(ax_mvd d) {
    const ax_mvd one = ax_mvd{} + 1.0;
    ax_mvd r = _mm512_rcp14_pd(d);
    r = fma_v(r, fma_v(-d, r, one), r);
    return fma_v(r, fma_v(-d, r, one), r);
}
#else
inline ax_mvd fma_v(ax_mvd a, ax_mvd b, ax_mvd c) { return _mm256_fmadd_pd(a, b, c); }
inline ax_mvd max_v(ax_mvd a, ax_mvd b) { return _mm256_max_pd(a, b); }
inline ax_mvd sqrt_v(ax_mvd a) { return _mm256_sqrt_pd(a); }
inline bool any_lane(ax_mvi m) { return _mm256_movemask_pd((__m256d)m) != 0; }
inline ax_mvd recip_v(ax_mvd d) { return 1.0 / d; }  // no estimate instruction for doubles
#endif

// f over each lane, by the C library (the rare lanes the vector code leaves out).
template <class F> inline ax_mvd scalar_lanes(ax_mvd x, F f) {
    constexpr int W = sizeof(ax_mvd) / sizeof(double);
    double v[W];
    std::memcpy(v, &x, sizeof x);
    for (int k = 0; k < W; ++k) v[k] = f(v[k]);
    std::memcpy(&x, v, sizeof x);
    return x;
}

// The lanes of r where keep is set, f's C library values elsewhere.
template <class F> inline ax_mvd with_scalar(ax_mvd x, ax_mvd r, ax_mvi keep, F f) {
    if (!any_lane(~keep)) return r;
    const ax_mvd c = scalar_lanes(x, f);
    return (ax_mvd)(((ax_mvi)r & keep) | ((ax_mvi)c & ~keep));
}

// s + e == a + b exactly (Knuth's TwoSum).
inline void two_sum(ax_mvd a, ax_mvd b, ax_mvd& s, ax_mvd& e) {
    s = a + b;
    const ax_mvd bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

// Taylor coefficients, highest order first: 1/n! for n = 13..3 (e^x, after 1 + x + x^2/2), (-1)^m/(2m+1)! for
// 2m+1 = 19..3 (sin), (-1)^m/(2m)! for 2m = 20..4 (cos). The float32 kernels, which need
// 2^-36 of relative accuracy, take the tail from index LEAN.
constexpr double EXP_C[] = {0x1.6124613a86d09p-33, 0x1.1eed8eff8d898p-29, 0x1.ae64567f544e4p-26,
                            0x1.27e4fb7789f5cp-22, 0x1.71de3a556c734p-19, 0x1.a01a01a01a01ap-16,
                            0x1.a01a01a01a01ap-13, 0x1.6c16c16c16c17p-10, 0x1.1111111111111p-7,
                            0x1.5555555555555p-5, 0x1.5555555555555p-3};
constexpr double SIN_C[] = {-0x1.2f49b46814157p-57, 0x1.952c77030ad4ap-49,
                            -0x1.ae7f3e733b81fp-41, 0x1.6124613a86d09p-33,
                            -0x1.ae64567f544e4p-26, 0x1.71de3a556c734p-19,
                            -0x1.a01a01a01a01ap-13, 0x1.1111111111111p-7, -0x1.5555555555555p-3};
constexpr double COS_C[] = {0x1.e542ba4020225p-62, -0x1.6827863b97d97p-53,
                            0x1.ae7f3e733b81fp-45, -0x1.93974a8c07c9dp-37,
                            0x1.1eed8eff8d898p-29, -0x1.27e4fb7789f5cp-22,
                            0x1.a01a01a01a01ap-16, -0x1.6c16c16c16c17p-10, 0x1.5555555555555p-5};
constexpr int LEAN = 4;
// log1p(r)'s coefficients after r - r^2/2, highest order first: (-1)^(n+1)/n for n = 8..3.
constexpr double LOG1P_C[] = {-0.125, 0x1.2492492492492p-3, -0x1.5555555555555p-3,
                              0x1.999999999999ap-3, -0.25, 0x1.5555555555555p-2};

// The polynomial c[from] x^(N-1-from) + ... + c[N-1], by Horner's rule.
template <int N> inline ax_mvd horner(ax_mvd x, const double (&c)[N], int from = 0) {
    ax_mvd p = ax_mvd{} + c[from];
    for (int i = from + 1; i < N; ++i) p = fma_v(p, x, ax_mvd{} + c[i]);
    return p;
}

// e^x = 2^k (1 + t + p) for x = k ln2 + r: k as a double and as the scale 2^k (k in
// [-1022, 1023], so |x| <= 708), t the reduced argument r rounded, p the rest of e^r - 1
// (t^2/2 + ..., plus the reduction's rounding error times e^t; t^2 is taken exactly, as a
// double-double, so that p's error is its rounding alone). x - k L2H is exact by FMA: both
// are multiples of 2^-54 and their difference is below ln2. The series runs to t^13/13!
// (|t| <= ln2/2: the next term is below 2^-57).
struct exp_parts {
    ax_mvd scale, t, p;
};
inline exp_parts exp_reduce(ax_mvd x) {
    const ax_mvd shift = ax_mvd{} + 0x1.8p52, l2h = ax_mvd{} + 0x1.62e42fefa39efp-1;
    const ax_mvd z = fma_v(x, ax_mvd{} + 0x1.71547652b82fep0, shift);
    const ax_mvd k = z - shift;
    ax_mvd t, tl;
    two_sum(fma_v(-k, l2h, x), -k * 0x1.abc9e3b39803fp-56, t, tl);
    const ax_mvd q = horner(t, EXP_C);
    const ax_mvd t2 = t * t, t2_low = fma_v(t, t, -t2);
    const ax_mvu kb = (ax_mvu)z - (ax_mvu)shift;
    return {(ax_mvd)((kb + 1023) << 52), t,
            0.5 * t2 + fma_v(t2 * t, q, fma_v(tl, t, tl) + 0.5 * t2_low)};
}

// e^x within 0.6 ULP: 1 + t exactly as a double-double (Fast2Sum), then the rest.
inline ax_mvd exp_accurate(ax_mvd x) {
    const ax_mvi outside = ~((ax_mvi)(x < 708.0) & (ax_mvi)(x > -708.0));
    const exp_parts e = exp_reduce(x);
    const ax_mvd h = 1.0 + e.t;
    const ax_mvd r = (h + (((1.0 - h) + e.t) + e.p)) * e.scale;
    if (any_lane(outside)) {
        // In the vector, as the C library computes them: 0 where e^x rounds to 0 (x below
        // -1075 ln2, -inf included), +inf where it overflows (x above ln(DBL_MAX), +inf
        // included), 1 + x for a NaN; so masked softmax inputs (-inf) keep full speed.
        // Subnormal results and those near the overflow go to the C library.
        const ax_mvd zero = ax_mvd{};
        const ax_mvi low = (ax_mvi)(x < -745.2), high = (ax_mvi)(x > 709.79);
        const ax_mvd special = x < -745.2 ? zero : x > 709.79 ? zero + __builtin_inf() : 1.0 + x;
        const ax_mvi handled = outside & (low | high | (ax_mvi)(x != x));
        ax_mvd out = (ax_mvd)(((ax_mvi)special & handled) | ((ax_mvi)r & ~handled));
        const ax_mvi rest = outside & ~handled;
        if (any_lane(rest)) {
            const ax_mvd s = scalar_lanes(x, [](double v) { return std::exp(v); });
            out = (ax_mvd)(((ax_mvi)s & rest) | ((ax_mvi)out & ~rest));
        }
        return out;
    }
    return r;
}

// tanh x from E = e^(-2|x|) - 1 as a double-double: tanh|x| = -E / (E + 2), with x's sign put
// back (so -0 stays -0). E = (2^k - 1) + 2^k (t + p), renormalised as a double-double;
// the quotient -E * (1 / (E + 2)) is corrected once for E's low part and the roundings of
// E + 2 (exact by Fast2Sum, |E| <= 1) and of the quotient (its residual exact by FMA), the
// correction scaled by the same reciprocal: one reciprocal (recip_v) where two divisions took
// 2.45 ns an element on one core of the Xeon. -2|x| is clamped at -40, where tanh is 1 (it
// is from |x| > 19.1).
inline ax_mvd tanh_accurate(ax_mvd x) {
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    ax_mvd y = (ax_mvd)((ax_mvi)x ^ sign) * -2.0;
    y = y < -40.0 ? ax_mvd{} - 40.0 : y;
    const exp_parts e = exp_reduce(y);
    ax_mvd a, al, s, sl, eh, el;
    two_sum(e.scale, ax_mvd{} - 1.0, a, al);
    two_sum(a, e.scale * e.t, s, sl);
    two_sum(s, sl + al + e.scale * e.p, eh, el);
    const ax_mvd d = eh + 2.0;
    const ax_mvd dl = ((2.0 - d) + eh) + el;
    const ax_mvd inv = recip_v(d);
    const ax_mvd q = -eh * inv;
    const ax_mvd rest = fma_v(-q, d, -eh) - el - q * dl;
    const ax_mvd r = (ax_mvd)((ax_mvi)fma_v(rest, inv, q) | sign);
    return x == x ? r : x;
}

// sinh x (MINUS) or cosh x from E+ = e^|x| and E- = e^-|x|, each 2^k (1 + t + p) by
// exp_reduce: (E+ -+ E-) / 2 summed as a double-double (2^k t is exact, each sum by TwoSum,
// the low parts and p's added last) and rounded once. Near 0, where sinh's difference cancels,
// its leading part 2^0 t+ - 2^0 t- = 2|x| is exact and p+ - p- carries the odd terms. |x|
// from 708 (where 2^k leaves the normal range), infinities and NaN go to the C library in long
// double (as the scalar kernel). sinh keeps x's sign (so -0 stays -0).
template <bool MINUS> inline ax_mvd sinhcosh_accurate(ax_mvd x) {
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd a = (ax_mvd)((ax_mvi)x ^ sign);
    const ax_mvi outside = ~(ax_mvi)(a < 708.0);
    const ax_mvd safe = (ax_mvd)((ax_mvi)a & ~outside);
    const exp_parts up = exp_reduce(safe), down = exp_reduce(-safe);
    const ax_mvd other = MINUS ? -down.scale : down.scale;
    const ax_mvd other_t = MINUS ? -(down.scale * down.t) : down.scale * down.t;
    const ax_mvd other_p = MINUS ? -(down.scale * down.p) : down.scale * down.p;
    ax_mvd h, l1, l2, l3;
    two_sum(up.scale, other, h, l1);
    two_sum(h, up.scale * up.t, h, l2);
    two_sum(h, other_t, h, l3);
    ax_mvd r = 0.5 * (h + (((l1 + l2) + l3) + (up.scale * up.p + other_p)));
    if (MINUS) r = (ax_mvd)((ax_mvi)r | sign);
    return with_scalar(x, r, ~outside, [](double v) {
        return static_cast<double>(MINUS ? std::sinh(static_cast<long double>(v))
                                         : std::cosh(static_cast<long double>(v)));
    });
}
inline ax_mvd sinh_accurate(ax_mvd x) { return sinhcosh_accurate<true>(x); }
inline ax_mvd cosh_accurate(ax_mvd x) { return sinhcosh_accurate<false>(x); }

// x + c2 x^2 + c3 x^3 by one FMA where |x| is below 2^-26 (correctly rounded: the next term
// is at most 2^-80 of x), x itself below 2^-54 (so -0 stays -0), r elsewhere: the tiny
// arguments of expm1 and log1p.
inline ax_mvd tiny_series(ax_mvd x, ax_mvd r, double c2, double c3) {
    const ax_mvd magnitude = (ax_mvd)((ax_mvi)x & ~(ax_mvi)(-ax_mvd{}));
    r = magnitude < 0x1p-26 ? fma_v(x, x * fma_v(x, ax_mvd{} + c3, ax_mvd{} + c2), x) : r;
    return magnitude < 0x1p-54 ? x : r;
}

// e^x - 1 as tanh's E: (2^k - 1) + 2^k t + 2^k p, summed as a double-double and rounded
// once; tiny x by its series x + x^2/2 + x^3/6 (tiny_series). |x| from 708, infinities and NaN
// go to the C library.
inline ax_mvd expm1_accurate(ax_mvd x) {
    const ax_mvi outside = ~((ax_mvi)(x < 708.0) & (ax_mvi)(x > -708.0));
    const exp_parts e = exp_reduce((ax_mvd)((ax_mvi)x & ~outside));
    ax_mvd a, al, b, bl;
    two_sum(e.scale, ax_mvd{} - 1.0, a, al);
    two_sum(a, e.scale * e.t, b, bl);
    const ax_mvd r = tiny_series(x, b + ((al + bl) + e.scale * e.p), 0.5, 0x1.5555555555555p-3);
    return with_scalar(x, r, ~outside, [](double v) { return std::expm1(v); });
}

// The lanes of a logarithm outside the normal positive range, in the vector as the C library
// computes them: log(+-0) = -inf, log(+inf) = +inf, and (x - x) / (x - x) for a negative x or
// a NaN (the invalid NaN, or the NaN itself), so negative data keeps full speed; subnormal
// lanes alone go to the C library's `scalar`.
template <class F> inline ax_mvd log_outside(ax_mvd x, ax_mvd r, ax_mvi outside, F scalar) {
    const ax_mvd zero = ax_mvd{};
    const ax_mvd special = x == zero ? zero - __builtin_inf()
                         : x == zero + __builtin_inf() ? x : (x - x) / (x - x);
    ax_mvd out = (ax_mvd)(((ax_mvi)special & outside) | ((ax_mvi)r & ~outside));
    const ax_mvi subnormal = outside & (ax_mvi)(x > zero) & (ax_mvi)(x < 0x1p-1022);
    if (any_lane(subnormal)) {
        const ax_mvd c = scalar_lanes(x, scalar);
        out = (ax_mvd)(((ax_mvi)c & subnormal) | ((ax_mvi)out & ~subnormal));
    }
    return out;
}

// log x by fdlibm's method (e_log.c): x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1
// (exact), log m = f - f^2/2 + s (f^2/2 + R(s^2)) with s = f / (2 + f), and k ln2 in two parts
// (the high one with trailing zeros, so k ln2_hi is exact). Zero, negative and non-finite
// lanes take the C library's values in the vector; subnormal lanes go to the C library.
// log_reduce gives its pieces: k, f, s, f^2/2 and R(s^2).
constexpr double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
struct log_parts {
    ax_mvd k, f, s, hfsq, R;
    ax_mvi outside;
};
inline log_parts log_reduce(ax_mvd x) {
    const ax_mvi outside = ~((ax_mvi)(x >= 0x1p-1022) & (ax_mvi)(x <= 0x1.fffffffffffffp1023));
    const ax_mvi shift = (ax_mvi)(ax_mvd{} + 0x1.8p52);
    const ax_mvi e = (ax_mvi)((ax_mvu)x - 0x3fe6a09e667f3bcd) >> 52;
    const ax_mvd f = (ax_mvd)((ax_mvu)x - ((ax_mvu)e << 52)) - 1.0;
    const ax_mvd k = (ax_mvd)(e + shift) - (ax_mvd)shift;
    const ax_mvd s = f / (2.0 + f);
    const ax_mvd z = s * s, w = z * z;
    const ax_mvd t1 = w * fma_v(w, fma_v(w, ax_mvd{} + 1.531383769920937332e-01,
                                         ax_mvd{} + 2.222219843214978396e-01),
                                ax_mvd{} + 3.999999999940941908e-01);
    const ax_mvd t2 = z * fma_v(w, fma_v(w, fma_v(w, ax_mvd{} + 1.479819860511658591e-01,
                                                  ax_mvd{} + 1.818357216161805012e-01),
                                         ax_mvd{} + 2.857142874366239149e-01),
                                ax_mvd{} + 6.666666666666735130e-01);
    return {k, f, s, 0.5 * f * f, t1 + t2, outside};
}

inline ax_mvd log_accurate(ax_mvd x) {
    const log_parts p = log_reduce(x);
    const ax_mvd r = p.k * LN2_HI - ((p.hfsq - fma_v(p.s, p.hfsq + p.R, p.k * LN2_LO)) - p.f);
    if (any_lane(p.outside))
        return log_outside(x, r, p.outside, [](double v) { return std::log(v); });
    return r;
}

// log x from its pieces as a double-double h + l: k ln2_hi exact, f - f^2/2 exact by TwoSum
// and FMA, the series and k ln2_lo in l.
inline void log_double(const log_parts& p, ax_mvd& h, ax_mvd& l) {
    ax_mvd b, bl, hl;
    two_sum(p.f, -p.hfsq, b, bl);
    bl -= fma_v(0.5 * p.f, p.f, -p.hfsq);
    two_sum(p.k * LN2_HI, b, h, hl);
    l = hl + (bl + fma_v(p.s, p.hfsq + p.R, p.k * LN2_LO));
}

// log x times C = c_hi + c_lo (1/ln 2 for log2, 1/ln 10 for log10) within one ULP: log x as
// a double-double, then the product with C as a double-double, rounded once.
template <class F>
inline ax_mvd log_scaled(ax_mvd x, double c_hi, double c_lo, F scalar) {
    const log_parts p = log_reduce(x);
    ax_mvd h, l;
    log_double(p, h, l);
    const ax_mvd hi = h * c_hi;
    const ax_mvd r = hi + (fma_v(h, ax_mvd{} + c_hi, -hi) + fma_v(h, ax_mvd{} + c_lo, l * c_hi));
    if (any_lane(p.outside)) return log_outside(x, r, p.outside, scalar);
    return r;
}

// log(1 + x) as log u + (x - (u - 1)) / u for u = 1 + x rounded (the correction restores
// what the rounding of u lost), log u a double-double; tiny x by its series x - x^2/2 + x^3/3
// (tiny_series: the correction's own rounding would not round it correctly). u at zero,
// negative, infinite or NaN takes log's special lanes (log1p(-1) = -inf, NaN below -1).
inline ax_mvd log1p_accurate(ax_mvd x) {
    const ax_mvd u = 1.0 + x;
    const log_parts p = log_reduce(u);
    ax_mvd h, l;
    log_double(p, h, l);
    const ax_mvd r = tiny_series(x, h + (l + (x - (u - 1.0)) / u), -0.5, 0x1.5555555555555p-2);
    if (any_lane(p.outside))
        return log_outside(u, r, p.outside, [](double v) { return std::log(v); });
    return r;
}

inline ax_mvd log2_accurate(ax_mvd x) {
    return log_scaled(x, 0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56,
                      [](double v) { return std::log2(v); });
}
inline ax_mvd log10_accurate(ax_mvd x) {
    return log_scaled(x, 0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57, [](double v) {
        return static_cast<double>(std::log10(static_cast<long double>(v)));
    });
}

// log(s + sl) as a double-double h + l, for s normal and positive and |sl| at most an ULP of
// s: log s by log_double, and log(1 + sl / s) = sl / s to 2^-105.
inline void log_of_double(ax_mvd s, ax_mvd sl, ax_mvd& h, ax_mvd& l) {
    log_double(log_reduce(s), h, l);
    l += sl / s;
}

// The square root of t + tl (t >= 0, |tl| at most an ULP of t) as a double-double q + ql: q
// rounded, and ql = (t - q^2 + tl) / 2q, t - q^2 exact by FMA (0 where t is 0).
inline void sqrt_double(ax_mvd t, ax_mvd tl, ax_mvd& q, ax_mvd& ql) {
    q = sqrt_v(t);
    const ax_mvd zero = ax_mvd{};
    ql = q > zero ? (fma_v(-q, q, t) + tl) / (2.0 * q) : zero;
}

// asinh|x| = log(|x| + sqrt(x^2 + 1)) and acosh x = log(x + sqrt(x^2 - 1)), the argument of the
// logarithm as a double-double (x^2 exact by FMA, the sums by TwoSum, the square root by
// sqrt_double) and its logarithm by log_of_double, rounded once; from 2^28, where 1/x^2 is
// below an ULP of the argument, the argument is 2|x| (exact). asinh puts x's sign back and
// takes tiny x by its series x - x^3/6 (tiny_series); acosh(1) is 0. Lanes from 2^1000,
// infinities, NaN and acosh's x below 1 go to the C library in long double (as the scalar
// kernel).
template <bool ACOSH> inline ax_mvd asinhacosh_accurate(ax_mvd x) {
    const ax_mvi sign = ACOSH ? ax_mvi{} : (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd a = (ax_mvd)((ax_mvi)x ^ sign);
    const ax_mvi outside = ACOSH ? ~((ax_mvi)(a >= 1.0) & (ax_mvi)(a < 0x1p1000))
                                 : ~(ax_mvi)(a < 0x1p1000);
    const ax_mvd one = ax_mvd{} + 1.0;
    const ax_mvd safe = (ax_mvd)(((ax_mvi)a & ~outside) | ((ax_mvi)one & outside));
    const ax_mvi big = (ax_mvi)(safe > 0x1p28);
    const ax_mvd b = (ax_mvd)((ax_mvi)safe & ~big);
    const ax_mvd sq = b * b;
    ax_mvd t, tl, q, ql, s, sl;
    two_sum(sq, ACOSH ? -one : one, t, tl);
    tl += fma_v(b, b, -sq);
    sqrt_double(t, tl, q, ql);
    two_sum(b, q, s, sl);
    sl += ql;
    s = (ax_mvd)(((ax_mvi)(2.0 * safe) & big) | ((ax_mvi)s & ~big));
    sl = (ax_mvd)((ax_mvi)sl & ~big);
    ax_mvd h, l;
    log_of_double(s, sl, h, l);
    ax_mvd r = h + l;
    if (!ACOSH) r = tiny_series(x, (ax_mvd)((ax_mvi)r | sign), 0.0, -0x1.5555555555555p-3);
    return with_scalar(x, r, ~outside, [](double v) {
        return static_cast<double>(ACOSH ? std::acosh(static_cast<long double>(v))
                                         : std::asinh(static_cast<long double>(v)));
    });
}
inline ax_mvd asinh_accurate(ax_mvd x) { return asinhacosh_accurate<false>(x); }
inline ax_mvd acosh_accurate(ax_mvd x) { return asinhacosh_accurate<true>(x); }

// atanh|x| = (log(1 + |x|) - log(1 - |x|)) / 2 for |x| < 1: 1 + |x| and 1 - |x| each as the
// rounded sum and what its rounding lost (Fast2Sum, exact), each logarithm by log_of_double,
// their difference by TwoSum (exact where the two nearly cancel, |x| small), rounded once;
// x's sign put back, tiny x by its series x + x^3/3. |x| from 1 and NaN go to the C library
// (infinities and NaN).
inline ax_mvd atanh_accurate(ax_mvd x) {
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd a = (ax_mvd)((ax_mvi)x ^ sign);
    const ax_mvi outside = ~(ax_mvi)(a < 1.0);
    const ax_mvd safe = (ax_mvd)((ax_mvi)a & ~outside);
    const ax_mvd u = 1.0 + safe, v = 1.0 - safe;
    ax_mvd hu, lu, hv, lv, d, dl;
    log_of_double(u, safe - (u - 1.0), hu, lu);
    log_of_double(v, (1.0 - v) - safe, hv, lv);
    two_sum(hu, -hv, d, dl);
    const ax_mvd r = 0.5 * (d + (dl + (lu - lv)));
    const ax_mvd out = tiny_series(x, (ax_mvd)((ax_mvi)r | sign), 0.0, 0x1.5555555555555p-2);
    return with_scalar(x, out, ~outside, [](double w) { return std::atanh(w); });
}

// x = q pi/2 + r: q = round(x 2/pi), also in the low bits of z, and the lanes whose |x| is
// above 10^5 (and NaN, infinities), which the C library takes.
struct quadrant {
    ax_mvd z, q;
    ax_mvi outside;
};
inline quadrant quadrant_of(ax_mvd x) {
    const ax_mvd shift = ax_mvd{} + 0x1.8p52;
    const ax_mvd z = fma_v(x, ax_mvd{} + 0x1.45f306dc9c883p-1, shift);
    return {z, z - shift, ~(ax_mvi)((ax_mvd)((ax_mvi)x & 0x7fffffffffffffff) <= 1e5)};
}

// sin x (COS false) or cos x (COS true) for |x| <= 10^5; other lanes go to the C library.
// reduce(q, sin_r, cos_r) gives sin r and cos r, and the quadrant q mod 4 picks one of them and
// the sign. sin(+-0) keeps its zero's sign.
template <bool COS, class Reduce> inline ax_mvd sincos_quadrant(ax_mvd x, Reduce reduce) {
    const quadrant qd = quadrant_of(x);
    ax_mvd sin_r, cos_r;
    reduce(qd.q, sin_r, cos_r);
    const ax_mvu n = (ax_mvu)qd.z + (COS ? 1 : 0);
    ax_mvd r = (n & 1) != 0 ? cos_r : sin_r;
    r = (ax_mvd)((ax_mvu)r ^ ((n & 2) << 62));
    if (!COS) r = x == 0.0 ? x : r;
    return with_scalar(x, r, ~qd.outside,
                       [](double v) { return COS ? std::cos(v) : std::sin(v); });
}

// sin r and cos r for float64 x = q pi/2 + r, each as a high part and a low one (not
// normalised): r = rh + rl, x - q A exact by FMA (both multiples of ulp(x) or 2^-53, the
// difference below 2^53 of them), and q B, q C (pi/2 = A + B + C to 2^-160) subtracted as a
// double-double. sin and cos of r by their series to r^19 and r^20 (|r| <= pi/4), with rl's
// first-order term and, for cos, 1 - r^2/2 taken exactly.
inline void sincos_double(ax_mvd x, ax_mvd q, ax_mvd& sh, ax_mvd& sl, ax_mvd& ch, ax_mvd& cl) {
    const ax_mvd qb = q * 0x1.1a62633145c07p-54;
    ax_mvd rh, rl;
    two_sum(fma_v(-q, ax_mvd{} + 0x1.921fb54442d18p+0, x), -qb, rh, rl);
    rl -= fma_v(q, ax_mvd{} + 0x1.1a62633145c07p-54, -qb) + q * -0x1.f1976b7ed8fbcp-110;
    const ax_mvd r2 = rh * rh, r2_low = fma_v(rh, rh, -r2);
    const ax_mvd ps = horner(r2, SIN_C), pc = horner(r2, COS_C);
    const ax_mvd half = 0.5 * r2;
    sh = rh;
    sl = fma_v(rl, 1.0 - half, rh * r2 * ps);
    ch = 1.0 - half;
    cl = (((1.0 - ch) - half) - 0.5 * r2_low) + fma_v(r2 * r2, pc, -rh * rl);
}

// sincos_quadrant for float64: sin r and cos r by sincos_double, each summed once.
template <bool COS> inline ax_mvd sincos_accurate(ax_mvd x) {
    return sincos_quadrant<COS>(x, [x](ax_mvd q, ax_mvd& sin_r, ax_mvd& cos_r) {
        ax_mvd sh, sl, ch, cl;
        sincos_double(x, q, sh, sl, ch, cl);
        sin_r = sh + sl;
        cos_r = ch + cl;
    });
}
inline ax_mvd sin_accurate(ax_mvd x) { return sincos_accurate<false>(x); }
inline ax_mvd cos_accurate(ax_mvd x) { return sincos_accurate<true>(x); }

// a + b as a normalised double-double (|l| at most half an ULP of h), for |a| >= |b|.
inline void fast_two_sum(ax_mvd a, ax_mvd b, ax_mvd& h, ax_mvd& l) {
    h = a + b;
    l = b - (h - a);
}

// tan x for |x| <= 10^5: sin r and cos r by sincos_double, each normalised as a
// double-double, and their quotient (sin r / cos r for an even quadrant, -cos r / sin r for an
// odd one, the divisor at least sin(pi/4) or |r| itself) as a double-double division, rounded
// once. tan(+-0) keeps its zero's sign; other lanes (and NaN, infinities) go to the C library.
inline ax_mvd tan_accurate(ax_mvd x) {
    const quadrant qd = quadrant_of(x);
    ax_mvd sh, sl, ch, cl;
    sincos_double(x, qd.q, sh, sl, ch, cl);
    fast_two_sum(sh, sl, sh, sl);
    fast_two_sum(ch, cl, ch, cl);
    const ax_mvi odd = (ax_mvi)(((ax_mvu)qd.z & 1) != 0);
    const ax_mvd nh = (ax_mvd)(((ax_mvi)(-ch) & odd) | ((ax_mvi)sh & ~odd));
    const ax_mvd nl = (ax_mvd)(((ax_mvi)(-cl) & odd) | ((ax_mvi)sl & ~odd));
    const ax_mvd dh = (ax_mvd)(((ax_mvi)sh & odd) | ((ax_mvi)ch & ~odd));
    const ax_mvd dl = (ax_mvd)(((ax_mvi)sl & odd) | ((ax_mvi)cl & ~odd));
    const ax_mvd t = nh / dh;
    ax_mvd r = t + ((fma_v(-t, dh, nh) + nl) - t * dl) / dh;
    r = x == 0.0 ? x : r;
    return with_scalar(x, r, ~qd.outside, [](double v) { return std::tan(v); });
}

// --- atan, atan2, asin, acos: one arctangent of a double-double quotient ----------------------

// atan(i / 64) for i = 0..64 as double-doubles, from the C library's long double (a 64-bit
// significand on x86: 2^-11 of a double's ULP).
struct atan_table {
    double hi[65], lo[65];
    atan_table() {
        for (int i = 0; i <= 64; ++i) {
            const long double v = std::atan(static_cast<long double>(i) / 64);
            hi[i] = static_cast<double>(v);
            lo[i] = static_cast<double>(v - hi[i]);
        }
    }
};
inline const atan_table ATAN_TABLE{};
inline ax_mvd lookup(const double* t, ax_mvi i) {
#if defined(__AVX512F__)
    return _mm512_i64gather_pd((__m512i)i, t, 8);
#else
    return _mm256_i64gather_pd(t, (__m256i)i, 8);
#endif
}
// pi / 2 and pi as double-doubles.
constexpr double PIO2_HI = 0x1.921fb54442d18p+0, PIO2_LO = 0x1.1a62633145c07p-54;
// atan(r)'s series after r, highest order first: (-1)^m / (2m+1) for 2m+1 = 11..3.
constexpr double ATAN_C[] = {-0x1.745d1745d1746p-4, 0x1.c71c71c71c71cp-4, -0x1.2492492492492p-3,
                             0x1.999999999999ap-3, -0x1.5555555555555p-2};

// (nh + nl) / (dh + dl) as a double-double h + l by one division: h = nh / dh rounded, and
// what it misses, the remainder nh - h dh (exact by FMA) plus the low parts, over dh.
inline void divide_double(ax_mvd nh, ax_mvd nl, ax_mvd dh, ax_mvd dl, ax_mvd& h, ax_mvd& l) {
    const ax_mvd inv = 1.0 / dh;
    h = nh * inv;
    l = ((fma_v(-h, dh, nh) + nl) - h * dl) * inv;
}

// atan((nh + nl) / (dh + dl)) as a double-double h + l, for 0 <= n <= d (d positive, the
// quotient not below 2^-1000): t = n / d as a double-double, c = i / 64 the nearest table
// point, atan t = atan c + atan r with r = (t - c) / (1 + t c) (|r| <= 2^-7; t - c exact, the
// divisor a double-double), atan r by its series to r^11, the sum a double-double.
inline void atan_ratio(ax_mvd nh, ax_mvd nl, ax_mvd dh, ax_mvd dl, ax_mvd& h, ax_mvd& l) {
    ax_mvd th, tl;
    divide_double(nh, nl, dh, dl, th, tl);
    const ax_mvd shift = ax_mvd{} + 0x1.8p52;
    const ax_mvd z = fma_v(th, ax_mvd{} + 64.0, shift);
    const ax_mvi i = (ax_mvi)z & 127;
    const ax_mvd c = (z - shift) * 0x1p-6;
    ax_mvd uh, ul, vh, vl;
    two_sum(th - c, tl, uh, ul);
    const ax_mvd p = th * c;
    fast_two_sum(ax_mvd{} + 1.0, p, vh, vl);
    vl += fma_v(th, c, -p) + tl * c;
    ax_mvd rh, rl;
    divide_double(uh, ul, vh, vl, rh, rl);
    const ax_mvd r2 = rh * rh;
    ax_mvd e;
    two_sum(lookup(ATAN_TABLE.hi, i), rh, h, e);
    l = e + (lookup(ATAN_TABLE.lo, i) + (rl + rh * r2 * horner(r2, ATAN_C)));
}

// c - (h + l) as a double-double (c = ch + cl, pi / 2 or pi, above h + l).
inline void from_angle(double ch, double cl, ax_mvd& h, ax_mvd& l) {
    ax_mvd e;
    two_sum(ax_mvd{} + ch, -h, h, e);
    l = e + (cl - l);
}

// atan(a / b) for a, b >= 0 as a double-double: atan_ratio of the smaller over the larger,
// from pi / 2 where a is the larger.
inline void atan_of(ax_mvd ah, ax_mvd al, ax_mvd bh, ax_mvd bl, ax_mvd& h, ax_mvd& l) {
    const ax_mvi swap = (ax_mvi)(ah > bh);
    const ax_mvd nh = (ax_mvd)(((ax_mvi)bh & swap) | ((ax_mvi)ah & ~swap));
    const ax_mvd nl = (ax_mvd)(((ax_mvi)bl & swap) | ((ax_mvi)al & ~swap));
    const ax_mvd dh = (ax_mvd)(((ax_mvi)ah & swap) | ((ax_mvi)bh & ~swap));
    const ax_mvd dl = (ax_mvd)(((ax_mvi)al & swap) | ((ax_mvi)bl & ~swap));
    atan_ratio(nh, nl, dh, dl, h, l);
    ax_mvd fh = h, fl = l;
    from_angle(PIO2_HI, PIO2_LO, fh, fl);
    h = (ax_mvd)(((ax_mvi)fh & swap) | ((ax_mvi)h & ~swap));
    l = (ax_mvd)(((ax_mvi)fl & swap) | ((ax_mvi)l & ~swap));
}

// atan x = atan(|x| / 1) with x's sign, tiny x by its series x - x^3/3; |x| from 2^1000,
// infinities and NaN go to the C library.
inline ax_mvd atan_accurate(ax_mvd x) {
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd a = (ax_mvd)((ax_mvi)x ^ sign);
    const ax_mvi keep = (ax_mvi)(a < 0x1p1000);
    const ax_mvd one = ax_mvd{} + 1.0, zero = ax_mvd{};
    ax_mvd h, l;
    atan_of((ax_mvd)((ax_mvi)a & keep), zero, one, zero, h, l);
    const ax_mvd r = tiny_series(x, (ax_mvd)((ax_mvi)(h + l) | sign), 0.0, -0x1.5555555555555p-2);
    return with_scalar(x, r, keep, [](double v) { return std::atan(v); });
}

// sqrt(1 - a^2) for 0 <= a < 1 as a double-double: 1 - a^2 exact as one (a^2 by FMA), then
// sqrt_double.
inline void cosine_of_sine(ax_mvd a, ax_mvd& h, ax_mvd& l) {
    const ax_mvd sq = a * a;
    ax_mvd t, tl;
    fast_two_sum(ax_mvd{} + 1.0, -sq, t, tl);
    tl -= fma_v(a, a, -sq);
    sqrt_double(t, tl, h, l);
}

// asin x = atan(|x| / sqrt(1 - x^2)) with x's sign, tiny x by its series x + x^3/6; acos x =
// atan(sqrt(1 - x^2) / |x|), from pi for a negative x. |x| from 1 and NaN go to the C library.
template <bool ACOS> inline ax_mvd asinacos_accurate(ax_mvd x) {
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd a = (ax_mvd)((ax_mvi)x ^ sign);
    const ax_mvi keep = (ax_mvi)(a < 1.0);
    const ax_mvd safe = (ax_mvd)((ax_mvi)a & keep), zero = ax_mvd{};
    ax_mvd ch, cl, h, l;
    cosine_of_sine(safe, ch, cl);
    ax_mvd r;
    if (ACOS) {
        atan_of(ch, cl, safe, zero, h, l);
        ax_mvd fh = h, fl = l;
        from_angle(2 * PIO2_HI, 2 * PIO2_LO, fh, fl);
        const ax_mvi negative = sign != 0;
        r = (ax_mvd)(((ax_mvi)(fh + fl) & negative) | ((ax_mvi)(h + l) & ~negative));
    } else {
        atan_of(safe, zero, ch, cl, h, l);
        r = tiny_series(x, (ax_mvd)((ax_mvi)(h + l) | sign), 0.0, 0x1.5555555555555p-3);
    }
    return with_scalar(x, r, keep, [](double v) { return ACOS ? std::acos(v) : std::asin(v); });
}
inline ax_mvd asin_accurate(ax_mvd x) { return asinacos_accurate<false>(x); }
inline ax_mvd acos_accurate(ax_mvd x) { return asinacos_accurate<true>(x); }

// atan2(y, x) = atan(|y| / |x|), from pi for a negative x, with y's sign. Lanes where |x| or
// |y| is outside [2^-500, 2^500] (zeros, infinities and NaN among them) go to the C library.
inline ax_mvd atan2_accurate(ax_mvd y, ax_mvd x) {
    const ax_mvi abs_mask = ~(ax_mvi)(-ax_mvd{});
    const ax_mvi ysign = (ax_mvi)y & ~abs_mask;
    const ax_mvd a = (ax_mvd)((ax_mvi)y & abs_mask), b = (ax_mvd)((ax_mvi)x & abs_mask);
    const ax_mvi keep = (ax_mvi)(a >= 0x1p-500) & (ax_mvi)(a <= 0x1p500) &
                        (ax_mvi)(b >= 0x1p-500) & (ax_mvi)(b <= 0x1p500);
    const ax_mvd one = ax_mvd{} + 1.0, zero = ax_mvd{};
    const ax_mvd sa = (ax_mvd)(((ax_mvi)a & keep) | ((ax_mvi)one & ~keep));
    const ax_mvd sb = (ax_mvd)(((ax_mvi)b & keep) | ((ax_mvi)one & ~keep));
    ax_mvd h, l;
    atan_of(sa, zero, sb, zero, h, l);
    ax_mvd fh = h, fl = l;
    from_angle(2 * PIO2_HI, 2 * PIO2_LO, fh, fl);
    const ax_mvi negative = (ax_mvi)(x < zero);
    const ax_mvd r = (ax_mvd)((((ax_mvi)(fh + fl) & negative) | ((ax_mvi)(h + l) & ~negative)) |
                              ysign);
    if (!any_lane(~keep)) return r;
    constexpr int W = sizeof(ax_mvd) / sizeof(double);
    double yv[W], xv[W];
    std::memcpy(yv, &y, sizeof yv);
    std::memcpy(xv, &x, sizeof xv);
    for (int k = 0; k < W; ++k) yv[k] = std::atan2(yv[k], xv[k]);
    ax_mvd c;
    std::memcpy(&c, yv, sizeof c);
    return (ax_mvd)(((ax_mvi)r & keep) | ((ax_mvi)c & ~keep));
}

// The float32 kernels, in float64: each result is within about 2^-40 of its value, so that
// rounded to float32 it is within 0.5 + 2^-16 ULP. The reductions need no low parts here, and
// out-of-range lanes are clamped (e^x and tanh of a float32 saturate long before) or, for sin
// and cos beyond 10^5, left to the C library.

// e^x for x of float32 (clamped to [-200, 200], where float32's e^x is 0 or inf already).
inline ax_mvd exp_lean(ax_mvd x) {
    const ax_mvd shift = ax_mvd{} + 0x1.8p52;
    x = x < -200.0 ? ax_mvd{} - 200.0 : x;
    x = x > 200.0 ? ax_mvd{} + 200.0 : x;
    const ax_mvd z = fma_v(x, ax_mvd{} + 0x1.71547652b82fep0, shift);
    const ax_mvd t = fma_v(shift - z, ax_mvd{} + 0x1.62e42fefa39efp-1, x);
    const ax_mvu kb = (ax_mvu)z - (ax_mvu)shift;
    const ax_mvd p = fma_v(t * t, fma_v(t, horner(t, EXP_C, LEAN), ax_mvd{} + 0.5), t);
    return (1.0 + p) * (ax_mvd)((kb + 1023) << 52);
}

// tanh x for x of float32: E = e^(-2|x|) - 1 = (2^k - 1) + 2^k (t + p), tanh|x| = -E / (E + 2)
// (its sign cleared: E is +0 for x = 0), x's sign put back. Rounded to float32, tanh needs only
// 2^-25 of relative accuracy to stay within one ULP: e^t runs to t^8/8! (2^-31 at |t| = ln2/2),
// the shift holds 1023 in its low bits so that z's low bits are k + 1023 and z << 52 is 2^k,
// and max_v clamps -2|x| at -40 (tanh is 1 in float32 long before) while it passes a NaN on.
inline ax_mvd tanh_lean(ax_mvd x) {
    const ax_mvd shift = ax_mvd{} + (0x1.8p52 + 1023.0);
    const ax_mvi sign = (ax_mvi)x & (ax_mvi)(-ax_mvd{});
    const ax_mvd y = max_v(ax_mvd{} - 40.0, (ax_mvd)((ax_mvi)x ^ sign) * -2.0);
    const ax_mvd z = fma_v(y, ax_mvd{} + 0x1.71547652b82fep0, shift);
    const ax_mvd t = fma_v(shift - z, ax_mvd{} + 0x1.62e42fefa39efp-1, y);
    const ax_mvd scale = (ax_mvd)((ax_mvu)z << 52);
    const ax_mvd p = fma_v(t * t, fma_v(t, horner(t, EXP_C, LEAN + 1), ax_mvd{} + 0.5), t);
    const ax_mvd e = fma_v(scale, p, scale - 1.0);
    const ax_mvd q = -e * recip_v(e + 2.0);
    return (ax_mvd)(((ax_mvi)q & 0x7fffffffffffffff) | sign);
}

#if defined(__AVX512F__)
// log x for x of float32 (every one a normal double), without log_accurate's division: x = 2^k z
// with z in [LOG_OFF, 2 LOG_OFF) (LOG_OFF = 0.703125, whose bits put 1 in the middle of a
// subinterval), the top 4 bits of z's fraction pick c, the middle of z's subinterval (c = 1
// exactly for the one holding 1, so that log x loses nothing near x = 1), and
// log x = k ln2 - log(1/c) + log1p(r) for r = z/c - 1, |r| < 2^-5, rounded once by an FMA.
// log1p(r) to r^8 errs by r^8/9 < 2^-43 relative. The 16 entries of 1/c and log(1/c) (doubles
// made once, log(1/c) by the C library) fit two vectors each, read by a permute, not a gather.
constexpr uint64_t LOG_OFF = 0x3fe6800000000000;
struct log_table {
    double invc[16], log_invc[16];
    log_table() {
        const uint64_t one = 0x3ff0000000000000;
        for (uint64_t i = 0; i < 16; ++i) {
            const uint64_t lo = LOG_OFF + (i << 48), hi = lo + (uint64_t{1} << 48);
            double a, b;
            std::memcpy(&a, &lo, sizeof a);
            std::memcpy(&b, &hi, sizeof b);
            const double c = lo <= one && one < hi ? 1.0 : 0.5 * (a + b);
            invc[i] = 1.0 / c;
            log_invc[i] = c == 1.0 ? 0.0 : std::log(invc[i]);
        }
    }
};
inline const log_table LOG_TABLE{};
inline ax_mvd lookup16(const double* t, ax_mvi i) {
    return _mm512_permutex2var_pd(_mm512_loadu_pd(t), (__m512i)i, _mm512_loadu_pd(t + 8));
}
inline ax_mvd log_lean(ax_mvd x) {
    const ax_mvi outside = ~((ax_mvi)(x >= 0x1p-1022) & (ax_mvi)(x <= 0x1.fffffffffffffp1023));
    const ax_mvu t = (ax_mvu)x - LOG_OFF;
    const ax_mvi e = (ax_mvi)t >> 52;
    const ax_mvi i = (ax_mvi)(t >> 48);
    const ax_mvd z = (ax_mvd)((ax_mvu)x - ((ax_mvu)e << 52));
    const ax_mvi shift = (ax_mvi)(ax_mvd{} + 0x1.8p52);
    const ax_mvd k = (ax_mvd)(e + shift) - (ax_mvd)shift;
    const ax_mvd r = fma_v(z, lookup16(LOG_TABLE.invc, i), ax_mvd{} - 1.0);
    const ax_mvd q = horner(r, LOG1P_C);
    const ax_mvd r2 = r * r;
    const ax_mvd head = fma_v(k, ax_mvd{} + 0x1.62e42fefa39efp-1, -lookup16(LOG_TABLE.log_invc, i));
    const ax_mvd v = head + fma_v(r2 * r, q, fma_v(r2, ax_mvd{} - 0.5, r));
    if (any_lane(outside))
        return log_outside(x, v, outside, [](double u) { return std::log(u); });
    return v;
}
#else
inline ax_mvd log_lean(ax_mvd x) { return log_accurate(x); }
#endif

// sin x (COS false) or cos x (COS true) for x of float32, |x| <= 10^5 in vector code.
template <bool COS> inline ax_mvd sincos_lean(ax_mvd x) {
    return sincos_quadrant<COS>(x, [x](ax_mvd q, ax_mvd& sin_r, ax_mvd& cos_r) {
        const ax_mvd r = fma_v(-q, ax_mvd{} + 0x1.1a62633145c07p-54,
                               fma_v(-q, ax_mvd{} + 0x1.921fb54442d18p+0, x));
        const ax_mvd r2 = r * r;
        sin_r = fma_v(r * r2, horner(r2, SIN_C, LEAN), r);
        cos_r = fma_v(r2 * r2, horner(r2, COS_C, LEAN), 1.0 - 0.5 * r2);
    });
}
inline ax_mvd sin_lean(ax_mvd x) { return sincos_lean<false>(x); }
inline ax_mvd cos_lean(ax_mvd x) { return sincos_lean<true>(x); }

AX_LEVEL_END
