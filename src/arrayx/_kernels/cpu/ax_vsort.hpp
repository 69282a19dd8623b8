// A vectorised quicksort of 32- and 64-bit integers and real floats, at the AVX2 and AVX-512
// levels (ax_level.cpp compiles it with each level's flags; the baseline has none).
//
// The partition is the in-place one of x86-simd-sort (Bramas' method): a vector's worth is read
// ahead at each end, then each vector read is split by a comparison with the pivot, its lanes
// below the pivot first and the rest after them (one permutation), and the whole vector is
// stored twice: at the left write position, whose first lanes are the ones below, and ending at
// the right write position, whose last lanes are the others; the spare lanes land on room read
// already. The permutation stays in a register (AVX-512's compress and expand into a register,
// AVX2's permutation tables): x86-simd-sort's AVX-512 kernels compress-store to memory, which
// AMD's Zen 4 runs in microcode (NumPy's AVX-512 sort of 10^6 float64 takes 52 ms there, its
// AVX2 one 9). Ranges of up to 16 vectors are sorted in registers by a bitonic network.
//
// Around the ascending sort of NaN-free values (vsort_range), vsort_row gives the row sort's
// contract: NaNs last in their input order, descending by reversal, and for a stable sort the
// zeros of a float row in their input order (-0.0 and +0.0 compare equal; that and NaN payloads
// are all a values-only stable sort can show).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include "ax_types.hpp"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

AX_LEVEL_BEGIN

// Bit i set where lane i has bit B of its index: the lanes that take the larger value when lane
// i and lane i ^ B compare and exchange.
template <int W, int B> constexpr unsigned upper_lanes() {
    unsigned m = 0;
    for (int i = 0; i < W; ++i)
        if (i & B) m |= 1u << i;
    return m;
}

template <class T> struct Vec;

// The members set1 and minmax of a Vec<T> whose min and max are single instructions: P is the
// intrinsics' prefix (_mm256, _mm512), S their suffix.
#define AX_SET1_MINMAX(T, P, S)                                                                \
    static reg set1(T x) { return P##_set1_##S(x); }                                           \
    static void minmax(reg a, reg b, reg& lo, reg& hi) {                                       \
        lo = P##_min_##S(a, b);                                                                \
        hi = P##_max_##S(a, b);                                                                \
    }

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#define AX_VSORT_LEVEL 512

template <int X> inline __m512i xor_index64() {
    return _mm512_set_epi64(7 ^ X, 6 ^ X, 5 ^ X, 4 ^ X, 3 ^ X, 2 ^ X, 1 ^ X, 0 ^ X);
}
template <int X> inline __m512i xor_index32() {
    return _mm512_set_epi32(15 ^ X, 14 ^ X, 13 ^ X, 12 ^ X, 11 ^ X, 10 ^ X, 9 ^ X, 8 ^ X, 7 ^ X,
                            6 ^ X, 5 ^ X, 4 ^ X, 3 ^ X, 2 ^ X, 1 ^ X, 0 ^ X);
}
// Lane i takes lane i ^ X; within 128 bits by an immediate shuffle, else across the register.
template <int X> constexpr int xor_imm4() {
    return (0 ^ X) | ((1 ^ X) << 2) | ((2 ^ X) << 4) | ((3 ^ X) << 6);
}

// The split's permutation of 8 lanes (64-bit values) from a table, one byte a lane index: for
// each mask of the lanes at or above the pivot, the others first, then those, each in order.
struct SplitBytes {
    alignas(64) uint64_t idx[256];
    constexpr SplitBytes() : idx{} {
        for (int m = 0; m < 256; ++m) {
            int k = 0;
            for (int pass = 0; pass < 2; ++pass)
                for (int i = 0; i < 8; ++i)
                    if (((m >> i) & 1) == pass) idx[m] |= uint64_t(i) << (8 * k++);
        }
    }
};
inline constexpr SplitBytes split_bytes{};
inline __m512i split_index8(unsigned m) {
    return _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(int64_t(split_bytes.idx[m])));
}
// 16 lanes (32-bit values): the lanes below compressed into a register, the others expanded
// into its upper lanes.
#define AX_SPLIT16(S)                                                                          \
    const int nlo = 16 - __builtin_popcount(m);                                                \
    const reg lo = _mm512_maskz_compress_##S(__mmask16(~m), v);                                \
    return _mm512_mask_expand_##S(lo, __mmask16(~((1u << nlo) - 1)),                          \
                                  _mm512_maskz_compress_##S(__mmask16(m), v))

