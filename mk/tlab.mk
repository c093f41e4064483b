# mk/tlab.mk: the fake kernel used by tlab's end-to-end tests and `make demo`
# (scripts/fake/fake-kernel.c -> $(BUILD)/bin/fake-kernel). It links the
# library for stats/synth.h, so its noise model is the simulator's.

EXTRA_BINS += $(BUILD)/bin/fake-kernel

$(BUILD)/bin/fake-kernel: scripts/fake/fake-kernel.c $(BUILD)/libtlperf.a $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(LDLIBS)
