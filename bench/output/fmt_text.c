/*
 * bench/output/fmt_text.c - the text for people: each result's own layout
 * (its view's text: tables, lines, a summary), as the command documents it.
 */
#include "bench/output/output.h"

static bool text_can_write(const struct output_view *view)
{
	return view->text != NULL;
}

static int text_write(FILE *f, const struct output_view *view, const void *result,
		      const struct output_params *p)
{
	(void)p; /* `baretma info` prints its own environment */
	return view->text(f, result);
}

const struct output_format output_format_text = {
	.name = "text", .option = NULL, .can_write = text_can_write, .write = text_write,
};