// One AVX-512 type: S is the intrinsics' suffix, M the mask type, GE and GT the comparisons.
#define AX_VEC512(T, R, S, M, N, GE, GT, XOR_PERM, SPLIT)                                            \
    template <> struct Vec<T> {                                                                \
        static constexpr int W = N;                                                            \
        using reg = R;                                                                         \
        using mask = unsigned;                                                                 \
        static reg load(const T* p) { return _mm512_loadu_##S(p); }                            \
        static void store(T* p, reg v) { _mm512_storeu_##S(p, v); }                            \
        static reg load_part(const T* p, int n, reg fill) {                                   \
            return _mm512_mask_loadu_##S(fill, M((1u << n) - 1), p);                           \
        }                                                                                      \
        static void store_part(T* p, int n, reg v) {                                           \
            _mm512_mask_storeu_##S(p, M((1u << n) - 1), v);                                    \
        }                                                                                      \
        AX_SET1_MINMAX(T, _mm512, S)                                                           \
        template <bool STRICT> static mask above(reg v, reg p) {                               \
            return STRICT ? unsigned(GT) : unsigned(GE);                                       \
        }                                                                                      \
        template <unsigned B> static reg blend(reg a, reg b) {                                 \
            return _mm512_mask_blend_##S(M(B), a, b);                                          \
        }                                                                                      \
        template <int X> static reg xor_perm(reg v) { XOR_PERM; }                              \
        static reg split(mask m, reg v) { SPLIT; }                                             \
    };

AX_VEC512(double, __m512d, pd, __mmask8, 8, _mm512_cmp_pd_mask(v, p, _CMP_GE_OQ),
          _mm512_cmp_pd_mask(v, p, _CMP_GT_OQ),
          if constexpr (X == 1) return _mm512_permute_pd(v, 0x55);
          else if constexpr (X < 4) return _mm512_permutex_pd(v, xor_imm4<X>());
          else return _mm512_permutexvar_pd(xor_index64<X>(), v),
          return _mm512_permutexvar_pd(split_index8(m), v))
AX_VEC512(int64_t, __m512i, epi64, __mmask8, 8, _mm512_cmpge_epi64_mask(v, p),
          _mm512_cmpgt_epi64_mask(v, p),
          if constexpr (X == 1) return _mm512_shuffle_epi32(v, _MM_PERM_BADC);
          else if constexpr (X < 4) return _mm512_permutex_epi64(v, xor_imm4<X>());
          else return _mm512_permutexvar_epi64(xor_index64<X>(), v),
          return _mm512_permutexvar_epi64(split_index8(m), v))
AX_VEC512(float, __m512, ps, __mmask16, 16, _mm512_cmp_ps_mask(v, p, _CMP_GE_OQ),
          _mm512_cmp_ps_mask(v, p, _CMP_GT_OQ),
          if constexpr (X < 4) return _mm512_permute_ps(v, xor_imm4<X>());
          else return _mm512_permutexvar_ps(xor_index32<X>(), v), AX_SPLIT16(ps))
AX_VEC512(int32_t, __m512i, epi32, __mmask16, 16, _mm512_cmpge_epi32_mask(v, p),
          _mm512_cmpgt_epi32_mask(v, p),
          if constexpr (X < 4) return _mm512_shuffle_epi32(v, _MM_PERM_ENUM(xor_imm4<X>()));
          else return _mm512_permutexvar_epi32(xor_index32<X>(), v), AX_SPLIT16(epi32))
#undef AX_VEC512
#undef AX_SPLIT16

#elif defined(__AVX2__)
#define AX_VSORT_LEVEL 256

// The AVX2 split's permutations, as 32-bit lane indices for vpermd: for each mask of the lanes
// at or above the pivot, the others first, then those, each in order; 64-bit lanes take two.
template <int N> struct SplitTable {
    alignas(32) int32_t idx[1 << N][8];
    constexpr SplitTable() : idx{} {
        constexpr int per = 8 / N;
        for (int m = 0; m < (1 << N); ++m) {
            int k = 0;
            for (int pass = 0; pass < 2; ++pass)
                for (int i = 0; i < N; ++i)
                    if (((m >> i) & 1) == pass) {
                        for (int h = 0; h < per; ++h) idx[m][k * per + h] = i * per + h;
                        ++k;
                    }
        }
    }
};
template <int N> inline constexpr SplitTable<N> split_table{};

template <int N> inline __m256i split_index(unsigned m) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(split_table<N>.idx[m]));
}
// The lanes below n as a full-width mask (32-bit lanes, or 64-bit ones from pairs).
inline __m256i first_lanes32(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline __m256i first_lanes64(int n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
template <int X> constexpr int xor_imm4() {
    return (0 ^ X) | ((1 ^ X) << 2) | ((2 ^ X) << 4) | ((3 ^ X) << 6);
}
template <int X> inline __m256i xor_index32() {
    return _mm256_setr_epi32(0 ^ X, 1 ^ X, 2 ^ X, 3 ^ X, 4 ^ X, 5 ^ X, 6 ^ X, 7 ^ X);
}
// A 4-lane blend mask as the 8-lane one of vpblendd.
constexpr int pairs_of(unsigned b) {
    int m = 0;
    for (int i = 0; i < 4; ++i)
        if (b & (1u << i)) m |= 3 << (2 * i);
    return m;
}

// The register of 256 bits of T, and its bits as integers and back, for the members all four
// types share (no vector type as a template argument: GCC drops its attributes there).
template <class T> struct reg256 { using type = __m256i; };
template <> struct reg256<double> { using type = __m256d; };
template <> struct reg256<float> { using type = __m256; };
inline __m256i bits_of(__m256i v) { return v; }
inline __m256i bits_of(__m256d v) { return _mm256_castpd_si256(v); }
inline __m256i bits_of(__m256 v) { return _mm256_castps_si256(v); }
inline void from_bits(__m256i v, __m256i& r) { r = v; }
inline void from_bits(__m256i v, __m256d& r) { r = _mm256_castsi256_pd(v); }
inline void from_bits(__m256i v, __m256& r) { r = _mm256_castsi256_ps(v); }

// What the AVX2 types share: loads and stores (masked ones for a range's last lanes), and the
// split by the permutation tables.
template <class T> struct Avx2Vec {
    static constexpr int W = 32 / sizeof(T);
    using reg = typename reg256<T>::type;
    using mask = unsigned;
    static reg of_bits(__m256i v) {
        reg r;
        from_bits(v, r);
        return r;
    }
    static __m256i first(int n) { return W == 4 ? first_lanes64(n) : first_lanes32(n); }
    static reg load(const T* p) {
        return of_bits(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static void store(T* p, reg v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), bits_of(v));
    }
    static reg load_part(const T* p, int n, reg fill) {
        const __m256i m = first(n);
        const __m256i v = W == 4
            ? _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), m)
            : _mm256_maskload_epi32(reinterpret_cast<const int*>(p), m);
        return of_bits(_mm256_blendv_epi8(bits_of(fill), v, m));
    }
    static void store_part(T* p, int n, reg v) {
        if constexpr (W == 4)
            _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), first(n), bits_of(v));
        else
            _mm256_maskstore_epi32(reinterpret_cast<int*>(p), first(n), bits_of(v));
    }
    static reg split(mask m, reg v) {
        return of_bits(_mm256_permutevar8x32_epi32(bits_of(v), split_index<W>(m)));
    }
};

