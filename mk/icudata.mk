# mk/icudata.mk: the ICU data the static binary carries, and the check
# that it is enough.
#
# ICU's data package (libicudata.a) is 31 MB: locales, collation, break
# rules, converters. src/util/uname.c asks ICU for NFKC (nfkc.nrm), the
# confusables of UTS #39 (confusables.cfu) and character names for its
# messages (unames.icu); the properties and NFC/NFD it also uses are
# compiled into libicuuc itself. scripts/icudata.sh cuts the package to
# ICUDATA_ITEMS with ICU's own icupkg, as an object defining the symbol
# libicuuc.a reads its data from; the binary links it instead of
# libicudata.a (STATIC=1 only: the shared build and the tests use the
# whole package).
#
# uname-dump prints what uname.c makes of every code point of planes 0-3
# and 14 (identity form, skeleton, names); linked as the binary is and
# linked against the shared libraries (the whole package), the two must
# print the same bytes (tests/cli/test_icudata.sh): an item missing from
# ICUDATA_ITEMS would change or empty a line.

ICUDATA_ITEMS := confusables.cfu nfkc.nrm unames.icu

$(BUILD)/icudata/icudata.o: scripts/icudata.sh mk/icudata.mk $(DEPS_OK)
	@mkdir -p $(@D)
	sh scripts/icudata.sh '$(CC)' $(@D) $(ICUDATA_ITEMS)

EXTRA_BINS += $(BUILD)/bin/uname-dump $(BUILD)/bin/uname-dump-shared

$(BUILD)/bin/uname-dump: tests/uname_dump.c $(BUILD)/libtlperf.a $(ICUDATA_OBJ) $(LINK_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(BIN_LDLIBS)

$(BUILD)/bin/uname-dump-shared: tests/uname_dump.c $(BUILD)/libtlperf.a $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libtlperf.a $(LDLIBS)
