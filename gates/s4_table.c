/* s4_table.c: S4-COMPTABLE-RECON, the numbers of a round's 'candidate vs
 * current best' table are the round's records (s4.h).
 *
 * A table is aligned with the records of the log's checked run:
 *   - rows: the first cell names a candidate recorded in the run (its id
 *     as a whole word: `c2`, `c1（best）`, `current best（c2_pipe）`,
 *     `baseline（current best）`); a cell naming two recorded ids is
 *     passed over; a row naming the incumbent without its id (`(=best)`,
 *     `= current best`, `incumbent`, `当前最优`) or as the round's
 *     baseline (`r6_baseline (=best)`) shows the current best of its
 *     round, which is one of the candidates measured before it: its
 *     number is the median of one of them (the baseline among them);
 *   - columns: a header cell naming a recorded workload (workloads as
 *     columns), or a duration column (`Task Duration(us)`, `latency (ms)`,
 *     `_us`) with the workload in a `workload` column or, when the run
 *     has one workload, that one.
 * The number shown for (candidate, workload) reconciles with the median of
 * that candidate's valid records of the table's round (for the current
 * best, of the round when it was re-measured there, else of its latest
 * earlier round; or of any earlier round, the number it was adopted on),
 * within the figure's precision plus 1% (as RECON). A
 * number no unit reading (the column's, else us or ms) gives is an error
 * naming the records; one that matches a single repeat but not the median
 * a warning; a comparison table no row of which names a candidate measured
 * in its round a warning that says so. */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "stats/stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEATS 64

static int lower_has(const char *s, const char *w)
{
	size_t n = strlen(w);
	int c0 = tolower((unsigned char)w[0]);
	for (; *s; s++)
		if (tolower((unsigned char)*s) == c0 && strncasecmp(s, w, n) == 0)
			return 1;
	return 0;
}

/* 1 when s holds one of the words m (NULL-ended), case folded. */
static int lower_has_any(const char *s, const char *const *m)
{
	for (int i = 0; m[i]; i++)
		if (lower_has(s, m[i]))
			return 1;
	return 0;
}

static int marks_incumbent(const char *s)
{
	static const char *const m[] = { "best", "incumbent", "当前最优", "当前最佳", "当前最好", "现最优", NULL };
	return lower_has_any(s, m);
}

/* A first cell that names the incumbent without naming a candidate:
 * `current best`, `current_best`, `(=best)`, `= current best`, `(best)`,
 * `incumbent`, `当前最优`; not a bare `best` (`best of round 3` may be the
 * round's new best). */
static int names_incumbent(const char *s)
{
	static const char *const m[] = { "current best", "current_best", "currentbest", "current-best", "=best",
					 "= best", "(best)", "（best）", "[best]", "incumbent", "当前最优", "当前最佳",
					 "当前最好", "现最优", NULL };
	return lower_has_any(s, m);
}

/* The records of the checked run indexed once: the distinct candidate ids
 * and workloads, and each candidate's records as a chain, so a table's rows
 * and cells cost the candidates', not the file's, length. */
struct tix {
	size_t from;            /* the run's first record */
	const char **ids;       /* distinct candidate_ids (interned) */
	size_t nids;
	long *first;            /* per id: its last record, -1 */
	long *next;             /* per record: the one before it of its candidate, -1 */
	const char **wls;       /* distinct workloads */
	size_t nwls;
	struct s4_map idpos;    /* candidate_id -> its index in ids */
	/* to find the ids a cell names without a search per id: the bytes
	 * ids start and end with, their greatest length, and room for the
	 * ids one cell names */
	unsigned char starts[32], ends[32];
	size_t maxlen;
	size_t *hits;           /* indices into ids */
	unsigned char *hit;     /* per id: in hits */
	struct s4_map *wl_of;   /* a header cell's text -> index into wls, -1 none */
};

static int byte_in(const unsigned char *set, unsigned char c)
{
	return set[c >> 3] & (1u << (c & 7));
}

static void byte_add(unsigned char *set, unsigned char c)
{
	set[c >> 3] |= (unsigned char)(1u << (c & 7));
}

static void tix_release(struct tix *x)
{
	free(x->ids);
	free(x->first);
	free(x->next);
	free(x->wls);
	free(x->hits);
	free(x->hit);
	if (x->wl_of)
		s4_map_release(x->wl_of);
	free(x->wl_of);
	s4_map_release(&x->idpos);
}

