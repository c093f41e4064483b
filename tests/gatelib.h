/* gatelib.h: helpers for the gate tests: scratch copies of fixture trees,
 * edits, and running gate 4 on a directory. */
#ifndef TLPERF_GATELIB_H
#define TLPERF_GATELIB_H

#include "testlib.h"
#include "run/gate_config.h"
#include "run/gate_perf_opt.h"

/* test paths are short; truncation cannot happen in practice */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "run/gate_perf_opt.h"

#include <dirent.h>
#include <sys/stat.h>

static inline void gl_copy_tree(const char *src, const char *dst)
{
	struct stat st;
	assert_int_equal(stat(src, &st), 0);
	if (S_ISDIR(st.st_mode)) {
		mkdir(dst, 0755);
		DIR *d = opendir(src);
		assert_non_null(d);
		struct dirent *de;
		while ((de = readdir(d)) != NULL) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char a[4096], b[4096];
			snprintf(a, sizeof(a), "%s/%s", src, de->d_name);
			snprintf(b, sizeof(b), "%s/%s", dst, de->d_name);
			gl_copy_tree(a, b);
		}
		closedir(d);
		return;
	}
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	assert_non_null(in);
	assert_non_null(out);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

static inline void gl_remove_tree(const char *p)
{
	struct stat st;
	if (lstat(p, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(p);
		struct dirent *de;
		while (d && (de = readdir(d)) != NULL) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char a[4096];
			snprintf(a, sizeof(a), "%s/%s", p, de->d_name);
			gl_remove_tree(a);
		}
		if (d)
			closedir(d);
		rmdir(p);
	} else {
		unlink(p);
	}
}

/* A fresh scratch directory; caller frees with gl_remove_tree + free. */
static inline char *gl_scratch(void)
{
	const char *t = getenv("TMPDIR");
	char *p = malloc(4096);
	snprintf(p, 4096, "%s/tlgate-test.XXXXXX", t ? t : "/tmp");
	assert_non_null(mkdtemp(p));
	return p;
}

static inline char *gl_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return b;
}

static inline void gl_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static inline void gl_append(const char *path, const char *text)
{
	FILE *f = fopen(path, "ab");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Replaces the first occurrence of from (which must be there) by to. */
static inline void gl_replace(const char *path, const char *from, const char *to)
{
	size_t n;
	char *b = gl_read(path, &n);
	char *p = strstr(b, from);
	if (!p) {
		print_error("'%s' not found in %s\n", from, path);
		fail();
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(b, 1, (size_t)(p - b), f);
	fputs(to, f);
	fputs(p + strlen(from), f);
	assert_int_equal(fclose(f), 0);
	free(b);
}

/* Removes the whole line holding the first occurrence of from. */
static inline void gl_delete_line(const char *path, const char *from)
{
	size_t n;
	char *b = gl_read(path, &n);
	char *p = strstr(b, from);
	assert_non_null(p);
	char *s = p;
	while (s > b && s[-1] != '\n')
		s--;
	char *e = strchr(p, '\n');
	e = e ? e + 1 : b + n;
	FILE *f = fopen(path, "wb");
	fwrite(b, 1, (size_t)(s - b), f);
	fputs(e, f);
	assert_int_equal(fclose(f), 0);
	free(b);
}

/* Runs gate 4 on dir under cfg (suppressions applied as cfg allows). */
static inline void gl_run_cfg(const char *dir, const struct gate_config *cfg, struct gate_findings *fs,
			      struct gatecheck_result *res)
{
	gate_findings_init(fs);
	gatecheck_result_init(res);
	assert_int_equal(gatecheck_dir(dir, dir, NULL, fs, res), 0);
	assert_int_equal(gate_config_apply_suppressions(cfg, fs, &res->sup), 0);
	gate_config_apply(cfg, fs);
}

/* The same with default severities and no configuration (so no rule is
 * inline-suppressible). */
static inline void gl_run(const char *dir, struct gate_findings *fs, struct gatecheck_result *res)
{
	struct gate_config cfg;
	gate_config_init(&cfg);
	gl_run_cfg(dir, &cfg, fs, res);
}

static inline int gl_has(const struct gate_findings *fs, const char *rule, enum gate_severity sev)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].rule, rule) == 0 && fs->v[i].severity == sev)
			return 1;
	return 0;
}

static inline const char *gl_message(const struct gate_findings *fs, const char *rule)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].rule, rule) == 0)
			return fs->v[i].message;
	return NULL;
}

static inline void gl_dump(const struct gate_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		print_message("  %s:%ld: %s: [%s] %s\n", fs->v[i].file, fs->v[i].line,
			      gate_severity_name(fs->v[i].severity), fs->v[i].rule, fs->v[i].message);
}

/* Verdicts: rule NULL means "passes" (no error). With a rule: fails and
 * the rule is among the errors. */
static inline void gl_expect(const char *dir, const char *rule, const char *why)
{
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(dir, &fs, &res);
	size_t errors = gate_count(&fs, GATE_ERROR);
	int ok = rule ? (errors > 0 && gl_has(&fs, rule, GATE_ERROR)) : errors == 0;
	if (!ok) {
		print_error("%s: wanted %s %s, got %zu errors:\n", why, rule ? "fail" : "pass",
			    rule ? rule : "", errors);
		gl_dump(&fs);
	}
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	assert_true(ok);
}

/* Passes with a warning of rule. */
static inline void gl_expect_warning(const char *dir, const char *rule, const char *why)
{
	struct gate_findings fs;
	struct gatecheck_result res;
	gl_run(dir, &fs, &res);
	int ok = gate_count(&fs, GATE_ERROR) == 0 && gl_has(&fs, rule, GATE_WARNING);
	if (!ok) {
		print_error("%s: wanted a pass with warning %s, got:\n", why, rule);
		gl_dump(&fs);
	}
	gate_findings_release(&fs);
	gatecheck_result_release(&res);
	assert_true(ok);
}

#endif
