/* cmd_read.c: `tlperf read FILE`: what the gate understood from an
 * opt_log.md (rounds, tables, the last Final Summary's claims, what it
 * passed over), or with --blocks the rendered lines it read them from. */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "io/fileops.h"
#include "io/mdread.h"
#include "io/optlog.h"
#include "report/optlog_view.h"
#include "util/escape.h"

enum { O_FORMAT = 256, O_BLOCKS };

static const char *const read_formats[] = { "text", "json", NULL };

static const struct cli_option read_options[] = {
	{ O_FORMAT, 0, "format", "FMT", "text (default) or json (\"schema\": \"tlperf/read/v1\")", read_formats },
	{ O_BLOCKS, 0, "blocks", NULL, "print the rendered lines the gate reads, one a line" },
	CLI_OPT_END
};

const struct cli_spec cmd_read_spec = {
	"read",
	"tlperf read [--format text|json] FILE\n"
	"tlperf read --blocks [--format text|json] FILE",
	"Reads FILE (an opt_log.md) as the gate does and prints what it understood:\n"
	"round sections, tables (round, caption, rows), the last Final Summary with\n"
	"its claims, suppressions, and what it passed over (text hidden from the\n"
	"rendered page, figures shown as code, claim lines it could not read whole),\n"
	"each with its line. Answers \"why did the gate not see my claim?\".\n"
	"\n"
	"--blocks prints the rendered lines themselves, as GitHub shows the file:\n"
	"LINE, kind (heading N, text, list, row, head, code, hidden:WHY) and text.\n",
	read_options,
	"Exit: 0 read, 2 the file cannot be read or usage error.\n",
	0, NULL,
};

static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	int rc = fileops_read_stream(f, SIZE_MAX - 1, buf, len, NULL);
	int e = errno;
	fclose(f);
	errno = e;
	return rc;
}

struct blocks {
	int json;
	cJSON *arr;
};

static const char *kind_of(const struct mdread_line *ln, char *tmp, size_t n)
{
	switch (ln->kind) {
	case MDREAD_HEADING:
		snprintf(tmp, n, "heading %d", ln->level);
		return tmp;
	case MDREAD_TEXT:
		return ln->list_item ? "list" : "text";
	case MDREAD_ROW:
		return ln->head ? "head" : "row";
	case MDREAD_CODE:
		return "code";
	case MDREAD_HIDDEN:
		snprintf(tmp, n, "hidden:%s", mdread_hidden_name(ln->hidden));
		return tmp;
	}
	return "?";
}

static int print_block(const struct mdread_line *ln, void *arg)
{
	struct blocks *b = arg;
	char tmp[32];
	const char *kind = kind_of(ln, tmp, sizeof(tmp));
	if (!b->json) {
		printf("%ld\t%s%s%s\t", ln->line, kind, ln->folded ? " (folded)" : "",
		       ln->joined ? " (same line as above)" : "");
		escape_put_text(stdout, ln->text, 0);
		putchar('\n');
		return 0;
	}
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return -1;
	cJSON_AddItemToArray(b->arr, o);
	cJSON_AddNumberToObject(o, "line", (double)ln->line);
	cJSON_AddStringToObject(o, "kind", kind);
	cJSON_AddBoolToObject(o, "folded", ln->folded);
	if (ln->kind == MDREAD_TEXT)
		cJSON_AddBoolToObject(o, "joined", ln->joined);
	if (ln->kind == MDREAD_ROW) {
		cJSON *c = cJSON_AddArrayToObject(o, "cells");
		for (int i = 0; c && i < ln->ncells; i++)
			cJSON_AddItemToArray(c, cJSON_CreateString(ln->cells[i]));
	} else {
		cJSON_AddStringToObject(o, "text", ln->text);
	}
	return 0;
}

static int print_json(cJSON *o)
{
	char *s = o ? cJSON_Print(o) : NULL;
	cJSON_Delete(o);
	if (!s) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	puts(s);
	free(s);
	return CLI_OK;
}

static int read_blocks(const char *path, const char *buf, size_t len, int json)
{
	struct blocks b = { json, NULL };
	cJSON *root = NULL;
	if (json) {
		root = cJSON_CreateObject();
		if (root) {
			cJSON_AddStringToObject(root, "schema", "tlperf/read-blocks/v1");
			cJSON_AddStringToObject(root, "file", path);
			b.arr = cJSON_AddArrayToObject(root, "blocks");
		}
		if (!b.arr) {
			cJSON_Delete(root);
			cli_error("out of memory");
			return CLI_USAGE;
		}
	}
	if (mdread_buffer(buf, len, print_block, &b) != 0) {
		cJSON_Delete(root);
		cli_error("out of memory reading '%s'", path);
		return CLI_USAGE;
	}
	return json ? print_json(root) : CLI_OK;
}

int cmd_read(int argc, char **argv)
{
	struct cli_parser cp;
	int key, blocks = 0, json = 0;
	cli_parser_init(&cp, &cmd_read_spec, argc, argv);
	while ((key = cli_parser_next(&cp)) > 0) {
		switch (key) {
		case O_FORMAT:
			if (strcmp(cp.arg, "json") == 0)
				json = 1;
			else if (strcmp(cp.arg, "text") == 0)
				json = 0;
			else
				return cli_usage_error("read", "--format takes text or json, not '%s'", cp.arg);
			break;
		case O_BLOCKS:
			blocks = 1;
			break;
		}
	}
	if (key == CLI_PARSE_STOP)
		return cp.rc;
	if (argc - cp.next != 1)
		return cli_usage_error("read", "give one FILE (an opt_log.md)");
	const char *path = argv[cp.next];
	int rc;
	if (blocks) {
		char *buf = NULL;
		size_t len = 0;
		if (slurp(path, &buf, &len) != 0) {
			cli_error("cannot read '%s': %s", path, strerror(errno));
			return CLI_USAGE;
		}
		rc = read_blocks(path, buf, len, json);
		free(buf);
		return cli_finish_stdout(rc);
	}
	struct optlog lg;
	optlog_init(&lg);
	if (optlog_load(path, &lg) != 0) {
		cli_error("cannot read '%s': %s", path, strerror(errno));
		rc = CLI_USAGE;
	} else if (json) {
		rc = print_json(report_optlog_json(path, &lg));
	} else {
		rc = report_optlog_text(stdout, path, &lg) == 0 ? CLI_OK : CLI_USAGE;
	}
	optlog_release(&lg);
	return cli_finish_stdout(rc);
}