/* 0, -1 on allocation failure (x released). */
static int tix_build(const struct s4_input *in, size_t from, struct tix *x)
{
	size_t n = in->recs->n;
	struct s4_map wpos;
	memset(x, 0, sizeof(*x));
	x->from = from;
	s4_map_init(&x->idpos);
	s4_map_init(&wpos);
	x->ids = malloc((n + 1) * sizeof(*x->ids));
	x->first = malloc((n + 1) * sizeof(*x->first));
	x->next = malloc((n + 1) * sizeof(*x->next));
	x->wls = malloc((n + 1) * sizeof(*x->wls));
	x->hits = malloc((n + 1) * sizeof(*x->hits));
	x->hit = calloc(n + 1, 1);
	x->wl_of = malloc(sizeof(*x->wl_of));
	if (x->wl_of)
		s4_map_init(x->wl_of);
	int rc = x->ids && x->first && x->next && x->wls && x->hits && x->hit && x->wl_of ? 0 : -1;
	for (size_t i = from; rc == 0 && i < n; i++) {
		const struct record *r = &in->recs->v[i];
		int created;
		long *k = s4_map_put(&x->idpos, r->candidate_id, (long)x->nids, &created);
		long *w = k ? s4_map_put(&wpos, r->workload, (long)x->nwls, &created) : NULL;
		if (!k || !w) {
			rc = -1;
			break;
		}
		if (*k == (long)x->nids) {
			size_t len = strlen(r->candidate_id);
			x->ids[x->nids] = r->candidate_id;
			x->first[x->nids++] = -1;
			if (len) {
				byte_add(x->starts, (unsigned char)r->candidate_id[0]);
				byte_add(x->ends, (unsigned char)r->candidate_id[len - 1]);
			}
			if (len > x->maxlen)
				x->maxlen = len;
		}
		if (*w == (long)x->nwls)
			x->wls[x->nwls++] = r->workload;
		x->next[i] = x->first[*k];
		x->first[*k] = (long)i;
	}
	s4_map_release(&wpos);
	if (rc)
		tix_release(x);
	return rc;
}

/* The candidate the row's first cell names: the one recorded id that
 * stands in it as a word (no letter or digit right before or after it: a
 * file name `mish_opt_v5_op1.py` names v5_op1; `c10` does not name c1),
 * the longest over its prefix words; NULL when none or two. Every span of
 * the cell with a word boundary at both ends, no longer than the longest
 * id, is looked up once; the ids found are then weighed in the order of
 * the records. */
static const char *row_candidate(const struct s4_input *in, const struct tix *x, const char *cell)
{
	(void)in;
	const unsigned char *s = (const unsigned char *)cell;
	size_t len = strlen(cell), nhits = 0;
	for (size_t p = 0; p < len; p++) {
		if ((p > 0 && isalnum(s[p - 1])) || !byte_in(x->starts, s[p]))
			continue;
		for (size_t q = p + 1; q <= len && q - p <= x->maxlen; q++) {
			if ((q < len && isalnum(s[q])) || !byte_in(x->ends, s[q - 1]))
				continue;
			const long *k = s4_map_getn(&x->idpos, cell + p, q - p);
			if (!k || x->hit[*k])
				continue;
			x->hit[*k] = 1;
			size_t j = nhits++;
			for (; j > 0 && x->hits[j - 1] > (size_t)*k; j--)
				x->hits[j] = x->hits[j - 1];
			x->hits[j] = (size_t)*k;
		}
	}
	const char *found = NULL;
	int two = 0;
	for (size_t h = 0; h < nhits; h++) {
		const char *id = x->ids[x->hits[h]];
		x->hit[x->hits[h]] = 0;
		if (two)
			continue;
		if (found && strstr(id, found))
			found = id; /* r1_tile contains r1: the longer */
		else if (found && !strstr(found, id))
			two = 1;
		else if (!found)
			found = id;
	}
	return two ? NULL : found;
}

/* The figures of a cell that could be a duration: numbers not part of a
 * name (r2a2) and not a ratio (-3%, 1.2x). */
