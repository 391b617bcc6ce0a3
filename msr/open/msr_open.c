/*
 * msr/open/msr_open.c - the MSR backend a spec names (the first entry of
 * msr_backends.c whose prefix starts it, else the device's), opened after
 * the spec's checks: under sudo or setuid only the standard device
 * templates.  The handle itself is msr/access/msr_ops.c's (msr_dev_open).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/escape.h"
#include "cpu/trust.h"
#include "msr/open/msr_open.h"

#define MSR_DEFAULT_TEMPLATE "/dev/cpu/%u/msr"
#define MSR_SAFE_TEMPLATE "/dev/cpu/%u/msr_safe"

/*
 * When the environment may come from another user (cpu/trust.h), only the
 * standard device templates: any other path is a file root would read and
 * write at MSR offsets, and a state file one it would rewrite.
 */
static int spec_allowed(const char *spec)
{
	char raw[160], why[4 * sizeof(raw)]; /* $SUDO_USER is quoted: escaped */
	char *shown;

	if (!strcmp(spec, MSR_DEFAULT_TEMPLATE) || !strcmp(spec, MSR_SAFE_TEMPLATE) ||
	    !trust_env_untrusted(raw, sizeof(raw)))
		return 0;
	if (!(shown = esc_strdup(spec))) /* from the environment: escaped whole */
		return -ENOMEM;
	esc_str(why, sizeof(why), raw);
	msr_error_setf("MSR backend '%s' ($BARETMA_MSR): refused "
		 "while %s, as the environment may come from another user: only '%s' and "
		 "'%s' are accepted then (unset BARETMA_MSR for the default; a dry run "
		 "with state:FILE needs no root: run it without sudo)", shown, why,
		 MSR_DEFAULT_TEMPLATE, MSR_SAFE_TEMPLATE);
	free(shown);
	return -EPERM;
}

const char *msr_env_spec(void)
{
	const char *spec = getenv("BARETMA_MSR");

	return spec && *spec ? spec : MSR_DEFAULT_TEMPLATE;
}

int msr_open(const char *spec, struct msr_dev **out)
{
	return msr_open_on(spec, NULL, out);
}

int msr_open_on(const char *spec, const char *cpuid_dump, struct msr_dev **out)
{
	const struct msr_backend *b;
	int rc;

	msr_error_setf(NULL);
	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!spec || !*spec)
		spec = msr_env_spec();
	b = msr_backend_of(spec);
	rc = spec_allowed(spec);
	if (rc)
		return rc;
	return msr_dev_open(b, spec + (b->prefix ? strlen(b->prefix) : 0), cpuid_dump, out);
}

const char *msr_spec_backend(const char *spec)
{
	return msr_backend_of(spec)->ops->name;
}
