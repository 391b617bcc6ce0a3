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
 * esc_bytes and esc_str are pure functions, async-signal-safe (no
 * allocation, no locale).  esc_fputs and esc_fprintf are the printing
 * layer's (stdio; they print only to the stream they are given): every
 * text, CSV and error line that holds a string from a file, CPUID or the
 * environment is written through them, once, where it is printed.  JSON
 * needs none of this: jansson writes control characters as \u00XX.
 */
#ifndef BARETMA_ESCAPE_H
#define BARETMA_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

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

/* esc_strdup - esc_str() of @s whole, on the heap (free()); NULL with
 * errno ENOMEM. */
char *esc_strdup(const char *s);

/*
 * esc_fputs - write esc_str(@s) to @f, whole: no length limit, no
 * allocation (the text goes out in pieces, never cut inside a UTF-8
 * character).  Returns 0, or EOF when the stream failed.
 */
int esc_fputs(const char *s, FILE *f);

/*
 * esc_fprintf - print @fmt's text to @f escaped as esc_str does, except a
 * newline that ends it, which is written as is: one line (or the end of
 * one), whatever its arguments hold.  A newline inside the text is input
 * and is escaped (\x0a): one line never becomes two.  Returns 0, or EOF
 * when the stream failed or the text could not be formatted (out of
 * memory: then nothing is written).
 */
int esc_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int esc_vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
