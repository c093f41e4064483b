# tlperf: one plain Makefile.
#   make            build build/bin/tlperf (+ tlab, tlgate links)
#   make test       unit + CLI tests, then units + malformed-input scripts under ASan+UBSan
#   make test-long  the other CLI scripts and the long unit cases under ASan+UBSan (CI runs both)
#   make demo       run the main job on bundled data
#   make bench      benchmarks, results in docs/benchmarks.md
#   make fuzz       libFuzzer harnesses (FUZZ_SECONDS=N each)
#   make install    PREFIX=/usr/local
#
# BUILD selects the output directory, so several builds (plain, sanitised,
# one per worktree) never step on each other.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
SAN     ?= 0

# Where SARIF links rules and the project (informationUri, helpUri): an
# https:// copy of README.md and docs/ (docs/rules.md at DOCS_URL/rules.md).
# Empty (the default): no links at all, unless TLPERF_DOCS_URL is set when
# tlgate runs; a file:// link would be dead on a code-scanning page.
DOCS_URL ?=
ifneq ($(DOCS_URL),)
ifneq ($(filter-out https://%,$(DOCS_URL))$(findstring ",$(DOCS_URL))$(findstring ',$(DOCS_URL)),)
$(error DOCS_URL must be one https:// URL without quotes, got '$(DOCS_URL)')
endif
endif
CPPFLAGS += -Isrc -I. -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS   ?= -O2 -g
# Tables (option tables, rule tables) leave trailing fields out, as git's
# do: -Wextra's missing-field-initializers would flag every such row.
CFLAGS   += -std=c11 -Wall -Wextra -Werror -Wno-error=deprecated-declarations -Wno-missing-field-initializers
LDLIBS   += -lcjson -lcsv -lgsl -lgslcblas -lcmark-gfm-extensions -lcmark-gfm -licui18n -licuuc -licudata -lm

# The shipped binary (tlperf, tlab, tlgate) links GSL, libcsv, cmark-gfm,
# ICU and the libstdc++ that ICU's C++ inside needs from their static
# archives (the -dev packages carry them), so that a call does not pay the
# dynamic loader: with them as shared libraries `tlgate --version` spent
# most of its CPU mapping and relocating ICU, libstdc++ and GSL
# (docs/benchmarks.md, "Start-up"). cJSON ships no static archive and the
# C library stays shared. Of ICU's 31 MB of data the binary carries the
# three items it uses (mk/icudata.mk: 0.4 MB). The tests and helper programs link the shared
# libraries (LDLIBS): the same code, smaller and quicker to link.
# STATIC=0 links the binary against the shared libraries too; the
# sanitised builds do (ASan's runtime replaces operator new and malloc
# through the dynamic linker).
STATIC_LIBS := -lcsv -lgsl -lgslcblas -lcmark-gfm-extensions -lcmark-gfm -licui18n -licuuc
STATIC_ARCHIVES := $(STATIC_LIBS:-l%=lib%.a) libicudata.a libstdc++.a
ifeq ($(SAN),0)
STATIC ?= 1
else
STATIC ?= 0
endif
ifeq ($(STATIC),1)
ICUDATA_OBJ := $(BUILD)/icudata/icudata.o
BIN_LDFLAGS := -static-libgcc -Wl,-O1,--as-needed
BIN_LDLIBS  := $(ICUDATA_OBJ) -lcjson -Wl,-Bstatic $(STATIC_LIBS) -lstdc++ -Wl,-Bdynamic -lm
else
ICUDATA_OBJ :=
BIN_LDFLAGS :=
BIN_LDLIBS  := $(LDLIBS)
endif

ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

BIN      := $(BUILD)/bin
OBJ      := $(BUILD)/obj
LIB_SRC  := $(wildcard src/*/*.c stats/*.c gates/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(OBJ)/%.o)
MAIN_OBJ := $(OBJ)/src/main.o
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TLPERF   := $(BIN)/tlperf
ALIASES  := $(BIN)/tlab $(BIN)/tlgate
DEPS_OK  := $(BUILD)/.deps-ok
TEST_DEPS_OK := $(BUILD)/.test-deps-ok
# Extra programs (fake kernel, fuzz harnesses...) register here from mk/*.mk.
EXTRA_BINS :=

.PHONY: all test test-long check layers unit cli demo bench fuzz install clean deps test-deps complexity print-link \
	build-tests
all: $(TLPERF) $(ALIASES) extra

-include mk/*.mk

extra: $(EXTRA_BINS)
.PHONY: extra

# Dependencies are checked once per build directory. Building the binary
# needs only the libraries' headers (install-deps.sh build installs just
# those: a CI job that only runs the gate gets nothing else); the tests also
# need cmocka and the programs they run (under CI=true a test missing a
# program fails rather than skips: tests/cli/lib.sh).
$(DEPS_OK):
	@mkdir -p $(@D)
	@for h in gsl/gsl_cdf.h cjson/cJSON.h csv.h cmark-gfm-core-extensions.h unicode/uspoof.h; do \
	  if ! printf '#include <stddef.h>\n#include <stdint.h>\n#include <%s>\n' $$h | $(CC) -E -x c - >/dev/null 2>&1; then \
	    echo "missing <$$h>: running scripts/install-deps.sh build"; sh scripts/install-deps.sh build || exit 2; break; fi; done
	@if [ "$(STATIC)" = 1 ]; then for a in $(STATIC_ARCHIVES); do \
	  case $$($(CC) -print-file-name=$$a) in /*) ;; *) \
	    echo "missing $$a (the binary links it statically): running scripts/install-deps.sh build"; \
	    sh scripts/install-deps.sh build || exit 2; break ;; esac; done; \
	  if ! command -v icupkg >/dev/null 2>&1 && [ ! -x /usr/sbin/icupkg ]; then \
	    echo "missing icupkg (it cuts ICU's data: mk/icudata.mk): running scripts/install-deps.sh build"; \
	    sh scripts/install-deps.sh build || exit 2; fi; fi
	@touch $@
$(TEST_DEPS_OK): $(DEPS_OK)
	@if ! printf '#include <stddef.h>\n#include <stdint.h>\n#include <stdarg.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' | $(CC) -E -x c - >/dev/null 2>&1; then \
	  echo "missing <cmocka.h> (the unit tests use it): running scripts/install-deps.sh"; sh scripts/install-deps.sh || exit 2; fi
	@for c in jq git python3 xmllint groff zsh script; do \
	  if ! command -v $$c >/dev/null 2>&1; then \
	    echo "missing $$c (the tests run it): running scripts/install-deps.sh"; sh scripts/install-deps.sh || exit 2; break; fi; done
	@touch $@
deps: $(DEPS_OK)
test-deps: $(TEST_DEPS_OK)
unit cli: $(TEST_DEPS_OK)

$(OBJ)/%.o: %.c $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libtlperf.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# The link line is kept in a file rewritten only when it changes (as
# DOCS_URL below), so that `make STATIC=0` or a new Makefile relinks. The
# build directory is left out of it: the same build named `build` or by
# its absolute path (tests/cli/test_man.sh runs `make install
# BUILD=/abs/build` while other tests run the binary) is the same link,
# and must not relink the binary under them.
LINK_STAMP := $(BUILD)/link-flags.txt
LINK_SIG := $(LDFLAGS) $(BIN_LDFLAGS) $(if $(ICUDATA_OBJ),$(subst $(ICUDATA_OBJ),icudata.o,$(BIN_LDLIBS)),$(BIN_LDLIBS))
$(LINK_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(LINK_SIG)' | cmp -s - $@ || printf '%s\n' '$(LINK_SIG)' >$@

$(TLPERF): $(MAIN_OBJ) $(BUILD)/libtlperf.a $(LINK_STAMP) $(ICUDATA_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $(MAIN_OBJ) $(BUILD)/libtlperf.a $(BIN_LDLIBS)

$(BIN)/tlab $(BIN)/tlgate: $(TLPERF)
	ln -f $< $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libtlperf.a $(TEST_DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(LDLIBS) -lcmocka

# The shared data the tests read when present (../shared beside the
# project, else beside the repository it was cloned from:
# scripts/find-shared.sh); SHARED=DIR chooses.
TEST_SHARED = $(or $(SHARED),$(shell sh scripts/find-shared.sh))

# Both run their tests JOBS at a time (default: one per CPU) through
# tests/run-tests.sh: a progress line with wall and CPU time per test, then
# "N passed, N failed, N skipped".
unit: $(TEST_BIN)
	@TLPERF_SHARED=$(TEST_SHARED) TLPERF_TESTDATA=$(CURDIR)/testdata TIMES_FILE=$(BUILD)/unit-times.txt sh tests/run-tests.sh unit $(TEST_BIN)

cli: all
	@SHARED=$(TEST_SHARED) BUILD=$(BUILD) CLI_ONLY="$(CLI_ONLY)" CLI_EXCEPT="$(CLI_EXCEPT)" sh tests/cli/run-all.sh

check: layers unit cli

# The house rules (docs/architecture.md): layering and no cycles, over the
# sources and over the objects of this build.
layers: all
	@sh scripts/check-layers.sh $(OBJ)

# The README's test commands (README.md, "Tests").
# make test: every unit test and every CLI script, then under ASan+UBSan
# every unit test and the CLI scripts that feed the readers malformed,
# truncated and fuzzed input (ASAN_CLI_SHORT).
# make test-long: the other CLI scripts under ASan+UBSan; with make test,
# every test in both builds. Each process of a sanitised build pays
# ASan's start-up, which makes that pass the slow one.
ASAN_CLI_SHORT := test_reliability_fuzz test_reliability_gate test_reliability_records \
	test_reliability_msprof test_records_strict test_gate
# Each build is compiled BUILD_JOBS files at a time (default: one per CPU)
# before its tests run: from a fresh clone the two builds are 424
# compilations, 3.5 of make test's 7 minutes when compiled one at a time.
BUILD_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
build-tests: all $(TEST_BIN)
test:
	$(MAKE) -j$(BUILD_JOBS) build-tests BUILD=$(BUILD)
	$(MAKE) check BUILD=$(BUILD)
	$(MAKE) -j$(BUILD_JOBS) build-tests BUILD=$(BUILD)-asan SAN=1
	$(MAKE) layers unit BUILD=$(BUILD)-asan SAN=1
	$(MAKE) cli BUILD=$(BUILD)-asan SAN=1 CLI_ONLY="$(ASAN_CLI_SHORT)"
	@echo "make test: all suites passed (plain, and ASan+UBSan on the units and the malformed-input scripts; make test-long runs the rest under ASan+UBSan)"

# TLPERF_TEST_LONG=1: the unit cases make test does not run for their cost (it
# leaves them out of its run and names them: test_abseq's budget-24 futility).
LONG_UNITS := test_abseq
test-long:
	$(MAKE) -j$(BUILD_JOBS) build-tests BUILD=$(BUILD)-asan SAN=1
	$(MAKE) cli BUILD=$(BUILD)-asan SAN=1 CLI_EXCEPT="$(ASAN_CLI_SHORT)"
	@TLPERF_SHARED=$(TEST_SHARED) TLPERF_TEST_LONG=1 TLPERF_TESTDATA=$(CURDIR)/testdata sh tests/run-tests.sh long-units $(LONG_UNITS:%=$(BUILD)-asan/tests/%)
	@echo "make test-long: all suites passed (the other CLI scripts and the long unit cases under ASan+UBSan)"

# DOCS_URL is compiled into rules_doc.o: the object depends on a file that
# holds the value and is rewritten only when the value changes, so
# `make DOCS_URL=...` rebuilds it, and a build with the same value does not.
DOCS_URL_STAMP := $(BUILD)/docs-url.txt
$(DOCS_URL_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(DOCS_URL)' | cmp -s - $@ || printf '%s\n' '$(DOCS_URL)' >$@
.PHONY: FORCE
FORCE:
$(OBJ)/src/report/rules_doc.o: CPPFLAGS += -DTLPERF_DOCS_URL='"$(DOCS_URL)"'
$(OBJ)/src/report/rules_doc.o: $(DOCS_URL_STAMP)

# Generated, committed, and failing a test while stale: docs/rules.md from
# the rule table (gates/rules.c; tests/cli/test_explain.sh), the man pages
# and shell completions from the option tables (tests/cli/test_man.sh).
docs: all
	$(TLPERF) explain --markdown >docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md
	sh scripts/gen-cli-docs.sh $(TLPERF)

demo: all
	@BUILD=$(BUILD) sh scripts/demo.sh

# Function length and complexity (pmccabe), for whoever plans a clean-up.
complexity:
	@command -v pmccabe >/dev/null 2>&1 || TLPERF_WITH_COMPLEXITY=1 sh scripts/install-deps.sh
	@sh scripts/complexity.sh

bench: all
	@BUILD=$(BUILD) sh scripts/bench/run.sh

# The binary's link flags and libraries, one line each, for
# scripts/bench/bench_startup.sh (it links the same objects the other way
# to compare: make -s print-link STATIC=0).
print-link:
	@printf '%s\n' '$(LDFLAGS) $(BIN_LDFLAGS)' '$(BIN_LDLIBS)'

install: $(TLPERF) $(ALIASES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(TLPERF) $(DESTDIR)$(PREFIX)/bin/tlperf
	ln -f $(DESTDIR)$(PREFIX)/bin/tlperf $(DESTDIR)$(PREFIX)/bin/tlab
	ln -f $(DESTDIR)$(PREFIX)/bin/tlperf $(DESTDIR)$(PREFIX)/bin/tlgate
	install -m 644 docs/tlperf.1 docs/tlab.1 docs/tlgate.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 644 completions/tlperf.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tlperf
	ln -sf tlperf $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tlab
	ln -sf tlperf $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tlgate
	install -m 644 completions/_tlperf $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tlperf
	install -d $(DESTDIR)$(PREFIX)/share/doc/tlperf/schemas
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/tlperf/
	install -m 644 docs/schemas/*.json $(DESTDIR)$(PREFIX)/share/doc/tlperf/schemas/

clean:
	rm -rf build build-*

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
