# mk/fuzz.mk: libFuzzer harnesses (make fuzz) and their corpus replays (make test).
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_ONLY="records msprof"]
#
# Each tests/fuzz/fuzz_<name>.c is one harness over one parser. `make fuzz`
# builds them with clang (-fsanitize=fuzzer,address,undefined) in
# build-fuzz/ and runs each for FUZZ_SECONDS; clang is installed through
# scripts/install-deps.sh (TLPERF_WITH_FUZZ=1) when missing.
# The ordinary build links the same harnesses with tests/fuzz/standalone.c
# into $(BUILD)/fuzz/replay_<name>, and tests/cli/test_reliability_fuzz.sh
# replays testdata/fuzz/<name>/ (seeds and every crash found) through them,
# so past crashes stay fixed under gcc and under ASan+UBSan.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_DIR     ?= build-fuzz

# A harness is built only once every file of the parser it exercises exists.
FUZZ_NEEDS_records := src/model/records.h
FUZZ_NEEDS_lineio  := src/io/lineio.h
FUZZ_NEEDS_optlog  := src/io/optlog.c
FUZZ_NEEDS_mdread  := src/io/mdread.c
FUZZ_NEEDS_msprof  := src/io/msprof.c src/io/csvtab.c
FUZZ_NEEDS_plan    := src/io/loopplan.c
FUZZ_NEEDS_stage_result := src/io/stage_result.c gates/s4_stage.c

FUZZ_ALL   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
fuzz_missing = $(filter-out $(wildcard $(FUZZ_NEEDS_$(1))),$(FUZZ_NEEDS_$(1)))
FUZZ_NAMES := $(foreach n,$(FUZZ_ALL),$(if $(call fuzz_missing,$(n)),,$(n)))
FUZZ_ONLY  ?= $(FUZZ_NAMES)

EXTRA_BINS += $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/standalone.c $(BUILD)/libtlperf.a $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/standalone.c \
	  $(BUILD)/libtlperf.a $(LDLIBS)

# SAN=fuzz: the library is instrumented for coverage, the harness brings
# libFuzzer's main. -Werror is dropped here only: a clang-only warning in
# someone's code must not stop a fuzzing session (gcc's build keeps it).
ifeq ($(SAN),fuzz)
CFLAGS  := $(filter-out -Werror,$(CFLAGS)) -O1 -g -fno-omit-frame-pointer \
	   -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/libtlperf.a $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(LDLIBS)

.PHONY: fuzz fuzz-bins fuzz-clang
fuzz-bins: $(FUZZ_ONLY:%=$(BUILD)/fuzz/fuzz_%)

# clang with its libFuzzer runtime must link a trivial harness.
fuzz-clang:
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
	  >/tmp/tlperf-fuzz-probe.$$$$.c; \
	if ! $(FUZZ_CC) -fsanitize=fuzzer -o /tmp/tlperf-fuzz-probe.$$$$ /tmp/tlperf-fuzz-probe.$$$$.c >/dev/null 2>&1; then \
	  echo "make fuzz: $(FUZZ_CC) cannot build libFuzzer harnesses: running scripts/install-deps.sh"; \
	  TLPERF_WITH_FUZZ=1 sh scripts/install-deps.sh || { rm -f /tmp/tlperf-fuzz-probe.$$$$*; exit 2; }; \
	fi; rm -f /tmp/tlperf-fuzz-probe.$$$$*

fuzz: fuzz-clang
	$(MAKE) fuzz-bins BUILD=$(FUZZ_DIR) SAN=fuzz CC=$(FUZZ_CC) FUZZ_ONLY="$(FUZZ_ONLY)"
	@FUZZ_DIR=$(FUZZ_DIR) FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_ONLY)

# gcc's -fsanitize=undefined leaves out float-cast-overflow (clang's does
# not): a parsed number cast to int is exactly the bug fuzzing finds in
# readers (tests/fuzz/fuzz_msprof.c found one), so the sanitised build of
# `make test` checks it too.
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=float-cast-overflow
LDFLAGS += -fsanitize=float-cast-overflow
endif
