/* s4_layout.c: S4-LAYOUT, files that belong in logs/ and profiles that
 * records name but that do not exist; TLGATE-PATH, paths the gate refused
 * to open (s4.h). */
#include "gates/s4.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

int s4_rule_layout(const struct s4_input *in, struct gate_findings *fs)
{
	static const char *const bad[] = { "op*.log", "probe*.log", "final*.log", "debug_log.md", NULL };
	for (size_t i = 0; i < in->n_top_files; i++) {
		const char *name = in->top_files[i];
		for (int k = 0; bad[k]; k++)
			if (fnmatch(bad[k], name, 0) == 0) {
				if (gate_add(fs, "S4-LAYOUT", GATE_WARNING, in->dir, 0,
					     "'%s' must not sit at the top of perf_opt/ (experiment output goes to logs/)", name))
					return -1;
				break;
			}
	}
	if (in->n_missing_paths > 0) {
		const struct s4_missing_path *m = &in->missing_paths[0];
		if (gate_add(fs, "S4-LAYOUT", GATE_WARNING, in->records_file, m->line,
			     "msprof_raw_path '%s' does not exist%s", m->path,
			     in->n_missing_paths > 1 ? " (other records name missing profiles too)" : ""))
			return -1;
	}
	for (size_t i = 0; i < in->n_refused; i++) {
		const struct s4_refused *r = &in->refused[i];
		if (gate_add(fs, "TLGATE-PATH", GATE_ERROR, r->file, r->line, "%s %s", r->what, r->why))
			return -1;
	}
	if (in->n_refused_more &&
	    gate_add(fs, "TLGATE-PATH", GATE_ERROR, in->records_file, 0,
		     "%zu more paths not read (outside the checked tree, not regular files or too large)",
		     in->n_refused_more))
		return -1;
	return 0;
}
