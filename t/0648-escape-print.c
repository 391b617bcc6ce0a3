/*
 * t/0648-escape-print - the printing side of cpu/escape.h: esc_fputs and
 * esc_fprintf write a line escaped as esc_str does, whole, however long,
 * in pieces that never cut a UTF-8 character (RFC 3629 section 4: a lead
 * byte and one to three continuation bytes 10xxxxxx), keep only the
 * newline that ends the text.  Every expected text is written out by hand
 * from the rules of escape.h (ESC 0x1b, LF 0x0a; U+00E9 is C3 A9, U+1F600
 * is F0 9F 98 80; a lone continuation byte 0x80 is not UTF-8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/escape.h"
#include "t/tap.h"

/* What @f holds, from its start (a NUL-terminated copy; free() it). */
static char *contents(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	s = calloc((size_t)n + 1, 1);
	rewind(f);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = '\0';
	return s;
}

/* @n copies of @c, then @tail. */
static char *fill(char c, size_t n, const char *tail)
{
	char *s = malloc(n + strlen(tail) + 1);

	memset(s, c, n);
	strcpy(s + n, tail);
	return s;
}

/* esc_fputs(@in) into a fresh stream: its text (free() it). */
static char *fputs_of(const char *in)
{
	FILE *f = tmpfile();
	char *out;

	esc_fputs(in, f);
	out = contents(f);
	fclose(f);
	return out;
}

static void check_fputs(const char *in, const char *want, const char *name)
{
	char *got = fputs_of(in);

	ok(!strcmp(got, want), "%s", name);
	if (strcmp(got, want))
		printf("#   got %zu bytes '%.300s', want %zu bytes '%.300s'\n", strlen(got), got,
		       strlen(want), want);
	free(got);
}

int main(void)
{
	char *in, *want, *got;
	FILE *f;

	/* The pieces are 256 input bytes: each case puts a character across
	 * the boundary between the first and the second. */
	in = fill('a', 255, "\xc3\xa9z");
	check_fputs(in, in, "U+00E9 across the 256-byte boundary: unchanged, not cut");
	free(in);
	in = fill('a', 254, "\xf0\x9f\x98\x80z");
	check_fputs(in, in, "U+1F600 across the boundary: unchanged, not cut");
	free(in);
	in = fill('a', 253, "\xf0\x9f\x98\x80z");
	check_fputs(in, in, "U+1F600 ending one byte after the boundary: unchanged");
	free(in);
	in = fill('a', 250, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80");
	want = fill('a', 250, "\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80");
	check_fputs(in, want, "ten lone continuation bytes across the boundary: each escaped");
	free(in);
	free(want);
	in = fill('a', 255, "\xc3(");
	want = fill('a', 255, "\\xc3(");
	check_fputs(in, want, "a lead byte before the boundary without its continuation: escaped");
	free(in);
	free(want);
	in = fill('\x1b', 1000, "");
	got = fputs_of(in);
	check_u64(strlen(got), ==, 4000, "1000 ESC bytes: 4000 bytes out, none cut");
	ok(!strncmp(got, "\\x1b\\x1b", 8) && !strcmp(got + 3992, "\\x1b\\x1b"), "each as \\x1b");
	free(got);
	free(in);
	check_fputs("", "", "empty text: nothing");
	check_fputs(NULL, "", "NULL: nothing");

	f = tmpfile();
	esc_fprintf(f, "brand: %s (%d)\n", "\x1b]0;pwned\x07 Intel", 7);
	got = contents(f);
	check_str(got, "brand: \\x1b]0;pwned\\x07 Intel (7)\n",
		  "esc_fprintf: the argument escaped, the line's own newline kept");
	free(got);
	fclose(f);
	f = tmpfile();
	esc_fprintf(f, "a %s b", "1\n2");
	got = contents(f);
	check_str(got, "a 1\\x0a2 b", "a newline inside the text is escaped: one line stays one");
	free(got);
	fclose(f);
	f = tmpfile();
	esc_fprintf(f, "%s\n\n", "x");
	got = contents(f);
	check_str(got, "x\\x0a\n", "only the last newline is the line's end");
	free(got);
	fclose(f);
	/* longer than the first formatting buffer (512 bytes) */
	in = fill('b', 700, "\x07");
	want = fill('b', 700, "\\x07!\n");
	f = tmpfile();
	esc_fprintf(f, "%s!\n", in);
	got = contents(f);
	ok(!strcmp(got, want), "a 702-byte line: whole, escaped");
	free(got);
	free(want);
	free(in);
	fclose(f);
	return done_testing();
}
