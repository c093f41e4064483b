/* optlog.h: what the gate needs from a perf_opt/opt_log.md, read as GitHub
 * renders it (io/mdread.h: cmark-gfm, line by line with source lines; the
 * file is read whole, up to 32 MiB, a line over 1 MiB being a problem, not
 * a crash).
 *
 * What a reviewer sees is what is read: headings (ATX and setext), prose and
 * list items, tables as rendered (their cells kept, cell_rows), their
 * captions (the last shown line of prose or heading above the header
 * row, with no table or code between: a bold line, a list item, a heading
 * or a sentence). Code is shown but not read for claims (its claim-like
 * figures in the Final Summary are notes; ```json blocks are kept as
 * codes). Hidden text (HTML comments, struck text, image alt text,
 * elements GitHub does not render) is never read, but for the gate's own
 * `<!-- tlgate-disable RULE -- reason -->` suppressions; claim-like hidden
 * text is a note.
 *
 * Headings may be numbered (`## 8. Final Summary`, `## 8、…`, `## 一、…`,
 * `## （八）…`, `## 8.1 …`): the number is skipped before a heading is
 * recognised.
 *
 * Rounds: a heading that starts with `Iteration N`, `Iter N`, `Round N`,
 * `RN`, `迭代 N` or `第 N 轮` opens the section of round N. A heading is a
 * final confirmation section when it says final (final, 最终, 终测) and
 * confirmation (confirm, 验证, 确认, 复采, 复测, 全配置, 全组合, ...):
 * `## Final Confirmation（round 5）`, `## Round 9（final 全配置复采）`,
 * `### Final 全组合验证`; its round is its leading number, else the
 * parenthetical one, else none. A table belongs to the round named in its
 * caption (`**候选 vs current best 对比表（round 2）**`, `（R7，…）`), else to
 * the innermost round section around it.
 *
 * `Round N` as a run label: when a heading reads `Iteration 1 (Round 2)`
 * (the two numbers differ), `Round` names a conductor run in that log, so
 * `Round N` headings and captions are not round sections (and H1 `Round N`
 * headings never are when the log has Iteration headings).
 *
 * Runs: a log may hold several appended tuning runs. A round heading whose
 * number is not above the current run's highest round, after a Final
 * Summary, starts a new run. Tables and round sections carry their run;
 * target_run is the run holding the last Final Summary.
 *
 * Claims are read from the LAST `Final Summary` section and from the
 * `Final Performance Test Data` section before it (a summary line under
 * the final table: `几何平均提升（5 workload）= 11.5×`); earlier Final
 * Summary headings are listed as superseded. A final conclusion heading
 * (`最终结论`, `终态`, `Final conclusion`, numbered `P.7 …` as well) is a
 * Final Summary: the latest word wins.
 */
#ifndef TLPERF_OPTLOG_H
#define TLPERF_OPTLOG_H

/* The noise threshold an opt_log is held to when it states none: 3%, the
 * seeds' "improving by more than the noise threshold (3%)". */
#define OPTLOG_NOISE_DEFAULT_PCT 3.0

#include <stddef.h>

/* One Markdown table. */
struct optlog_table {
	long line;          /* line of its header row */
	long round;         /* round it counts for: caption's, else the section's; -1 none */
	long caption_line;  /* 0 when there is no caption */
	int has_duration;   /* a header cell names a duration (Task Duration, duration, _us, (us), µs) */
	int cap_duration;   /* the caption or the section's prose names one (the unit is
			     * stated there, the workloads being the columns) */
	int has_incumbent;  /* current best / current_best / (best) / incumbent ... in caption, header or first column */
	long rows;          /* data rows */
	int has_numeric_row; /* 1 when a data row has a number in a cell after the
			      * first (rows after that one are not read for it) */
	long run;           /* run it belongs to (0-based) */
	int confirm;        /* it sits in a final confirmation section */
	/* parse-time inputs of round/run (optlog.c resolves them at the end) */
	long cells_from;    /* its header in cell_rows[] (then its data rows), -1
			     * when the cells were not kept (OPTLOG_MAX_CELL_BYTES) */
	long sect_any;      /* innermost round-section entry, -1 */
	long sect_norun;    /* innermost entry not led by the word Round, -1 */
	long cap_round;     /* round named in the caption, -1 */
	int cap_round_word; /* 1 when cap_round was read from the word Round / RN */
};

