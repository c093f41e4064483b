/* suggest.h: "did you mean" for a mistyped option, command, value or rule
 * id: the closest of the offered candidates by edit distance (adjacent
 * transpositions count as one edit), when it is close enough to be a typo.
 *
 *     struct suggest s;
 *     suggest_init(&s, "gat");
 *     for (each name) suggest_offer(&s, name);
 *     const char *m = suggest_best(&s);   ("gate"; NULL when none is close)
 */
#ifndef TLPERF_UTIL_SUGGEST_H
#define TLPERF_UTIL_SUGGEST_H

#include <stddef.h>

struct suggest {
	const char *word;  /* what was typed (not copied) */
	const char *best;  /* the closest candidate so far (not copied), NULL none */
	size_t dist;       /* its distance */
};

/* Edit distance between a and b (insertions, deletions, substitutions and
 * swaps of adjacent bytes; ASCII case ignored), capped: any distance above
 * cap is returned as cap + 1. */
size_t suggest_distance(const char *a, const char *b, size_t cap);

void suggest_init(struct suggest *s, const char *word);

/* Considers cand (kept by pointer: it must outlive s). The first of equally
 * close candidates wins. A candidate that starts with a word of 3 or more
 * characters counts as one edit away ("expl" -> "explain"). */
void suggest_offer(struct suggest *s, const char *cand);

/* The closest candidate when it is within the typo distance (1 edit for a
 * word of up to 5 characters, 2 above), else NULL. Never the word itself. */
const char *suggest_best(const struct suggest *s);

#endif
