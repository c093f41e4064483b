/* options.c: option tables -> getopt_long, usage text and one wording for
 * mistakes (options.h). */
#include "cli/options.h"
#include "cli/cli.h"

#include <string.h>

#include "report/term.h"
#include "util/suggest.h"

static const char *const color_choices[] = { "auto", "always", "never", NULL };

const struct cli_option cli_common_options[] = {
	{ CLI_KEY_HELP, 'h', "help", NULL, "show this help and exit" },
	{ CLI_KEY_VERSION, 0, "version", NULL, "print the version and exit" },
	{ CLI_KEY_COLOR, 0, "color", "WHEN", "colour: auto (default) on a terminal unless NO_COLOR is set,\n"
					   "or anywhere when FORCE_COLOR or CLICOLOR_FORCE is set", color_choices },
	{ CLI_KEY_QUIET, 'q', "quiet", NULL, "no progress and no notes on stderr" },
	{ CLI_KEY_VERBOSE, 'v', "verbose", NULL, "more detail on stderr (per run, per directory)" },
	CLI_OPT_END
};

/* Usage: the help column starts after the widest left part, up to this. */
#define USAGE_MAX_LEFT 26

static void add_table(struct cli_parser *p, const struct cli_option *t, size_t *nl, size_t *ns)
{
	for (; t && t->key; t++) {
		if (t->long_name && *nl < CLI_MAX_OPTIONS) {
			struct option *o = &p->longopts[(*nl)++];
			o->name = t->long_name;
			o->has_arg = t->arg ? required_argument : no_argument;
			o->flag = NULL;
			o->val = t->key;
		}
		if (t->short_name && *ns + 2 < sizeof(p->shortopts)) {
			p->shortopts[(*ns)++] = t->short_name;
			if (t->arg)
				p->shortopts[(*ns)++] = ':';
		}
	}
}

void cli_parser_init(struct cli_parser *p, const struct cli_spec *spec, int argc, char **argv)
{
	size_t nl = 0, ns = 0;
	memset(p, 0, sizeof(*p));
	p->spec = spec;
	p->argc = argc;
	p->argv = argv;
	p->next = argc;
	if (spec->flags & CLI_SPEC_STOP_AT_OPERAND)
		p->shortopts[ns++] = '+';
	p->shortopts[ns++] = ':'; /* ':' for a missing value, '?' for the rest */
	add_table(p, spec->options, &nl, &ns);
	add_table(p, cli_common_options, &nl, &ns);
	p->shortopts[ns] = '\0';
	memset(&p->longopts[nl], 0, sizeof(p->longopts[nl]));
	optind = 0; /* GNU: full re-initialisation, so a command may parse twice */
	opterr = 0;
}

static const struct cli_option *find_key(const struct cli_parser *p, int key)
{
	const struct cli_option *tables[] = { p->spec->options, cli_common_options };
	for (size_t i = 0; i < 2; i++)
		for (const struct cli_option *t = tables[i]; t && t->key; t++)
			if (t->key == key)
				return t;
	return NULL;
}

static int short_key(const struct cli_parser *p, int letter)
{
	const struct cli_option *tables[] = { p->spec->options, cli_common_options };
	for (size_t i = 0; i < 2; i++)
		for (const struct cli_option *t = tables[i]; t && t->key; t++)
			if (t->short_name == letter)
				return t->key;
	return letter;
}

/* The option as the user wrote it, for messages: "--name" (from the table
 * when known) or "-c". */
static void option_label(const struct cli_parser *p, int key, char *buf, size_t len)
{
	const char *w = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
	const struct cli_option *o = key ? find_key(p, key) : NULL;
	if (strncmp(w, "--", 2) == 0) {
		if (o && o->long_name) {
			snprintf(buf, len, "--%s", o->long_name);
		} else {
			size_t n = strcspn(w, "=");
			snprintf(buf, len, "%.*s", (int)n, w);
		}
	} else if (key > 0 && key < 256) {
		snprintf(buf, len, "-%c", key);
	} else {
		snprintf(buf, len, "%s", w);
	}
}

static int usage_mistake(struct cli_parser *p, const char *fmt, const char *label)
{
	p->rc = cli_usage_error(p->spec->cmd, fmt, label);
	return CLI_PARSE_STOP;
}

/* getopt's ':' (a missing value) or '?' (an unknown option, or a value
 * given to a flag) reported in the one wording; returns CLI_PARSE_STOP. */