// The members the two float types share, S their intrinsics' suffix (pd, ps).
#define AX_AVX2_FLOAT(T, S)                                                                    \
    AX_SET1_MINMAX(T, _mm256, S)                                                               \
    template <bool STRICT> static mask above(reg v, reg p) {                                   \
        return _mm256_movemask_##S(_mm256_cmp_##S(v, p, STRICT ? _CMP_GT_OQ : _CMP_GE_OQ));    \
    }                                                                                          \
    template <unsigned B> static reg blend(reg a, reg b) { return _mm256_blend_##S(a, b, B); }

template <> struct Vec<double> : Avx2Vec<double> {
    AX_AVX2_FLOAT(double, pd)
    template <int X> static reg xor_perm(reg v) {
        if constexpr (X == 1) return _mm256_permute_pd(v, 0x5);
        else return _mm256_permute4x64_pd(v, xor_imm4<X>());
    }
};

template <> struct Vec<int64_t> : Avx2Vec<int64_t> {
    static reg set1(int64_t x) { return _mm256_set1_epi64x(x); }
    static void minmax(reg a, reg b, reg& lo, reg& hi) {
        const reg g = _mm256_cmpgt_epi64(a, b);
        lo = _mm256_blendv_epi8(a, b, g);
        hi = _mm256_blendv_epi8(b, a, g);
    }
    template <bool STRICT> static mask above(reg v, reg p) {
        const reg r = STRICT ? _mm256_cmpgt_epi64(v, p) : ~_mm256_cmpgt_epi64(p, v);
        return _mm256_movemask_pd(_mm256_castsi256_pd(r));
    }
    template <unsigned B> static reg blend(reg a, reg b) {
        return _mm256_blend_epi32(a, b, pairs_of(B));
    }
    template <int X> static reg xor_perm(reg v) {
        if constexpr (X == 1) return _mm256_shuffle_epi32(v, 0x4E);
        else return _mm256_permute4x64_epi64(v, xor_imm4<X>());
    }
};

template <> struct Vec<float> : Avx2Vec<float> {
    AX_AVX2_FLOAT(float, ps)
    template <int X> static reg xor_perm(reg v) {
        if constexpr (X < 4) return _mm256_permute_ps(v, xor_imm4<X>());
        else if constexpr (X == 4) return _mm256_permute2f128_ps(v, v, 1);
        else return _mm256_permutevar8x32_ps(v, xor_index32<X>());
    }
};

template <> struct Vec<int32_t> : Avx2Vec<int32_t> {
    AX_SET1_MINMAX(int32_t, _mm256, epi32)
    template <bool STRICT> static mask above(reg v, reg p) {
        const reg r = STRICT ? _mm256_cmpgt_epi32(v, p) : ~_mm256_cmpgt_epi32(p, v);
        return _mm256_movemask_ps(_mm256_castsi256_ps(r));
    }
    template <unsigned B> static reg blend(reg a, reg b) { return _mm256_blend_epi32(a, b, B); }
    template <int X> static reg xor_perm(reg v) {
        if constexpr (X < 4) return _mm256_shuffle_epi32(v, xor_imm4<X>());
        else if constexpr (X == 4) return _mm256_permute2x128_si256(v, v, 1);
        else return _mm256_permutevar8x32_epi32(v, xor_index32<X>());
    }
};
#undef AX_AVX2_FLOAT
#endif
#undef AX_SET1_MINMAX

#ifdef AX_VSORT_LEVEL

// Lanes i and i ^ X compare and exchange, the larger going to the lanes of upper_lanes<B>.
template <class V, int X, int B> inline typename V::reg exchange(typename V::reg v) {
    typename V::reg lo, hi;
    V::minmax(v, V::template xor_perm<X>(v), lo, hi);
    return V::template blend<upper_lanes<V::W, B>()>(lo, hi);
}
// The half-cleaners of a bitonic merge within a register, lane distance D down to 1.
template <class V, int D> inline typename V::reg clean(typename V::reg v) {
    if constexpr (D >= 1) return clean<V, D / 2>(exchange<V, D, D>(v));
    else return v;
}
// A register's lanes sorted: bitonic runs of K lanes merged, K = 2 up to the width.
template <class V, int K = 2> inline typename V::reg sort_lanes(typename V::reg v) {
    if constexpr (K <= V::W) return sort_lanes<V, K * 2>(clean<V, K / 4>(exchange<V, K - 1, K / 2>(v)));
    else return v;
}

// A compare-exchange of two registers that keeps each input value once: x86's min and max
// both return their second operand when the two compare equal, so min(a, b) and max(a, b) of
// -0.0 and 0.0 would both be b's zero. Within one register (exchange) the lanes read each
// other's values, so they swap instead.
template <class V>
inline void exchange_apart(typename V::reg a, typename V::reg b, typename V::reg& lo,
                           typename V::reg& hi) {
    typename V::reg unused;
    V::minmax(a, b, lo, unused);
    V::minmax(b, a, unused, hi);
}

// R sorted registers (R a power of two) as one sorted run of R x W values: the bitonic network
// over runs of K registers, each merge a flip between mirrored registers, half-cleaners between
// registers, then within each.
template <class V, int R, int K = 2> inline void merge_registers(typename V::reg* v) {
    using reg = typename V::reg;
    if constexpr (K <= R) {
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            const int p = r ^ (K - 1);
            if (r < p) {
                reg lo, hi;
                exchange_apart<V>(v[r], V::template xor_perm<V::W - 1>(v[p]), lo, hi);
                v[r] = lo;
                v[p] = V::template xor_perm<V::W - 1>(hi);
            }
        }
#pragma GCC unroll 8
        for (int d = K / 4; d >= 1; d /= 2) {
#pragma GCC unroll 16
            for (int r = 0; r < R; ++r) {
                if ((r & d) == 0) exchange_apart<V>(v[r], v[r + d], v[r], v[r + d]);
            }
        }
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) v[r] = clean<V, V::W / 2>(v[r]);
        merge_registers<V, R, K * 2>(v);
    }
}

