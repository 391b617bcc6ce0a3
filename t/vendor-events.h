/*
 * t/vendor-events.h - the vendors' event data, for the tests of the
 * recipe tables against it (t/1040-vendor-events.c, t/1042-recipe-
 * constraints.c): t/data/vendor-events.tsv (its header: intel/perfmon's
 * <model>/events/ *_core.json and Linux's amdzen4/amdzen5 JSON, one row per
 * model and event, the file and commit each came from) read into rows
 * (ve_load), a row found by model, file and event (ve_find), perfmon's
 * Counter / CounterHTOff as a mask (ve_counter), and the one table of the
 * vendor files each recipe variant is checked against (ve_models[]).
 * Include after t/tap.h and msr/recipe/recipe.h.
 */
#ifndef BARETMA_T_VENDOR_EVENTS_H
#define BARETMA_T_VENDOR_EVENTS_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VE_MODEL, VE_FILE, VE_COMMIT, VE_NAME, VE_CODE, VE_UMASK, VE_CMASK, VE_INV, VE_EDGE,
       VE_ANY, VE_COUNTER, VE_HTOFF, VE_NCOLS };

/* One row: its columns as the file writes them ("-": the vendor gives none). */
struct ve_row {
	char col[VE_NCOLS][128];
	bool used;                 /* a recipe event was compared with it */
};

struct ve_data {
	struct ve_row *rows;
	size_t n;
};

/*
 * The vendor files each recipe variant is checked against: the models
 * whose cores are the microarchitectures the variant serves (its
 * .uarchs), by perfmon's mapfile.csv and the file's header ("Info").
 */
struct ve_model {
	const char *recipe, *variant; /* the recipe's name and variant */
	const char *model, *file;     /* the extract's model and file columns */
	const char *why;              /* why this file is the variant's */
};

