/*
 * cpu/escape.h - input bytes made safe to show on a terminal.
 *
 * Error messages quote what baretma read (a CPUID dump line, a journal
 * line, a file name): bytes an attacker may have chosen.  Written raw to a
 * terminal, control bytes are commands to it: ESC ] 0 ; ... BEL sets the
 * window title, ESC [ 2 J clears the screen, other sequences move the
 * cursor to rewrite what was printed before, or (some terminals) answer
 * back into the input.  Everything that quotes input escapes it with this
 * one function first.
 *
 * What is escaped, as \xHH (two lower-case hex digits per byte):
 *   - C0 controls 0x00-0x1f (ESC, BEL, CR, LF, TAB...) and DEL 0x7f;
 *   - every byte that is not part of valid UTF-8 (a lone 0x80-0xff byte,
 *     overlong forms, surrogates, code points above U+10FFFF): a raw
 *     0x9b is CSI for a terminal in 8-bit mode;
 *   - the UTF-8 encodings of C1 controls U+0080-U+009F (xterm acts on
 *     them in UTF-8 mode) and of the bidirectional overrides and
 *     isolates U+202A-U+202E, U+2066-U+2069 (they reorder what follows on
 *     the line, so a message could show another text than it holds).
 * Printable ASCII and other valid UTF-8 (a user's accented file name) pass
 * unchanged.  A backslash is not escaped: the escaping is idempotent, so a
 * message escaped where it is made and again where it is passed on stays
 * as it is; a literal "\x1b" in the input reads the same as an escaped ESC,
 * which is harmless.
 *
 * Pure functions, async-signal-safe (no allocation, no locale).
 */
#ifndef BARETMA_ESCAPE_H
#define BARETMA_ESCAPE_H

#include <stddef.h>

/*
 * esc_bytes - escape the @len bytes at @s (NULs included) into @buf.
 * At most @n bytes are written, always NUL-terminated when @n > 0; an
 * escape sequence or UTF-8 character is never cut in the middle.
 * Returns the length of the whole escaped text (as snprintf: >= @n means
 * it was cut).
 */
size_t esc_bytes(char *buf, size_t n, const char *s, size_t len);

/* esc_str - esc_bytes() of the NUL-terminated @s (NULL reads as ""). */
size_t esc_str(char *buf, size_t n, const char *s);

#endif
