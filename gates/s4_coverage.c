/* s4_coverage.c: S4-PERF-RECORDS-COVERAGE and S4-WORKLOAD-INVENTORY (v2). */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "model/inventory.h"
#include "stats/stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INV "S4-WORKLOAD-INVENTORY"
#define COV "S4-PERF-RECORDS-COVERAGE"

/* "smoke" as a token of s (not inside a longer word). */
static int smoke_token(const char *s)
{
	for (const char *p = s; p && (p = strstr(p, "smoke")) != NULL; p += 5) {
		int before = p > s && isalnum((unsigned char)p[-1]);
		int after = isalnum((unsigned char)p[5]);
		if (!before && !after)
			return 1;
	}
	for (const char *p = s; p && *p; p++)
		if ((p[0] == 'S' || p[0] == 's') && strncasecmp(p, "smoke", 5) == 0) {
			int before = p > s && isalnum((unsigned char)p[-1]);
			if (!before && !isalnum((unsigned char)p[5]))
				return 1;
		}
	return 0;
}

/* The required fields item lacks, "a, b, c", into buf. */
static void missing_fields(const struct inventory_item *it, char *buf, size_t len)
{
	size_t ml = 0;
	buf[0] = '\0';
	for (unsigned bit = 1; bit & INV_F_REQUIRED; bit <<= 1)
		if (!(it->present & bit) && ml < len - 32)
			ml += (size_t)snprintf(buf + ml, len - ml, "%s%s", ml ? ", " : "",
					       inventory_field_name(bit));
}

static int known_kind(const char *kind)
{
	return kind && (!strcmp(kind, "tune") || !strcmp(kind, "smoke") || !strcmp(kind, "skipped"));
}

/* 1 when (kernel_id, workload_id) of it is invalid or was seen before. */
static int bad_or_repeated_id(const struct inventory_item *it, struct s4_map *seen, int *oom)
{
	const char *kid = it->kernel_id, *wid = it->workload_id;
	if (!kid || !wid || !*kid || !*wid)
		return 1;
	/* seen holds every id so far: linear time, not quadratic */
	int created = 0;
	char *key = s4_key3(kid, wid, NULL);
	long *slot = key ? s4_map_put(seen, key, 0, &created) : NULL;
	free(key);
	if (!slot)
		*oom = 1;
	return !created;
}

/* The kind an item's marks and label give it. */
static const char *implied_kind(const struct inventory_item *it)
{
	if (inventory_has_mark(it, "skip"))
		return "skipped";
	if (inventory_has_mark(it, "smoke") || smoke_token(it->workload_id) || smoke_token(it->label))
		return "smoke";
	return "tune";
}

static int finished_status(const char *status)
{
	return status && (!strcmp(status, "winner_merged") || !strcmp(status, "no_gain") ||
			  !strcmp(status, "merge_blocked"));
}

/* What a well-formed item declares must agree with itself. */
static int item_consistency(const char *f, const struct inventory_item *it,
			    struct gate_findings *fs)
{
	const char *kid = it->kernel_id, *wid = it->workload_id, *kind = it->kind;
	const char *want = implied_kind(it), *status = it->tuning_status;
	int has_reason = it->reason && *it->reason;
	if (strcmp(kind, want) != 0)
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"'%s' / '%s' is declared %s but its marks and label make it %s", kid,
				wid, kind, want);
	if (!strcmp(kind, "tune") && !finished_status(status))
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"tune workload '%s' / '%s' has no finished tuning_status (winner_merged, no_gain, merge_blocked)",
				kid, wid);
	if (status && (!strcmp(status, "no_gain") || !strcmp(status, "merge_blocked")) && !has_reason)
		return gate_add(fs, INV, GATE_ERROR, f, 0, "'%s' / '%s' is %s without a reason", kid,
				wid, status);
	if (!strcmp(kind, "smoke") && !it->precision_pass)
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"smoke workload '%s' / '%s' has no final precision_pass: true", kid, wid);
	if (!strcmp(kind, "smoke") && inventory_has_mark(it, "full") && !has_reason)
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"smoke workload '%s' / '%s' carries the full mark and needs a reason",
				kid, wid);
	if (!strcmp(kind, "skipped") && !has_reason)
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"skipped workload '%s' / '%s' needs a reason", kid, wid);
	return 0;
}

