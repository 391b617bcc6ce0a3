/*
 * t/0999-text - cpu/text.h: messages on the heap, whole however long, and
 * the per-thread text a layer keeps as its "last error" (text_thread_keep:
 * each thread its own, the previous one freed, a thread's freed when it
 * exits - LeakSanitizer, in the sanitizer build, reports it otherwise).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/text.h"
#include "t/tap.h"

static _Thread_local char *kept;
static struct text_thread kept_thread = TEXT_THREAD_INIT;

static void *other(void *arg)
{
	char **seen = arg;

	*seen = strdup(text_or_empty(kept)); /* a new thread starts with none */
	text_thread_keep(&kept_thread, &kept, strdup("the other thread's"));
	text_thread_keep(&kept_thread, &kept, strdup("its second")); /* the first freed */
	return NULL;
}

int main(void)
{
	char *s = NULL, *seen = NULL, *big;
	pthread_t t;

	plan(9);
	ok(text_appendf(&s, "; ", "a %d", 1) == 0 && !strcmp(s, "a 1"), "append to none: 'a 1'");
	ok(text_appendf(&s, "; ", "b") == 0 && !strcmp(s, "a 1; b"), "then '; b'");
	ok(text_setf(&s, "%s", "c") == 0 && !strcmp(s, "c"), "set replaces: 'c'");
	big = malloc(5001);
	memset(big, 'x', 5000);
	big[5000] = '\0';
	ok(text_setf(&s, "%s!", big) == 0 && strlen(s) == 5001 && s[5000] == '!',
	   "5001 bytes kept whole, the last one too");
	free(big);
	free(s);

	text_thread_keep(&kept_thread, &kept, strdup("main's"));
	ok(pthread_create(&t, NULL, other, &seen) == 0 && pthread_join(t, NULL) == 0,
	   "a second thread keeps its own text and exits");
	ok(seen && !strcmp(seen, ""), "it started with none (got '%s')", seen ? seen : "(null)");
	ok(!strcmp(text_or_empty(kept), "main's"), "main's text is still main's");
	text_thread_keep(&kept_thread, &kept, kept); /* the same text: kept, not freed */
	ok(!strcmp(text_or_empty(kept), "main's"), "keeping the same text again keeps it");
	text_thread_keep(&kept_thread, &kept, NULL);
	ok(kept == NULL, "NULL: none (the old one freed)");
	free(seen);
	return done_testing();
}
