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

#include "bench/cli/cli_cmd.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	char *buf, *argv[10] = { "decode" };
	struct cli_ctx ctx = { 0 };
	void *opts;
	int argc = 1;

	if (!quiet) {
		quiet = freopen("/dev/null", "w", stdout) != NULL; /* stderr stays: sanitizer reports */
	}
	/* Fresh storage per input: getopt may keep pointers into argv between
	 * calls, and ASan then shows any such use. */
	if (size >= 512 || !(buf = malloc(size + 1)))
		return 0;
	if (!(opts = calloc(1, cmd_decode.opts_size))) {
		free(buf);
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *tok = strtok(buf, "\n"); tok && argc < 9; tok = strtok(NULL, "\n"))
		argv[argc++] = tok;
	argv[argc] = NULL;
	/* as the command table runs it (bench/cli/cli_cmds.c): decode needs nothing */
	if (cmd_decode.parse(argc, argv, opts, &ctx) == 0)
		cmd_decode.run(opts, &ctx);
	free(opts);
	free(buf);
	return 0;
}