static int durations_in(const char *c)
{
	int n = 0;
	for (const char *p = c; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > c && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_')))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		while (*q == ' ' || *q == '*')
			q++;
		if (*q != '%' && *q != 'x' && *q != 'X' && strncmp(q, "×", 2) != 0 && strncmp(q, "％", 3) != 0 &&
		    !isalpha((unsigned char)*q))
			n++;
		else if (isalpha((unsigned char)*q) && (tolower((unsigned char)*q) == 'u' || tolower((unsigned char)*q) == 'm'))
			n++; /* 12 us, 0.1 ms */
		p = q - 1;
	}
	return n;
}

/* The one number of a cell (marks skipped), its decimals; 0 when the cell
 * does not start with a number or shows more than one duration (`170.3 →
 * 12.38`, `202.5/104.0`: which one is the row's is not certain). */
static int cell_value(const char *c, double *v, int *dec)
{
	while (*c == ' ' || *c == '*' || *c == '`')
		c++;
	if (durations_in(c) != 1)
		return 0;
	char *end;
	if (!isdigit((unsigned char)*c))
		return 0;
	*v = strtod(c, &end);
	const char *dot = memchr(c, '.', (size_t)(end - c));
	*dec = dot ? (int)(end - dot - 1) : 0;
	return end > c;
}

struct layout {
	int wl_col, dur_col;
	double dur_mul;          /* the duration column's unit, 0 unknown */
	const char *only_wl;     /* the run's one workload, NULL */
};

static int is_wl_header(const char *h)
{
	static const char *const w[] = { "workload", "shape", "case", "负载", "用例", "工作负载", NULL };
	return lower_has_any(h, w);
}

static double unit_of_header(const char *h)
{
	if (lower_has(h, "(ms)") || lower_has(h, "_ms") || lower_has(h, "（ms）") || lower_has(h, " ms"))
		return 1000;
	if (lower_has(h, "us") || strstr(h, "µs") || strstr(h, "μs"))
		return 1;
	return 0;
}

static int is_dur_header(const char *h)
{
	static const char *const w[] = { "duration", "latency", "时延", "耗时", "(us)", "_us", "µs", "μs", "(ms)", NULL };
	return lower_has_any(h, w);
}

/* The recorded workload a header cell names, NULL. */
static const char *header_workload(const struct s4_input *in, const struct tix *x, const char *h)
{
	(void)in;
	char buf[256];
	size_t n = 0;
	for (const char *p = h; *p && n < sizeof(buf) - 1; p++)
		if (*p != '*' && *p != '`')
			buf[n++] = *p;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	const char *b = buf;
	while (*b == ' ')
		b++;
	/* the same text recurs in every row: compared with the workloads once */
	const long *seen = s4_map_get(x->wl_of, b);
	if (seen)
		return *seen >= 0 ? x->wls[*seen] : NULL;
	long found = -1;
	for (size_t k = 0; k < x->nwls && found < 0; k++)
		if (s4_same_workload(b, x->wls[k]))
			found = (long)k;
	s4_map_put(x->wl_of, b, found, NULL); /* a failure only forgets it */
	return found >= 0 ? x->wls[found] : NULL;
}

static void find_layout(const struct s4_input *in, const struct tix *x, const struct optlog_cell_row *h, struct layout *L)
{
	L->wl_col = L->dur_col = -1;
	L->dur_mul = 0;
	L->only_wl = NULL;
	for (int k = 1; k < h->ncells; k++) {
		if (L->wl_col < 0 && is_wl_header(h->cells[k]) && !header_workload(in, x, h->cells[k]))
			L->wl_col = k;
		else if (L->dur_col < 0 && is_dur_header(h->cells[k])) {
			L->dur_col = k;
			L->dur_mul = unit_of_header(h->cells[k]);
		}
	}
	L->only_wl = x->nwls == 1 ? x->wls[0] : NULL;
}

/* The valid durations of cand on wl in round r (or, with latest, in its
 * latest round <= r): *n of them, their first record's line in *line. */
