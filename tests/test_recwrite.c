/* test_recwrite.c: appends are whole, ordered per writer, never interleaved. */
#include "testlib.h"

#include <errno.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "io/recwrite.h"

static char *tmpfile_path(void)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/recwrite.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void test_line_appended_with_newline(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	assert_int_equal(recwrite_append(p, "{\"a\":1}", 7, RECWRITE_LINE), 0);
	assert_int_equal(recwrite_append(p, "{\"b\":2}", 7, RECWRITE_LINE), 0);
	size_t n;
	char *s = slurp(p, &n);
	assert_string_equal(s, "{\"a\":1}\n{\"b\":2}\n");
	free(s);
	unlink(p);
}

static void test_embedded_newline_refused(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	errno = 0;
	assert_int_equal(recwrite_append(p, "a\nb", 3, RECWRITE_LINE), -1);
	assert_int_equal(errno, EINVAL);
	size_t n;
	char *s = slurp(p, &n);
	assert_int_equal(n, 0);
	free(s);
	unlink(p);
}

/* A torn last line left by another writer is closed before our text, and
 * the earlier bytes are kept as they were. */
static void test_torn_tail_gets_newline(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	FILE *f = fopen(p, "wb");
	fputs("{\"ok\":1}\n{\"torn\":", f);
	fclose(f);
	assert_int_equal(recwrite_append(p, "{\"c\":3}", 7, RECWRITE_LINE), 0);
	size_t n;
	char *s = slurp(p, &n);
	assert_string_equal(s, "{\"ok\":1}\n{\"torn\":\n{\"c\":3}\n");
	free(s);
	unlink(p);
}

static void test_block_written_as_is(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	const char *block = "### Round 1\n\n| a | b |\n|---|---|\n";
	assert_int_equal(recwrite_append(p, block, strlen(block), 0), 0);
	size_t n;
	char *s = slurp(p, &n);
	assert_string_equal(s, block);
	free(s);
	unlink(p);
}

/* Two processes append long lines at the same time: every line comes out
 * whole, none is lost, and each writer's lines keep their order. */
#define PER_WRITER 300
static void writer(const char *path, char tag)
{
	static char line[9000];
	for (int i = 0; i < PER_WRITER; i++) {
		/* lengths vary up to 8 KB so a non-atomic writer would tear */
		int body = 100 + (i * 37) % 8000;
		int n = snprintf(line, sizeof(line), "{\"w\":\"%c\",\"i\":%d,\"pad\":\"", tag, i);
		memset(line + n, tag, (size_t)body);
		n += body;
		n += snprintf(line + n, sizeof(line) - (size_t)n, "\"}");
		if (recwrite_append(path, line, (size_t)n, RECWRITE_LINE) != 0)
			_exit(1);
	}
	_exit(0);
}

static void test_two_processes_never_interleave(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	pid_t a = fork();
	assert_true(a >= 0);
	if (a == 0)
		writer(p, 'a');
	pid_t b = fork();
	assert_true(b >= 0);
	if (b == 0)
		writer(p, 'b');
	int st;
	assert_int_equal(waitpid(a, &st, 0), a);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(waitpid(b, &st, 0), b);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	size_t n;
	char *s = slurp(p, &n);
	int next[2] = { 0, 0 };
	char *line = s;
	int lines = 0;
	while (*line) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		*nl = '\0';
		char tag;
		int i;
		assert_int_equal(sscanf(line, "{\"w\":\"%c\",\"i\":%d,", &tag, &i), 2);
		assert_true(tag == 'a' || tag == 'b');
		int w = tag - 'a';
		assert_int_equal(i, next[w]); /* in order, none lost */
		next[w]++;
		/* the padding is all of one writer's tag: no foreign bytes */
		char *pad = strstr(line, "\"pad\":\"") + 7;
		size_t plen = strlen(pad) - 2;
		for (size_t k = 0; k < plen; k++)
			assert_int_equal(pad[k], tag);
		assert_string_equal(pad + plen, "\"}");
		lines++;
		line = nl + 1;
	}
	assert_int_equal(lines, 2 * PER_WRITER);
	assert_int_equal(next[0], PER_WRITER);
	assert_int_equal(next[1], PER_WRITER);
	free(s);
	unlink(p);
}

