// Lane kernels over the rows of a C-contiguous (rows, n) buffer: sorting (NaNs last, complex
// numbers lexicographically, as NumPy orders them; long rows of integers and real floats by
// radix, the others with std::sort / std::stable_sort), searchsorted, unique runs and isin.
// These are the baseline's sorts: at the AVX2 and AVX-512 levels the values of 32- and 64-bit
// integers and real floats are sorted by the vector quicksort (ax_vsort.hpp) instead.
#pragma once
#include <algorithm>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>
#include "../ax_math.hpp"
#include "ax_radix.hpp"

namespace ax {

template <class T> inline bool nan_of(T a) { return is_nan(a); }

// a before b in descending order, NaNs last.
template <class T> inline bool descending(T a, T b) {
    if (nan_of(a)) return false;
    if (nan_of(b)) return true;
    return ascending(b, a);
}

template <class T>
void compare_sort_rows(char* data, int64_t rows, int64_t n, bool desc, bool stable) {
    for (int64_t r = 0; r < rows; ++r) {
        T* row = reinterpret_cast<T*>(data) + r * n;
        if (desc) {
            if (stable) std::stable_sort(row, row + n, descending<T>);
            else std::sort(row, row + n, descending<T>);
        } else {
            if (stable) std::stable_sort(row, row + n, ascending<T>);
            else std::sort(row, row + n, ascending<T>);
        }
    }
}

// Bool rows are read as bytes, any non-zero byte being True (memory from NumPy or DLPack may
// hold other bytes than 0 and 1): a count for sort, a stable two-way partition for argsort.
inline void sort_bool_rows(char* data, int64_t rows, int64_t n, bool desc) {
    for (int64_t r = 0; r < rows; ++r) {
        uint8_t* row = reinterpret_cast<uint8_t*>(data) + r * n;
        int64_t trues = 0;
        for (int64_t i = 0; i < n; ++i) trues += row[i] != 0;
        const int64_t first = desc ? trues : n - trues;
        std::memset(row, desc ? 1 : 0, first);
        std::memset(row + first, desc ? 0 : 1, n - first);
    }
}
inline void argsort_bool_rows(const char* data, int64_t* out, int64_t rows, int64_t n,
                              bool desc) {
    for (int64_t r = 0; r < rows; ++r) {
        const uint8_t* row = reinterpret_cast<const uint8_t*>(data) + r * n;
        int64_t* o = out + r * n;
        int64_t k = 0;
        for (int pass = 0; pass < 2; ++pass) {
            const bool want = (pass == 0) == desc;  // ascending: False first
            for (int64_t i = 0; i < n; ++i)
                if ((row[i] != 0) == want) o[k++] = i;
        }
    }
}

// One bucket of radix_split_row: the m values at `from` sorted into `to` (`from` is scratch).
template <class T>
void sort_bucket(char* from_, char* to_, int64_t m, bool desc) {
    if constexpr (radix_sortable_v<T>) {
        T* from = reinterpret_cast<T*>(from_);
        T* to = reinterpret_cast<T*>(to_);
        if (m >= RADIX_MIN_N) {
            if (desc) radix_sort_row<T, true>(from, m, to);
            else radix_sort_row<T, false>(from, m, to);
        } else {
            compare_sort_rows<T>(from_, 1, m, desc, true);
        }
        std::memcpy(to, from, m * sizeof(T));
    }
}

// radix_split_row for a row of integers or real floats; -1 (not split: the whole-row sort) for
// the other dtypes, which the backend does not send here.
template <class T>
int split_row(const char* row, int64_t n, bool desc, char* tmp, int64_t* starts) {
    if constexpr (radix_sortable_v<T> && !std::is_same_v<T, bool8>) {
        const T* r = reinterpret_cast<const T*>(row);
        T* t = reinterpret_cast<T*>(tmp);
        return desc ? radix_split_row<T, true>(r, n, t, starts)
                    : radix_split_row<T, false>(r, n, t, starts);
    } else {
        return -1;
    }
}

template <class T, bool DESC>
void radix_sort_rows(T* data, int64_t rows, int64_t n, T* tmp) {
    for (int64_t r = 0; r < rows; ++r) radix_sort_row<T, DESC>(data + r * n, n, tmp);
}

// Rows from RADIX_MIN_N integers or real floats take the radix sort (stable either way), others
// a comparison sort; so does every row when the scratch row cannot be had.
template <class T>
void sort_rows(char* data, int64_t rows, int64_t n, bool desc, bool stable) {
    if constexpr (std::is_same_v<T, bool8>) {
        sort_bool_rows(data, rows, n, desc);
        return;
    }
    if constexpr (radix_sortable_v<T>) {
        if (n >= RADIX_MIN_N) {
            if (T* tmp = static_cast<T*>(std::malloc(n * sizeof(T)))) {
                T* rows_ = reinterpret_cast<T*>(data);
                if (desc) radix_sort_rows<T, true>(rows_, rows, n, tmp);
                else radix_sort_rows<T, false>(rows_, rows, n, tmp);
                std::free(tmp);
                return;
            }
        }
    }
    compare_sort_rows<T>(data, rows, n, desc, stable);
}

// Short rows of 8-byte integers or real floats: (order key, index) pairs as 128-bit words,
// sorted by value (equal keys by index, so stable), with no indirect read in the comparisons.
template <class T, bool DESC>
void pair_argsort_rows(const T* data, int64_t* out, int64_t rows, int64_t n) {
    using W = unsigned __int128;
    W words[RADIX_MIN_N];
    for (int64_t r = 0; r < rows; ++r) {
        const T* row = data + r * n;
        for (int64_t i = 0; i < n; ++i) words[i] = (W(radix_key<T, DESC>(row[i])) << 64) | W(i);
        std::sort(words, words + n);
        for (int64_t i = 0; i < n; ++i) out[r * n + i] = int64_t(uint64_t(words[i]));
    }
}

template <class T>
void compare_argsort_rows(const char* data, int64_t* out, int64_t rows, int64_t n, bool desc,
                          bool stable) {
#ifdef __SIZEOF_INT128__
    if constexpr (radix_sortable_v<T> && sizeof(T) == 8) {
        if (n < RADIX_MIN_N) {
            const T* d = reinterpret_cast<const T*>(data);
            if (desc) pair_argsort_rows<T, true>(d, out, rows, n);
            else pair_argsort_rows<T, false>(d, out, rows, n);
            return;
        }
    }
#endif
    for (int64_t r = 0; r < rows; ++r) {
        const T* row = reinterpret_cast<const T*>(data) + r * n;
        int64_t* idx = out + r * n;
        std::iota(idx, idx + n, int64_t(0));
        auto asc = [row](int64_t i, int64_t j) { return ascending(row[i], row[j]); };
        auto dsc = [row](int64_t i, int64_t j) { return descending(row[i], row[j]); };
        if (desc) {
            if (stable) std::stable_sort(idx, idx + n, dsc);
            else std::sort(idx, idx + n, dsc);
        } else {
            if (stable) std::stable_sort(idx, idx + n, asc);
            else std::sort(idx, idx + n, asc);
        }
    }
}

template <class T, bool DESC>
void radix_argsort_rows(const T* data, int64_t* out, int64_t rows, int64_t n,
                        radix_key_t<T>* keys, int64_t* idx) {
    for (int64_t r = 0; r < rows; ++r)
        radix_argsort_row<T, DESC>(data + r * n, n, out + r * n, keys, idx);
}

// As sort_rows: the radix sort's scratch is 2n keys and n indices.
template <class T>
void argsort_rows(const char* data, int64_t* out, int64_t rows, int64_t n, bool desc,
                  bool stable) {
    if constexpr (std::is_same_v<T, bool8>) {
        argsort_bool_rows(data, out, rows, n, desc);
        return;
    }
    if constexpr (radix_sortable_v<T>) {
        using K = radix_key_t<T>;
        if (n >= RADIX_MIN_N) {
            if (void* scratch = std::malloc(n * (2 * sizeof(K) + sizeof(int64_t)))) {
                int64_t* idx = static_cast<int64_t*>(scratch);
                K* keys = reinterpret_cast<K*>(idx + n);
                const T* rows_ = reinterpret_cast<const T*>(data);
                if (desc) radix_argsort_rows<T, true>(rows_, out, rows, n, keys, idx);
                else radix_argsort_rows<T, false>(rows_, out, rows, n, keys, idx);
                std::free(scratch);
                return;
            }
        }
    }
    compare_argsort_rows<T>(data, out, rows, n, desc, stable);
}

// For each of m values, where it would go in the ascending (NaNs last) array `sorted` of n
// elements, seen through `sorter` when it is not null: before equal elements (left) or after.
template <class T>
void searchsorted_values(const char* sorted_, int64_t n, const int64_t* sorter,
                         const char* values_, int64_t m, bool right, int64_t* out) {
    const T* sorted = reinterpret_cast<const T*>(sorted_);
    const T* values = reinterpret_cast<const T*>(values_);
    auto at = [&](int64_t i) { return sorted[sorter ? sorter[i] : i]; };
    for (int64_t k = 0; k < m; ++k) {
        const T v = values[k];
        int64_t lo = 0, hi = n;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            const bool go_right = right ? !ascending(v, at(mid)) : ascending(at(mid), v);
            if (go_right) lo = mid + 1; else hi = mid;
        }
        out[k] = lo;
    }
}

