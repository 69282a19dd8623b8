// A content hash of a buffer's bytes, for dask's tokens (``__dask_tokenize__``): equal bytes
// give equal digests on any thread count and any machine of one byte order, and different
// bytes differ but for a chance of about 2^-64 a pair. Not a cryptographic hash: dask takes xxHash or CityHash for NumPy's
// buffers when they are installed, SHA-1 (0.6 ns a byte here) when not.
//
// The buffer is cut into blocks of HASH_BLOCK bytes, hashed independently (over threads, by the
// backend), each by xxHash64's round over eight lanes of 8-byte words and its avalanche; the
// digest is two hashes, with two seeds, of the blocks' hashes in order and the length.
#pragma once
#include <cstdint>
#include <cstring>

namespace ax {

constexpr int64_t HASH_BLOCK = int64_t(1) << 20;

namespace hash_detail {

constexpr uint64_t P1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t P2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t P3 = 0x165667B19E3779F9ULL;
constexpr uint64_t P4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t P5 = 0x27D4EB2F165667C5ULL;
constexpr int LANES = 8;

inline uint64_t rotl(uint64_t x, int r) noexcept { return (x << r) | (x >> (64 - r)); }

inline uint64_t round(uint64_t acc, uint64_t word) noexcept {
    return rotl(acc + word * P2, 31) * P1;
}

inline uint64_t avalanche(uint64_t h) noexcept {
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    return h ^ (h >> 32);
}

inline uint64_t load64(const unsigned char* p) noexcept {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

}  // namespace hash_detail

// The hash of n bytes at p with seed.
inline uint64_t hash_bytes(const unsigned char* p, int64_t n, uint64_t seed) noexcept {
    using namespace hash_detail;
    uint64_t lane[LANES];
    for (int i = 0; i < LANES; ++i) lane[i] = seed + P1 * uint64_t(i + 1);
    const int64_t stripes = n / (8 * LANES);
    for (int64_t s = 0; s < stripes; ++s, p += 8 * LANES)
        for (int i = 0; i < LANES; ++i) lane[i] = round(lane[i], load64(p + 8 * i));
    uint64_t h = seed + P5 + uint64_t(n);
    for (int i = 0; i < LANES; ++i) h = rotl(h ^ round(0, lane[i]), 27) * P1 + P4;
    int64_t rest = n - stripes * 8 * LANES;
    for (; rest >= 8; rest -= 8, p += 8) h = rotl(h ^ round(0, load64(p)), 27) * P1 + P4;
    for (; rest > 0; --rest, ++p) h = rotl(h ^ (uint64_t(*p) * P5), 11) * P1;
    return avalanche(h);
}

// The hash of block b of the n bytes at p.
inline uint64_t hash_block(const unsigned char* p, int64_t n, int64_t b) noexcept {
    const int64_t start = b * HASH_BLOCK;
    const int64_t len = n - start < HASH_BLOCK ? n - start : HASH_BLOCK;
    return hash_bytes(p + start, len, uint64_t(b));
}

// The digest (two words) of a buffer of n bytes whose blocks hashed to blocks[0 .. count).
inline void hash_digest(const uint64_t* blocks, int64_t count, int64_t n,
                        uint64_t* out) noexcept {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(blocks);
    out[0] = hash_bytes(p, count * 8, uint64_t(n));
    out[1] = hash_bytes(p, count * 8, uint64_t(n) ^ hash_detail::P4);
}

}  // namespace ax
