/* recargs.c: loading RECORDS for the records-statistics commands
 * (recargs.h). */
#include "recargs.h"
#include "cli.h"

#include <errno.h>
#include <string.h>

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

void recargs_md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '|')
			fputs("\\|", f);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else
			fputc(c, f);
	}
}

const char *recargs_contract_name(enum records_contract c)
{
	return c == RECORDS_V1 ? "v1" : c == RECORDS_V2 ? "v2" : "unknown";
}