#define VE_PM "tools/perf/pmu-events/arch/x86/"
static const struct ve_model ve_models[] = {
	{ "intel-perf-metrics", "sunny-cove", "ICL", "ICL/events/icelake_core.json",
	  "Ice Lake client (10th generation Core): Sunny Cove; TOPDOWN.SLOTS" },
	{ "intel-perf-metrics", "sunny-cove", "ICX", "ICX/events/icelakex_core.json",
	  "Ice Lake server (3rd generation Xeon Scalable): Sunny Cove" },
	{ "intel-perf-metrics", "sunny-cove", "TGL", "TGL/events/tigerlake_core.json",
	  "Tiger Lake (11th generation Core): Willow Cove" },
	{ "intel-perf-metrics", "sunny-cove", "RKL", "RKL/events/rocketlake_core.json",
	  "Rocket Lake: Cypress Cove (the model table's ICL(0xA7))" },
	{ "intel-perf-metrics", "golden-cove", "ADL", "ADL/events/alderlake_goldencove_core.json",
	  "Alder Lake's P-cores: Golden Cove (the hybrid part's P-core file)" },
	{ "intel-perf-metrics", "golden-cove", "SPR", "SPR/events/sapphirerapids_core.json",
	  "Sapphire Rapids: Golden Cove" },
	{ "intel-perf-metrics", "golden-cove", "MTL", "MTL/events/meteorlake_redwoodcove_core.json",
	  "Meteor Lake's P-cores: Redwood Cove" },
	{ "intel-perf-metrics", "golden-cove", "LNL", "LNL/events/lunarlake_lioncove_core.json",
	  "Lunar Lake's P-cores: Lion Cove" },
	{ "intel-pre-icl-l1", "skylake", "SKL", "SKL/events/skylake_core.json",
	  "Skylake client (6th generation Core; Kaby/Coffee/Comet Lake map to it)" },
	{ "intel-pre-icl-l1", "skylake", "SKX", "SKX/events/skylakex_core.json",
	  "Skylake server (Xeon Scalable)" },
	{ "intel-pre-icl-l1", "skylake", "CLX", "CLX/events/cascadelakex_core.json",
	  "Cascade Lake: a Skylake core (one uarch in cpu/cpu_models.c)" },
	{ "intel-pre-icl-l1", "broadwell", "BDW", "BDW/events/broadwell_core.json",
	  "Broadwell client (5th generation Core)" },
	{ "intel-pre-icl-l1", "broadwell", "BDX", "BDX/events/broadwellx_core.json",
	  "Broadwell server (Xeon E5/E7 v4)" },
	{ "intel-pre-icl-l1", "haswell", "HSW", "HSW/events/haswell_core.json",
	  "Haswell client (4th generation Core)" },
	{ "intel-pre-icl-l1", "haswell", "HSX", "HSX/events/haswellx_core.json",
	  "Haswell server (Xeon E5/E7 v3: the hwloc dump's E5-2680 v3)" },
	{ "intel-pre-icl-l1", "ivybridge", "IVB", "IVB/events/ivybridge_core.json",
	  "Ivy Bridge client (3rd generation Core)" },
	{ "intel-pre-icl-l1", "ivybridge", "IVT", "IVT/events/ivytown_core.json",
	  "Ivy Bridge server (Xeon E5/E7 v2)" },
	{ "intel-pre-icl-l1", "sandybridge", "SNB", "SNB/events/sandybridge_core.json",
	  "Sandy Bridge client (2nd generation Core)" },
	{ "intel-pre-icl-l1", "sandybridge", "JKT", "JKT/events/Jaketown_core.json",
	  "Sandy Bridge server (Xeon E5 v1: the hwloc dump's E5-2650)" },
	{ "intel-icl-events", "sunny-cove", "ICL", "ICL/events/icelake_core.json",
	  "Ice Lake client: Sunny Cove" },
	{ "intel-icl-events", "sunny-cove", "ICX", "ICX/events/icelakex_core.json",
	  "Ice Lake server: Sunny Cove" },
	{ "intel-icl-events", "sunny-cove", "TGL", "TGL/events/tigerlake_core.json",
	  "Tiger Lake: Willow Cove" },
	{ "intel-icl-events", "sunny-cove", "RKL", "RKL/events/rocketlake_core.json",
	  "Rocket Lake: Cypress Cove (the model table's ICL(0xA7))" },
	{ "intel-icl-events", "golden-cove", "ADL", "ADL/events/alderlake_goldencove_core.json",
	  "Alder Lake's P-cores: Golden Cove" },
	{ "intel-icl-events", "golden-cove", "SPR", "SPR/events/sapphirerapids_core.json",
	  "Sapphire Rapids: Golden Cove" },
	{ "intel-icl-events", "golden-cove", "MTL", "MTL/events/meteorlake_redwoodcove_core.json",
	  "Meteor Lake's P-cores: Redwood Cove" },
	{ "intel-ecore-l1", "gracemont", "ADL", "ADL/events/alderlake_gracemont_core.json",
	  "Alder Lake's E-cores: Gracemont (the hybrid part's E-core file)" },
	{ "intel-ecore-l1", "crestmont", "MTL", "MTL/events/meteorlake_crestmont_core.json",
	  "Meteor Lake's E-cores: Crestmont" },
	{ "intel-ecore-l1", "crestmont", "SRF", "SRF/events/sierraforest_core.json",
	  "Sierra Forest: Crestmont" },
	{ "intel-ecore-l1", "skymont", "LNL", "LNL/events/lunarlake_skymont_core.json",
	  "Lunar Lake's E-cores: Skymont" },
	{ "intel-ecore-l1", "skymont", "CWF", "CWF/events/clearwaterforest_core.json",
	  "Clearwater Forest: Darkmont" },
	{ "intel-ecore-l1", "skymont-gp", "LNL", "LNL/events/lunarlake_skymont_core.json",
	  "Lunar Lake's E-cores: Skymont" },
	{ "intel-ecore-l1", "skymont-gp", "CWF", "CWF/events/clearwaterforest_core.json",
	  "Clearwater Forest: Darkmont" },
	{ "intel-ecore-l1", "tremont", "EHL", "EHL/events/elkhartlake_core.json",
	  "Elkhart Lake: Tremont" },
	{ "intel-ecore-l1", "tremont", "SNR", "SNR/events/snowridgex_core.json",
	  "Snow Ridge: Tremont" },
	{ "amd-zen4", "zen4", "amdzen4", NULL,
	  "Linux's amdzen4: family 19h models 10h-1Fh, 60h-7Fh, A0h-AFh (mapfile.csv)" },
	{ "amd-zen5", "zen5", "amdzen5", NULL,
	  "Linux's amdzen5: family 1Ah (mapfile.csv)" },
};
#define VE_NMODELS (sizeof(ve_models) / sizeof(ve_models[0]))

