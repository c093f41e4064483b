# mk/seq.mk: the CPU programs of scripts/real-ab.sh (a real A/B check of
# `tlab --source stdout` on this machine). spin-a does 6% more work than
# spin-b; spin-b2 is spin-b built again (two identical arms).
SPIN_BASE := 1000000
EXTRA_BINS += $(BUILD)/bin/spin-a $(BUILD)/bin/spin-b $(BUILD)/bin/spin-b2

$(BUILD)/bin/spin-a: scripts/real/spin.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSPIN_ITERS=$$(( $(SPIN_BASE) * 106 / 100 ))L -o $@ $<

$(BUILD)/bin/spin-b $(BUILD)/bin/spin-b2: scripts/real/spin.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSPIN_ITERS=$(SPIN_BASE)L -o $@ $<

# print-bars: the two-state bars of seq's and fast's default schedules,
# printed as the initialisers of stats/abseq_bars.inc and
# stats/abseq_fast_bars.inc (computing them takes seconds for seq, half a
# second for fast, so tlab reads them from there; tests/test_abseq.c checks
# they match).
#   make bars   regenerates both files
EXTRA_BINS += $(BUILD)/bin/print-bars

$(BUILD)/bin/print-bars: scripts/analysis/print_bars.c $(BUILD)/libtlperf.a $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(LDLIBS)

bars: $(BUILD)/bin/print-bars
	$(BUILD)/bin/print-bars seq > stats/abseq_bars.inc.tmp
	$(BUILD)/bin/print-bars fast > stats/abseq_fast_bars.inc.tmp
	@# a table replaced only when it changed: an unchanged one rebuilds nothing
	@for f in stats/abseq_bars.inc stats/abseq_fast_bars.inc; do \
		if cmp -s $$f.tmp $$f; then rm $$f.tmp; else mv $$f.tmp $$f; echo "bars: wrote $$f"; fi; \
	done
.PHONY: bars
