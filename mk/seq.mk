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
