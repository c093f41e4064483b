/* cmark_parse.c: the Markdown reading alone over files, the floor it sets
 * under tlgate (scripts/bench/bench_gate.sh). Each FILE is read whole and
 *   - by default: parsed by cmark-gfm as src/io/mdread.c parses it (source
 *     positions; the table, strikethrough, autolink, tagfilter and
 *     tasklist extensions), with cmark-gfm's own allocator, then freed;
 *     nothing is rendered or walked;
 *   - with -m (built with -DWITH_MDREAD against libtlperf.a): read by
 *     mdread_buffer() with a callback that does nothing, i.e. the gate's
 *     reader (cmark-gfm on its arena, and the walk over the tree).
 * Usage: cmark_parse [-m] FILE...   Exit 0, or 2 on a file it cannot read. */
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_MDREAD
#include "io/mdread.h"

static int ignore(const struct mdread_line *ln, void *arg)
{
	(void)ln;
	(void)arg;
	return 0;
}
#endif

static int use_mdread;

static int parse_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f)
		return -1;
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
			if (!nb)
				break;
			buf = nb;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad || !buf) {
		free(buf);
		return -1;
	}
#ifdef WITH_MDREAD
	if (use_mdread) {
		int rc = mdread_buffer(buf, n, ignore, NULL);
		free(buf);
		return rc;
	}
#endif
	static const char *const ext[] = { "table", "strikethrough", "autolink", "tagfilter", "tasklist" };
	cmark_parser *p = cmark_parser_new(CMARK_OPT_SOURCEPOS);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(ext[i]));
	cmark_parser_feed(p, buf, n);
	cmark_node *doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	cmark_node_free(doc);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;
	cmark_gfm_core_extensions_ensure_registered();
#ifdef WITH_MDREAD
	if (i < argc && strcmp(argv[i], "-m") == 0) {
		use_mdread = 1;
		i++;
	}
#endif
	for (; i < argc; i++)
		if (parse_file(argv[i]) != 0) {
			fprintf(stderr, "cmark_parse: cannot read '%s'\n", argv[i]);
			return 2;
		}
	return 0;
}
