/*
 * bench/output/fmt_text.c - the text for people: each result's own layout
 * (its view's text: tables, lines, a summary), as the command documents it.
 * A stream (stat -I): the view's heading once, then each record's lines,
 * then the end's text (its summary).
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

static int text_begin(FILE *f, const struct output_view *view, const void *first,
		      const struct output_params *p)
{
	(void)p;
	return view->text_head ? view->text_head(f, first) : 0;
}

const struct output_format output_format_text = {
	.name = "text", .option = NULL, .for_people = true, .can_write = text_can_write,
	.write = text_write,
	.begin = text_begin, .record = text_write, .end = text_write,
};
