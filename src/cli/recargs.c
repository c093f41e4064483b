/* recargs.c: the command line and output helpers shared by the
 * records-statistics commands (recargs.h). */
#include "cli/recargs.h"
#include "cli/cli.h"
#include "io/records.h"
#include "stats/reckeys.h"
#include "util/escape.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int recargs_option(struct recargs *a, int key)
{
	if (key == 'j')
		a->json = 1;
	else if (key == 's')
		a->strict = 1;
	else
		return 0;
	return 1;
}

/* One invalid line, printed under the policy of recargs.h. */
static void report_problem(const char *path, long line, const char *msg, int strict)
{
	fflush(stdout);
	fprintf(stderr, "%s:%ld: %s: %s%s\n", path, line, strict ? "error" : "warning", msg,
		strict ? "" : " (line skipped)");
}

int recargs_stream(const char *path, int strict, struct strpool *ids, recargs_sink add, void *ctx,
		   enum records_contract *contract)
{
	struct records_reader rd;
	struct record r;
	enum records_next k;
	size_t nprob = 0, nrec = 0, v1 = 0, v2 = 0;
	int rc = CLI_OK;
	*contract = RECORDS_UNKNOWN;
	errno = 0;
	if (records_reader_open(&rd, path, ids) != 0) {
		cli_error("cannot read records '%s': %s", path, strerror(errno ? errno : EIO));
		return CLI_USAGE;
	}
	while ((k = records_reader_next(&rd, &r)) != RECORDS_NEXT_EOF) {
		if (k == RECORDS_NEXT_ERROR || (k == RECORDS_NEXT_RECORD && add(ctx, &r) != 0)) {
			cli_error("cannot read records '%s': %s", path,
				  strerror(k == RECORDS_NEXT_ERROR && errno ? errno : ENOMEM));
			rc = CLI_USAGE;
			break;
		}
		if (k == RECORDS_NEXT_PROBLEM && rd.not_text) {
			cli_error("cannot read records '%s': %s", path, rd.err);
			rc = CLI_USAGE;
			break;
		}
		if (k == RECORDS_NEXT_PROBLEM && rd.bare_cr) {
			cli_error("cannot read records '%s': line %ld: carriage return inside a line "
				  "(CR-only line endings?); JSONL lines end with LF", path, rd.line);
			rc = CLI_USAGE;
			break;
		}
		if (k == RECORDS_NEXT_PROBLEM) {
			report_problem(path, rd.line, rd.err, strict);
			nprob++;
		}
		nrec += k == RECORDS_NEXT_RECORD;
		v1 += k == RECORDS_NEXT_RECORD && r.contract == RECORDS_V1;
		v2 += k == RECORDS_NEXT_RECORD && r.contract == RECORDS_V2;
	}
	records_reader_close(&rd);
	*contract = v1 + v2 == 0 ? RECORDS_UNKNOWN : v2 > v1 ? RECORDS_V2 : RECORDS_V1;
	if (rc == CLI_OK && nprob && strict) {
		cli_error("'%s' has %zu invalid line(s); refusing under --strict", path, nprob);
		rc = CLI_FAIL;
	}
	/* nothing to compute on is input the command cannot use: an empty
	 * table, "no plateau" or "no candidate" would look like an answer */
	if (rc == CLI_OK && nrec == 0) {
		if (nprob)
			cli_error("'%s' holds no valid record (%zu invalid line(s))", path, nprob);
		else
			cli_error("'%s' is empty: no record", path);
		return CLI_USAGE;
	}
	return rc;
}

int recargs_stream_operand(struct recargs *a, const struct cli_parser *p, struct strpool *ids,
			   recargs_sink add, void *ctx, enum records_contract *contract)
{
	*contract = RECORDS_UNKNOWN;
	if (p->argc - p->next != 1)
		return cli_usage_error(a->name, "expected one RECORDS file, got %d arguments",
				       p->argc - p->next);
	a->path = p->argv[p->next];
	return recargs_stream(a->path, a->strict, ids, add, ctx, contract);
}

static int digest_record(void *ctx, const struct record *r)
{
	return stats_digest_add(ctx, r);
}

int recargs_load_round(struct recargs *a, const struct cli_parser *p, long round,
		       const char *incumbent_id, struct records *rs)
{
	struct strpool ids;
	struct stats_round_digest d;
	enum records_contract c;
	records_init(rs);
	strpool_init(&ids);
	stats_digest_begin(&d, round, incumbent_id);
	int rc = recargs_stream_operand(a, p, &ids, digest_record, &d, &c);
	if (rc == CLI_OK && stats_digest_finish(&d, rs) != 0) {
		cli_error("out of memory reading '%s'", a->path);
		rc = CLI_USAGE;
	}
	stats_digest_release(&d);
	strpool_release(&ids);
	return rc;
}

cJSON *recargs_num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

void recargs_json_key(cJSON *o, const char *dispatch, const char *workload)
{
	cJSON_AddStringToObject(o, "dispatch", dispatch);
	cJSON_AddStringToObject(o, "workload", workload);
}

int recargs_print_json(cJSON *root)
{
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	puts(text);
	free(text);
	return CLI_OK;
}

void recargs_md_pct(FILE *f, double frac)
{
	if (isfinite(frac))
		fprintf(f, "%+.1f%%", 100.0 * frac);
	else
		fputs("—", f);
}

void recargs_md_key(FILE *f, const char *dispatch, const char *sep, const char *workload)
{
	escape_md_cell(f, dispatch, MD_CELL_PLAIN);
	fputs(sep, f);
	escape_md_cell(f, workload, MD_CELL_PLAIN);
}

const char *recargs_contract_name(enum records_contract c)
{
	return c == RECORDS_V1 ? "v1" : c == RECORDS_V2 ? "v2" : "unknown";
}