static size_t durations(const struct s4_input *in, const struct tix *x, const char *cand, const char *wl, long r, int latest,
			double *v, long *line)
{
	const long *k = s4_map_get(&x->idpos, cand);
	long use = r;
	if (!k)
		return 0;
	if (latest) {
		use = -1;
		for (long i = x->first[*k]; i >= 0; i = x->next[i]) {
			const struct record *rec = &in->recs->v[i];
			if (record_valid(rec) && rec->round <= r && rec->round > use && strcmp(rec->workload, wl) == 0)
				use = rec->round;
		}
	}
	size_t n = 0;
	*line = 0;
	for (long i = x->first[*k]; i >= 0 && n < MAX_REPEATS; i = x->next[i]) {
		const struct record *rec = &in->recs->v[i];
		if (record_valid(rec) && rec->round == use && strcmp(rec->workload, wl) == 0) {
			if (!*line || rec->line < *line)
				*line = rec->line;
			v[n++] = rec->duration_us;
		}
	}
	return n;
}

static int near(double shown_us, double tol_us, double want)
{
	return fabs(shown_us - want) <= tol_us + 0.01 * want + 1e-9;
}

struct cell_check {
	const struct optlog_table *t;
	const struct optlog_cell_row *row;
	const char *cand, *wl;  /* cand NULL: the row names the incumbent only */
	int incumbent;
	const char *text;       /* the cell */
	double mul;             /* its unit when known, 0 */
};

/* The figure shown and the units it may be in. */
struct shown {
	double v, half;         /* as written, half its last digit */
	double muls[2];         /* us per unit: the column's, else us and ms */
};

static int shown_is(const struct shown *sh, double want)
{
	for (int k = 0; k < 2; k++)
		if (sh->muls[k] && near(sh->v * sh->muls[k], sh->half * sh->muls[k], want))
			return 1;
	return 0;
}

/* The current best re-measured in the table's round may be shown with the
 * number it was adopted on: the median of an earlier round of its records
 * will do. */
static int incumbent_earlier(const struct s4_input *in, const struct tix *x, const struct cell_check *c,
			     const char *cand, const struct shown *sh)
{
	double rec[MAX_REPEATS];
	long line;
	for (long r = c->t->round - 1; r >= 0; r--) {
		size_t n = durations(in, x, cand, c->wl, r, 0, rec, &line);
		if (n && shown_is(sh, stats_median(rec, n)))
			return 1;
	}
	return 0;
}

/* What cand's records on c->wl say of the figure shown: 0 it is their
 * median in the table's round (an incumbent's: of its latest round up to
 * it, or of an earlier round, the number it was adopted on), 1 it is one
 * of those measurements only, 2 neither, 3 no record. *med, *n, *rline:
 * the median, the measurements and the first one's line. */
static int against(const struct s4_input *in, const struct tix *x, const struct cell_check *c, const char *cand,
		   int incumbent, const struct shown *sh, double *med, size_t *n, long *rline)
{
	double rec[MAX_REPEATS];
	*n = durations(in, x, cand, c->wl, c->t->round, 0, rec, rline);
	if (*n == 0 && incumbent)
		*n = durations(in, x, cand, c->wl, c->t->round, 1, rec, rline);
	if (*n == 0)
		return 3;
	*med = stats_median(rec, *n);
	if (shown_is(sh, *med) || (incumbent && incumbent_earlier(in, x, c, cand, sh)))
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (shown_is(sh, rec[i]))
			return 1;
	return 2;
}

/* 1 when cand's records are the round-0 baseline's. */
static int base_id(const struct s4_input *in, const struct tix *x, const char *cand)
{
	const long *k = s4_map_get(&x->idpos, cand);
	return k && x->first[*k] >= 0 && s4_is_baseline(&in->recs->v[x->first[*k]]);
}

/* A row that names the incumbent without its id (`(=best)`, `当前最优`) or
 * as the round's baseline (`r6_baseline (=best)`): the current best of the
 * table's round is one of the candidates measured on c->wl before it (the
 * baseline among them). The best answer over them (0, 1, 2 of against; 3
 * none measured), their number in *ne and the fastest of them by the
 * median of its latest earlier round in *fast, *fmed, *fline. */
static int against_earlier(const struct s4_input *in, const struct tix *x, const struct cell_check *c,
			   const struct shown *sh, size_t *ne, const char **fast, double *fmed, long *fline)
{
	int best = 3;
	double rec[MAX_REPEATS];
	*ne = 0;
	*fast = NULL;
	for (size_t k = 0; k < x->nids && best > 0; k++) {
		long line;
		size_t n = durations(in, x, x->ids[k], c->wl, c->t->round - 1, 1, rec, &line);
		if (n == 0)
			continue;
		double m = stats_median(rec, n), med;
		(*ne)++;
		if (!*fast || m < *fmed) {
			*fast = x->ids[k];
			*fmed = m;
			*fline = line;
		}
		size_t nn;
		int a = against(in, x, c, x->ids[k], 1, sh, &med, &nn, &line);
		if (a < best)
			best = a;
	}
	return best;
}