// The largest value of T, which pads the registers of a range shorter than theirs.
template <class T> constexpr T pad_value() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
}

// Sort n <= R x W values in R registers.
template <class V, int R, class T> inline void sort_registers(T* a, int64_t n) {
    using reg = typename V::reg;
    constexpr int W = V::W;
    const reg pad = V::set1(pad_value<T>());
    const int64_t full = n / W;
    const int rest = int(n % W);
    reg v[R];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
        if (r < full) v[r] = V::load(a + r * W);
        else if (r == full && rest) v[r] = V::load_part(a + r * W, rest, pad);
        else v[r] = pad;
        v[r] = sort_lanes<V>(v[r]);
    }
    merge_registers<V, R>(v);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
        if (r < full) V::store(a + r * W, v[r]);
        else if (r == full && rest) V::store_part(a + r * W, rest, v[r]);
    }
}

// Up to this many registers sort a range in one network (the quicksort's leaves).
constexpr int NETWORK_REGISTERS = 16;

template <class V, class T> inline void sort_small(T* a, int64_t n) {
    constexpr int W = V::W;
    if (n <= 1) return;
    if (n <= W) sort_registers<V, 1>(a, n);
    else if (n <= 2 * W) sort_registers<V, 2>(a, n);
    else if (n <= 4 * W) sort_registers<V, 4>(a, n);
    else if (n <= 8 * W) sort_registers<V, 8>(a, n);
    else sort_registers<V, 16>(a, n);
}

// Vectors a partition reads from one end at a time: the side it reads from is a branch that
// random data mispredicts half the time, once for this many vectors.
constexpr int PARTITION_UNROLL = 8;