static int parse_mistake(struct cli_parser *p, int c)
{
	char label[256];
	if (c == ':') {
		option_label(p, optopt, label, sizeof(label));
		return usage_mistake(p, "option '%s' needs a value", label);
	}
	const char *w = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
	const struct cli_option *o = optopt ? find_key(p, optopt) : NULL;
	/* --flag=value for a flag: getopt reports the flag's key */
	if (o && o->long_name && !o->arg && strncmp(w, "--", 2) == 0 && strchr(w, '=')) {
		snprintf(label, sizeof(label), "--%s", o->long_name);
		return usage_mistake(p, "option '%s' takes no value", label);
	}
	if (optopt > 0 && optopt < 256 && strncmp(w, "--", 2) != 0) {
		snprintf(label, sizeof(label), "-%c", optopt);
		return usage_mistake(p, "unknown option '%s'", label);
	}
	option_label(p, 0, label, sizeof(label));
	/* the long names of both tables, for "did you mean" */
	const char *names[CLI_MAX_OPTIONS + 1];
	size_t n = 0;
	for (const struct option *o = p->longopts; o->name && n < CLI_MAX_OPTIONS; o++)
		names[n++] = o->name;
	names[n] = NULL;
	char dym[128];
	cli_did_you_mean(strncmp(label, "--", 2) == 0 ? label + 2 : label, names, "--", dym, sizeof(dym));
	p->rc = cli_usage_error(p->spec->cmd, "unknown option '%s'%s", label, dym);
	return CLI_PARSE_STOP;
}

const char *cli_did_you_mean(const char *word, const char *const *cands, const char *prefix,
			     char *buf, size_t len)
{
	struct suggest sg;
	suggest_init(&sg, word);
	for (size_t i = 0; cands && cands[i]; i++)
		suggest_offer(&sg, cands[i]);
	const char *best = suggest_best(&sg);
	if (best)
		snprintf(buf, len, "; did you mean '%s%s'?", prefix ? prefix : "", best);
	else if (len)
		buf[0] = '\0';
	return buf;
}