static int check_cell(const struct s4_input *in, const struct tix *x, const struct cell_check *c, struct gate_findings *fs)
{
	struct shown sh;
	int dec;
	long rline = 0, fline = 0;
	size_t n = 0, ne = 0;
	double med = NAN, fmed = NAN;
	const char *fast = NULL;
	if (!cell_value(c->text, &sh.v, &dec))
		return 0;
	sh.half = 0.5 * pow(10, -dec);
	sh.muls[0] = c->mul ? c->mul : 1;
	sh.muls[1] = c->mul ? 0 : 1000;
	int k = c->cand ? against(in, x, c, c->cand, c->incumbent, &sh, &med, &n, &rline) : 3;
	if (k == 0)
		return 0;
	/* the incumbent named only by its mark, or as the round's baseline:
	 * whichever candidate was the current best then */
	int any = c->incumbent && (!c->cand || base_id(in, x, c->cand));
	int e = any ? against_earlier(in, x, c, &sh, &ne, &fast, &fmed, &fline) : 3;
	if (e == 0)
		return 0;
	const char *unit = c->mul == 1000 ? " ms" : c->mul == 1 ? " us" : "";
	if (k == 1)
		return gate_add(fs, "S4-COMPTABLE-RECON", GATE_WARNING, in->optlog_file, c->row->line,
				"round %ld's table shows %g for '%s' on '%s': one of its %zu measurements, not their median %g us (perf_records.jsonl line %ld)",
				c->t->round, sh.v, c->cand, c->wl, n, med, rline) ? -1 : 0;
	if (k == 2 && (!any || ne <= 1))
		return gate_add(fs, "S4-COMPTABLE-RECON", GATE_ERROR, in->optlog_file, c->row->line,
				"round %ld's table shows %g%s for '%s' on '%s', but the records give %g us (%s of %zu, perf_records.jsonl line %ld)",
				c->t->round, sh.v, unit, c->cand, c->wl, med, n > 1 ? "median" : "the one measurement", n,
				rline) ? -1 : 0;
	if (e == 3)
		return 0;
	if (e == 1)
		return gate_add(fs, "S4-COMPTABLE-RECON", GATE_WARNING, in->optlog_file, c->row->line,
				"round %ld's table shows %g for the current best ('%s') on '%s': one measurement of a candidate measured before round %ld, not its median",
				c->t->round, sh.v, c->row->cells[0], c->wl, c->t->round) ? -1 : 0;
	return gate_add(fs, "S4-COMPTABLE-RECON", GATE_ERROR, in->optlog_file, c->row->line,
			"round %ld's table shows %g%s for the current best ('%s') on '%s', but that is the median of none of the %zu candidate%s measured on it before round %ld (the fastest: '%s' %g us, perf_records.jsonl line %ld)",
			c->t->round, sh.v, unit, c->row->cells[0], c->wl, ne, ne == 1 ? "" : "s", c->t->round, fast, fmed,
			fline) ? -1 : 0;
}

static int check_row(const struct s4_input *in, const struct tix *x, const struct optlog_table *t,
		     const struct optlog_cell_row *h, const struct optlog_cell_row *row, const struct layout *L,
		     const char *cand, struct gate_findings *fs)
{
	struct cell_check c = { t, row, cand, NULL, marks_incumbent(row->cells[0]), NULL, 0 };
	if (L->dur_col > 0 && L->dur_col < row->ncells) {
		c.wl = L->wl_col > 0 && L->wl_col < row->ncells ? header_workload(in, x, row->cells[L->wl_col])
								 : L->only_wl;
		c.text = row->cells[L->dur_col];
		c.mul = L->dur_mul;
		return c.wl ? check_cell(in, x, &c, fs) : 0;
	}
	for (int k = 1; k < h->ncells && k < row->ncells; k++) {
		c.wl = header_workload(in, x, h->cells[k]);
		c.text = row->cells[k];
		if (c.wl && check_cell(in, x, &c, fs))
			return -1;
	}
	return 0;
}

