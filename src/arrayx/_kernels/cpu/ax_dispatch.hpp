// The kernel tables of one ISA level, and the choice of a level for this CPU.
// ax_level.cpp fills a KernelSet once per level, each compiled with its level's flags
// (setup.py); the dispatch module (dispatch.pyx) picks the best level the CPU runs and the
// build has, capped by ARRAYX_CPU_LEVEL, once at import, as NumPy's CPU dispatch does.
#pragma once
#include "ax_fold_ops.hpp"
#include "ax_op_counts.hpp"
#include "ax_types.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define AX_X86_DISPATCH 1
#endif

namespace ax {

enum Level : int { LEVEL_BASELINE = 0, LEVEL_AVX2, LEVEL_AVX512, NLEVELS };

struct KernelSet {
    loop2d_fn unary[NUNARY][NCODES];
    loop2d_fn binary[NBINARY][NCODES];
    loop2d_fn where[NCODES];
    loop2d_fn cast[NCODES][NCODES];
    loop2d_fn fold[NFOLDS][NCODES];
    fold_init_fn fold_init[NFOLDS][NCODES];
    loop2d_fn squared_deviations[NCODES];
    loop2d_fn products[NCODES];
    scan_fn scan[2][NCODES];
    total_fn total[2][NCODES];
    argextreme_fn argextreme[NCODES];
    move_blocks_fn gather_blocks[NCODES];
    move_blocks_fn scatter_blocks[NCODES];
    take_fn take;
    // The vector sorts (ax_vsort.hpp): null at the baseline and for the dtypes they lack.
    rows_sort_fn sort_rows[NCODES];
    long_sort_fn sort_long[NCODES];
    packed_argsort_fn packed_argsort[NCODES];
    // Products with few columns (ax_skinny.hpp): null but at AVX-512, for float32 and float64.
    skinny_fn skinny[NCODES];
};

void fill_kernel_set_baseline(KernelSet* k);
#ifdef AX_BUILT_AVX2
void fill_kernel_set_avx2(KernelSet* k);
#endif
#ifdef AX_BUILT_AVX512
void fill_kernel_set_avx512(KernelSet* k);
#endif

// Whether this build holds the level's kernels.
inline bool level_built(int level) {
    switch (level) {
        case LEVEL_BASELINE: return true;
#ifdef AX_BUILT_AVX2
        case LEVEL_AVX2: return true;
#endif
#ifdef AX_BUILT_AVX512
        case LEVEL_AVX512: return true;
#endif
        default: return false;
    }
}

// Whether the CPU (and the operating system, which must save the wider registers) runs the
// instructions the level's kernels were compiled for (setup.py's flags of the level).
#ifdef AX_X86_DISPATCH
// F16C from CPUID (leaf 1, ECX bit 29): Clang's __builtin_cpu_supports (to 15 at least) does
// not know the name "f16c".
inline bool cpu_has_f16c() {
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}
#endif

inline bool level_supported(int level) {
#ifdef AX_X86_DISPATCH
    __builtin_cpu_init();
    const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                    cpu_has_f16c();
    switch (level) {
        case LEVEL_BASELINE: return true;
        case LEVEL_AVX2: return v3;
        case LEVEL_AVX512:
            return v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                   __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                   __builtin_cpu_supports("avx512vl");
        default: return false;
    }
#else
    return level == LEVEL_BASELINE;
#endif
}

inline void fill_kernel_set(int level, KernelSet* k) {
    switch (level) {
#ifdef AX_BUILT_AVX2
        case LEVEL_AVX2: fill_kernel_set_avx2(k); return;
#endif
#ifdef AX_BUILT_AVX512
        case LEVEL_AVX512: fill_kernel_set_avx512(k); return;
#endif
        default: fill_kernel_set_baseline(k); return;
    }
}

inline loop2d_fn unary_of(const KernelSet* k, int op, int code) { return k->unary[op][code]; }
inline loop2d_fn binary_of(const KernelSet* k, int op, int code) { return k->binary[op][code]; }
inline loop2d_fn where_of(const KernelSet* k, int code) { return k->where[code]; }
inline loop2d_fn cast_of(const KernelSet* k, int src, int dst) { return k->cast[src][dst]; }
inline loop2d_fn fold_of(const KernelSet* k, int op, int code) { return k->fold[op][code]; }
inline fold_init_fn fold_init_of(const KernelSet* k, int op, int code) {
    return k->fold_init[op][code];
}
inline loop2d_fn squared_deviations_of(const KernelSet* k, int code) {
    return k->squared_deviations[code];
}
inline loop2d_fn products_of(const KernelSet* k, int code) { return k->products[code]; }
inline scan_fn scan_of(const KernelSet* k, int op, int code) { return k->scan[op][code]; }
inline total_fn total_of(const KernelSet* k, int op, int code) { return k->total[op][code]; }
inline argextreme_fn argextreme_of(const KernelSet* k, int code) { return k->argextreme[code]; }
inline move_blocks_fn gather_blocks_of(const KernelSet* k, int code) {
    return k->gather_blocks[code];
}
inline move_blocks_fn scatter_blocks_of(const KernelSet* k, int code) {
    return k->scatter_blocks[code];
}
inline take_fn take_of(const KernelSet* k) { return k->take; }
inline rows_sort_fn sort_rows_of(const KernelSet* k, int code) { return k->sort_rows[code]; }
inline long_sort_fn sort_long_of(const KernelSet* k, int code) { return k->sort_long[code]; }
inline skinny_fn skinny_of(const KernelSet* k, int code) { return k->skinny[code]; }
inline packed_argsort_fn packed_argsort_of(const KernelSet* k, int code) {
    return k->packed_argsort[code];
}

}  // namespace ax