/* One item: an object, complete, with a unique id, typed, consistent. */
static int check_item(const char *f, const struct inventory_item *it, struct s4_map *seen,
		      struct gate_findings *fs)
{
	char missing[256];
	int oom = 0;
	if (!it->is_object)
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] is not an object",
				it->index);
	missing_fields(it, missing, sizeof(missing));
	if (missing[0])
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] lacks %s", it->index,
				missing);
	if (bad_or_repeated_id(it, seen, &oom))
		return oom ? -1
			   : gate_add(fs, INV, GATE_ERROR, f, 0,
				      "workloads[%d] has an invalid or repeated kernel_id/workload_id",
				      it->index);
	if ((it->typed & INV_F_REQUIRED) != INV_F_REQUIRED || !known_kind(it->kind))
		return gate_add(fs, INV, GATE_ERROR, f, 0,
				"workloads[%d] ('%s' / '%s') has a field of the wrong type or a kind other than tune, smoke, skipped",
				it->index, it->kernel_id, it->workload_id);
	return item_consistency(f, it, fs);
}

static int inventory_items(const struct s4_input *in, struct gate_findings *fs)
{
	struct s4_map seen;
	int rc = 0;
	s4_map_init(&seen);
	for (size_t i = 0; i < in->inventory->n && rc == 0; i++)
		rc = check_item(in->inventory_file, &in->inventory->v[i], &seen, fs);
	s4_map_release(&seen);
	return rc;
}

/* Bits kept per tune (kernel_id, workload_id) while the records stream by. */
enum { TUNE = 1, SEEN_BASELINE = 2, SEEN_FINAL = 4 };

/* 1 when inventory item it is a tune workload with both ids. */
static int is_tune(const struct inventory_item *it)
{
	return it->kind && strcmp(it->kind, "tune") == 0 && it->kernel_id && it->workload_id;
}

/* The tune bits of item it in tune, NULL when absent or out of memory. */
static long *tune_bits(struct s4_map *tune, const struct inventory_item *it)
{
	char *key = s4_key3(it->kernel_id, it->workload_id, NULL);
	long *bits = key ? s4_map_get(tune, key) : NULL;
	free(key);
	return bits;
}

/* Puts every tune workload of the inventory into tune; 0, -1 on
 * allocation failure. */
static int tune_keys(const struct s4_input *in, struct s4_map *tune)
{
	const struct inventory_item *items = in->inventory->v;
	for (size_t k = 0; k < in->inventory->n; k++) {
		if (!is_tune(&items[k]))
			continue;
		char *key = s4_key3(items[k].kernel_id, items[k].workload_id, NULL);
		int rc = !key || !s4_map_put(tune, key, TUNE, NULL) ? -1 : 0;
		free(key);
		if (rc)
			return -1;
	}
	return 0;
}

/* Every record is for a tune workload; marks the baseline and final
 * records seen. */
static int mark_records(const struct s4_input *in, struct s4_map *tune, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		char *key = s4_key3(r->dispatch, r->workload, NULL);
		long *bits = key ? s4_map_get(tune, key) : NULL;
		free(key);
		if (!key)
			return -1;
		if (!bits) {
			if (gate_add(fs, COV, GATE_ERROR, in->records_file, r->line,
				     "record for '%s' / '%s', which is not a tune workload of the inventory",
				     r->dispatch, r->workload))
				return -1;
		} else if (r->phase) {
			*bits |= (strcmp(r->phase, "baseline") == 0 ? SEEN_BASELINE : 0) |
				 (strcmp(r->phase, "final") == 0 ? SEEN_FINAL : 0);
		}
	}
	return 0;
}