// The values below the pivot (STRICT: up to it) to the front of a[0, n), the others after them;
// returns how many went to the front. n is at least 2 x PARTITION_UNROLL vectors (the quicksort
// partitions ranges longer than its networks).
static_assert(NETWORK_REGISTERS >= 2 * PARTITION_UNROLL);
//
// The first and last PARTITION_UNROLL vectors are set aside in `kept`; from then on the room
// read and not yet written again is 2 x PARTITION_UNROLL vectors in all, and each step reads
// PARTITION_UNROLL vectors from the end with less of it, so each end has room for a whole
// vector's store. The room is always whole vectors, so the last stores, with the reading done,
// overlap only where they store the same lanes.
template <class V, bool STRICT, class T> int64_t partition(T* a, int64_t n, T pivot) {
    using reg = typename V::reg;
    constexpr int W = V::W, U = PARTITION_UNROLL;
    const reg p = V::set1(pivot);
    const int64_t tail = n % W;
    const int64_t m = n - tail;
    reg kept[2 * U];
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
        kept[u] = V::load(a + u * W);
        kept[U + u] = V::load(a + m - (U - u) * W);
    }
    int64_t read_l = U * W, read_r = m - U * W, write_l = 0, write_r = m;
    auto put = [&](reg v) {
        const auto up = V::template above<STRICT>(v, p);
        const int nhi = __builtin_popcount(up);
        const reg s = V::split(up, v);
        V::store(a + write_l, s);
        V::store(a + write_r - W, s);
        write_l += W - nhi;
        write_r -= nhi;
    };
    while (read_r - read_l >= U * W) {
        reg v[U];
        if (read_l - write_l <= write_r - read_r) {
#pragma GCC unroll 8
            for (int u = 0; u < U; ++u) v[u] = V::load(a + read_l + u * W);
            read_l += U * W;
        } else {
            read_r -= U * W;
#pragma GCC unroll 8
            for (int u = 0; u < U; ++u) v[u] = V::load(a + read_r + u * W);
        }
#pragma GCC unroll 8
        for (int u = 0; u < U; ++u) put(v[u]);
    }
    while (read_l < read_r) {
        if (read_l - write_l <= write_r - read_r) {
            const reg v = V::load(a + read_l);
            read_l += W;
            put(v);
        } else {
            read_r -= W;
            put(V::load(a + read_r));
        }
    }
#pragma GCC unroll 8
    for (int u = 0; u < 2 * U; ++u) put(kept[u]);
    // The last n % W values, one at a time (the range from write_l holds values on the upper
    // side, up to them).
    for (int64_t i = m; i < n; ++i) {
        const bool up = STRICT ? a[i] > pivot : !(a[i] < pivot);
        if (!up) std::swap(a[i], a[write_l++]);
    }
    return write_l;
}

// The median of R vectors' worth of values evenly spread over a[0, n), sorted in registers.
template <class V, int R, class T> T sample_median(const T* a, int64_t n) {
    constexpr int S = R * V::W;
    T sample[S];
    const int64_t step = n / S;
    for (int i = 0; i < S; ++i) sample[i] = a[i * step + step / 2];
    sort_registers<V, R>(sample, S);
    return sample[S / 2];
}

// A pivot from a sample that grows with the range: a sample sort costs as much as a partition
// of some hundred values, and the quicksort's many short ranges gain little from a large one.
template <class V, class T> T pick_pivot(const T* a, int64_t n) {
    if (n > (int64_t(1) << 14)) return sample_median<V, 8>(a, n);
    if (n > (int64_t(1) << 11)) return sample_median<V, 4>(a, n);
    if (n > 64 * V::W) return sample_median<V, 2>(a, n);
    return sample_median<V, 1>(a, n);
}

// Ascending sort of a[0, n) (no NaN); after `budget` partitions on one path, std::sort takes
// the rest (a sequence that defeats the pivot choice).
template <class V, class T> void quicksort(T* a, int64_t n, int budget) {
    while (n > NETWORK_REGISTERS * V::W) {
        if (budget-- <= 0) {
            std::sort(a, a + n);
            return;
        }
        const T pivot = pick_pivot<V>(a, n);
        int64_t k = partition<V, false>(a, n, pivot);
        if (k == 0) {
            // The pivot is the range's least value: the values equal to it are in place.
            k = partition<V, true>(a, n, pivot);
            a += k;
            n -= k;
            continue;
        }
        if (k < n - k) {
            quicksort<V>(a, k, budget);
            a += k;
            n -= k;
        } else {
            quicksort<V>(a + k, n - k, budget);
            n = k;
        }
    }
    sort_small<V>(a, n);
}

inline int sort_budget(int64_t n) {
    int depth = 0;
    while (n > 1) {
        n >>= 1;
        ++depth;
    }
    return 2 * depth + 8;
}

// The signed type whose order a vector sort of T follows after flipping the top bit (unsigned),
// or T itself.
template <class T, bool = std::is_unsigned_v<T>> struct vsort_key { using type = T; };
template <class T> struct vsort_key<T, true> { using type = std::make_signed_t<T>; };
template <class T> using vsort_key_t = typename vsort_key<T>::type;

template <class T> inline constexpr bool vsortable_v =
    (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t> ||
     std::is_same_v<T, int64_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>);

template <class K> void vsort_range(K* a, int64_t n) {
    quicksort<Vec<K>>(a, n, sort_budget(n));
}