/* The rendered cells of one table row (the header row first, then the data
 * rows, consecutively per table; optlog_table.cells_from points at the
 * header). Kept up to OPTLOG_MAX_CELL_BYTES of text per log. */
struct optlog_cell_row {
	long line;
	int ncells;         /* at most 64 */
	char **cells;       /* malloc'd array of malloc'd strings */
};
#define OPTLOG_MAX_CELL_BYTES (8u << 20)

/* A round section heading (or a final confirmation heading). */
struct optlog_round {
	long round;         /* N; -1 for an unnumbered confirmation section */
	long line;          /* heading line */
	int remeasure;      /* its section says it re-measures (复测, re-measure, ...) */
	int level;          /* heading level */
	int round_word;     /* 1 when the heading is led by Round / RN */
	long paren_round;   /* a second round number in the heading, -1 */
	int paren_word;     /* 1 when that number follows Round / RN */
	int confirm;        /* a final confirmation section */
	int numbered;       /* the heading states its round (else it is the enclosing one's) */
	int run_label;      /* the heading names a run, not a round (not a section) */
	long run;           /* run (0-based) */
	long parent;        /* enclosing round entry, -1 */
};

/* A claimed final result in the last Final Summary:
 * `final_latency: N us` (optionally `- WORKLOAD: final_latency: N us`, bold,
 * `：`, `us`/`µs`), or `- WORKLOAD: BASE → FINAL us`. */
struct optlog_claim {
	long line;
	int soft;           /* 1: `- LABEL: N us` list item, a claim only when
			     * LABEL names a recorded workload; 2: a row of a
			     * Final Summary table under its final column, the
			     * same with records, and a claim of the log without
			     * them (the header says it is the final) */
	char *workload;     /* label on the line, NULL when none; malloc'd */
	double final_us;    /* claimed final latency */
	double baseline_us; /* claimed baseline on the same line, NAN when none */
	double final_mul;   /* us per unit of the final as written (1000 for ms), 1 for us */
	double base_mul;    /* the same for the baseline */
	int spelled;        /* the key spelled out (`Final latency (W): 70 us`): a
			     * claim only in a summary with no claim under the
			     * contract's `final_latency` key (else prose) */
};

/* A geometric mean claimed on a line: a speedup (`几何平均 2.14x`) or a
 * change in % (`geomean improvement: 60%`, `几何平均时延下降 53.3%`). */
struct optlog_number {
	long line;
	double value;
	long scope;         /* geomean over N workloads as stated (`（3 真实 workload）`), -1 all */
	int percent;        /* 1: a change in % (value as written, signed), 0: a speedup factor */
	int decimals;       /* digits after the point, for the tolerance */
};

/* A row of the log's last table of measured results that shows a
 * baseline column and a final column (`| workload | baseline_us | final_us
 * |`, `| workload | incumbent (R1 final) | final (v3) | 提升 |`): the
 * figures the log's claims summarise. A cell is read from its leading
 * number (`78.30（5 复测中位; band 75.3-78.9）` is 78.30). */
struct optlog_fig {
	long line;
	char *label;        /* first cell, a trailing parenthetical cut; malloc'd */
	double base_us;     /* NAN when the cell holds no number */
	double final_us;    /* NAN when the cell holds no number */
};

/* A speedup or a change in % claimed in the last Final Summary, for one
 * workload (on its final_latency or `B → F` line) or overall (`总提升:
 * 2.72x ~ 3.13x`, `overall: 20.0%`, `speedup: 2.5×`). Geometric means
 * are struct optlog_number. */
