// Gather and scatter of strided blocks at element offsets: the kernels of advanced indexing.
// Block b sits at base + offs[b] (elements) and has the shape and strides of `r` (rnd dims);
// the other side is C-contiguous (nb, block size).
#pragma once
#include "ax_types.hpp"

AX_LEVEL_BEGIN

template <class T, bool Gather>
void move_blocks(char* base_, const int64_t* offs, int64_t nb, int rnd, const int64_t* rshape,
                 const int64_t* rstrides, char* flat_) {
    T* base = reinterpret_cast<T*>(base_);
    T* flat = reinterpret_cast<T*>(flat_);
    if (rnd == 0) {  // single elements: the gather/scatter of take and of masks
        for (int64_t b = 0; b < nb; ++b) {
            if constexpr (Gather) flat[b] = base[offs[b]]; else base[offs[b]] = flat[b];
        }
        return;
    }
    int64_t block = 1;
    for (int d = 0; d < rnd; ++d) block *= rshape[d];
    int64_t idx[64];
    for (int64_t b = 0; b < nb; ++b) {
        T* src = base + offs[b];
        T* dst = flat + b * block;
        for (int d = 0; d < rnd; ++d) idx[d] = 0;
        int64_t off = 0;
        for (int64_t k = 0; k < block; ++k) {
            if constexpr (Gather) dst[k] = src[off]; else src[off] = dst[k];
            for (int d = rnd - 1; d >= 0; --d) {
                off += rstrides[d];
                if (++idx[d] < rshape[d]) break;
                off -= rstrides[d] * rshape[d];
                idx[d] = 0;
            }
        }
    }
}

// Boolean masks over the leading axes of a C-contiguous array, rows of `row_bytes` bytes:
// how many are true, the selected rows packed together (compress), and packed rows written
// back to the selected places (expand; `src_step` 0 repeats one row). Masks are read as bytes.
// Counted in 64 uint16 lanes over blocks of 1024 x 64 bytes (no lane passes 1024), the lanes
// added up after each block: the compiler keeps them in vector registers (a byte at a time
// into an int64 sum ran at a tenth of the speed).
inline int64_t count_true(const uint8_t* mask, int64_t n) {
    int64_t count = 0, i = 0;
    while (i < n) {
        const int64_t end = n - i > 1024 * 64 ? i + 1024 * 64 : n;
        uint16_t lanes[64] = {0};
        for (; i + 64 <= end; i += 64)
            for (int j = 0; j < 64; ++j) lanes[j] += mask[i + j] != 0;
        for (; i < end; ++i) count += mask[i] != 0;
        for (int j = 0; j < 64; ++j) count += lanes[j];
    }
    return count;
}

template <class W>
void compress_words(const char* src_, const uint8_t* mask, int64_t n, char* dst_) {
    const W* src = reinterpret_cast<const W*>(src_);
    W* dst = reinterpret_cast<W*>(dst_);
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {  // store always, advance where true: no branch
        dst[k] = src[i];
        k += mask[i] != 0;
    }
}

// `dst` must have room for one row more than the count of trues when rows are 1 to 8 bytes
// (the branch-free loop stores past the last selected row).
inline void compress_rows(const char* src, const uint8_t* mask, int64_t n, int64_t row_bytes,
                          char* dst) {
    switch (row_bytes) {
        case 1: return compress_words<uint8_t>(src, mask, n, dst);
        case 2: return compress_words<uint16_t>(src, mask, n, dst);
        case 4: return compress_words<uint32_t>(src, mask, n, dst);
        case 8: return compress_words<uint64_t>(src, mask, n, dst);
        default:
            for (int64_t i = 0; i < n; ++i) {
                if (mask[i]) {
                    std::memcpy(dst, src + i * row_bytes, row_bytes);
                    dst += row_bytes;
                }
            }
    }
}

inline void expand_rows(char* dst, const uint8_t* mask, int64_t n, int64_t row_bytes,
                        const char* src, int64_t src_step) {
    for (int64_t i = 0; i < n; ++i) {
        if (mask[i]) {
            std::memcpy(dst + i * row_bytes, src, row_bytes);
            src += src_step;
        }
    }
}

// out[i] = src[idx[i] * stride] for a 1-D source of n elements of W (negative indices count
// from the end). Returns -1, or the position of the first index out of range (nothing past it
// is written).
// complex128 moves as two 8-byte words: foreign memory (a NumPy view, DLPack) aligns it to 8
// bytes only, so a 16-byte-aligned type would be undefined behaviour (and aligned SSE moves).
struct Word16 { uint64_t lo, hi; };
template <class W>
int64_t take_words(const char* src_, int64_t n, int64_t stride, const int64_t* idx, int64_t m,
                   char* out_) {
    const W* src = reinterpret_cast<const W*>(src_);
    W* out = reinterpret_cast<W*>(out_);
    for (int64_t i = 0; i < m; ++i) {
        int64_t k = idx[i];
        k += k < 0 ? n : 0;
        if (static_cast<uint64_t>(k) >= static_cast<uint64_t>(n)) return i;
        out[i] = src[k * stride];
    }
    return -1;
}
inline int64_t take_1d(const char* src, int64_t n, int64_t stride, const int64_t* idx,
                       int64_t m, char* out, int itemsize) {
    switch (itemsize) {
        case 1: return take_words<uint8_t>(src, n, stride, idx, m, out);
        case 2: return take_words<uint16_t>(src, n, stride, idx, m, out);
        case 4: return take_words<uint32_t>(src, n, stride, idx, m, out);
        case 8: return take_words<uint64_t>(src, n, stride, idx, m, out);
        default: return take_words<Word16>(src, n, stride, idx, m, out);
    }
}


struct GatherTables {
    move_blocks_fn gather[NCODES];
    move_blocks_fn scatter[NCODES];
    struct G { template <int C> static move_blocks_fn make() { return &move_blocks<T_<C>, true>; } };
    struct S { template <int C> static move_blocks_fn make() { return &move_blocks<T_<C>, false>; } };
    GatherTables() {
        fill_table<G>(gather);
        fill_table<S>(scatter);
    }
};

inline move_blocks_fn gather_blocks_kernel(int code) {
    return table_of<GatherTables>().gather[code];
}
inline move_blocks_fn scatter_blocks_kernel(int code) {
    return table_of<GatherTables>().scatter[code];
}

AX_LEVEL_END
