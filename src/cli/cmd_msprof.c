/* cmd_msprof.c: `tlperf msprof DIR`: per-launch durations and a summary
 * from msprof op trees or op_summary files. */
#include "cli/cli.h"
#include "report/table.h"
#include "cli/options.h"
#include "util/escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/msprof.h"

static const struct cli_option msprof_options[] = {
	{ 'k', 0, "kernel-name", "PAT", "keep launches whose kernel or Op Name matches PAT,\n"
					"msprof's rule: '|' separates alternatives, each\n"
					"matched as a prefix, '*' matches anything\n"
					"(\"main\", \"add|abs\", \"*mix_aic\")" },
	{ 'j', 'j', "json", NULL, "one JSON object on stdout instead of the table" },
	CLI_OPT_END
};

const struct cli_spec cmd_msprof_spec = {
	"msprof",
	"tlperf msprof DIR [--kernel-name PAT] [--json]",
	"Reads what the Ascend profiler wrote under DIR and prints the Task\n"
	"Duration(us) of every launch, then a summary: launches, median, MAD,\n"
	"min, max, AICore time, the busiest pipe's utilisation and main-memory\n"
	"bandwidth (means over block rows, when the metric CSVs are there).\n"
	"\n"
	"DIR may be the --output directory of `msprof op` (holding OPPROF_*),\n"
	"one OPPROF_* or PROF_* directory, a directory above PROF_*, or a single\n"
	"CSV file. All three msprof op layouts are read: flat (one launch),\n"
	"<kernel>/<n>/ (launches sorted by number) and device<N>/<kernel>/<n>/;\n"
	"and PROF_*/mindstudio_profiler_output/op_summary_*.csv.\n",
	msprof_options,
	"Exit: 0 ok; 1 no matching launch with a duration; 2 usage error, DIR\n"
	"unreadable, or a file that cannot be read as a profile (empty, binary,\n"
	"malformed: named with its line).\n",
	0, NULL,
};

/* A number for the table, "NA" when missing. Returns buf. */
static const char *fmt_num(char *buf, size_t len, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "NA");
	return buf;
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* Number of distinct kernel names; the first two go to names[]. */
static size_t distinct_kernels(const struct msprof_capture *c, const char *names[2])
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(c->v[i].kernel, c->v[j].kernel) == 0;
		if (!seen) {
			if (n < 2)
				names[n] = c->v[i].kernel;
			n++;
		}
	}
	return n;
}

/* The launches, one line each. */
static const struct table_col launch_cols[] = {
	{ "launch", TABLE_LEFT },	  { "kernel", TABLE_LEFT },	    { "device", TABLE_RIGHT },
	{ "duration(us)", TABLE_RIGHT }, { "aic_time(us)", TABLE_RIGHT }, { "aiv_time(us)", TABLE_RIGHT },
	{ "mem_rd(GB/s)", TABLE_RIGHT }, { "mem_wr(GB/s)", TABLE_RIGHT },
};
static const int launch_widths[] = { 6, 28, 6, 13, 12, 12, 12, 12 };

