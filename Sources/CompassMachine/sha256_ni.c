// SHA-256 block compression with the x86 SHA extensions, used by CompassCore's SHA256 when
// the CPU has them; everywhere else (ARM, older x86) the portable Swift code runs instead.
#include "compass_machine.h"

/// FIPS 180-4's round constants, spelled once: the SHA-NI rounds here and the portable Swift
/// rounds in CompassCore both read them.
const uint32_t compass_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(COMPASS_PORTABLE)
#include <immintrin.h>
#include <cpuid.h>

int compass_sha256_accelerated(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    int sse41 = (ecx >> 19) & 1, ssse3 = (ecx >> 9) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    int sha = (ebx >> 29) & 1;
    return sse41 && ssse3 && sha;
}

__attribute__((target("sha,sse4.1,ssse3")))
void compass_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);           // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B);     // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);  // CDGH

    while (blocks--) {
        const __m128i abef = state0, cdgh = state1;
        __m128i w[4];
        for (int i = 0; i < 4; i++) w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), mask);
        for (int i = 0; i < 16; i++) {
            __m128i m = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&compass_sha256_k[4 * i]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, m);
            m = _mm_shuffle_epi32(m, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, m);
            if (i < 12) {
                // Words of group i+4 from groups i, i+1, i+2, i+3.
                __m128i next = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                w[i & 3] = _mm_sha256msg2_epu32(next, w[(i + 3) & 3]);
            }
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
        data += 64;
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);     // ABEF → HGFE
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

// The rounds of a block run one after another (each depends on the last), so one message
// leaves the SHA unit idle between them; two independent messages, interleaved round by
// round, fill those gaps (about 1.5 times the bytes per second on the machines we measured).
__attribute__((target("sha,sse4.1,ssse3")))
void compass_sha256_blocks_x2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                              size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state_a[0]), 0xB1);
    __m128i a1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state_a[4]), 0x1B);
    __m128i a0 = _mm_alignr_epi8(tmp, a1, 8);
    a1 = _mm_blend_epi16(a1, tmp, 0xF0);
    tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state_b[0]), 0xB1);
    __m128i b1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state_b[4]), 0x1B);
    __m128i b0 = _mm_alignr_epi8(tmp, b1, 8);
    b1 = _mm_blend_epi16(b1, tmp, 0xF0);

    while (blocks--) {
        const __m128i abef_a = a0, cdgh_a = a1, abef_b = b0, cdgh_b = b1;
        __m128i wa[4], wb[4];
        for (int i = 0; i < 4; i++) {
            wa[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data_a + 16 * i)), mask);
            wb[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data_b + 16 * i)), mask);
        }
        for (int i = 0; i < 16; i++) {
            const __m128i k = _mm_loadu_si128((const __m128i *)&compass_sha256_k[4 * i]);
            __m128i ma = _mm_add_epi32(wa[i & 3], k), mb = _mm_add_epi32(wb[i & 3], k);
            a1 = _mm_sha256rnds2_epu32(a1, a0, ma);
            b1 = _mm_sha256rnds2_epu32(b1, b0, mb);
            ma = _mm_shuffle_epi32(ma, 0x0E);
            mb = _mm_shuffle_epi32(mb, 0x0E);
            a0 = _mm_sha256rnds2_epu32(a0, a1, ma);
            b0 = _mm_sha256rnds2_epu32(b0, b1, mb);
            if (i < 12) {
                __m128i na = _mm_sha256msg1_epu32(wa[i & 3], wa[(i + 1) & 3]);
                __m128i nb = _mm_sha256msg1_epu32(wb[i & 3], wb[(i + 1) & 3]);
                na = _mm_add_epi32(na, _mm_alignr_epi8(wa[(i + 3) & 3], wa[(i + 2) & 3], 4));
                nb = _mm_add_epi32(nb, _mm_alignr_epi8(wb[(i + 3) & 3], wb[(i + 2) & 3], 4));
                wa[i & 3] = _mm_sha256msg2_epu32(na, wa[(i + 3) & 3]);
                wb[i & 3] = _mm_sha256msg2_epu32(nb, wb[(i + 3) & 3]);
            }
        }
        a0 = _mm_add_epi32(a0, abef_a);
        a1 = _mm_add_epi32(a1, cdgh_a);
        b0 = _mm_add_epi32(b0, abef_b);
        b1 = _mm_add_epi32(b1, cdgh_b);
        data_a += 64;
        data_b += 64;
    }

    tmp = _mm_shuffle_epi32(a0, 0x1B);
    a1 = _mm_shuffle_epi32(a1, 0xB1);
    _mm_storeu_si128((__m128i *)&state_a[0], _mm_blend_epi16(tmp, a1, 0xF0));
    _mm_storeu_si128((__m128i *)&state_a[4], _mm_alignr_epi8(a1, tmp, 8));
    tmp = _mm_shuffle_epi32(b0, 0x1B);
    b1 = _mm_shuffle_epi32(b1, 0xB1);
    _mm_storeu_si128((__m128i *)&state_b[0], _mm_blend_epi16(tmp, b1, 0xF0));
    _mm_storeu_si128((__m128i *)&state_b[4], _mm_alignr_epi8(b1, tmp, 8));
}

#else

int compass_sha256_accelerated(void) { return 0; }
void compass_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) { (void)state; (void)data; (void)blocks; }
void compass_sha256_blocks_x2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                              size_t blocks) {
    (void)state_a; (void)data_a; (void)state_b; (void)data_b; (void)blocks;
}

#endif