/* A candidate experiment of round r (v2: phase candidate; v1: not the
 * baseline), NULL none; with cand, non-NULL when cand is one. */
static const char *round_candidate(const struct s4_input *in, const struct tix *x, long r, const char *cand)
{
	const long *k = cand ? s4_map_get(&x->idpos, cand) : NULL;
	if (cand && !k)
		return NULL;
	for (long i = k ? x->first[*k] : (long)x->from; i >= 0 && (size_t)i < in->recs->n;
	     i = k ? x->next[i] : i + 1) {
		const struct record *rec = &in->recs->v[i];
		int candidate = rec->phase ? strcmp(rec->phase, "candidate") == 0 : !s4_is_baseline(rec);
		if (rec->round == r && candidate)
			return rec->candidate_id;
	}
	return NULL;
}

/* Candidates as columns, workloads as rows (`| workload | r1a (us) |
 * r2a_deint (us) |`): each header cell naming a recorded candidate, each
 * row naming a recorded workload. Adds the columns naming a candidate of
 * round r to *aligned. */
static int check_transposed(const struct s4_input *in, const struct tix *x, const struct optlog_table *t,
			    const struct optlog_cell_row *h, long *aligned, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	for (int k = 1; k < h->ncells; k++) {
		const char *cand = row_candidate(in, x, h->cells[k]);
		if (!cand)
			continue;
		if (round_candidate(in, x, t->round, cand))
			(*aligned)++;
		for (long i = 1; i <= t->rows && (size_t)(t->cells_from + i) < lg->n_cell_rows; i++) {
			const struct optlog_cell_row *row = &lg->cell_rows[t->cells_from + i];
			const char *wl = row->ncells > k ? header_workload(in, x, row->cells[0]) : NULL;
			struct cell_check c = { t, row, cand, wl, marks_incumbent(h->cells[k]), NULL, unit_of_header(h->cells[k]) };
			if (!wl)
				continue;
			c.text = row->cells[k];
			if (check_cell(in, x, &c, fs))
				return -1;
		}
	}
	return 0;
}

static int check_table(const struct s4_input *in, const struct tix *x, const struct optlog_table *t, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const struct optlog_cell_row *h = &lg->cell_rows[t->cells_from];
	struct layout L;
	find_layout(in, x, h, &L);
	long aligned = 0; /* rows (or columns) naming a candidate of round r */
	if (check_transposed(in, x, t, h, &aligned, fs))
		return -1;
	for (long i = 1; i <= t->rows && (size_t)(t->cells_from + i) < lg->n_cell_rows; i++) {
		const struct optlog_cell_row *row = &lg->cell_rows[t->cells_from + i];
		const char *cand = row->ncells > 0 ? row_candidate(in, x, row->cells[0]) : NULL;
		if (!cand && !(row->ncells > 0 && names_incumbent(row->cells[0])))
			continue;
		if (cand && round_candidate(in, x, t->round, cand))
			aligned++;
		if (check_row(in, x, t, h, row, &L, cand, fs))
			return -1;
	}
	const char *one = aligned ? NULL : round_candidate(in, x, t->round, NULL);
	if (one)
		return gate_add(fs, "S4-COMPTABLE-RECON", GATE_WARNING, in->optlog_file, t->line,
				"round %ld's comparison table cannot be aligned with the records: no row names a candidate_id measured in round %ld (such as '%s'), so the candidates' numbers are not checked",
				t->round, t->round, one) ? -1 : 0;
	return 0;
}

int s4_rule_table_recon(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK || in->recs->n == 0)
		return 0;
	struct tix x;
	if (tix_build(in, s4_records_from(in), &x))
		return -1;
	long run = lg->runs > 1 ? lg->target_run : -1;
	int rc = 0;
	for (size_t i = 0; i < lg->n_tables && rc == 0; i++) {
		const struct optlog_table *t = &lg->tables[i];
		if (t->cells_from < 0 || t->round < 1 || !t->has_incumbent || t->rows == 0 || (run >= 0 && t->run != run))
			continue;
		rc = check_table(in, &x, t, fs);
	}
	tix_release(&x);
	return rc ? -1 : 0;
}
