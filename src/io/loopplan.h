/* loopplan.h: perf_opt/loop.json, the plan `tlperf loop` follows.
 *
 * Written by `tlperf loop init`, edited by hand, read by every other loop
 * command. Validation is strict: an unknown key, a wrong type, a command
 * template without its placeholder or a target for an unknown workload is
 * refused with the field named, before anything runs.
 *
 *   {
 *     "tlperf_loop": 1,
 *     "op": "demo_add",                    name of perf_opt/{op}.py
 *     "baseline": "demo_add.py",           the Stage 3 kernel (relative to the operator dir)
 *     "kernel_name": "demo_add*",          msprof --kernel-name pattern
 *     "contract": "v1",                    record contract: v1 or v2
 *     "workloads": [ { "id": "n4096", "dispatch": "add::vec", "required": true,
 *                      "target_us": 5.0 } ],          target_us optional
 *     "bench_cmd": "python3 bench.py --impl {impl} --workload {workload}",
 *     "l0_cmd": "python3 test_l0.py --impl {impl}",
 *     "noise": 0.03, "max_rounds": 10, "max_experiments": 30,
 *     "small_us": 20, "ab_threshold": 0.05,
 *     "launch_count": 15, "warm_up": 5,    one msprof measurement
 *     "tlab": { "protocol": "seq", "pairs": 3, "launch_count": 15, "warm_up": 5 },
 *                                      protocol seq (default) or ref; pairs is ref's
 *     "msprof": "msprof", "timeout_s": 900
 *   }
 *
 * Placeholders in bench_cmd/l0_cmd: {impl} (the kernel file), {workload}
 * (workload id), {dispatch} (dispatch path); each expands to ONE shell word
 * (single-quoted), so templates must not quote them. `{{` writes a literal
 * `{`. bench_cmd needs {impl}, and {workload} or {dispatch} when there are
 * several workloads; l0_cmd needs {impl} and runs once per branch, so it
 * may not use {workload} or {dispatch}.
 */
#ifndef TLPERF_LOOPPLAN_H
#define TLPERF_LOOPPLAN_H

/* A loop.json without "noise": 3%, the seeds' noise threshold; the loop
 * passes it to tlab (--noise), plateau and winner. */
#define LOOP_PLAN_NOISE_DEFAULT 0.03
#define LOOP_PLAN_NOISE_DEFAULT_TEXT "0.03"

#include <stddef.h>

struct loop_workload {
	char *id;          /* workload id (v1 workload, v2 workload_id); unique */
	char *dispatch;    /* dispatch path (v1 dispatch_path, v2 kernel_id) */
	int required;      /* a regression here blocks adoption */
	double target_us;  /* NAN when no target */
};

/* tlab's protocol in the loop's A/B arbitration (plan "tlab.protocol",
 * `tlperf loop --ab-protocol`). */
enum loop_ab_protocol {
	LOOP_AB_SEQ = 0,    /* "seq": the bound over every two-state shift */
	LOOP_AB_REF = 1,    /* "ref": ab_test.py's rule over tlab_pairs pairs */
	LOOP_AB_FAST = 2    /* "fast", the default: tlab's rule for the runs users have */
};

/* "seq", "ref", "fast". */
const char *loop_ab_protocol_name(int proto);

/* The protocol named `name`, or -1. */
int loop_ab_protocol_parse(const char *name);

struct loop_plan {
	char *op;              /* operator name: perf_opt/{op}.py */
	char *baseline;        /* baseline kernel file, relative to the operator dir */
	char *kernel_name;     /* msprof --kernel-name pattern */
	int contract;          /* 1 or 2 */
	struct loop_workload *workloads;
	size_t nworkloads;
	char *bench_cmd;       /* template, see above */
	char *l0_cmd;          /* template, see above */
	double noise;          /* tie/regression margin, fraction (LOOP_PLAN_NOISE_DEFAULT) */
	long max_rounds;       /* rounds budget (10) */
	long max_experiments;  /* branches budget (30) */
	double small_us;       /* small-kernel bound for A/B (20 us) */
	double ab_threshold;   /* gains under this go to tlab (0.05) */
	long launch_count;     /* msprof launches per measurement (15) */
	long warm_up;          /* msprof warm-up launches (5) */
	int tlab_protocol;     /* enum loop_ab_protocol: tlab --protocol (fast) */
	long tlab_pairs;       /* tlab --pairs under ref (3); seq picks its own */
	long tlab_launch_count;/* tlab --launch-count (15) */
	long tlab_warm_up;     /* tlab --warm-up (5) */
	char *msprof;          /* msprof program ("msprof": looked up on PATH) */
	long timeout_s;        /* per command (900) */
};

/* Sets the documented defaults; strings NULL, no workloads. */
void loop_plan_init(struct loop_plan *p);
void loop_plan_release(struct loop_plan *p);

/* Adds a workload (copies the strings). Returns 0, or -1 on allocation
 * failure. */
int loop_plan_add_workload(struct loop_plan *p, const char *id, const char *dispatch,
			   int required, double target_us);

/* Finds a workload by id; NULL when unknown. */
const struct loop_workload *loop_plan_workload(const struct loop_plan *p, const char *id);

/* Checks the plan's own consistency (placeholders, ranges, unique ids,
 * names usable in paths). Returns 0, or -1 with a message naming the field
 * in err ("field 'bench_cmd': missing placeholder {impl}"). */
int loop_plan_check(const struct loop_plan *p, char *err, size_t errlen);

/* Parses loop.json text. Returns 0 with *p filled (caller releases), or -1
 * with a message naming the field in err; *p is then released. */
int loop_plan_parse(const char *text, size_t len, struct loop_plan *p, char *err,
		    size_t errlen);

/* Reads and parses path. Returns 0, or -1 with a message in err (which
 * names the file for I/O errors). */
int loop_plan_load(const char *path, struct loop_plan *p, char *err, size_t errlen);

/* Serialises the plan (pretty JSON, trailing newline). Returns malloc'd
 * text, caller frees; NULL on allocation failure. */
char *loop_plan_to_json(const struct loop_plan *p);

/* Expands a template: {impl}, {workload}, {dispatch} become single-quoted
 * shell words of the given values (NULL value: the placeholder is an
 * error), `{{` becomes `{`. Returns malloc'd text, or NULL with a message
 * in err. */
char *loop_plan_expand(const char *tmpl, const char *impl, const char *workload,
		       const char *dispatch, char *err, size_t errlen);

/* A name made safe for a path component: bytes outside [A-Za-z0-9._-]
 * become '_'. Writes at most outlen-1 bytes; returns out. */
char *loop_path_name(const char *name, char *out, size_t outlen);

#endif