/* Every tune workload has a baseline and a final record. */
static int report_unrecorded(const struct s4_input *in, struct s4_map *tune, struct gate_findings *fs)
{
	const struct inventory_item *items = in->inventory->v;
	for (size_t k = 0; k < in->inventory->n; k++) {
		if (!is_tune(&items[k]))
			continue;
		long *bits = tune_bits(tune, &items[k]);
		if (!bits)
			return -1;
		int base = (*bits & SEEN_BASELINE) != 0, fin = (*bits & SEEN_FINAL) != 0;
		if ((!base || !fin) &&
		    gate_add(fs, COV, GATE_ERROR, in->records_file, 0, "tune workload '%s' / '%s' has no %s record",
			     items[k].kernel_id, items[k].workload_id,
			     !base && !fin ? "baseline or final" : !base ? "baseline" : "final"))
			return -1;
	}
	return 0;
}

/* Every record is for a tune workload, and every tune workload has a
 * baseline and a final record. One pass over the records with the tune
 * keys in a hash map: linear in records + items. */
static int tune_coverage(const struct s4_input *in, struct gate_findings *fs)
{
	struct s4_map tune;
	s4_map_init(&tune);
	int rc = tune_keys(in, &tune);
	if (rc == 0)
		rc = mark_records(in, &tune, fs);
	if (rc == 0)
		rc = report_unrecorded(in, &tune, fs);
	s4_map_release(&tune);
	return rc;
}

int s4_rule_coverage(const struct s4_input *in, struct gate_findings *fs)
{
	if (in->contract != RECORDS_V2)
		return 0;
	const char *f = in->inventory_file;
	switch (in->inventory_state) {
	case S4_FILE_MISSING:
		if (in->optlog_state == S4_FILE_OK && in->log->cite_inventory_line)
			return gate_add(fs, INV, GATE_ERROR, in->optlog_file, in->log->cite_inventory_line,
					"workload_inventory.json is missing, but the log cites it here (contract v2)");
		if (in->optlog_state == S4_FILE_OK && in->log->final_table_line)
			return gate_add(fs, INV, GATE_ERROR, in->optlog_file, in->log->final_table_line,
					"workload_inventory.json is missing, but the log writes the v2 Final table here (contract v2)");
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json is missing (v2 records need it)");
	case S4_FILE_EMPTY:
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json is empty");
	case S4_FILE_UNREADABLE:
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json cannot be read%s%s",
				in->inventory_error ? ": " : "", in->inventory_error ? in->inventory_error : "");
	case S4_FILE_OK:
		break;
	}
	if (!in->inventory || !in->inventory->has_workloads)
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json must be an object with a \"workloads\" array");
	int rc = inventory_items(in, fs);
	if (rc == 0)
		rc = tune_coverage(in, fs);
	return rc ? -1 : 0;
}

/* ---- v1: the winner's workloads are all claimed (S4-PERF-RECORDS-COVERAGE) ---- */

/* The interned candidate_id (of records from index from) of the
 * winner: the one the summary's best names, else the one every
 * reconciled claim names; NULL when neither is known. */
static const char *winner_id(const struct s4_input *in, size_t from, const struct s4_recon *rc)
{
	const struct records *rs = in->recs;
	const char *best = s4_best_candidate(in, from), *common = s4_common_winner(rc);
	if (best)
		return best;
	for (size_t i = from; common && i < rs->n; i++)
		if (strcmp(rs->v[i].candidate_id, common) == 0)
			return rs->v[i].candidate_id;
	return NULL;
}

/* 1 when the last Final Summary claims something for (dispatch, workload):
 * a reconciled row, or a claim labelled with the workload. */