// The positions of the `count` non-zero bytes of a C-contiguous bool array of `shape`, one
// output array per dimension (each `count` long). Without a branch on the data (a random mask
// mispredicts every other element): each position is written, and the count advances by the
// mask; the loop ends at the last non-zero element, so no write goes past the outputs.
inline void nonzero_positions(const char* mask, int ndim, const int64_t* shape, int64_t count,
                              int64_t** out) {
    int64_t k = 0;
    if (ndim == 1) {
        int64_t* o = out[0];
        for (int64_t i = 0; k < count; ++i) {
            o[k] = i;
            k += mask[i] != 0;
        }
        return;
    }
    int64_t idx[64] = {0};
    for (int64_t i = 0; k < count; ++i) {
        for (int d = 0; d < ndim; ++d) out[d][k] = idx[d];
        k += mask[i] != 0;
        for (int d = ndim - 1; d >= 0; --d) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
}

// Where each run of equal elements of an ascending array starts (NaNs are all distinct);
// returns the number of runs.
template <class T>
int64_t run_starts(const char* sorted_, int64_t n, int64_t* starts) {
    const T* sorted = reinterpret_cast<const T*>(sorted_);
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
        if (i == 0 || !(sorted[i] == sorted[i - 1])) starts[k++] = i;
    return k;
}

// out[k] = whether values[k] equals an element of the ascending array `sorted` (xor invert).
// Integers whose table spans a range not much larger than the data look up a byte per value
// of the range (NumPy's "table" method); the rest search the table without a branch on the
// data (each step picks its half by a conditional move), as a data-dependent branch in a
// binary search mispredicts every other step.
template <class T>
void isin_values(const char* sorted_, int64_t n, const char* values_, int64_t m, bool invert,
                 char* out_) {
    bool* out = reinterpret_cast<bool*>(out_);
    const T* sorted = reinterpret_cast<const T*>(sorted_);
    const T* values = reinterpret_cast<const T*>(values_);
    if (n == 0) {
        for (int64_t k = 0; k < m; ++k) out[k] = invert;
        return;
    }
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        const U span = static_cast<U>(static_cast<U>(sorted[n - 1]) - static_cast<U>(sorted[0]));
        if (span < static_cast<U>(4 * (n + m) + 65536)) {
            std::vector<uint8_t> present(static_cast<size_t>(span) + 1, 0);
            for (int64_t i = 0; i < n; ++i)
                present[static_cast<U>(static_cast<U>(sorted[i]) - static_cast<U>(sorted[0]))] = 1;
            for (int64_t k = 0; k < m; ++k) {
                const U at = static_cast<U>(static_cast<U>(values[k]) - static_cast<U>(sorted[0]));
                const bool in = values[k] >= sorted[0] && values[k] <= sorted[n - 1] && present[at];
                out[k] = in != invert;
            }
            return;
        }
    }
    for (int64_t k = 0; k < m; ++k) {
        const T v = values[k];
        const T* base = sorted;
        int64_t len = n;
        while (len > 1) {
            const int64_t half = len / 2;
            base = ascending(base[half], v) ? base + half : base;
            len -= half;
        }
        base += ascending(*base, v);
        out[k] = (base != sorted + n && *base == v) != invert;
    }
}