/* Returns 0, -1 when out of memory. */
static int print_table(const struct msprof_capture *c, const struct msprof_summary *s,
		       const char *pat)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	/* names come from the profiler's files: shown escaped (util/escape.h) */
	char *dir = escape_text(c->dir, 0), *epat = pat ? escape_text(pat, 0) : NULL;
	printf("%s: %s layout, %zu launch%s", dir ? dir : "?", msprof_layout_name(c->layout), c->n,
	       c->n == 1 ? "" : "es");
	if (pat)
		printf(" matching '%s'", epat ? epat : "?");
	free(dir);
	free(epat);
	if (c->n_filtered)
		printf(" (%zu of other kernels left out)", c->n_filtered);
	printf("\n\n");
	struct table t;
	table_init(&t, NULL, launch_cols, sizeof(launch_cols) / sizeof(launch_cols[0]));
	for (size_t i = 0; i < c->n; i++) {
		const struct msprof_launch *l = &c->v[i];
		table_cell(&t, "%ld", l->index);
		table_cell(&t, "%s", l->kernel ? l->kernel : "?");
		if (l->device >= 0)
			table_cell(&t, "%d", l->device);
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", fmt_num(b1, sizeof(b1), l->duration_us, 3));
		table_cell(&t, "%s", fmt_num(b2, sizeof(b2), l->aic_time_us, 3));
		table_cell(&t, "%s", fmt_num(b3, sizeof(b3), l->aiv_time_us, 3));
		table_cell(&t, "%s", fmt_num(b4, sizeof(b4), l->main_mem_read_bw_gbs, 3));
		table_cell(&t, "%s", fmt_num(b5, sizeof(b5), l->main_mem_write_bw_gbs, 3));
	}
	if (report_table_put_text(stdout, &t, launch_widths) != 0)
		return -1;
	printf("\nsummary: %zu launch%s, median %s us, MAD %s us, min %s us, max %s us\n",
	       s->launches, s->launches == 1 ? "" : "es", fmt_num(b1, sizeof(b1), s->median_us, 3),
	       fmt_num(b2, sizeof(b2), s->mad_us, 3), fmt_num(b3, sizeof(b3), s->min_us, 3),
	       fmt_num(b4, sizeof(b4), s->max_us, 3));
	if (c->n_missing)
		printf("missing: %zu launch%s with Task Duration(us) NA\n", c->n_missing,
		       c->n_missing == 1 ? "" : "es");
	printf("utilisation: aic_time %s us, aiv_time %s us", fmt_num(b1, sizeof(b1), s->aic_time_us, 3),
	       fmt_num(b2, sizeof(b2), s->aiv_time_us, 3));
	if (s->max_ratio_name[0]) {
		char *pipe = escape_text(s->max_ratio_name, 0);
		printf(", busiest pipe %s %s", pipe ? pipe : "?", fmt_num(b3, sizeof(b3), s->max_ratio, 3));
		free(pipe);
	}
	printf("\nbandwidth: main memory read %s GB/s, write %s GB/s (mean per block row)\n",
	       fmt_num(b1, sizeof(b1), s->main_mem_read_bw_gbs, 3),
	       fmt_num(b2, sizeof(b2), s->main_mem_write_bw_gbs, 3));
	return 0;
}

/* One launch as a JSON object appended to arr. Returns 0, or -1 when out
 * of memory. */
static int json_launch(cJSON *arr, const struct msprof_launch *l)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return -1;
	cJSON_AddItemToArray(arr, o);
	cJSON_AddStringToObject(o, "kernel", l->kernel);
	if (l->op_name)
		cJSON_AddStringToObject(o, "op_name", l->op_name);
	cJSON_AddNumberToObject(o, "index", (double)l->index);
	cJSON_AddItemToObject(o, "device", l->device >= 0 ? cJSON_CreateNumber(l->device) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "duration_us", num_or_null(l->duration_us));
	cJSON_AddItemToObject(o, "aic_time_us", num_or_null(l->aic_time_us));
	cJSON_AddItemToObject(o, "aiv_time_us", num_or_null(l->aiv_time_us));
	cJSON_AddItemToObject(o, "main_mem_read_bw_gbs", num_or_null(l->main_mem_read_bw_gbs));
	cJSON_AddItemToObject(o, "main_mem_write_bw_gbs", num_or_null(l->main_mem_write_bw_gbs));
	if (l->nratios) {
		cJSON *r = cJSON_AddObjectToObject(o, "ratios");
		for (size_t j = 0; r && j < l->nratios; j++)
			cJSON_AddItemToObject(r, l->ratios[j].name, num_or_null(l->ratios[j].mean));
	}
	cJSON_AddStringToObject(o, "source", l->source);
	cJSON_AddNumberToObject(o, "line", (double)l->line);
	return 0;
}

/* The "summary" object of s added to root. Returns 0, or -1 when out of
 * memory. */
static int json_summary(cJSON *root, const struct msprof_summary *s)
{
	cJSON *sum = cJSON_AddObjectToObject(root, "summary");
	if (!sum)
		return -1;
	cJSON_AddNumberToObject(sum, "launches", (double)s->launches);
	cJSON_AddItemToObject(sum, "median_us", num_or_null(s->median_us));
	cJSON_AddItemToObject(sum, "mad_us", num_or_null(s->mad_us));
	cJSON_AddItemToObject(sum, "min_us", num_or_null(s->min_us));
	cJSON_AddItemToObject(sum, "max_us", num_or_null(s->max_us));
	cJSON_AddItemToObject(sum, "mean_us", num_or_null(s->mean_us));
	cJSON_AddItemToObject(sum, "aic_time_us", num_or_null(s->aic_time_us));
	cJSON_AddItemToObject(sum, "aiv_time_us", num_or_null(s->aiv_time_us));
	cJSON_AddItemToObject(sum, "busiest_pipe_ratio", num_or_null(s->max_ratio));
	if (s->max_ratio_name[0])
		cJSON_AddStringToObject(sum, "busiest_pipe", s->max_ratio_name);
	else
		cJSON_AddNullToObject(sum, "busiest_pipe");
	cJSON_AddItemToObject(sum, "main_mem_read_bw_gbs", num_or_null(s->main_mem_read_bw_gbs));
	cJSON_AddItemToObject(sum, "main_mem_write_bw_gbs", num_or_null(s->main_mem_write_bw_gbs));
	return 0;
}

