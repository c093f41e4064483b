/* recargs.c: the command line and output helpers shared by the
 * records-statistics commands (recargs.h). */
#include "cli/recargs.h"
#include "cli/cli.h"
#include "io/records.h"
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

int recargs_load_operand(struct recargs *a, const struct cli_parser *p, struct records *rs)
{
	records_init(rs);
	if (p->argc - p->next != 1)
		return cli_usage_error(a->name, "expected one RECORDS file, got %d arguments",
				       p->argc - p->next);
	a->path = p->argv[p->next];
	return recargs_load(a->path, a->strict, rs);
}

int recargs_load(const char *path, int strict, struct records *rs)
{
	struct records_problems ps;
	records_init(rs);
	records_problems_init(&ps);
	int rc = CLI_OK;
	errno = 0;
	if (records_load(path, rs, &ps) != 0) {
		cli_error("cannot read records '%s': %s", path, strerror(errno ? errno : EIO));
		rc = CLI_USAGE;
		goto out;
	}
	for (size_t i = 0; i < ps.n; i++) {
		fflush(stdout);
		fprintf(stderr, "%s:%ld: %s: %s%s\n", path, ps.v[i].line, strict ? "error" : "warning",
			ps.v[i].message, strict ? "" : " (line skipped)");
	}
	if (ps.n && strict) {
		cli_error("'%s' has %zu invalid line(s); refusing under --strict", path, ps.n);
		rc = CLI_FAIL;
	}
out:
	records_problems_release(&ps);
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
