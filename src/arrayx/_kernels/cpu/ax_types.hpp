// The 13 dtypes of the array API standard, as C++ types indexed by arrayx's dtype code.
// The code order is fixed: every kernel table in arrayx is indexed by it.
#pragma once
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "ax_dtypes.hpp"

// The kernels are compiled once per ISA level (ax_level.cpp), each level into an inline
// namespace of its own so that the levels' template instances never merge at link time. A
// translation unit that names no level (the Cython modules) gets the baseline.
#ifndef AX_LEVEL_NS
#define AX_LEVEL_NS baseline
#endif
#define AX_LEVEL_BEGIN namespace ax { inline namespace AX_LEVEL_NS {
#define AX_LEVEL_END } }

namespace ax {

// The codes, from _kernels/dtypes.py (ax_dtypes.hpp): BOOL = 0, INT8, ..., COMPLEX128.
#define AX_CODE(name, T) name,
enum Code : int { AX_DTYPES(AX_CODE) NCODES };
#undef AX_CODE

// The bool dtype's element: one byte that reads as True when it is not zero. Memory from
// elsewhere (a NumPy view, a DLPack tensor) may hold bytes other than 0 and 1; NumPy counts
// every non-zero byte as True, and a C++ bool holding such a byte is undefined behaviour.
struct bool8 {
    uint8_t v;
    bool8() = default;
    constexpr bool8(bool b) : v(b) {}
    constexpr operator bool() const { return v != 0; }
};

using c64 = std::complex<float>;
using c128 = std::complex<double>;

template <int C> struct type_of;
#define AX_TYPE_OF(name, T) template <> struct type_of<name> { using type = T; };
AX_DTYPES(AX_TYPE_OF)
#undef AX_TYPE_OF
template <int C> using T_ = typename type_of<C>::type;

template <class T> struct is_complex : std::false_type {};
template <class T> struct is_complex<std::complex<T>> : std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;
template <class T> inline constexpr bool is_boolean_v = std::is_same_v<T, bool8>;

template <class T> struct real_of { using type = T; };
template <class V> struct real_of<std::complex<V>> { using type = V; };
template <class T> using real_t = typename real_of<T>::type;

// Kind bits, so that an op can say which codes it is defined for (dtypes.py's KIND_MASKS:
// K_BOOL, K_SINT, K_UINT, K_INT, K_REAL_FLOAT, K_COMPLEX, K_FLOAT, K_REAL, K_NUMERIC, K_ALL).
#define AX_KIND(name, bits) name = bits,
enum Kind : unsigned { AX_KINDS(AX_KIND) };
#undef AX_KIND

// Every CPU kernel has this signature: a 2-D block of n0 x n1 elements over nop operands.
// ptrs[k] points at operand k's first element; strides[2k] and strides[2k+1] are operand k's
// outer and inner strides, counted in elements. The caller iterates all outer dimensions.
using loop2d_fn = void (*)(char** ptrs, const int64_t* strides, int64_t n0, int64_t n1);

// The other kernel signatures of the per-level tables (ax_dispatch.hpp).
// Fill a C-contiguous buffer of n elements with a fold's identity.
using fold_init_fn = void (*)(char* out, int64_t n);
// out[j] = op(start, in[0], ..., in[j]) along a run; start is the op's identity when NULL.
using scan_fn = void (*)(const char* in, int64_t n, int64_t stride, char* out, const char* start);
// The left-to-right fold of a run (the total a parallel scan's later ranges start from).
using total_fn = void (*)(const char* in, int64_t n, int64_t stride, char* out);
// The index of the first largest (want_max) or smallest element of each of `rows` rows.
using argextreme_fn = void (*)(const char* data, int64_t* out, int64_t rows, int64_t n,
                               bool want_max);
// Gather (or scatter) nb strided blocks at element offsets from (to) a C-contiguous buffer.
using move_blocks_fn = void (*)(char* base, const int64_t* offs, int64_t nb, int rnd,
                                const int64_t* rshape, const int64_t* rstrides, char* flat);
// Rows [row0, row0 + rows) of the C-ordered c (n columns) = a (element strides as0, as1) @ b
// packed by pack_skinny (ax_skinny.hpp): products with at most SKINNY_VECTORS vectors of
// columns.
using skinny_fn = void (*)(const char* a, int64_t as0, int64_t as1, const char* b, char* c,
                           int64_t n, int64_t k, int64_t row0, int64_t rows);
constexpr int SKINNY_VECTORS = 4;
constexpr int SKINNY_VECTOR_BYTES = 64;  // the AVX-512 level's, the only one with the kernel
// Sort each of `rows` C-contiguous rows of n elements in place.
using rows_sort_fn = void (*)(char* data, int64_t rows, int64_t n, bool desc, bool stable);
// fn(ctx, u) for every u in [0, units), over the engine's threads (iterate.parallel_for).
using unit_fn = void (*)(void* ctx, int64_t unit);
using run_units_fn = void (*)(int64_t units, unit_fn fn, void* ctx);
// Sort one row of n elements in place, on up to `threads` threads through `run`.
using long_sort_fn = void (*)(char* data, int64_t n, bool desc, bool stable, int threads,
                              run_units_fn run);
// Each row's sorting permutation into out (rows of fewer than 2^32 elements), on up to `threads`
// threads through `run`.
using packed_argsort_fn = void (*)(const char* data, int64_t* out, int64_t rows, int64_t n,
                                   bool desc, int threads, run_units_fn run);
// out[i] = src[idx[i] * stride] for i < m, idx checked against n: the first bad i, or -1.
using take_fn = int64_t (*)(const char* src, int64_t n, int64_t stride, const int64_t* idx,
                            int64_t m, char* out, int itemsize);

// Calls F::template make<C>() for every code C and stores the results in a table.
template <class F, class Fn, int... Cs>
inline void fill_table_impl(Fn* table, std::integer_sequence<int, Cs...>) {
    ((table[Cs] = F::template make<Cs>()), ...);
}
template <class F, class Fn>
inline void fill_table(Fn* table) {
    fill_table_impl<F>(table, std::make_integer_sequence<int, NCODES>{});
}

// A maker for fill_table: F's kernel for the codes of the kind mask Kinds, nullptr for the
// others (F's make<C> is not instantiated for them).
template <unsigned Kinds, class F> struct OfKinds {
    template <int C> static decltype(F::template make<C>()) make() {
        if constexpr ((Kinds >> C) & 1u) return F::template make<C>();
        else return nullptr;
    }
};

// F::template make<C>() for the floating codes C (FLOAT32, FLOAT64, COMPLEX64, COMPLEX128),
// nullptr for the others.
template <class F> inline decltype(F::template make<FLOAT64>()) float_kernel(int code) {
    switch (code) {
        case FLOAT32: return F::template make<FLOAT32>();
        case FLOAT64: return F::template make<FLOAT64>();
        case COMPLEX64: return F::template make<COMPLEX64>();
        case COMPLEX128: return F::template make<COMPLEX128>();
        default: return nullptr;
    }
}

// The one T, built (by its constructor) on first use: a table of kernels.
template <class T> inline const T& table_of() {
    static const T t;
    return t;
}

}  // namespace ax