// What vsort_prepare sets aside before the ascending sort and vsort_finish puts back after it.
template <class T> struct RowFixes {
    int64_t n = 0;               // the values to sort, the NaNs being after them
    T* nans = nullptr;           // a float row's NaNs in input order
    int64_t nan_count = 0;
    uint8_t* signs = nullptr;    // a stable float sort's zeros' sign bits, when both signs occur
    int64_t zero_count = 0;
    ~RowFixes() {
        std::free(nans);
        std::free(signs);
    }
};

// Ready a row for the ascending sort of its first fix.n values: a float row's NaNs to the end
// (kept aside in order), its zeros' signs noted for a stable sort, an unsigned row's top bits
// flipped (its order as the signed type's). False, the row untouched, without memory for what
// is set aside.
template <class T> bool vsort_prepare(T* a, int64_t n, bool stable, RowFixes<T>& fix) {
    fix.n = n;
    if constexpr (std::is_floating_point_v<T>) {
        int64_t nans = 0, zeros = 0, neg_zeros = 0;
        for (int64_t i = 0; i < n; ++i) {
            nans += a[i] != a[i];
            zeros += a[i] == T(0);
        }
        if (stable && zeros) {
            for (int64_t i = 0; i < n; ++i) neg_zeros += a[i] == T(0) && std::signbit(a[i]);
            if (neg_zeros && neg_zeros < zeros) {
                fix.signs = static_cast<uint8_t*>(std::malloc(zeros));
                if (!fix.signs) return false;
                fix.zero_count = zeros;
            }
        }
        if (nans) {
            fix.nans = static_cast<T*>(std::malloc(nans * sizeof(T)));
            if (!fix.nans) return false;
            fix.nan_count = nans;
        }
        int64_t k = 0, z = 0, q = 0;
        if (fix.signs || nans) {
            for (int64_t i = 0; i < n; ++i) {
                const T x = a[i];
                if (fix.signs && x == T(0)) fix.signs[z++] = std::signbit(x);
                if (x != x) fix.nans[q++] = x;
                else a[k++] = x;
            }
            fix.n = k;
        }
    } else if constexpr (!std::is_same_v<T, vsort_key_t<T>>) {
        using K = vsort_key_t<T>;
        K* k = reinterpret_cast<K*>(a);
        constexpr K top = std::numeric_limits<K>::min();
        for (int64_t i = 0; i < n; ++i) k[i] ^= top;
    }
    return true;
}

template <class T> void vsort_finish(T* a, int64_t n, bool desc, const RowFixes<T>& fix) {
    if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, vsort_key_t<T>>) {
        using K = vsort_key_t<T>;
        K* k = reinterpret_cast<K*>(a);
        constexpr K top = std::numeric_limits<K>::min();
        for (int64_t i = 0; i < n; ++i) k[i] ^= top;
    }
    if (desc) std::reverse(a, a + fix.n);
    if constexpr (std::is_floating_point_v<T>) {
        if (fix.signs) {
            T* z = desc ? std::lower_bound(a, a + fix.n, T(0), [](T x, T y) { return x > y; })
                        : std::lower_bound(a, a + fix.n, T(0));
            for (int64_t i = 0; i < fix.zero_count; ++i) z[i] = fix.signs[i] ? -T(0) : T(0);
        }
        std::copy(fix.nans, fix.nans + fix.nan_count, a + fix.n);
    }
}

// Without memory for vsort_prepare: a comparison sort, NaNs last.
template <class T> void fallback_sort(T* a, int64_t n, bool desc) {
    std::stable_sort(a, a + n, [desc](T x, T y) {
        if (x != x) return false;
        if (y != y) return true;
        return desc ? y < x : x < y;
    });
}

// Each of `rows` rows of n values sorted (NaNs last, in input order; stable where a values-only
// sort can tell).
template <class T> void vsort_rows(char* data, int64_t rows, int64_t n, bool desc, bool stable) {
    using K = vsort_key_t<T>;
    for (int64_t r = 0; r < rows; ++r) {
        T* row = reinterpret_cast<T*>(data) + r * n;
        RowFixes<T> fix;
        if (!vsort_prepare(row, n, stable, fix)) {
            fallback_sort(row, n, desc);
            continue;
        }
        vsort_range(reinterpret_cast<K*>(row), fix.n);
        vsort_finish(row, n, desc, fix);
    }
}

// One long row over threads: its range is partitioned level by level, a level's ranges in
// parallel, until there are PARALLEL_PARTS ranges a thread (at most MAX_RANGES); then the
// ranges are sorted in parallel. `run` is the engine's parallel_for; its threads take the
// ranges longest first, so that a thread that runs out of work waits for a short one at most
// (the pool runs the next jobs on their caller alone when it waited long, as for busy cores).
constexpr int PARALLEL_PARTS = 8;
constexpr int MAX_RANGES = 256;
// Ranges shorter than this are not split for threads.
constexpr int64_t PARALLEL_LEAF = int64_t(1) << 14;

