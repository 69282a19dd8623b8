// The ISA level's vector lanes (GCC and Clang vector extensions), for the folds and the vector
// math library's loops.
#pragma once
#include <cstring>
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

// Full-width lanes of T, loaded from unaligned memory.
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

AX_LEVEL_END
