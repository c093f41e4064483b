/* notclaims.h: lines that are no claim about the final result (issue 35
 * item 5): a deviation, an error ratio, a negated bound, a figure the log
 * disowns, a sample count, in Chinese and English, bold and plain, list
 * and prose. test_optlog reads them as no claim; test_gate checks that
 * they add no finding with records present. NULL-ended. */
#ifndef TLPERF_TEST_NOTCLAIMS_H
#define TLPERF_TEST_NOTCLAIMS_H

static const char *const not_claim_lines[] = {
	"- 与 records 偏差 0%，性能一致",
	"- **deviation from the records: 0.4%** (speedup check)",
	"- 旧估算误差超 10 倍，已弃用（性能）",
	"- the old estimate's error was over 10x (latency)",
	"- **[DESIGN_LIMIT]**：不触发——无 >2x 结构性空间",
	"- no >2x headroom remains for the speedup",
	"- 单轮首测 -5.2% 系双态膨胀，以复测为准（性能）",
	"- the first single run showed -5.2%, an outlier we discard (speedup)",
	"- latency: the first run gave 25 us, an artifact of a busy device",
	"- final latency: median of 20 launches",
	"- 时延取 15 次 run 的中位（性能 n=15）",
	"- 向量链 4×vcast + 2×reduce 为精度契约强制（性能）",
	NULL
};

#endif