template <class K> struct RangesJob {
    K* a;
    int64_t count;
    int64_t start[MAX_RANGES], size[MAX_RANGES];
    // After a level, each range's split: 0 none, k > 0 its first k values below the rest, k < 0
    // its first -k values equal and in place.
    int64_t cut[MAX_RANGES];
};

template <class K> void split_range(void* ctx, int64_t u) {
    using V = Vec<K>;
    RangesJob<K>& j = *static_cast<RangesJob<K>*>(ctx);
    K* a = j.a + j.start[u];
    const int64_t n = j.size[u];
    if (n <= PARALLEL_LEAF) {
        j.cut[u] = 0;
        return;
    }
    const K pivot = sample_median<V, 8>(a, n);
    const int64_t k = partition<V, false>(a, n, pivot);
    j.cut[u] = k ? k : -partition<V, true>(a, n, pivot);
}

template <class K> void sort_range(void* ctx, int64_t u) {
    RangesJob<K>& j = *static_cast<RangesJob<K>*>(ctx);
    vsort_range(j.a + j.start[u], j.size[u]);
}

// The ranges of a level's splits, in place; whether any range was split.
template <class K> bool next_ranges(RangesJob<K>& j) {
    int64_t start[MAX_RANGES], size[MAX_RANGES], count = 0;
    bool split = false;
    for (int64_t u = 0; u < j.count; ++u) {
        const int64_t c = j.cut[u], at = j.start[u], m = j.size[u];
        split |= c != 0;
        if (c > 0) {
            start[count] = at;
            size[count++] = c;
            start[count] = at + c;
            size[count++] = m - c;
        } else if (m + c > 0) {
            start[count] = at - c;
            size[count++] = m + c;
        }
    }
    int64_t order[MAX_RANGES];
    std::iota(order, order + count, int64_t(0));
    std::sort(order, order + count, [&](int64_t x, int64_t y) { return size[x] > size[y]; });
    for (int64_t u = 0; u < count; ++u) {
        j.start[u] = start[order[u]];
        j.size[u] = size[order[u]];
    }
    j.count = count;
    return split;
}

// The ascending sort of a[0, n) on up to `threads` threads.
template <class K> void sort_in_parallel(K* a, int64_t n, int threads, run_units_fn run) {
    RangesJob<K> j;
    j.a = a;
    j.count = 1;
    j.start[0] = 0;
    j.size[0] = n;
    const int64_t want = std::min<int64_t>(int64_t(PARALLEL_PARTS) * threads, MAX_RANGES / 2);
    bool split = true;
    while (split && j.count && j.count < want) {
        run(j.count, &split_range<K>, &j);
        split = next_ranges(j);
    }
    run(j.count, &sort_range<K>, &j);
}

template <class T>
void vsort_long(char* data, int64_t n, bool desc, bool stable, int threads, run_units_fn run) {
    using K = vsort_key_t<T>;
    T* row = reinterpret_cast<T*>(data);
    RowFixes<T> fix;
    if (!vsort_prepare(row, n, stable, fix)) {
        fallback_sort(row, n, desc);
        return;
    }
    sort_in_parallel(reinterpret_cast<K*>(row), fix.n, threads, run);
    vsort_finish(row, n, desc, fix);
}

// argsort through the vector sort of 64-bit words: each word holds 32 bits of the value's order
// key above its index in the row (the word's top bit flipped, so that the signed sort orders
// the words as unsigned); equal keys keep their order (their indices decide), so the sort is
// stable whatever `stable` says. The order key: the sign bit flipped for signed integers; for
// floats their bits with the sign bit set when positive and all bits flipped when negative,
// -0.0 as 0.0, every NaN the largest key; descending complements the non-NaN keys. A key of
// up to 32 bits goes whole into its word. A wider one is cut to 32 bits keeping its order (a
// float64 as the key of its nearest float32; an int64 as its offset from the row's least key,
// shifted right until the row's span fits), and the runs of words with one cut key are then
// ordered by the whole key (a stable sort of their indices).
template <class T> inline uint64_t order_key(T x, bool desc) {
    using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    constexpr int bits = 8 * sizeof(T);
    uint64_t k;
    if constexpr (std::is_floating_point_v<T>) {
        U u;
        std::memcpy(&u, &x, sizeof u);
        u = x == T(0) ? U(0) : u;
        const U negative = U(0) - (u >> (bits - 1));
        k = U(u ^ (negative | (U(1) << (bits - 1))));
        if (x != x) return U(~U(0));
        return desc ? U(~k) : k;
    } else {
        using S = std::make_unsigned_t<T>;
        k = uint64_t(S(S(x) ^ (std::is_signed_v<T> ? S(S(1) << (bits - 1)) : S(0))));
        return desc ? uint64_t(S(~S(k))) : k;
    }
}

template <class T> struct PackedRow {
    const T* row;
    int64_t n;
    bool desc;
    bool cut = false;  // the words hold cut keys
    int shift = 0;     // of an integer key's offset from `least`
    uint64_t least = 0;
};

