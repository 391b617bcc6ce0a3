/* cpu/escape.c - input bytes made safe to show on a terminal (cpu/escape.h). */
#include <stdint.h>
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
