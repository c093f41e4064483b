/* options.h: one option table per command (git's parse-options, on top of
 * getopt_long). The table yields the parsing, the usage text printed by
 * -h/--help, --version, and one wording for every command-line mistake.
 *
 * A command declares
 *
 *     static const struct cli_option opts[] = {
 *         { 'n', 0,   "noise", "F", "noise threshold (default 0.03)" },
 *         { 'o', 'o', "output", "FILE", "write to FILE" },
 *         { 'j', 0,   "json", NULL, "machine output" },
 *         CLI_OPT_END
 *     };
 *     const struct cli_spec cmd_foo_spec = {
 *         "foo", "tlperf foo [options] FILE", "What foo does.\n", opts,
 *         "Exit: 0 ok, 1 findings, 2 usage error.\n", 0, NULL,
 *     };
 *
 * and parses with
 *
 *     struct cli_parser p;
 *     int key;
 *     cli_parser_init(&p, &cmd_foo_spec, argc, argv);
 *     while ((key = cli_parser_next(&p)) > 0)
 *         switch (key) { case 'n': ... p.arg ...; }
 *     if (key == CLI_PARSE_STOP)
 *         return p.rc;             (help or version printed, or an error)
 *     operands: argv[p.next .. argc)
 *
 * Every command also takes the common options (see cli_common_options):
 * -h/--help (usage on stdout, exit 0), --version (exit 0), --color WHEN,
 * -q/--quiet and -v/--verbose (the presentation state of report/term.h and
 * the message helpers). Mistakes are one line on stderr, exit 2:
 *     <prog>: error: unknown option '--jsn'; did you mean '--json'? (see '<prog> [CMD] --help')
 *     <prog>: error: option '--noise' needs a value (see ...)
 *     <prog>: error: option '--json' takes no value (see ...)
 *     <prog>: error: option '--format' wants text, json or sarif, got 'jsonn'; did you mean 'json'? (see ...)
 *     <prog>: error: unexpected argument 'x' (see ...)
 */
#ifndef TLPERF_CLI_OPTIONS_H
#define TLPERF_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* One row of a command's option table. */
struct cli_option {
	int key;               /* returned by cli_parser_next(); > 0 and unique */
	char short_name;       /* also accepted as -X; 0 for none */
	const char *long_name; /* accepted as --NAME; NULL for a short-only option */
	const char *arg;       /* the value's name in the usage ("N"); NULL: no value */
	const char *help;      /* usage text; '\n' continues on an indented line */
	const char *const *choices; /* the only values arg may take (NULL-terminated):
				     * checked by the parser, listed by the usage as
				     * "one of: a, b, c" (which the completions read);
				     * NULL: any value */
};
#define CLI_OPT_END { 0, 0, NULL, NULL, NULL, NULL }

/* Stop at the first operand instead of permuting (for commands whose
 * first operand is a subcommand with options of its own). */
#define CLI_SPEC_STOP_AT_OPERAND 1u

/* A command: its table and the text around it in the usage. */
struct cli_spec {
	const char *cmd;       /* "plateau", "loop init": messages and `see` lines */
	const char *synopsis;  /* usage lines without "usage: ", '\n'-separated */
	const char *about;     /* paragraphs after the synopsis; may be NULL */
	const struct cli_option *options; /* ends with CLI_OPT_END */
	const char *epilog;    /* after the options (exit codes...); may be NULL */
	unsigned flags;        /* CLI_SPEC_* */
	const struct cli_spec *const *subcommands; /* NULL-terminated; may be NULL */
};

/* The common options every command takes, after its own in the usage. */
extern const struct cli_option cli_common_options[];

enum {
	CLI_PARSE_END = 0,   /* options over: operands are argv[p->next..argc) */
	CLI_PARSE_STOP = -1  /* return p->rc now: help/version printed, or a usage error */
};
/* Keys of the common options (outside the byte range of command keys). */
enum {
	CLI_KEY_HELP = 0x10000,
	CLI_KEY_VERSION,
	CLI_KEY_COLOR,
	CLI_KEY_QUIET,
	CLI_KEY_VERBOSE
};

#define CLI_MAX_OPTIONS 64

struct cli_parser {
	const struct cli_spec *spec;
	int argc;
	char **argv;
	const char *arg;     /* the value of the option just returned, else NULL */
	int next;            /* index of the first operand after CLI_PARSE_END */
	int rc;              /* exit code after CLI_PARSE_STOP */
	struct option longopts[CLI_MAX_OPTIONS + 1];
	char shortopts[2 * CLI_MAX_OPTIONS + 4];
};

/* Prepares p to parse argv[1..argc) with spec's table plus the common
 * options. Never fails: a table that is too large (> CLI_MAX_OPTIONS with
 * the common ones) is a programming error caught by the unit tests. */
void cli_parser_init(struct cli_parser *p, const struct cli_spec *spec, int argc, char **argv);

/* The key of the next option of the command (its value, if any, in p->arg
 * and in optarg), CLI_PARSE_END when the options are over, or
 * CLI_PARSE_STOP after handling --help / --version (p->rc = 0) or reporting
 * a mistake in the one wording above (p->rc = CLI_USAGE). Common options
 * are handled here and never returned. */
int cli_parser_next(struct cli_parser *p);

/* Requires that no operand is left after the options (argv[p->next..]):
 * returns 0, or reports "unexpected argument 'X'" and returns CLI_USAGE. */
int cli_parser_no_operands(const struct cli_parser *p);

/* The "; did you mean 'X'?" tail of a message about word, X the closest
 * of the NULL-terminated cands (util/suggest.h) with prefix before it
 * ("--"), into buf; "" when none is close. Returns buf. */
const char *cli_did_you_mean(const char *word, const char *const *cands, const char *prefix,
			     char *buf, size_t len);

/* Checks value against the NULL-terminated choices of option opt
 * ("--format"): returns its index, or -1 after the one-line usage error
 * "option '--format' wants a, b or c, got 'x'; did you mean ...?" for the
 * command cmd. */
int cli_choice(const char *cmd, const char *opt, const char *value, const char *const *choices);

/* Writes spec's usage (synopsis, about, options, common options, epilog;
 * the option tables of its subcommands) to f. */
void cli_usage_print(FILE *f, const struct cli_spec *spec);

/* Applies the terminal settings before any option is parsed: colour of
 * messages on stderr under NO_COLOR / TERM / isatty (main calls it once). */
void cli_term_init(void);

/* Writes only the option rows of table, aligned as in the usage. */
void cli_options_print(FILE *f, const struct cli_option *table);

#endif
