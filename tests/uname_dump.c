/* uname_dump.c: what util/uname.h makes of each code point of planes 0-3
 * and 14, one line each: "XXXX<TAB>identity<TAB>skeleton<TAB>names",
 * names from uname_explain (ICU's character names). Built twice
 * (mk/icudata.mk): as the binary links ICU's data and against the whole
 * shared package; tests/cli/test_icudata.sh compares the two. */
#include "util/uname.h"

#include <stdio.h>

static size_t utf8(unsigned cp, char *s)
{
	if (cp < 0x80) {
		s[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		s[0] = (char)(0xC0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		s[0] = (char)(0xE0 | cp >> 12);
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	s[0] = (char)(0xF0 | cp >> 18);
	s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	s[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

int main(void)
{
	static const unsigned ranges[][2] = { { 0x21, 0x3FFFF }, { 0xE0000, 0xE0FFF } };
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		for (unsigned cp = ranges[r][0]; cp <= ranges[r][1]; cp++) {
			char s[8], id[UNAME_MAX], sk[UNAME_MAX * 4], why[1024];
			if (cp >= 0xD800 && cp <= 0xDFFF)
				continue;
			s[utf8(cp, s)] = '\0';
			uname_identity(s, id, sizeof(id));
			if (uname_skeleton(s, sk, sizeof(sk)) != 0)
				snprintf(sk, sizeof(sk), "(none)");
			uname_explain(s, "", why, sizeof(why));
			printf("%04X\t%s\t%s\t%s\n", cp, id, sk, why);
		}
	}
	return ferror(stdout) || fflush(stdout) != 0;
}
