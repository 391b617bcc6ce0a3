/* cpu/escape.c - input bytes made safe to show on a terminal (cpu/escape.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/escape.h"

/*
 * The length (2..4) of the valid UTF-8 sequence of more than one byte at
 * @s (@left bytes available), its code point in *cp; 0 when @s does not
 * start one (RFC 3629 section 4: no overlong forms, no surrogates
 * U+D800-U+DFFF, nothing above U+10FFFF).
 */
static size_t utf8_seq(const unsigned char *s, size_t left, uint32_t *cp)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4 || left < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* C1 controls and the bidirectional overrides and isolates (escape.h). */
static int cp_hidden(uint32_t c)
{
	return c <= 0x9f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* Append @len bytes of @src when they fit whole; count them anyway. */
static void put(char *buf, size_t n, size_t *o, int *cut, const char *src, size_t len)
{
	if (!*cut && *o + len < n)
		memcpy(buf + *o, src, len);
	else
		*cut = 1;
	*o += len;
}

static void put_hex(char *buf, size_t n, size_t *o, int *cut, unsigned char b)
{
	static const char hex[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', hex[b >> 4], hex[b & 0xf] };

	put(buf, n, o, cut, e, sizeof(e));
}

size_t esc_bytes(char *buf, size_t n, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, end = 0;
	int cut = 0;

	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t k = u[i] >= 0x80 ? utf8_seq(u + i, len - i, &cp) : 0;

		if (u[i] >= 0x20 && u[i] < 0x7f) {
			put(buf, n, &o, &cut, s + i, 1);
			i++;
		} else if (k && !cp_hidden(cp)) {
			put(buf, n, &o, &cut, s + i, k);
			i += k;
		} else {
			for (size_t j = 0; j < (k ? k : 1); j++)
				put_hex(buf, n, &o, &cut, u[i + j]);
			i += k ? k : 1;
		}
		if (!cut)
			end = o;
	}
	if (n)
		buf[end] = '\0';
	return o;
}

size_t esc_str(char *buf, size_t n, const char *s)
{
	return s ? esc_bytes(buf, n, s, strlen(s)) : esc_bytes(buf, n, "", 0);
}

char *esc_strdup(const char *s)
{
	size_t n = esc_str(NULL, 0, s);
	char *t = malloc(n + 1);

	if (t)
		esc_str(t, n + 1, s);
	return t;
}

/* ------------------------------------------------------------ printing */

#define ESC_PIECE 256 /* input bytes escaped at a time by esc_write */

/*
 * Where to end a piece of @s that should end at @end: at the last byte
 * among @end-3..@end that is not a UTF-8 continuation byte (10xxxxxx), so
 * that no valid character is cut (a valid one cannot go on past a byte
 * that is not a continuation); when all four are continuation bytes no
 * valid character spans @end (one has at most three), so at @end.
 */
static size_t piece_end(const unsigned char *u, size_t end)
{
	for (size_t p = end; p + 3 >= end && p > 0; p--)
		if ((u[p] & 0xc0) != 0x80)
			return p;
	return end;
}

/* Write the @len bytes at @s escaped to @f, ESC_PIECE bytes at a time. */
static int esc_write(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	char out[4 * ESC_PIECE + 1]; /* each byte escapes to at most 4 */

	for (size_t i = 0; i < len;) {
		size_t end = len - i > ESC_PIECE ? piece_end(u, i + ESC_PIECE) : len;
		size_t w = esc_bytes(out, sizeof(out), s + i, end - i);

		if (fwrite(out, 1, w, f) != w)
			return EOF;
		i = end;
	}
	return 0;
}

int esc_fputs(const char *s, FILE *f)
{
	return s ? esc_write(f, s, strlen(s)) : 0;
}

int esc_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list aq;
	int len, rc;

	va_copy(aq, ap);
	len = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (len < 0)
		return EOF;
	if ((size_t)len >= sizeof(small)) {
		text = malloc((size_t)len + 1);
		if (!text)
			return EOF;
		vsnprintf(text, (size_t)len + 1, fmt, ap);
	}
	if (len && text[len - 1] == '\n')
		rc = esc_write(f, text, (size_t)len - 1) || fputc('\n', f) == EOF ? EOF : 0;
	else
		rc = esc_write(f, text, (size_t)len);
	if (text != small)
		free(text);
	return rc;
}

int esc_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = esc_vfprintf(f, fmt, ap);
	va_end(ap);
	return rc;
}