// out[k] = src[idx[k]] for k < m, on C-contiguous 1-D buffers.
template <class T>
void gather_1d(const char* src_, const int64_t* idx, int64_t m, char* out_) {
    const T* src = reinterpret_cast<const T*>(src_);
    T* out = reinterpret_cast<T*>(out_);
    for (int64_t k = 0; k < m; ++k) out[k] = src[idx[k]];
}

// out[idx[k]] += values[k] for k < m, repeated positions adding up (the gradient of a
// gather); out has n elements. Returns the first k whose position is outside [0, n), or -1
// (the elements before it are added).
template <class T>
int64_t scatter_add_1d(const char* values_, const int64_t* idx, int64_t m, int64_t n,
                       char* out_) {
    const T* values = reinterpret_cast<const T*>(values_);
    T* out = reinterpret_cast<T*>(out_);
    for (int64_t k = 0; k < m; ++k) {
        const int64_t i = idx[k];
        if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(n)) return k;
        if constexpr (std::is_same_v<T, bool8>) {
            out[i] = bool8(out[i] || values[k]);
        } else {
            out[i] += values[k];
        }
    }
    return -1;
}

using sort_fn = void (*)(char*, int64_t, int64_t, bool, bool);
using argsort_fn = void (*)(const char*, int64_t*, int64_t, int64_t, bool, bool);
using split_fn = int (*)(const char*, int64_t, bool, char*, int64_t*);
using bucket_fn = void (*)(char*, char*, int64_t, bool);
using gather_fn = void (*)(const char*, const int64_t*, int64_t, char*);
using scatter_add_fn = int64_t (*)(const char*, const int64_t*, int64_t, int64_t, char*);
using run_starts_fn = int64_t (*)(const char*, int64_t, int64_t*);
using isin_fn = void (*)(const char*, int64_t, const char*, int64_t, bool, char*);
using searchsorted_fn = void (*)(const char*, int64_t, const int64_t*, const char*, int64_t,
                                 bool, int64_t*);

