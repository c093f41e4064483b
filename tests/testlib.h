/* testlib.h: helpers shared by the cmocka unit tests. */
#ifndef TLPERF_TESTLIB_H
#define TLPERF_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* skip() as cmocka's, except under CI=true: CI has everything a test needs
 * (scripts/install-deps.sh, ../shared beside the clone, /dev/full), so a
 * test that would skip there is failed instead: a suite must not go green
 * on a machine where parts of it did not run. */
static inline void testlib_skip(const char *file, int line)
{
	const char *ci = getenv("CI");
	if (ci && strcmp(ci, "true") == 0) {
		print_error("%s:%d: this test would be skipped, and CI=true: failed instead "
			    "(a dependency CI should have is missing)\n", file, line);
		_fail(file, line);
	}
	_skip(file, line);
}
#undef skip
#define skip() testlib_skip(__FILE__, __LINE__)

/* cmocka 1.1 has no assert_double_equal. Passes when |a-b| <= tol, or
 * both are NaN. */
#define assert_close(a, b, tol) testlib_assert_close((a), (b), (tol), #a, __FILE__, __LINE__)

static inline void testlib_assert_close(double a, double b, double tol, const char *expr,
					const char *file, int line)
{
	if ((isnan(a) && isnan(b)) || fabs(a - b) <= tol)
		return;
	print_error("%s:%d: %s = %.17g, expected %.17g (tolerance %g)\n", file, line, expr, a, b,
		    tol);
	_fail(file, line);
}

/* Directory of the project's testdata/ (env TLPERF_TESTDATA, else ./testdata). */
static inline const char *testlib_testdata(void)
{
	const char *d = getenv("TLPERF_TESTDATA");
	return d ? d : "testdata";
}

/* ../shared beside the project when present (tests that read it skip
 * otherwise). Returns NULL when absent. */
static inline const char *testlib_shared(void)
{
	static char path[4096];
	const char *env = getenv("TLPERF_SHARED");
	if (env)
		return access(env, R_OK) == 0 ? env : NULL;
	snprintf(path, sizeof(path), "%s/../../shared", testlib_testdata());
	return access(path, R_OK) == 0 ? path : NULL;
}

#endif
