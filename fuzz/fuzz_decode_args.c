/*
 * fuzz/fuzz_decode_args.c - `baretma decode` argument parsing and decoding:
 * the input is split at newlines into argv[1..] (at most 8 arguments).
 * Output goes to /dev/null; a crash, a sanitizer report or a hang is a bug,
 * any exit status is fine.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	char *buf, *argv[10] = { "decode" };
	int argc = 1;

	if (!quiet) {
		quiet = freopen("/dev/null", "w", stdout) != NULL; /* stderr stays: sanitizer reports */
	}
	/* Fresh storage per input: getopt may keep pointers into argv between
	 * calls, and ASan then shows any such use. */
	if (size >= 512 || !(buf = malloc(size + 1)))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *tok = strtok(buf, "\n"); tok && argc < 9; tok = strtok(NULL, "\n"))
		argv[argc++] = tok;
	argv[argc] = NULL;
	cmd_decode(argc, argv);
	free(buf);
	return 0;
}
