// The 13 dtypes of the array API standard as CUDA C++ types, indexed by arrayx's dtype code.
// The codes and types come from _kernels/dtypes.py, as the CPU's do; the kind bits are those
// of ../cpu/ax_types.hpp: every kernel table in arrayx is indexed by them. Only libcu++ headers are used, so NVRTC compiles this as nvcc does.
#pragma once
#include <cuda/std/complex>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

// Kernel bodies are device code; the scalar helpers and op functors are also host code, so a
// host program can check their semantics without a GPU (tests/test_cuda_compile.py).
#define AX_DEV __device__ __forceinline__
#define AX_HD __host__ __device__ __forceinline__

namespace ax {

// The codes and types, from _kernels/dtypes.py (AX_DTYPES, which source.py puts first).
#define AX_CODE(name, T) name,
enum Code : int { AX_DTYPES(AX_CODE) NCODES };
#undef AX_CODE

using c64 = cuda::std::complex<float>;
using c128 = cuda::std::complex<double>;

template <int C> struct type_of;
#define AX_TYPE_OF(name, T) template <> struct type_of<name> { using type = T; };
AX_DTYPES(AX_TYPE_OF)
#undef AX_TYPE_OF
template <int C> using T_ = typename type_of<C>::type;

template <class T> struct is_complex : cuda::std::false_type {};
template <class T> struct is_complex<cuda::std::complex<T>> : cuda::std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;
template <class T> inline constexpr bool is_boolean_v = cuda::std::is_same_v<T, bool>;

template <class T> struct real_of { using type = T; };
template <class V> struct real_of<cuda::std::complex<V>> { using type = V; };
template <class T> using real_t = typename real_of<T>::type;

// Kind bits, so that an op can say which codes it is defined for (dtypes.py's KIND_MASKS:
// K_BOOL, K_SINT, K_UINT, K_INT, K_REAL_FLOAT, K_COMPLEX, K_FLOAT, K_REAL, K_NUMERIC, K_ALL).
#define AX_KIND(name, bits) name = bits,
enum Kind : unsigned { AX_KINDS(AX_KIND) };
#undef AX_KIND

// The result dtype of an elementwise op, as ops.py's ``result`` names it.
enum Result { R_SAME, R_BOOL, R_REAL };
template <class T, int R> struct result_of { using type = T; };
template <class T> struct result_of<T, R_BOOL> { using type = bool; };
template <class T> struct result_of<T, R_REAL> { using type = real_t<T>; };
template <class T, int R> using result_t = typename result_of<T, R>::type;

// Whether an op of kinds ``Kinds`` and result rule ``Res`` takes code ``C`` to code ``RC``:
// the generated kernels assert it, so the generator's dtype rules are checked by the compiler.
template <unsigned Kinds, int Res, int C, int RC>
inline constexpr bool op_accepts =
    ((Kinds >> C) & 1u) != 0 && cuda::std::is_same_v<result_t<T_<C>, Res>, T_<RC>>;

// Index arithmetic: ``I`` is the signed index type of a kernel (32 or 64 bits); counters and
// the division by extents run unsigned, which is cheaper and cannot overflow below 2^(bits-1).
template <class I> using uindex_t = cuda::std::make_unsigned_t<I>;

template <class I> AX_DEV uindex_t<I> thread_start() {
    return uindex_t<I>(blockIdx.x) * uindex_t<I>(blockDim.x) + uindex_t<I>(threadIdx.x);
}
template <class I> AX_DEV uindex_t<I> thread_step() {
    return uindex_t<I>(gridDim.x) * uindex_t<I>(blockDim.x);
}

}  // namespace ax