/* Read @path into @d; 0, or -1 with a TAP diagnostic. */
static inline int ve_load(const char *path, struct ve_data *d)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	d->rows = NULL;
	d->n = 0;
	if (!f) {
		printf("# cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ve_row row = { .used = false };
		char *p = line, *tab;
		unsigned c = 0;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (; c < VE_NCOLS && p; c++, p = tab ? tab + 1 : NULL) {
			size_t len;

			tab = strchr(p, '\t');
			len = tab ? (size_t)(tab - p) : strlen(p);
			if (len >= sizeof(row.col[c]))
				break;
			memcpy(row.col[c], p, len);
			row.col[c][len] = '\0';
		}
		if (c != VE_NCOLS || p) {
			printf("# %s: a row of %u columns, not %d: '%s'\n", path, c, VE_NCOLS, line);
			fclose(f);
			return -1;
		}
		d->rows = realloc(d->rows, (d->n + 1) * sizeof(*d->rows));
		if (!d->rows)
			exit(1);
		d->rows[d->n++] = row;
	}
	fclose(f);
	return 0;
}

/* The row of @name in @model's @file (any file of the model when NULL). */
static inline struct ve_row *ve_find(struct ve_data *d, const char *model, const char *file,
				     const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].col[VE_MODEL], model) &&
		    (!file || !strcmp(d->rows[i].col[VE_FILE], file)) &&
		    !strcmp(d->rows[i].col[VE_NAME], name))
			return &d->rows[i];
	return NULL;
}

/* What a Counter / CounterHTOff field says. */
enum ve_ctr { VE_CTR_BAD = -1, VE_CTR_NONE, VE_CTR_GP, VE_CTR_FIXED };

/* "0,1,2,3" -> VE_CTR_GP, *mask 0xF; "Fixed counter 3" -> VE_CTR_FIXED, *mask 3;
 * "-" -> VE_CTR_NONE; else VE_CTR_BAD. */
static inline enum ve_ctr ve_counter(const char *s, uint32_t *mask)
{
	char *end;

	*mask = 0;
	if (!strcmp(s, "-"))
		return VE_CTR_NONE;
	if (!strncmp(s, "Fixed counter ", 14)) {
		unsigned long n = strtoul(s + 14, &end, 10);

		*mask = (uint32_t)n;
		return *end || end == s + 14 || n > 31 ? VE_CTR_BAD : VE_CTR_FIXED;
	}
	for (const char *p = s;;) {
		unsigned long n;

		if (!isdigit((unsigned char)*p))
			return VE_CTR_BAD;
		n = strtoul(p, &end, 10);
		if (n > 31)
			return VE_CTR_BAD;
		*mask |= 1u << n;
		if (!*end)
			return VE_CTR_GP;
		if (*end != ',')
			return VE_CTR_BAD;
		p = end + 1;
	}
}

/* A number as the vendor writes it ("0x1a0", "20", "-": @dflt); -1 when malformed. */
static inline long ve_num(const char *s, long dflt)
{
	char *end;
	long v;

	if (!strcmp(s, "-"))
		return dflt;
	v = strtol(s, &end, 0);
	return *end || end == s || v < 0 ? -1 : v;
}

/* @name less a trailing ":cN" (the recipe's counter mask, TMA_Metrics-full.csv's
 * "EVENT:cN"), into @buf; N into *cmask, or -1 when there is none. */
static inline const char *ve_base(const char *name, char *buf, size_t n, long *cmask)
{
	const char *c = strrchr(name, ':');
	char *end;

	*cmask = -1;
	snprintf(buf, n, "%s", name);
	if (c && c[1] == 'c' && isdigit((unsigned char)c[2])) {
		long v = strtol(c + 2, &end, 10);

		if (!*end) {
			*cmask = v;
			buf[c - name < (long)n ? c - name : (long)n - 1] = '\0';
		}
	}
	return buf;
}

/* The extract's path: $T_DATA/vendor-events.tsv, else the source tree's. */
static inline const char *ve_path(void)
{
	static char buf[PATH_MAX];

	return t_path(buf, "%s/vendor-events.tsv", getenv("T_DATA") ? getenv("T_DATA") :
		      BARETMA_SRCDIR "/t/data");
}

#endif