enum optlog_ratio_kind {
	OPTLOG_RATIO_SPEEDUP = 0, /* `2.5x`, `2.5×`, `2.5 倍`: baseline / final */
	OPTLOG_RATIO_PERCENT = 1  /* `-43.1%`, `+650%`: a change in time, or in speed */
};
struct optlog_ratio {
	long line;
	enum optlog_ratio_kind kind;
	char *workload;     /* the workload's label, NULL overall; malloc'd */
	double value;       /* as written (signed for %) */
	double hi;          /* a range's other end (`2.72x ~ 3.13x`), NAN none */
	int decimals;       /* digits after the point, for the tolerance */
	int prose;          /* read from prose (no claim key: `now 2.5x faster`) or
			     * beyond the first figure of its kind on a claim line:
			     * one the records do not support is a warning, never an error */
	char *quote;        /* the line, at most 200 bytes; malloc'd */
};

/* A row of the `Final Performance Test Data` table (v2). */
struct optlog_final_row {
	long line;
	char *kernel_id;          /* malloc'd, never NULL */
	char *workload_id;        /* malloc'd, never NULL */
	char *final_candidate_id; /* malloc'd, never NULL */
	double baseline_us;       /* NAN when the cell is not a number */
	double final_us;          /* NAN when the cell is not a number */
};

/* A fenced code block whose info string is `json` (```json): a pasted
 * tlab / ab_test.py summary (S4-AB reads them). Body text only, at most
 * OPTLOG_CODE_MAX bytes kept per block and OPTLOG_CODES_TOTAL for all
 * (beyond: truncated set); fences of another language are not kept. */
struct optlog_code {
	long line;          /* line of the opening fence */
	long round;         /* round of the section it sits in (as for a table
			     * without a caption), -1 none */
	long run;           /* run it belongs to (0-based) */
	char *text;         /* the lines between the fences, '\n'-joined; malloc'd */
	int truncated;      /* the block was longer than OPTLOG_CODE_MAX */
	long sect;          /* parse-time: innermost round-section entry, -1 */
};

#define OPTLOG_CODE_MAX (256 * 1024)
/* Text of all blocks kept together, at most (bounded memory): a block
 * beyond it is kept with its line and round, empty and truncated. */
#define OPTLOG_CODES_TOTAL (4 * 1024 * 1024)

/* `<!-- tlgate-disable RULE -- reason -->` */
struct optlog_suppression {
	long line;
	char *rule;         /* malloc'd; NULL when malformed */
	char *reason;       /* malloc'd; NULL when missing */
	int used;           /* set by whoever applies it */
};

enum optlog_stop {
	OPTLOG_STOP_NONE = 0,   /* no stop reason stated */
	OPTLOG_STOP_PLATEAU,
	OPTLOG_STOP_BUDGET,     /* budget_exhausted */
	OPTLOG_STOP_SUCCESS,
	OPTLOG_STOP_BLOCKED,
	OPTLOG_STOP_USER,       /* user_stop */
	OPTLOG_STOP_OTHER       /* a stop-reason line with none of the above */
};

/* What the reader noted about a line instead of (or beside) reading it:
 * text that reads as a claim but is hidden from a reader of the rendered
 * page (an HTML comment, struck through, an image's alternative text, an
 * element GitHub does not render), shown as code in the last Final
 * Summary, or a claim line with more figures than can be attributed to its
 * key (the figure read is in value/unit). */
enum optlog_note_kind {
	OPTLOG_NOTE_HIDDEN,
	OPTLOG_NOTE_CODE,
	OPTLOG_NOTE_AMBIGUOUS,
	OPTLOG_NOTE_PROSE   /* a time figure next to a claim word in the last
			     * Final Summary's prose (`latency is now 32 us`), not
			     * a `final_latency:` claim: the gate warns when no
			     * record of the winner or the baseline shows it */
};
struct optlog_note {
	long line;
	enum optlog_note_kind kind;
	const char *why;    /* "comment", "struck", "image-alt", "unrendered", "code",
			     * "ambiguous", "prose" (static) */
	char *quote;        /* the text, at most 200 bytes; malloc'd */
	double value;       /* AMBIGUOUS, PROSE: the figure read, in `unit`; NAN otherwise */
	double value_us;    /* PROSE: the same figure in microseconds; NAN otherwise */
	const char *unit;   /* static, NULL otherwise */
};

/* The seed's name of a stop reason ("plateau", "budget_exhausted",
 * "success", "blocked", "user_stop"; "other" for OPTLOG_STOP_OTHER); NULL
 * for OPTLOG_STOP_NONE. The one table of these names. */
