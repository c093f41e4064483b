/* rules_doc.h: the gate rule table (gates/rules.h) as text for
 * `tlperf explain RULE` and as Markdown for docs/rules.md (which `make docs`
 * writes from it, so the two never disagree). */
#ifndef TLPERF_REPORT_RULES_DOC_H
#define TLPERF_REPORT_RULES_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "gates/rules.h"

/* The https base URL of the published documentation (README.md and
 * rules.md under it): $TLPERF_DOCS_URL when set (set and empty: none),
 * else the build's (`make DOCS_URL=https://...`, compiled in as
 * TLPERF_DOCS_URL), else none. A base that does not start with https://
 * is not used (one warning says so): a link that cannot be followed from a
 * code-scanning page is worse than none. Trailing slashes are dropped.
 * Returns a static string, NULL when there is no base. */
const char *report_docs_url(void);

/* Writes the anchor of rule id in docs/rules.md (its heading, lowercased:
 * "s4-perf-records-recon") into buf (always terminated). */
void report_rule_anchor(const char *id, char *buf, size_t len);

/* Writes the absolute URI of rule id's section of rules.md under
 * report_docs_url() into buf and returns 0; returns -1 (buf "") when there
 * is no documentation base: the caller leaves the link out. */
int report_rule_help_uri(const char *id, char *buf, size_t len);

/* One rule for a terminal: id and summary, severities, then why, what
 * triggers it, how to fix it and an example, wrapped to 78 columns.
 * Returns 0, or -1 on a write error. */
int report_rule_text(FILE *f, const struct gate_rule_info *r);

/* The whole of docs/rules.md: an index table, then a section per rule.
 * Returns 0, or -1 on a write error. */
int report_rules_markdown(FILE *f);

/* One line per rule: "ID  default/strict  summary". Returns 0 or -1. */
int report_rules_list(FILE *f);

#endif
