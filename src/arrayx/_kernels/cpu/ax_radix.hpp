// LSD radix sorts of integer and real floating-point rows, stable by construction.
//
// Each value maps to an unsigned key of its width that orders as the sort comparators do:
// unsigned integers as they are, signed ones with the sign bit flipped, floats as their bits
// with the sign bit set when positive and every bit flipped when negative (after -0.0 becomes
// 0.0, so the two zeros share a key and keep their order). Descending order complements the
// key; every NaN, of either sign and any payload, takes the largest key, so NaNs come last both
// ways. One read counts the digits of every pass; a pass whose digit is the same for every
// key moves nothing and is skipped, so narrow ranges take few passes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <utility>

namespace ax {

template <class T>
inline constexpr bool radix_sortable_v =
    std::is_integral_v<T> || std::is_floating_point_v<T>;

template <class T, class = void> struct radix_key_type { using type = std::make_unsigned_t<T>; };
template <> struct radix_key_type<float> { using type = uint32_t; };
template <> struct radix_key_type<double> { using type = uint64_t; };
template <class T> using radix_key_t = typename radix_key_type<T>::type;

template <class T, bool DESC>
inline radix_key_t<T> radix_key(T x) {
    using K = radix_key_t<T>;
    constexpr int bits = 8 * sizeof(K);
    constexpr K top = K(K(1) << (bits - 1));
    constexpr K flip = DESC ? K(~K(0)) : K(0);
    if constexpr (std::is_floating_point_v<T>) {
        K u;
        std::memcpy(&u, &x, sizeof u);
        u = x == T(0) ? K(0) : u;
        const K negative = K(0) - (u >> (bits - 1));  // all ones for a negative value
        const K key = u ^ (negative | top) ^ flip;
        return x != x ? K(~K(0)) : key;
    } else if constexpr (std::is_signed_v<T>) {
        return K(K(x) ^ top ^ flip);
    } else {
        return K(x ^ flip);
    }
}

constexpr int RADIX_BITS = 8;
constexpr int RADIX = 1 << RADIX_BITS;
// Rows shorter than this are sorted by comparison: from 256 float64 values the radix sort
// beats std::sort and std::stable_sort, sorting values or indices.
constexpr int64_t RADIX_MIN_N = 256;

template <class K>
inline constexpr int radix_passes = (8 * int(sizeof(K)) + RADIX_BITS - 1) / RADIX_BITS;

template <class K> inline unsigned radix_digit(K key, int pass) {
    return unsigned(key >> (pass * RADIX_BITS)) & unsigned(RADIX - 1);
}

// The digit counts of every pass in one read of the n keys key_of(i), turned into each
// bucket's first output position; returns how many passes move something, listed in `active`.
template <class K, class KeyOf>
int radix_plan(int64_t n, KeyOf key_of, int64_t (*start)[RADIX], int* active) {
    constexpr int P = radix_passes<K>;
    for (int p = 0; p < P; ++p) std::fill(start[p], start[p] + RADIX, int64_t(0));
    for (int64_t i = 0; i < n; ++i) {
        const K key = key_of(i);
        for (int p = 0; p < P; ++p) ++start[p][radix_digit(key, p)];
    }
    const K first = key_of(0);
    int count = 0;
    for (int p = 0; p < P; ++p) {
        if (start[p][radix_digit(first, p)] == n) continue;
        active[count++] = p;
        int64_t sum = 0;
        for (int d = 0; d < RADIX; ++d) sum += std::exchange(start[p][d], sum);
    }
    return count;
}

// Integer rows whose keys span at most this many values (and no more than the row's length)
// are sorted by counting: one read for the range, one to count each key, one to write the runs.
constexpr uint64_t COUNTING_MAX = uint64_t(1) << 16;

// Sorts the integer `row` in place by counting its keys when their range is narrow (see
// COUNTING_MAX); false (nothing written) otherwise. Equal integers are equal values, so the
// order among them needs no keeping, and an integer's key maps back to it by the same xor.
template <class T, bool DESC>
bool counting_sort_row(T* row, int64_t n) {
    using K = radix_key_t<T>;
    K lo = K(~K(0)), hi = K(0);
    // The range block by block (each block's loop vectorises), stopping at the first block
    // that makes it too wide: a row of spread values costs a block's read, not a pass.
    constexpr int64_t BLOCK = 4096;
    for (int64_t b = 0; b < n; b += BLOCK) {
        const int64_t end = b + BLOCK < n ? b + BLOCK : n;
        for (int64_t i = b; i < end; ++i) {
            const K key = radix_key<T, DESC>(row[i]);
            lo = key < lo ? key : lo;
            hi = key > hi ? key : hi;
        }
        if (uint64_t(hi - lo) >= COUNTING_MAX) return false;
    }
    const uint64_t range = uint64_t(hi - lo) + 1;
    if (range > uint64_t(n)) return false;
    int64_t* counts = static_cast<int64_t*>(std::calloc(range, sizeof(int64_t)));
    if (counts == nullptr) return false;
    for (int64_t i = 0; i < n; ++i) ++counts[radix_key<T, DESC>(row[i]) - lo];
    const K unkey = radix_key<T, DESC>(T(0));  // key ^ unkey is the integer again
    int64_t at = 0;
    for (uint64_t d = 0; d < range; ++d) {
        std::fill(row + at, row + at + counts[d], T(K(lo + K(d)) ^ unkey));
        at += counts[d];
    }
    std::free(counts);
    return true;
}

// Sorts `row` in place; `tmp` holds n values.
template <class T, bool DESC>
void radix_sort_row(T* row, int64_t n, T* tmp) {
    using K = radix_key_t<T>;
    if constexpr (std::is_integral_v<T>) {
        if (counting_sort_row<T, DESC>(row, n)) return;
    }
    int64_t start[radix_passes<K>][RADIX];
    int active[radix_passes<K>];
    const int passes = radix_plan<K>(n, [row](int64_t i) { return radix_key<T, DESC>(row[i]); },
                                     start, active);
    T* src = row;
    T* dst = tmp;
    for (int j = 0; j < passes; ++j) {
        int64_t* pos = start[active[j]];
        const int p = active[j];
        for (int64_t i = 0; i < n; ++i) {
            const T v = src[i];
            dst[pos[radix_digit(radix_key<T, DESC>(v), p)]++] = v;
        }
        std::swap(src, dst);
    }
    if (src != row) std::memcpy(row, src, n * sizeof(T));
}

// A long row's first, most significant pass: its values moved from `row` into `tmp` by the
// leading SPLIT_BITS bits of their keys' span (key - lowest key), so that bucket b, at
// tmp[starts[b], starts[b + 1]), holds keys below bucket b + 1's whatever the data's range
// (the top digit alone would put every float of [2^-8, 1) in one bucket). The buckets then sort
// apart (sort_bucket), each mostly within the caches and on any thread.
// Returns the number of buckets, SPLIT_BUCKETS; 0 when every key is the same (nothing moved:
// the row is sorted); -1 (nothing moved) when one bucket would hold more than half the row,
// which then takes the whole-row sort.
constexpr int SPLIT_BITS = 10;
constexpr int SPLIT_BUCKETS = 1 << SPLIT_BITS;
template <class T, bool DESC>
int radix_split_row(const T* row, int64_t n, T* tmp, int64_t* starts) {
    using K = radix_key_t<T>;
    K lo = K(~K(0)), hi = K(0);
    for (int64_t i = 0; i < n; ++i) {
        const K key = radix_key<T, DESC>(row[i]);
        lo = key < lo ? key : lo;
        hi = key > hi ? key : hi;
    }
    if (lo == hi) return 0;
    int shift = 0;
    while (shift < 8 * int(sizeof(K)) && (K(hi - lo) >> shift) >= K(SPLIT_BUCKETS)) ++shift;
    std::fill(starts, starts + SPLIT_BUCKETS + 1, int64_t(0));
    for (int64_t i = 0; i < n; ++i) ++starts[(radix_key<T, DESC>(row[i]) - lo) >> shift];
    if (*std::max_element(starts, starts + SPLIT_BUCKETS) > n / 2) return -1;
    int64_t sum = 0;
    for (int b = 0; b <= SPLIT_BUCKETS; ++b) sum += std::exchange(starts[b], sum);
    int64_t pos[SPLIT_BUCKETS];
    std::copy(starts, starts + SPLIT_BUCKETS, pos);
    for (int64_t i = 0; i < n; ++i) {
        const T v = row[i];
        tmp[pos[(radix_key<T, DESC>(v) - lo) >> shift]++] = v;
    }
    return SPLIT_BUCKETS;
}

// One pass of the argsort: (key, index) pairs moved into their buckets of digit `p`. The first
// pass reads the keys from the values and the indices 0..n-1; the last writes no keys.
template <class T, bool DESC, bool FIRST, bool LAST>
void radix_argsort_pass(const T* row, int64_t n, int p, int64_t* pos, const radix_key_t<T>* ksrc,
                        radix_key_t<T>* kdst, const int64_t* isrc, int64_t* idst) {
    for (int64_t i = 0; i < n; ++i) {
        const radix_key_t<T> key = FIRST ? radix_key<T, DESC>(row[i]) : ksrc[i];
        const int64_t at = pos[radix_digit(key, p)]++;
        idst[at] = FIRST ? i : isrc[i];
        if constexpr (!LAST) kdst[at] = key;
    }
}

// The stable sorting permutation of `row` into `out`; `keys` holds 2n keys and `idx` n
// indices. The passes alternate between `out` and `idx` so that the last one writes `out`.
template <class T, bool DESC>
void radix_argsort_row(const T* row, int64_t n, int64_t* out, radix_key_t<T>* keys,
                       int64_t* idx) {
    using K = radix_key_t<T>;
    int64_t start[radix_passes<K>][RADIX];
    int active[radix_passes<K>];
    const int passes = radix_plan<K>(n, [row](int64_t i) { return radix_key<T, DESC>(row[i]); },
                                     start, active);
    if (passes == 0) {
        std::iota(out, out + n, int64_t(0));
        return;
    }
    K* key_buf[2] = {keys, keys + n};
    for (int j = 0; j < passes; ++j) {
        const int p = active[j];
        const K* ksrc = key_buf[(j + 1) % 2];
        K* kdst = key_buf[j % 2];
        const int64_t* isrc = (passes - j) % 2 ? idx : out;
        int64_t* idst = (passes - j) % 2 ? out : idx;
        auto pass = j == 0 ? (passes == 1 ? &radix_argsort_pass<T, DESC, true, true>
                                          : &radix_argsort_pass<T, DESC, true, false>)
                           : (j + 1 == passes ? &radix_argsort_pass<T, DESC, false, true>
                                              : &radix_argsort_pass<T, DESC, false, false>);
        pass(row, n, p, start[p], ksrc, kdst, isrc, idst);
    }
}

}  // namespace ax