const char *optlog_stop_name(enum optlog_stop s);

/* Bad input met while reading (invalid UTF-8, NUL, long line...). */
struct optlog_problem {
	long line;
	char *message;      /* malloc'd */
};

#define OPTLOG_VEC(T, name) T *name; size_t n_##name, cap_##name

struct optlog {
	long lines;                 /* lines read */
	unsigned long long bytes;   /* bytes read */
	int blank;                  /* 1 when the file holds only whitespace */
	int has_crlf, has_bom;      /* seen (reported as problems too) */
	long retrospective_line;    /* first `Skill Retrospective` heading, 0 none */

	OPTLOG_VEC(struct optlog_table, tables);
	OPTLOG_VEC(struct optlog_round, rounds);
	OPTLOG_VEC(struct optlog_cell_row, cell_rows); /* see struct optlog_cell_row */
	size_t cell_bytes;          /* text kept in cell_rows */

	long runs;                  /* tuning runs in the log (>= 1) */
	long target_run;            /* run of the last Final Summary (or the last run) */
	long summary_line;          /* heading of the LAST Final Summary, 0 none */
	OPTLOG_VEC(long, summary_rounds); /* rounds the last summary cites as the records' source */
	OPTLOG_VEC(long, summary_round_lines);
	long baseline_remeasure_line; /* a line saying the baseline was measured again, 0 none */
	OPTLOG_VEC(long, superseded); /* headings of earlier Final Summaries */
	char *best;                 /* best/winner named in the last summary, NULL none */
	long best_line;
	int nothing_adopted;        /* the last summary says nothing was adopted */
	OPTLOG_VEC(struct optlog_claim, claims);
	OPTLOG_VEC(struct optlog_number, geomeans);
	OPTLOG_VEC(struct optlog_ratio, ratios);  /* speedups and % changes claimed */
	enum optlog_stop stop;      /* stop reason in the last summary */
	long stop_line;

	double noise_pct;           /* stated noise threshold in %, NAN when none
				       (then OPTLOG_NOISE_DEFAULT_PCT) */
	long noise_line;
	long max_rounds;            /* stated budgets, -1 when none */
	long max_experiments;

	/* The final result restated: when a later Final Summary (or a later
	 * final conclusion, `## P.7 最终结论（Round 2 终态）`) supersedes an
	 * earlier one, the claims of the one it supersedes last, for the gate
	 * to compare (two final results that disagree). */
	long prev_summary_line;     /* heading of the superseded summary, 0 none */
	OPTLOG_VEC(struct optlog_claim, prev_claims);
	long session_line;          /* an H1 heading (a new session) between the
				       superseded summary and the last, 0 none */
	OPTLOG_VEC(struct optlog_fig, figs); /* the last table with a baseline and a final column */
	long figs_table_line;       /* its header row, 0 none */
	int figs_claims;            /* 1 when the last summary states no per-workload
				       claim and figs (after the superseded summary)
				       were taken as its soft claims */

	/* The contract the log declares: the first shown line (prose or
	 * heading, any section) naming each file as one the folder holds;
	 * a mention the line negates (`按标准禁止产出 perf_feedback.md`, `no
	 * perf_feedback.md was written`) is none. 0 when none. */
	long cite_inventory_line;   /* workload_inventory.json */
	long cite_feedback_line;    /* perf_feedback.md */
	long cite_records_line;     /* perf_records.jsonl (or `perf_records` records) */

	long final_heading_line;    /* last `Final Performance Test Data` H2/H3, 0 none */
	long final_table_line;      /* header of the last table with the 5 v2 columns, 0 none */
	OPTLOG_VEC(struct optlog_final_row, final_rows);

	OPTLOG_VEC(struct optlog_suppression, suppressions);
	OPTLOG_VEC(struct optlog_problem, problems);
	OPTLOG_VEC(struct optlog_note, notes);  /* at most 20 */
	OPTLOG_VEC(struct optlog_code, codes); /* ```json blocks, in file order */
};

void optlog_init(struct optlog *lg);
void optlog_release(struct optlog *lg);

#endif
