// Generators for the creation functions: arithmetic progressions (arange, linspace).
#pragma once
#include "ax_cast.hpp"

namespace ax {

// p[i] = start + i * step, computed in complex128 (real dtypes take the real part).
template <class T>
void progression(char* p_, int64_t n, double sr, double si, double dr, double di) {
    T* p = reinterpret_cast<T*>(p_);
    for (int64_t i = 0; i < n; ++i) {
        const double k = static_cast<double>(i);
        p[i] = cast<T>(c128(sr + k * dr, si + k * di));
    }
}

// The store loop of int_progression is a few instructions: where it straddles a 64-byte line
// of code it runs at half speed (measured on Zen 4: arange(10**6) of int64 took 280 us against
// 144 us, from the same instructions at another address), so GCC aligns its loops to 64.
#if defined(__GNUC__) && !defined(__clang__)
#define AX_ALIGN_LOOPS __attribute__((optimize("align-loops=64")))
#else
#define AX_ALIGN_LOOPS
#endif

// p[i] = start + i * step in 64-bit integer arithmetic (wrapping), for integer dtypes.
template <class T>
AX_ALIGN_LOOPS void int_progression(char* p_, int64_t n, int64_t start, int64_t step) {
    T* p = reinterpret_cast<T*>(p_);
    uint64_t v = static_cast<uint64_t>(start);
    for (int64_t i = 0; i < n; ++i, v += static_cast<uint64_t>(step)) p[i] = static_cast<T>(v);
}

using progression_fn = void (*)(char*, int64_t, double, double, double, double);
using int_progression_fn = void (*)(char*, int64_t, int64_t, int64_t);

struct MakeProgression {
    template <int C>
    static progression_fn make() { return &progression<T_<C>>; }
};
struct MakeIntProgression {
    template <int C>
    static int_progression_fn make() { return &int_progression<T_<C>>; }
};

inline progression_fn progression_kernel(int code) {
    static progression_fn table[NCODES];
    static const bool filled = (fill_table<MakeProgression>(table), true);
    (void)filled;
    return table[code];
}

inline int_progression_fn int_progression_kernel(int code) {
    static int_progression_fn table[NCODES];
    static const bool filled = (fill_table<MakeIntProgression>(table), true);
    (void)filled;
    return table[code];
}

// Zero one triangle of each matrix of a C-contiguous (batch, rows, cols) buffer: with
// keep_lower, the elements above diagonal k (j > i + k); otherwise those below it (j < i + k).
// Zero bytes are zero in every dtype, so this works on bytes.
inline void zero_triangle(char* p, int64_t batch, int64_t rows, int64_t cols, int64_t k,
                          bool keep_lower, int64_t itemsize) {
    for (int64_t b = 0; b < batch; ++b) {
        for (int64_t i = 0; i < rows; ++i) {
            char* row = p + ((b * rows + i) * cols) * itemsize;
            int64_t lo, hi;
            if (keep_lower) {
                lo = i + k + 1 < 0 ? 0 : i + k + 1;
                hi = cols;
            } else {
                lo = 0;
                hi = i + k < cols ? i + k : cols;
            }
            if (hi > lo) std::memset(row + lo * itemsize, 0, (hi - lo) * itemsize);
        }
    }
}

}  // namespace ax
