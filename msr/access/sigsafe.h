/*
 * msr/access/sigsafe.h - formatting and writing that are async-signal-safe
 * (no stdio, no locale, no malloc), for the paths that run inside the
 * restore signal handler: the MSR trace line, the state-file rewrite, the
 * journal.  Internal to the library.
 */
#ifndef BARETMA_SIGSAFE_H
#define BARETMA_SIGSAFE_H

#include <stddef.h>
#include <stdint.h>

/* Decimal digits of @v into @buf (no terminator, at most 20); returns the length. */
size_t sigsafe_put_dec(char *buf, uint64_t v);

/* "0x" + lower-case hex of @v without leading zeros into @buf (no
 * terminator, at most 18); returns the length. */
size_t sigsafe_put_hex(char *buf, uint64_t v);

/* Write all @len bytes of @buf to @fd, retrying on EINTR and short writes.
 * Returns 0 or -errno (-EIO when write() returns 0). */
int sigsafe_write_all(int fd, const char *buf, size_t len);

#endif