struct SortTables {
    sort_fn sort[NCODES];
    argsort_fn argsort[NCODES];
    searchsorted_fn searchsorted[NCODES];
    run_starts_fn run_starts[NCODES];
    gather_fn gather[NCODES];
    struct G { template <int C> static gather_fn make() { return &gather_1d<T_<C>>; } };
    scatter_add_fn scatter_add[NCODES];
    struct D {
        template <int C> static scatter_add_fn make() { return &scatter_add_1d<T_<C>>; }
    };
    isin_fn isin[NCODES];
    struct R { template <int C> static run_starts_fn make() { return &ax::run_starts<T_<C>>; } };
    struct I { template <int C> static isin_fn make() { return &isin_values<T_<C>>; } };
    struct Q {
        template <int C> static searchsorted_fn make() { return &searchsorted_values<T_<C>>; }
    };
    struct S { template <int C> static sort_fn make() { return &sort_rows<T_<C>>; } };
    struct A { template <int C> static argsort_fn make() { return &argsort_rows<T_<C>>; } };
    split_fn split[NCODES];
    struct P { template <int C> static split_fn make() { return &split_row<T_<C>>; } };
    bucket_fn bucket[NCODES];
    struct B { template <int C> static bucket_fn make() { return &sort_bucket<T_<C>>; } };
    SortTables() {
        fill_table<P>(split);
        fill_table<B>(bucket);
        fill_table<S>(sort);
        fill_table<A>(argsort);
        fill_table<Q>(searchsorted);
        fill_table<R>(run_starts);
        fill_table<G>(gather);
        fill_table<D>(scatter_add);
        fill_table<I>(isin);
    }
};

inline sort_fn sort_kernel(int code) { return table_of<SortTables>().sort[code]; }
inline argsort_fn argsort_kernel(int code) { return table_of<SortTables>().argsort[code]; }
inline split_fn split_kernel(int code) { return table_of<SortTables>().split[code]; }
inline bucket_fn bucket_kernel(int code) { return table_of<SortTables>().bucket[code]; }
inline searchsorted_fn searchsorted_kernel(int code) {
    return table_of<SortTables>().searchsorted[code];
}
inline gather_fn gather_kernel(int code) { return table_of<SortTables>().gather[code]; }
inline scatter_add_fn scatter_add_kernel(int code) {
    return table_of<SortTables>().scatter_add[code];
}
inline run_starts_fn run_starts_kernel(int code) { return table_of<SortTables>().run_starts[code]; }
inline isin_fn isin_kernel(int code) { return table_of<SortTables>().isin[code]; }

}  // namespace ax