static void test_lock_excludes(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	int fd = recwrite_lock(p, 1);
	assert_true(fd >= 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		int fd2 = recwrite_lock(p, 0);
		_exit(fd2 < 0 && errno == EWOULDBLOCK ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	recwrite_unlock(fd);
	fd = recwrite_lock(p, 0);
	assert_true(fd >= 0);
	recwrite_unlock(fd);
	unlink(p);
}

/* A write cut short (here by a file size limit, as a full disk would) is
 * undone: the file keeps exactly its earlier bytes, no half line. */
static void test_short_write_undone(void **state)
{
	(void)state;
	char *p = tmpfile_path();
	assert_int_equal(recwrite_append(p, "{\"a\":1}", 7, RECWRITE_LINE), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = { 20, 20 };
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(3);
		char line[100];
		memset(line, 'x', sizeof(line));
		int rc = recwrite_append(p, line, sizeof(line), RECWRITE_LINE);
		/* the real reason, not a bare "Input/output error" */
		_exit(rc == -1 && errno == EFBIG ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	size_t n;
	char *s = slurp(p, &n);
	assert_string_equal(s, "{\"a\":1}\n");
	free(s);
	unlink(p);
}

/* A real full disk: a small tmpfs filled up, the append crossing into a
 * page that cannot be had. The write is cut short; recwrite reports
 * ENOSPC and cuts the file back to its last complete line. Needs root
 * (mount); skipped with a note otherwise. */
static void test_full_disk_enospc(void **state)
{
	(void)state;
	char dir[256], p[300], fill[300];
	snprintf(dir, sizeof(dir), "%s/recwrite-tmpfs.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	if (mount("tmpfs", dir, "tmpfs", 0, "size=16k") != 0) {
		printf("note: cannot mount a tmpfs here (%s); full-disk case not run\n",
		       strerror(errno));
		rmdir(dir);
		return;
	}
	snprintf(p, sizeof(p), "%s/runs.jsonl", dir);
	snprintf(fill, sizeof(fill), "%s/filler", dir);
	/* 3,900 bytes of complete lines: the next 400-byte line crosses the page */
	char line[400];
	memset(line, 'a', sizeof(line));
	for (int i = 0; i < 9; i++)
		assert_int_equal(recwrite_append(p, line, 389, RECWRITE_LINE), 0);
	assert_int_equal(recwrite_append(p, line, 389, RECWRITE_LINE), 0);
	size_t before;
	char *want = slurp(p, &before);
	assert_int_equal(before, 3900);
	/* fill every free page */
	FILE *f = fopen(fill, "wb");
	assert_non_null(f);
	char block[4096];
	memset(block, 0, sizeof(block));
	while (fwrite(block, 1, sizeof(block), f) == sizeof(block))
		;
	fclose(f);
	errno = 0;
	assert_int_equal(recwrite_append(p, line, sizeof(line), RECWRITE_LINE), -1);
	assert_int_equal(errno, ENOSPC);
	size_t after;
	char *got = slurp(p, &after);
	assert_int_equal(after, before);
	assert_memory_equal(got, want, before);
	free(got);
	free(want);
	umount(dir);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_appended_with_newline),
		cmocka_unit_test(test_embedded_newline_refused),
		cmocka_unit_test(test_torn_tail_gets_newline),
		cmocka_unit_test(test_block_written_as_is),
		cmocka_unit_test(test_two_processes_never_interleave),
		cmocka_unit_test(test_lock_excludes),
		cmocka_unit_test(test_short_write_undone),
		cmocka_unit_test(test_full_disk_enospc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
