/* uname.h: names as identities. Workload, dispatch and candidate names
 * written in opt_log.md are compared with the names in the records as a
 * reader sees them, not byte by byte.
 *
 * The identity form of a name:
 *   1. Unicode NFKC (fullwidth 'Ｐ３' is 'P3', the ligature 'ﬁ' is 'fi',
 *      mathematical bold '𝐟𝐩' is 'fp', the ideographic space is a space);
 *   2. default-ignorable code points removed (zero-width space and joiner,
 *      soft hyphen, variation selectors, the BOM...): a reader cannot see
 *      them, so they cannot tell two names apart;
 *   3. ASCII letters lowercased, and every run of space, tab, '-', '_',
 *      '/', '.', ':' folded to one '_' (none kept at either end).
 * A name of ASCII bytes only is folded directly (step 3, no ICU call).
 *
 * The skeleton of a name (Unicode's confusables data, UTS #39, through
 * ICU's spoof checker) is the same for names a reader cannot tell apart:
 * Cyrillic 'а' and Latin 'a', Greek 'ο' and 'o', the digit '0' and 'o'.
 * Two names with one skeleton but different identity forms are
 * look-alikes: the gate reports them rather than treating them as the
 * same or as unrelated names.
 *
 * Pure (no I/O); thread-safe. The spoof checker is opened once, on first
 * use (pthread_once), and kept for the life of the process (it is static
 * data ICU would otherwise load again on each call; nothing frees it).
 */
#ifndef TLPERF_UNAME_H
#define TLPERF_UNAME_H

#include <stddef.h>

/* Bytes of the buffers the comparisons below fold names into; longer
 * names are compared on their first UNAME_MAX - 1 bytes. */
#define UNAME_MAX 512

/* The identity form of s (NUL-terminated UTF-8; invalid bytes count as
 * U+FFFD) into out: at most n-1 bytes and a NUL, cut at a character
 * boundary. Returns out. Should ICU fail (memory), the ASCII folding of
 * the bytes as they are is given. */
char *uname_identity(const char *s, char *out, size_t n);

/* The characters of s as a reader reads them (steps 1 and 2 above, no
 * case or separator folding: fullwidth '３２' is '32', a zero-width space
 * between two digits is gone), as malloc'd UTF-8; NULL when s is ASCII
 * (it is its own reading) or ICU fails (memory). For figures written in
 * a claim. */
char *uname_shown(const char *s);

/* 1 when s holds a character that a reader reads as another in a figure:
 * a fullwidth digit or full stop, an invisible code point (zero-width
 * space, joiners, word joiner, soft hyphen, BOM, variation selector) or a
 * squared unit sign (㎲); uname_shown then gives what the reader reads. A
 * byte scan, no ICU call: for table cells, where names with CJK brackets
 * (`c0（best）`) are common and need no normalising. */
int uname_disguised(const char *s);

/* 1 when a and b are equal, or their identity forms are equal and not
 * empty; 0 otherwise. */
int uname_same(const char *a, const char *b);

/* The skeleton of s's identity form (ASCII-folded again, so the digit
 * '0', mapped to 'O', meets 'o') into out (at most n-1 bytes and a NUL).
 * Returns 0, or -1 when ICU fails or the skeleton does not fit (out is
 * then ""). */
int uname_skeleton(const char *s, char *out, size_t n);

/* 1 when a and b look alike (one skeleton) but are not the same name
 * (uname_same is 0); 0 otherwise, and when a skeleton cannot be had. */
int uname_confusable(const char *a, const char *b);

/* Why name differs from recorded, for a message: the code points where
 * their identity forms differ, each as 'U+0430 CYRILLIC SMALL LETTER A',
 * "U+043E CYRILLIC SMALL LETTER O where the record has U+006F LATIN SMALL
 * LETTER O". Writes at most n-1 bytes and a NUL into out (n > 0); returns
 * out. */
char *uname_explain(const char *name, const char *recorded, char *out, size_t n);

#endif
