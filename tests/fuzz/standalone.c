/* standalone.c: replays fuzz inputs without libFuzzer.
 *
 * Linked with a harness (tests/fuzz/fuzz_<name>.c) by the ordinary build,
 * so `make test` feeds every seed and every past crash in
 * testdata/fuzz/<name>/ to the parser under gcc, and again under
 * ASan+UBSan. Usage: replay_<name> FILE|DIR...; exit 0 when every input
 * went through, 2 when an input could not be read. A parser bug aborts
 * (the harness checks invariants) or trips a sanitizer.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = -1;
	if (!f) {
		fprintf(stderr, "replay: error: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 4096;
			unsigned char *nb = realloc(buf, ncap);
			if (!nb)
				goto out;
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: error: cannot read '%s'\n", path);
		goto out;
	}
	/* libFuzzer hands over a buffer of exactly `len` bytes: keep that so
	 * ASan catches reads past the end. */
	unsigned char *exact = malloc(len ? len : 1);
	if (!exact)
		goto out;
	if (len)
		memcpy(exact, buf, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	rc = 0;
out:
	free(buf);
	fclose(f);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, long *count)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	if (!d) {
		fprintf(stderr, "replay: error: cannot open '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		size_t need = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(need);
		if (!names[n]) {
			rc = -1;
			break;
		}
		snprintf(names[n], need, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(names[i]) != 0)
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	long count = 0;
	int rc = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: error: cannot stat '%s': %s\n", argv[i], strerror(errno));
			rc = 2;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count) != 0)
				rc = 2;
		} else if (replay_file(argv[i]) == 0) {
			count++;
		} else {
			rc = 2;
		}
	}
	printf("replayed %ld inputs\n", count);
	return rc;
}