int cli_choice(const char *cmd, const char *opt, const char *value, const char *const *choices)
{
	char list[512], dym[128];
	size_t n = 0, used = 0;
	for (size_t i = 0; choices[i]; i++)
		if (strcmp(value, choices[i]) == 0)
			return (int)i;
	while (choices[n])
		n++;
	list[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof(list); i++) {
		int w = snprintf(list + used, sizeof(list) - used, "%s%s",
				 i == 0 ? "" : i + 1 == n ? " or " : ", ", choices[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	cli_did_you_mean(value, choices, NULL, dym, sizeof(dym));
	cli_usage_error(cmd, "option '%s' wants %s, got '%s'%s", opt, list, value, dym);
	return -1;
}

/* The value of an option with choices checked; 0 to go on, or
 * CLI_PARSE_STOP after a usage error. */
static int check_choice(struct cli_parser *p, int key)
{
	const struct cli_option *o = find_key(p, key);
	char label[128];
	if (!o || !o->choices || !p->arg)
		return 0;
	snprintf(label, sizeof(label), "--%s", o->long_name ? o->long_name : "");
	if (!o->long_name)
		snprintf(label, sizeof(label), "-%c", o->short_name);
	if (cli_choice(p->spec->cmd, label, p->arg, o->choices) >= 0)
		return 0;
	p->rc = CLI_USAGE;
	return CLI_PARSE_STOP;
}

/* --color WHEN (p->arg) applied to the messages; 0 to go on, or
 * CLI_PARSE_STOP after a usage error. */
static int set_color(struct cli_parser *p)
{
	enum term_color m = TERM_COLOR_AUTO;
	term_color_parse(p->arg, &m); /* a choice: checked before */
	term_set_color(m);
	cli_msg_configure(term_use_color(stderr), term_verbosity() == TERM_QUIET);
	return 0;
}

/* "tlperf VERSION", or "ALIAS (tlperf) VERSION" under an alias, on stdout. */
static void print_version(void)
{
	if (strcmp(cli_prog, "tlperf") == 0)
		printf("tlperf %s\n", TLPERF_VERSION);
	else
		printf("%s (tlperf) %s\n", cli_prog, TLPERF_VERSION);
}

/* Handles key c when it is a common option: --help and --version printed
 * (CLI_PARSE_STOP, p->rc set), --color, -q and -v applied (0: parse on).
 * Any other key is returned as it is. */
static int common_option(struct cli_parser *p, int c)
{
	switch (c) {
	case CLI_KEY_HELP:
		cli_usage_print(stdout, p->spec);
		p->rc = cli_finish_stdout(CLI_OK);
		return CLI_PARSE_STOP;
	case CLI_KEY_COLOR:
		return set_color(p);
	case CLI_KEY_QUIET:
	case CLI_KEY_VERBOSE:
		term_set_verbosity(c == CLI_KEY_QUIET ? TERM_QUIET : TERM_VERBOSE);
		cli_msg_configure(term_use_color(stderr), c == CLI_KEY_QUIET);
		return 0;
	case CLI_KEY_VERSION:
		print_version();
		p->rc = cli_finish_stdout(CLI_OK);
		return CLI_PARSE_STOP;
	default:
		return c;
	}
}

int cli_parser_next(struct cli_parser *p)
{
	int longindex = -1;
	int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, &longindex);
	p->arg = NULL;
	if (c == -1) {
		p->next = optind;
		return CLI_PARSE_END;
	}
	if (c == ':' || c == '?')
		return parse_mistake(p, c);
	p->arg = optarg;
	if (longindex < 0) /* a short option: getopt returns its letter */
		c = short_key(p, c);
	if (check_choice(p, c) != 0)
		return CLI_PARSE_STOP;
	c = common_option(p, c);
	return c == 0 ? cli_parser_next(p) : c;
}

void cli_term_init(void)
{
	cli_msg_configure(term_use_color(stderr), 0);
}

int cli_parser_no_operands(const struct cli_parser *p)
{
	if (p->next < p->argc)
		return cli_usage_error(p->spec->cmd, "unexpected argument '%s'", p->argv[p->next]);
	return 0;
}

/* ---- usage ---- */

static size_t left_part(const struct cli_option *o, char *buf, size_t len)
{
	int n;
	if (o->short_name && o->long_name)
		n = snprintf(buf, len, "  -%c, --%s%s%s", o->short_name, o->long_name,
			     o->arg ? " " : "", o->arg ? o->arg : "");
	else if (o->short_name)
		n = snprintf(buf, len, "  -%c%s%s", o->short_name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
	else
		n = snprintf(buf, len, "      --%s%s%s", o->long_name ? o->long_name : "",
			     o->arg ? " " : "", o->arg ? o->arg : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static size_t table_width(const struct cli_option *t, size_t w)
{
	char buf[256];
	for (; t && t->key; t++) {
		if (!t->help)
			continue;
		size_t n = left_part(t, buf, sizeof(buf));
		if (n <= USAGE_MAX_LEFT && n > w)
			w = n;
	}
	return w;
}

static void print_rows(FILE *f, const struct cli_option *t, size_t w)
{
	char buf[256];
	for (; t && t->key; t++) {
		if (!t->help)
			continue;
		size_t n = left_part(t, buf, sizeof(buf));
		fputs(buf, f);
		if (n + 2 > w)
			fprintf(f, "\n%*s", (int)w, "");
		else
			fprintf(f, "%*s", (int)(w - n), "");
		for (const char *h = t->help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n' && h[1])
				fprintf(f, "%*s", (int)w, "");
		}
		if (!t->help[0] || t->help[strlen(t->help) - 1] != '\n')
			fputc('\n', f);
		if (t->choices) {
			fprintf(f, "%*sone of: ", (int)w, "");
			for (size_t i = 0; t->choices[i]; i++)
				fprintf(f, "%s%s", i ? ", " : "", t->choices[i]);
			fputc('\n', f);
		}
	}
}

void cli_options_print(FILE *f, const struct cli_option *table)
{
	size_t w = table_width(table, 0);
	print_rows(f, table, (w ? w : USAGE_MAX_LEFT) + 2);
}

void cli_usage_print(FILE *f, const struct cli_spec *spec)
{
	const char *s = spec->synopsis;
	fputs("usage: ", f);
	for (; *s; s++) {
		fputc(*s, f);
		/* a new synopsis line; one starting with a blank continues the last */
		if (*s == '\n' && s[1])
			fputs(s[1] == ' ' ? "" : "   or: ", f);
	}
	if (s == spec->synopsis || s[-1] != '\n')
		fputc('\n', f);
	if (spec->about)
		fprintf(f, "\n%s", spec->about);
	size_t w = table_width(cli_common_options, table_width(spec->options, 0));
	fputs("\noptions:\n", f);
	print_rows(f, spec->options, w + 2);
	print_rows(f, cli_common_options, w + 2);
	for (const struct cli_spec *const *sub = spec->subcommands; sub && *sub; sub++) {
		if (!(*sub)->options || !(*sub)->options[0].key)
			continue;
		fprintf(f, "\n'%s' options:\n", (*sub)->cmd);
		cli_options_print(f, (*sub)->options);
	}
	if (spec->epilog)
		fprintf(f, "\n%s", spec->epilog);
}
