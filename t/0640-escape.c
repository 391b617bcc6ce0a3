/*
 * t/0640-escape - input bytes made safe to show on a terminal
 * (cpu/escape.h).  Every expected string is written out by hand: the
 * bytes of C0 controls and DEL from ASCII (ECMA-48: ESC 0x1b, BEL 0x07),
 * the valid and invalid UTF-8 forms from RFC 3629 section 4 (no overlong
 * forms, no surrogates D800-DFFF, nothing above 10FFFF), C1 controls
 * U+0080-U+009F (ECMA-48 8.2.1: 0x9b is CSI) and the bidirectional
 * overrides U+202A-U+202E, U+2066-U+2069 (Unicode UAX #9).
 */
#include <string.h>

#include "cpu/escape.h"
#include "t/tap.h"

struct vec {
	const char *in;
	size_t len;       /* 0: strlen(in) */
	const char *want;
	const char *name;
};

static const struct vec vecs[] = {
	{ "plain text, 0x12 & ~/x.txt", 0, "plain text, 0x12 & ~/x.txt", "printable ASCII unchanged" },
	{ "\x1b]0;pwned\x07\x1b[2J", 0, "\\x1b]0;pwned\\x07\\x1b[2J",
	  "the issue's title + clear-screen sequence: ESC and BEL escaped" },
	{ "a\nb\tc\rd", 0, "a\\x0ab\\x09c\\x0dd", "LF, TAB, CR escaped" },
	{ "\x7f", 0, "\\x7f", "DEL escaped" },
	{ "\x01\x1f", 0, "\\x01\\x1f", "first and last C0 controls after NUL" },
	{ "a\0b", 3, "a\\x00b", "a NUL inside the bytes" },
	{ "jos\xc3\xa9.txt", 0, "jos\xc3\xa9.txt", "valid 2-byte UTF-8 (U+00E9) unchanged" },
	{ "\xe2\x82\xac", 0, "\xe2\x82\xac", "valid 3-byte UTF-8 (U+20AC) unchanged" },
	{ "\xf0\x9f\x98\x80", 0, "\xf0\x9f\x98\x80", "valid 4-byte UTF-8 (U+1F600) unchanged" },
	{ "\xc2\xa0", 0, "\xc2\xa0", "U+00A0, the first code point after C1, unchanged" },
	{ "\x9b" "2J", 0, "\\x9b2J", "a raw 0x9b (8-bit CSI) escaped" },
	{ "\xc2\x9b" "2J", 0, "\\xc2\\x9b2J", "U+009B (C1 CSI) in UTF-8 escaped" },
	{ "\xc2\x80", 0, "\\xc2\\x80", "U+0080, the first C1 control, escaped" },
	{ "x\xc3", 0, "x\\xc3", "a sequence cut at the end escaped" },
	{ "\xc3(", 0, "\\xc3(", "a lead byte without its continuation" },
	{ "\xc0\xaf", 0, "\\xc0\\xaf", "overlong '/' (C0 AF) escaped" },
	{ "\xe0\x80\xaf", 0, "\\xe0\\x80\\xaf", "overlong 3-byte '/' escaped" },
	{ "\xed\xa0\x80", 0, "\\xed\\xa0\\x80", "surrogate U+D800 escaped" },
	{ "\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80", "above U+10FFFF escaped" },
	{ "\xf4\x8f\xbf\xbf", 0, "\xf4\x8f\xbf\xbf", "U+10FFFF itself unchanged" },
	{ "\xff\xfe", 0, "\\xff\\xfe", "bytes never in UTF-8 escaped" },
	{ "ab\xe2\x80\xae" "cd", 0, "ab\\xe2\\x80\\xaecd", "U+202E RIGHT-TO-LEFT OVERRIDE escaped" },
	{ "\xe2\x81\xa6", 0, "\\xe2\\x81\\xa6", "U+2066 LEFT-TO-RIGHT ISOLATE escaped" },
	{ "\xe2\x80\xa9", 0, "\xe2\x80\xa9", "U+2029, next to the overrides, unchanged" },
	{ "C:\\x1b", 0, "C:\\x1b", "a backslash is not escaped (idempotent)" },
};

int main(void)
{
	char buf[256], again[256];

	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		size_t len = v->len ? v->len : strlen(v->in);
		size_t n = esc_bytes(buf, sizeof(buf), v->in, len);

		check_str(buf, v->want, v->name);
		check_u64(n, ==, strlen(v->want), "  the length returned");
		esc_str(again, sizeof(again), buf);
		check_str(again, buf, "  escaping it again changes nothing");
	}

	/* Cutting: never in the middle of an escape or a UTF-8 character. */
	check_u64(esc_str(buf, 6, "ab\x1b" "cd"), ==, 8, "cut: the whole length (2 + 4 + 2)");
	check_str(buf, "ab", "cut: \\x1b does not fit in the 3 bytes left: not begun");
	check_u64(esc_str(buf, 3, "a\xc3\xa9"), ==, 3, "cut: U+00E9 counted");
	check_str(buf, "a", "cut: U+00E9 does not fit whole: left out");
	check_u64(esc_str(buf, 7, "ab\x1b" "cd"), ==, 8, "room for 6: \\x1b fits");
	check_str(buf, "ab\\x1b", "cut after the escape");
	check_u64(esc_str(NULL, 0, "\x1b[2J"), ==, 7, "n = 0: the length only");
	check_u64(esc_str(buf, sizeof(buf), NULL), ==, 0, "NULL reads as \"\"");
	check_str(buf, "", "NULL: empty");
	return done_testing();
}