static int print_json(const struct msprof_capture *c, const struct msprof_summary *s,
		      const char *pat)
{
	cJSON *root = cJSON_CreateObject(), *arr = NULL;
	int rc = -1;
	if (!root)
		return -1;
	cJSON_AddStringToObject(root, "schema", "tlperf/msprof/v1");
	cJSON_AddStringToObject(root, "dir", c->dir);
	cJSON_AddStringToObject(root, "layout", msprof_layout_name(c->layout));
	if (pat)
		cJSON_AddStringToObject(root, "kernel_pattern", pat);
	else
		cJSON_AddNullToObject(root, "kernel_pattern");
	cJSON_AddNumberToObject(root, "missing_durations", (double)c->n_missing);
	cJSON_AddNumberToObject(root, "filtered_out", (double)c->n_filtered);
	arr = cJSON_AddArrayToObject(root, "launches");
	if (!arr)
		goto out;
	for (size_t i = 0; i < c->n; i++)
		if (json_launch(arr, &c->v[i]) != 0)
			goto out;
	if (json_summary(root, s) != 0)
		goto out;
	char *text = cJSON_Print(root);
	if (!text)
		goto out;
	fputs(text, stdout);
	fputc('\n', stdout);
	free(text);
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

/* What the reader noticed about the capture read from dir (shown): several
 * captures pooled, unreadable metric files, several kernels without
 * --kernel-name (pat). */
static void warn_capture(const struct msprof_capture *cap, const char *shown, const char *pat)
{
	if (cap->nroots > 1)
		cli_warn("'%s' holds %zu captures ('%s', '%s'%s): their launches are pooled below; "
			 "one tlab run writes one (tlab refuses such a run)",
			 shown, cap->nroots, cap->roots[0], cap->roots[1], cap->nroots > 2 ? ", ..." : "");
	if (cap->first_problem)
		cli_warn("%zu metric file%s unreadable, their metrics left out; first: %s",
			 cap->n_metric_problems, cap->n_metric_problems == 1 ? "" : "s", cap->first_problem);
	const char *names[2] = { NULL, NULL };
	if (!pat && distinct_kernels(cap, names) > 1)
		cli_note("several kernels ('%.60s', '%.60s', ...): the summary mixes them; choose one with "
			 "--kernel-name", names[0], names[1]);
}

int cmd_msprof(int argc, char **argv)
{
	const char *pat = NULL;
	int json = 0, c;
	struct cli_parser cp;
	struct msprof_capture cap;
	struct msprof_summary sum;
	char err[2048];
	int rc = CLI_OK;

	msprof_capture_init(&cap);
	cli_parser_init(&cp, &cmd_msprof_spec, argc, argv);
	while ((c = cli_parser_next(&cp)) > 0) {
		switch (c) {
		case 'k':
			pat = optarg[0] ? optarg : NULL;
			break;
		case 'j':
			json = 1;
			break;
		}
	}
	if (c == CLI_PARSE_STOP)
		return cp.rc;
	if (argc - cp.next != 1)
		return cli_usage_error("msprof", argc - cp.next < 1 ? "missing DIR" : "one DIR only");

	int r = msprof_read(argv[cp.next], pat, &cap, err, sizeof(err));
	/* a file that cannot be read as a profile (empty, binary, no Task
	 * Duration(us) column) is bad input, exit 2 as an unreadable one;
	 * readable data without a matching launch is a failed check, exit 1 */
	if (r == MSPROF_EIO || r == MSPROF_EFORMAT) {
		cli_error("%s", err);
		rc = CLI_USAGE;
		goto out;
	}
	if (r != MSPROF_OK) {
		cli_error("%s", err);
		rc = CLI_FAIL;
		goto out;
	}
	warn_capture(&cap, cap.nroots > 1 ? argv[optind] : NULL, pat);
	msprof_summarize(&cap, &sum);
	if (json) {
		if (print_json(&cap, &sum, pat) != 0) {
			cli_error("out of memory");
			rc = CLI_USAGE;
			goto out;
		}
	} else if (print_table(&cap, &sum, pat) != 0) {
		cli_error("out of memory");
		rc = CLI_USAGE;
		goto out;
	}
	rc = cli_finish_stdout(CLI_OK);
out:
	msprof_capture_release(&cap);
	return rc;
}
