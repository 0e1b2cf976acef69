// What the machine does for the core, in C: x86 instructions (SHA-NI rounds, SSE2 scans of
// JSON strings and hex digits), cache prefetches, and memory hints to the kernel and the
// allocator. Each x86 path has a portable twin (`-DCOMPASS_PORTABLE` compiles them out); the
// Swift types on top (SHA256, the tape scanner, ByteClass) are the only callers.
#ifndef COMPASS_MACHINE_H
#define COMPASS_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/// FIPS 180-4's 64 round constants (the portable Swift rounds read them too).
extern const uint32_t compass_sha256_k[64];

/// Whether this CPU has the SHA extensions the accelerated path needs (x86-64 SHA-NI).
int compass_sha256_accelerated(void);

/// Compresses `blocks` 64-byte blocks into `state` (8 words, FIPS 180-4 order) with the
/// SHA-NI instructions. Call only when `compass_sha256_accelerated()` returned 1.
void compass_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/// Compresses `blocks` blocks of two independent messages at once, their rounds interleaved
/// (each into its own state): the same states as two calls of `compass_sha256_blocks`, in
/// less time. Call only when `compass_sha256_accelerated()` returned 1.
void compass_sha256_blocks_x2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                              size_t blocks);

/// Where the run of plain string bytes starting at `from` ends: the index of the first byte
/// in `[from, to)` that is a quote, a backslash, below 0x20 or 0x80 and above, or else an index
/// with fewer than eight bytes left after it (the caller reads those one by one). x86-64 only
/// (SSE2); elsewhere it returns `from` and the portable Swift code is used instead.
size_t compass_plain_run_end(const uint8_t *p, size_t from, size_t to);

/// Reads `2 * count` lowercase hex digits (`count` a multiple of 8) into `count` bytes, the
/// first digit the high nibble of the first byte, sixteen digits at a time (SSE2); 0, with
/// `out` unspecified, when one is not a lowercase hex digit. x86-64 only: elsewhere it
/// returns 0 and the portable Swift code is used instead.
int compass_hex_bytes(const uint8_t *digits, uint8_t *out, size_t count);

/// Asks the CPU to start loading the cache line at `address` (a hint: never faults, may be
/// ignored). The fold uses it for the event-id table slot of a line a few lines ahead.
static inline void compass_prefetch(const void *address) { __builtin_prefetch(address); }

/// Asks the CPU to start loading the cache line at `address` to be written (a hint, as
/// `compass_prefetch`). The fold uses it for where a family's next record and texts go.
static inline void compass_prefetch_write(const void *address) { __builtin_prefetch(address, 1); }

/// Asks the kernel to back the whole 2 MiB pages inside `[address, address + length)` with
/// huge pages when they are first touched (a hint: Linux only, ignored elsewhere and on error).
void compass_advise_huge_pages(void *address, size_t length);

/// Gives the memory the allocator holds free back to the system (glibc's `malloc_trim`:
/// glibc keeps what a process freed for its next allocations); nothing elsewhere.
void compass_return_freed_memory(void);

#endif