template <class T> inline void pack_row(PackedRow<T>& p, int64_t* words) {
    constexpr uint64_t top = uint64_t(1) << 63;
    if constexpr (std::is_same_v<T, double>) {
        p.cut = true;
        for (int64_t i = 0; i < p.n; ++i) {
            const uint64_t k = order_key(float(p.row[i]), p.desc);
            words[i] = int64_t(((k << 32) | uint64_t(i)) ^ top);
        }
        return;
    } else if constexpr (sizeof(T) == 8) {
        uint64_t lo = ~uint64_t(0), hi = 0;
        for (int64_t i = 0; i < p.n; ++i) {
            const uint64_t k = order_key(p.row[i], p.desc);
            lo = std::min(lo, k);
            hi = std::max(hi, k);
        }
        const uint64_t span = p.n ? hi - lo : 0;
        p.least = lo;
        p.shift = span >> 32 ? 32 - __builtin_clzll(span) : 0;
        p.cut = p.shift > 0;
    }
    for (int64_t i = 0; i < p.n; ++i) {
        const uint64_t k = (order_key(p.row[i], p.desc) - p.least) >> p.shift;
        words[i] = int64_t(((k << 32) | uint64_t(i)) ^ top);
    }
}

// The indices from the sorted words, in place; runs that share a shifted key ordered by the key.
template <class T> inline void unpack_row(const PackedRow<T>& p, int64_t* words) {
    const int64_t n = p.n;
    if (!p.cut) {
        for (int64_t i = 0; i < n; ++i) words[i] = int64_t(uint32_t(words[i]));
        return;
    }
    int64_t start = 0;
    for (int64_t i = 1; i <= n; ++i) {
        if (i < n && (words[i] >> 32) == (words[start] >> 32)) continue;
        for (int64_t k = start; k < i; ++k) words[k] = int64_t(uint32_t(words[k]));
        if (i - start > 1) {
            const T* row = p.row;
            const bool desc = p.desc;
            auto before = [row, desc](int64_t x, int64_t y) {
                return order_key(row[x], desc) < order_key(row[y], desc);
            };
            if (i - start > 16) {
                std::stable_sort(words + start, words + i, before);
            } else {
                for (int64_t k = start + 1; k < i; ++k) {
                    const int64_t w = words[k];
                    int64_t at = k;
                    for (; at > start && before(w, words[at - 1]); --at) words[at] = words[at - 1];
                    words[at] = w;
                }
            }
        }
        start = i;
    }
}

template <class T> struct ArgsortJob {
    const char* data;
    int64_t* out;
    int64_t rows, n, per;
    bool desc;
};

template <class T> void argsort_row_group(void* ctx, int64_t u) {
    const ArgsortJob<T>& j = *static_cast<ArgsortJob<T>*>(ctx);
    const int64_t first = u * j.per, last = std::min(j.rows, first + j.per);
    for (int64_t r = first; r < last; ++r) {
        // The words are written over the output row (both 8-byte).
        int64_t* out = j.out + r * j.n;
        PackedRow<T> p{reinterpret_cast<const T*>(j.data) + r * j.n, j.n, j.desc};
        pack_row(p, out);
        vsort_range(out, j.n);
        unpack_row(p, out);
    }
}

// Each row's sorting permutation into out (rows of fewer than 2^32 values): one long row sorted
// over the threads, many rows in groups over them (threads > 1).
template <class T>
void packed_argsort(const char* data, int64_t* out, int64_t rows, int64_t n, bool desc,
                    int threads, run_units_fn run) {
    if (rows <= 0 || n <= 0) return;
    if (rows == 1 && threads > 1) {
        PackedRow<T> p{reinterpret_cast<const T*>(data), n, desc};
        pack_row(p, out);
        sort_in_parallel(out, n, threads, run);
        unpack_row(p, out);
        return;
    }
    ArgsortJob<T> j{data, out, rows, n, 1, desc};
    const int64_t units = std::min<int64_t>(rows, int64_t(threads) * PARALLEL_PARTS / 2);
    j.per = (rows + units - 1) / units;
    run((rows + j.per - 1) / j.per, &argsort_row_group<T>, &j);
}
#endif

template <class T> inline rows_sort_fn vsort_rows_kernel() {
#ifdef AX_VSORT_LEVEL
    if constexpr (vsortable_v<T>) return &vsort_rows<T>;
#endif
    return nullptr;
}
template <class T> inline long_sort_fn vsort_long_kernel() {
#ifdef AX_VSORT_LEVEL
    if constexpr (vsortable_v<T>) return &vsort_long<T>;
#endif
    return nullptr;
}
template <class T> inline packed_argsort_fn packed_argsort_kernel() {
#ifdef AX_VSORT_LEVEL
    if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) return &packed_argsort<T>;
#endif
    return nullptr;
}
struct VsortRows { template <int C> static rows_sort_fn make() { return vsort_rows_kernel<T_<C>>(); } };
struct VsortLong { template <int C> static long_sort_fn make() { return vsort_long_kernel<T_<C>>(); } };
struct PackedArgsort {
    template <int C> static packed_argsort_fn make() { return packed_argsort_kernel<T_<C>>(); }
};

AX_LEVEL_END
