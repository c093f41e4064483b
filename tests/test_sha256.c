/* test_sha256.c: SHA-256 against FIPS 180-4 test vectors, in memory and
 * from files (the digest recorded as artifact_sha256). */
#include "testlib.h"

#include "io/sha256_file.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_file(void **state)
{
	(void)state;
	char path[] = "/tmp/sha256.XXXXXX", hex[65];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sha256_file(path, hex), 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	write_file(path, "abc");
	assert_int_equal(sha256_file(path, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 1000 bytes: several blocks and a padding block of its own */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 1000; i++)
		fputc('a', f);
	fclose(f);
	assert_int_equal(sha256_file(path, hex), 0);
	assert_string_equal(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
	unlink(path);
	assert_int_equal(sha256_file(path, hex), -1);
}

/* The two-block FIPS vector fed in uneven pieces: the partial-block path of
 * sha256_update must give the same digest as one call. */
static void test_streaming(void **state)
{
	(void)state;
	static const char msg[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char want[] = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
	static const size_t cuts[] = { 1, 3, 63, 64, sizeof(msg) - 1 };
	unsigned char dig[32];
	char hex[65];
	for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
		struct sha256 s;
		sha256_init(&s);
		size_t len = sizeof(msg) - 1;
		for (size_t at = 0; at < len; at += cuts[c])
			sha256_update(&s, msg + at, len - at < cuts[c] ? len - at : cuts[c]);
		sha256_final(&s, dig);
		sha256_hex(dig, hex);
		assert_string_equal(hex, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_streaming),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
