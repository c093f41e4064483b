/* s4_run.c: runs every gate 4 rule over one perf_opt/ directory's model,
 * in the order their findings are reported (s4.h). Kept apart from the
 * rules' shared helpers (s4_util.c) so the helpers never reach back into
 * the rules that use them. */
#include "gates/s4.h"

#include <stddef.h>

int s4_run_all(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc)
{
	struct s4_recon local;
	struct s4_recon *r = rc ? rc : &local;
	int err = 0;
	if (!rc)
		s4_recon_init(&local);
	err |= s4_rule_optlog(in, fs);
	err |= s4_rule_records(in, fs);
	err |= s4_rule_order(in, fs);
	err |= s4_rule_append(in, fs);
	err |= s4_rule_time(in, fs);
	err |= s4_rule_comptable(in, fs);
	err |= s4_rule_unseen(in, fs);
	err |= s4_rule_table_recon(in, fs);
	err |= s4_rule_recon(in, fs, r);
	err |= s4_rule_coverage(in, fs);
	err |= s4_rule_claim_coverage(in, r, fs);
	err |= s4_rule_feedback(in, fs);
	err |= s4_rule_speedup(in, r, fs);
	err |= s4_rule_ratios(in, r, fs);
	err |= s4_rule_stop(in, fs);
	err |= s4_rule_restated(in, fs);
	err |= s4_rule_log_finals(in, fs);
	err |= s4_rule_ab(in, fs);
	err |= s4_rule_layout(in, fs);
	if (!rc)
		s4_recon_release(&local);
	return err ? -1 : 0;
}
