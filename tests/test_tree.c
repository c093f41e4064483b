/* test_tree.c: the confined resolver and the walker (io/tree.h), the git
 * locator (run/git.h) and the text escaper (util/escape.h). */
#include "testlib.h"

#include "io/tree.h"
#include "run/git.h"
#include "util/escape.h"
#include "util/utf8.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[256];

static const char *at(const char *rel)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", base, rel);
	return buf[k];
}

static void put(const char *rel, const char *text)
{
	FILE *f = fopen(at(rel), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "%s/tlperf-tree.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(base));
	assert_int_equal(mkdir(at("root"), 0755), 0);
	assert_int_equal(mkdir(at("root/a"), 0755), 0);
	assert_int_equal(mkdir(at("root/a/perf_opt"), 0755), 0);
	assert_int_equal(mkdir(at("root/node_modules"), 0755), 0);
	assert_int_equal(mkdir(at("root/node_modules/perf_opt"), 0755), 0);
	put("root/a/perf_opt/k.py", "kernel\n");
	put("secret", "TOPSECRET\n");
	assert_int_equal(symlink("k.py", at("root/a/perf_opt/in.py")), 0);
	assert_int_equal(symlink("../../../secret", at("root/a/perf_opt/out.py")), 0);
	assert_int_equal(symlink(at("secret"), at("root/a/perf_opt/abs_out.py")), 0);
	assert_int_equal(symlink(at("root/a/perf_opt/k.py"), at("root/a/perf_opt/abs_in.py")), 0);
	assert_int_equal(symlink("loop2", at("root/loop1")), 0);
	assert_int_equal(symlink("loop1", at("root/loop2")), 0);
	assert_int_equal(symlink("/dev/zero", at("root/zero")), 0);
	assert_int_equal(mkfifo(at("root/fifo"), 0644), 0);
	assert_int_equal(symlink("a/perf_opt", at("root/perf_tuning")), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static enum tree_status want_file(const struct tree *t, const char *b, const char *p, off_t max)
{
	int fd = -1;
	enum tree_status s = tree_resolve(t, b, p, TREE_WANT_FILE, max, &fd, NULL);
	if (s == TREE_OK) {
		assert_true(fd >= 0);
		close(fd);
	} else {
		assert_int_equal(fd, -1);
	}
	return s;
}

static void test_resolve(void **state)
{
	(void)state;
	struct tree t;
	assert_int_equal(tree_open(&t, at("root")), 0);
	assert_int_equal(want_file(&t, "a/perf_opt", "k.py", 0), TREE_OK);
	assert_int_equal(want_file(&t, "a/perf_opt", "./../perf_opt//k.py", 0), TREE_OK);
	assert_int_equal(want_file(&t, "a/perf_opt", "in.py", 0), TREE_OK);
	assert_int_equal(want_file(&t, "a/perf_opt", "abs_in.py", 0), TREE_OK);
	assert_int_equal(want_file(&t, "", at("root/a/perf_opt/k.py"), 0), TREE_OK);
	/* out of the tree: never opened, whether it exists or not */
	assert_int_equal(want_file(&t, "a/perf_opt", "out.py", 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "a/perf_opt", "abs_out.py", 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "a/perf_opt", "../../../secret", 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "a/perf_opt", "../../../nothing", 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "", at("secret"), 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "", "/dev/zero", 0), TREE_OUTSIDE);
	assert_int_equal(want_file(&t, "", "zero", 0), TREE_OUTSIDE);
	assert_int_equal(tree_resolve(&t, "", "../", TREE_WANT_ANY, 0, NULL, NULL), TREE_OUTSIDE);
	/* inside: missing, loops, FIFOs, directories, caps */
	assert_int_equal(want_file(&t, "a", "nope", 0), TREE_MISSING);
	assert_int_equal(want_file(&t, "a", "perf_opt/k.py/x", 0), TREE_MISSING);
	assert_int_equal(want_file(&t, "", "loop1", 0), TREE_LOOP);
	assert_int_equal(want_file(&t, "", "fifo", 0), TREE_NOT_REGULAR);
	assert_int_equal(want_file(&t, "", "a", 0), TREE_NOT_REGULAR);
	assert_int_equal(want_file(&t, "a/perf_opt", "k.py", 3), TREE_TOO_LARGE);
	assert_int_equal(tree_resolve(&t, "", "fifo", TREE_WANT_ANY, 0, NULL, NULL), TREE_OK);
	/* no links at all with TREE_NOFOLLOW */
	int fd = -1;
	assert_int_equal(tree_resolve(&t, "", "perf_tuning", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &fd, NULL),
			 TREE_SYMLINK);
	assert_int_equal(tree_resolve(&t, "", "perf_tuning", TREE_WANT_DIR, 0, &fd, NULL), TREE_OK);
	close(fd);
	char *data;
	size_t len;
	assert_int_equal(tree_read(&t, "a/perf_opt", "k.py", 100, &data, &len), TREE_OK);
	assert_int_equal(len, 7);
	assert_string_equal(data, "kernel\n");
	free(data);
	assert_int_equal(tree_read(&t, "a/perf_opt", "out.py", 100, &data, &len), TREE_OUTSIDE);
	assert_null(data);
	tree_close(&t);
}

static void test_walk(void **state)
{
	(void)state;
	struct tree t;
	struct tree_hits h = { 0 };
	static const char *const names[] = { "perf_opt", "perf_tuning", NULL };
	static const char *const skip[] = { ".git", "node_modules", NULL };
	assert_int_equal(tree_open(&t, at("root")), 0);
	assert_int_equal(tree_find(&t, "", names, skip, &h), 0);
	assert_int_equal(h.n, 2);
	assert_string_equal(h.v[0].rel, "a/perf_opt");
	assert_int_equal(h.v[0].kind, TREE_HIT_DIR);
	assert_int_equal(h.v[0].which, 0);
	assert_string_equal(h.v[1].rel, "perf_tuning");
	assert_int_equal(h.v[1].kind, TREE_HIT_SYMLINK);
	assert_int_equal(h.v[1].which, 1);
	tree_hits_release(&h);
	/* without the skip list node_modules is entered */
	assert_int_equal(tree_find(&t, "", names, NULL, &h), 0);
	assert_int_equal(h.n, 3);
	assert_string_equal(h.v[1].rel, "node_modules/perf_opt");
	tree_hits_release(&h);
	tree_close(&t);
}

static void test_walk_deep(void **state)
{
	(void)state;
	/* 200 levels (past the walker's 32 kept descriptors), one hit at the
	 * bottom: found, and every level's descriptor given back */
	char *rel = calloc(1, 2 * 200 + 16);
	assert_non_null(rel);
	assert_int_equal(mkdir(at("deep"), 0755), 0);
	int dfd = open(at("deep"), O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	for (int i = 0; i < 200; i++) {
		assert_int_equal(mkdirat(dfd, "d", 0755), 0);
		int n = openat(dfd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(n >= 0);
		close(dfd);
		dfd = n;
		strcat(rel, i ? "/d" : "d");
	}
	assert_int_equal(mkdirat(dfd, "perf_opt", 0755), 0);
	close(dfd);
	strcat(rel, "/perf_opt");
	int before = dup(0);
	close(before);
	struct tree t;
	struct tree_hits h = { 0 };
	static const char *const names[] = { "perf_opt", NULL };
	assert_int_equal(tree_open(&t, at("deep")), 0);
	assert_int_equal(tree_find(&t, "", names, NULL, &h), 0);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.v[0].rel, rel);
	int fd = -1;
	assert_int_equal(tree_resolve(&t, rel, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &fd, NULL), TREE_OK);
	close(fd);
	tree_hits_release(&h);
	tree_close(&t);
	int after = dup(0);
	close(after);
	assert_int_equal(before, after); /* no descriptor leaked */
	free(rel);
}

static void test_git_locate(void **state)
{
	(void)state;
	char err[256];
	mkdir(at("bin"), 0755);
	put("bin/git", "#!/bin/sh\nexit 0\n");
	chmod(at("bin/git"), 0755);
	git_forget();
	/* relative and empty entries are never used, even when they hold a git */
	assert_int_equal(chdir(base), 0);
	assert_int_equal(git_locate(":bin:.:", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "absolute"));
	assert_null(git_path());
	char path[600];
	snprintf(path, sizeof(path), "bin::%s/bin", base);
	assert_int_equal(git_locate(path, err, sizeof(err)), 0);
	assert_string_equal(git_path(), at("bin/git"));
	git_forget();
	assert_int_equal(chdir("/"), 0);
}

static void test_escape(void **state)
{
	(void)state;
	char *s = escape_text("a\033[2Jb\007c\td\ne\x7f", 0);
	assert_string_equal(s, "a\\x1b[2Jb\\x07c\td\\x0ae\\x7f");
	free(s);
	s = escape_text("x\ny\rz", ESCAPE_KEEP_NEWLINE);
	assert_string_equal(s, "x\ny\\x0dz");
	free(s);
	/* C1 CSI (U+009B), invalid bytes; Chinese text kept */
	s = escape_text("\xc2\x9b" "31m \xff \xe4\xb8\xad", 0);
	assert_string_equal(s, "\\u009b31m \\xff \xe4\xb8\xad");
	free(s);
	assert_true(escape_text_is_safe("plain 中文 text", 0));
	assert_false(escape_text_is_safe("bell\a", 0));
	s = escape_text(NULL, 0);
	assert_string_equal(s, "");
	free(s);
}

/* The shared CSV field: quoted only when it must be, quotes doubled,
 * control characters shown as escape_text does (a newline too, so a field
 * is one line); and a UTF-8 copy with bad bytes replaced by U+FFFD. */
static void test_csv_utf8(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} c[] = {
		{ "plain", "plain" }, { "", "" }, { NULL, "" }, { "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" }, { "x\ny", "x\\x0ay" },
		{ "\033[31m,", "\"\\x1b[31m,\"" }, { "中文|<&>", "中文|<&>" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *s = escape_csv_field(c[i].in);
		assert_non_null(s);
		assert_string_equal(s, c[i].out);
		free(s);
	}
	char *u = utf8_sanitized("ok \xff\xe4\xb8\xad \xe4\xb8");
	assert_string_equal(u, "ok \xef\xbf\xbd\xe4\xb8\xad \xef\xbf\xbd\xef\xbf\xbd");
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_deep),
		cmocka_unit_test(test_git_locate),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_csv_utf8),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
