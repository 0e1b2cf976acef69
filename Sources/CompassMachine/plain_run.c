// The JSON scanner's inner loop, sixteen bytes at a time with SSE2 (part of every x86-64 CPU),
// used by CompassCore's JSONTape.plainRunEnd on x86-64; elsewhere its portable Swift code runs.
#include "compass_machine.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(COMPASS_PORTABLE)
#include <emmintrin.h>

size_t compass_plain_run_end(const uint8_t *p, size_t from, size_t to) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    size_t at = from;
    while (to - at >= 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(p + at));
        // Signed, a byte of 0x80 or more is below 0x20 too: one compare finds both kinds.
        const __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                           _mm_cmplt_epi8(x, space));
        const unsigned mask = (unsigned)_mm_movemask_epi8(stops);
        if (mask != 0) return at + (size_t)__builtin_ctz(mask);
        at += 16;
    }
    // The last 8 to 15 bytes, eight at a time as the portable code reads them.
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (to - at >= 8) {
        uint64_t x;
        __builtin_memcpy(&x, p + at, 8);
        const uint64_t q = x ^ (ones * 0x22), b = x ^ (ones * 0x5C);
        const uint64_t special = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x);
        const uint64_t stops = (x | special) & highs;
        if (stops != 0) return at + (size_t)(__builtin_ctzll(stops) >> 3);
        at += 8;
    }
    return at;
}
#else
size_t compass_plain_run_end(const uint8_t *p, size_t from, size_t to) { (void)p; (void)to; return from; }
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(COMPASS_PORTABLE)
int compass_hex_bytes(const uint8_t *digits, uint8_t *out, size_t count) {
    const __m128i below_zero = _mm_set1_epi8('0' - 1), above_nine = _mm_set1_epi8('9' + 1);
    const __m128i below_a = _mm_set1_epi8('a' - 1), above_f = _mm_set1_epi8('f' + 1);
    for (size_t i = 0; i < count; i += 8) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(digits + 2 * i));
        // Signed, a byte of 0x80 or more is below both ranges.
        const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, below_zero), _mm_cmplt_epi8(x, above_nine));
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(x, below_a), _mm_cmplt_epi8(x, above_f));
        if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xFFFF) return 0;
        // '0'-'9' are worth x - '0', 'a'-'f' x - '0' - 39.
        const __m128i nibbles = _mm_sub_epi8(_mm_sub_epi8(x, _mm_set1_epi8('0')), _mm_and_si128(letter, _mm_set1_epi8(39)));
        // Each 16-bit lane holds a pair of digits, the first (the high nibble) in its low byte.
        const __m128i pairs = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(nibbles, _mm_set1_epi16(0x00FF)), 4), _mm_srli_epi16(nibbles, 8));
        _mm_storel_epi64((__m128i *)(out + i), _mm_packus_epi16(pairs, pairs));
    }
    return 1;
}
#else
int compass_hex_bytes(const uint8_t *digits, uint8_t *out, size_t count) { (void)digits; (void)out; (void)count; return 0; }
#endif