static int claimed(const struct s4_input *in, const struct s4_recon *rc, const struct record *r)
{
	for (size_t k = 0; k < rc->n; k++)
		if (rc->v[k].claim_line && strcmp(rc->v[k].dispatch, r->dispatch) == 0 &&
		    strcmp(rc->v[k].workload, r->workload) == 0)
			return 1;
	for (size_t c = 0; c < in->log->n_claims; c++)
		if (in->log->claims[c].workload && s4_same_workload(in->log->claims[c].workload, r->workload))
			return 1;
	return 0;
}

/* The round-0 baseline of r's key (records from index from), NULL none. */
static const struct record *baseline_of(const struct s4_input *in, size_t from, const struct record *r)
{
	for (size_t i = from; i < in->recs->n; i++) {
		const struct record *b = &in->recs->v[i];
		if (b->dispatch == r->dispatch && b->workload == r->workload && b->round == 0 &&
		    s4_is_baseline(b) && record_valid(b))
			return b;
	}
	return NULL;
}

/* One key the winner ran on and the summary does not claim. */
static int unclaimed_key(const struct s4_input *in, size_t from, const char *win, const struct record *r,
			 struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	double noise = s4_noise(lg);
	struct s4_repeats rp;
	if (s4_repeats_of(in, from, win, r->dispatch, r->workload, &rp))
		return -1;
	const struct record *b = baseline_of(in, from, r);
	double w = rp.median;
	size_t n = rp.n;
	s4_repeats_release(&rp);
	if (b && w > b->duration_us * (1 + noise))
		return gate_add(fs, COV, GATE_ERROR, in->optlog_file, lg->summary_line,
				"the last Final Summary claims nothing for '%s' / '%s', where the winner '%s' is slower than the baseline: %g us (%s%zu measurement%s, perf_records.jsonl line %ld) against %g us (+%.1f%% > noise threshold %g%%): a regression the summary leaves out",
				r->dispatch, r->workload, win, w, n > 1 ? "median of " : "", n, n == 1 ? "" : "s",
				r->line, b->duration_us, 100 * (w / b->duration_us - 1), noise * 100);
	if (b)
		return gate_add(fs, COV, GATE_WARNING, in->optlog_file, lg->summary_line,
				"the last Final Summary claims nothing for '%s' / '%s', which the winner '%s' was measured on (%g us, perf_records.jsonl line %ld; baseline %g us, within the noise threshold %g%% or faster): every workload the winner ran belongs in it",
				r->dispatch, r->workload, win, w, r->line, b->duration_us, noise * 100);
	return gate_add(fs, COV, GATE_WARNING, in->optlog_file, lg->summary_line,
			"the last Final Summary claims nothing for '%s' / '%s', which the winner '%s' was measured on (%g us, perf_records.jsonl line %ld; no round-0 baseline to tell a regression): every workload the winner ran belongs in it",
			r->dispatch, r->workload, win, w, r->line);
}

int s4_rule_claim_coverage(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const struct records *rs = in->recs;
	if (in->contract == RECORDS_V2 || in->optlog_state != S4_FILE_OK || in->records_state != S4_FILE_OK ||
	    !lg->summary_line || lg->nothing_adopted || lg->n_claims == 0)
		return 0;
	size_t from = s4_records_from(in);
	const char *win = winner_id(in, from, rc);
	if (!win)
		return 0;
	struct s4_idmap seen; /* (dispatch, workload) done */
	int err = 0;
	s4_idmap_init(&seen);
	for (size_t i = from; i < rs->n && !err; i++) {
		const struct record *r = &rs->v[i];
		int created;
		if (r->candidate_id != win || !record_valid(r) || s4_is_baseline(r))
			continue;
		if (!s4_idmap_put(&seen, r->dispatch, r->workload, NULL, 0, 0, &created)) {
			err = -1;
			break;
		}
		if (created && !claimed(in, rc, r))
			err = unclaimed_key(in, from, win, r, fs);
	}
	s4_idmap_release(&seen);
	return err ? -1 : 0;
}
