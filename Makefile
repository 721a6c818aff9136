# gotcha: post-mortem analyzer for failed ML training runs on NVIDIA (DGX Spark) machines.
#
#   make            build ./gotcha (release objects under build/release/)
#   make test       unit tests, CLI golden tests (the report goldens twice, a subset under
#                   valgrind), HTML check, accuracy (under 4 min on 2 cores); make check-valgrind:
#                   every CLI test under it
#   make asan       the unit and CLI tests under AddressSanitizer + UBSan (objects in build/asan/)
#   make test-arm64 cross-build for aarch64, run the tests under qemu-user, compare the reports
#   make bench-arm64 the speed bench with the aarch64 build, grep and zstd, all under qemu-user
#   make dev        build with -Werror
#   make bench      speed and memory figures (see tests/bench/README.md); make bench-speed: gotcha
#                   against grep -E -f on 40 regexes and zstd -dc only; make bench-bombs: bombs only;
#                   make bench-dashboard: the batch dashboard's size and time at 100,000 runs
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS each (clang; objects in build/fuzz/)
#   make eval       accuracy on the labelled corpus/ (make eval-real: on real public logs)
#   make demo       build (installing dependencies if missing) and run on a sample failed run
#   make deps       install what the build and `make test` need, with apt-get (only what is missing)
#   make install / uninstall   PREFIX=/usr/local DESTDIR=
#   make deb        build/deb/gotcha_VERSION_amd64.deb and, cross-built, _arm64.deb; lintian
#   make deb-check  install the native package (root), use it, run the arm64 one under qemu

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/gotcha
MANDIR   ?= $(PREFIX)/share/man/man1
DOCDIR   ?= $(PREFIX)/share/doc/gotcha
COMPDIR  ?= $(PREFIX)/share/bash-completion/completions
# zsh's and fish's own directories for completions that ship with a program (Debian's zsh reads
# vendor-completions too: debian/rules sets it)
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
VERSION  := 0.1.0

CC       ?= cc
PKG_CONFIG ?= pkg-config
LIBS_PKG := libpcre2-8 libzstd libarchive jansson
TEST_PKG := criterion
# Criterion's flags; a cross build sets them itself (tests/tools/arm64.sh), as its .pc file pulls in
# the .pc files of four more -dev packages.
TEST_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags $(TEST_PKG) 2>/dev/null)
TEST_LIBS   ?= $(shell $(PKG_CONFIG) --libs $(TEST_PKG) 2>/dev/null)

# Debian/Ubuntu package for each pkg-config module, for the one-line "install X" message.
deb_libpcre2-8 := libpcre2-dev
deb_libzstd    := libzstd-dev
deb_libarchive := libarchive-dev
deb_jansson    := libjansson-dev
deb_criterion  := libcriterion-dev
# What `make test` uses besides the libraries: GNU parallel (batch_parallel), python3 (schema
# check, eval), chromium (the HTML report in a browser), valgrind (the memcheck pass), zsh and
# fish (their completions are loaded and run), man-db (the man page renders: first_hour runs man --warnings); and what make deb
# uses: debhelper, dpkg-dev and lintian.
DEB_PACKAGES   := build-essential pkg-config libpcre2-dev libzstd-dev libarchive-dev libjansson-dev \
                  libcriterion-dev zstd xz-utils bzip2 lz4 gzip bash-completion \
                  parallel python3 valgrind chromium \
                  debhelper dpkg-dev lintian zsh fish man-db
# Extra packages on top (.ci/run adds clang-format for make format-check).
DEPS_EXTRA     ?=

SANITIZE ?=
ifeq ($(SANITIZE),)
CONFIG   ?= release
OPTFLAGS ?= -O2 -g
else
CONFIG   ?= asan
OPTFLAGS ?= -O1 -g -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
BUILD    := build/$(CONFIG)

WARNFLAGS := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
             -Wcast-qual -Wpointer-arith -Wwrite-strings -Wvla -Wundef -Wswitch-enum \
             -Werror=implicit-function-declaration
ifneq ($(WERROR),)
WARNFLAGS += -Werror
endif

# Only resolve pkg-config flags for goals that compile; `make deps` must work without them.
NEED_LIBS := $(filter-out deps demo help clean uninstall test-arm64 bench-arm64 deb deb-check,$(or $(MAKECMDGOALS),all))
ifneq ($(NEED_LIBS),)
missing := $(strip $(foreach p,$(LIBS_PKG),$(if $(shell $(PKG_CONFIG) --exists $(p) 2>/dev/null && echo y),,$(p))))
ifneq ($(missing),)
$(error missing library $(firstword $(missing)): install it with 'sudo apt-get install $(foreach p,$(missing),$(deb_$(p)))' or run 'make deps')
endif
LIB_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PKG))
LIB_LDLIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PKG))
endif

CPPFLAGS += -Ianalyzer -DPCRE2_CODE_UNIT_WIDTH=8 -D_POSIX_C_SOURCE=200809L \
            -DGOTCHA_VERSION=\"$(VERSION)\" -DGOTCHA_DATADIR=\"$(DATADIR)\"
CFLAGS   += -std=c11 $(OPTFLAGS) $(WARNFLAGS) $(LIB_CFLAGS) -MMD -MP
LDFLAGS  += $(if $(SANITIZE),-fsanitize=$(SANITIZE))
LDLIBS   += $(LIB_LDLIBS) -lpthread -lm

LIB_SRC  := $(sort $(wildcard analyzer/common/*.c analyzer/ingest/*.c analyzer/tokenize/*.c \
              analyzer/match/*.c analyzer/correlate/*.c analyzer/report/*.c))
CLI_SRC  := $(sort $(wildcard analyzer/cli/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
# cli/main.c holds main(); the rest of cli/ is linked into the unit tests too.
CLI_LIB_OBJ := $(filter-out $(BUILD)/analyzer/cli/main.o,$(CLI_OBJ))

TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
# the scan fixture the suites that run the whole pipeline share (tests/unit/scan_fixture.h)
FIXTURE_SRC := tests/unit/scan_fixture.c
FIXTURE_OBJ := $(FIXTURE_SRC:%.c=$(BUILD)/%.o)
# LeakSanitizer's suppression for Criterion's runner only (tests/unit/lsan_runner.c)
LSAN_OBJ := $(BUILD)/tests/unit/lsan_runner.o
TEST_BIN := $(BUILD)/tests/unit_tests
# The fuzz harnesses (tests/fuzz/) are linked into the unit tests too: test_fuzz_replay.c replays
# their kept crashers with the normal compiler.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/util.o
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o) $(FIXTURE_OBJ) $(LSAN_OBJ) $(FUZZ_OBJ)

ifeq ($(CONFIG),release)
BIN := gotcha
else
BIN := $(BUILD)/gotcha
endif

.PHONY: bench-arm64 bench-speed deb deb-check test-arm64 fuzz fuzz-build fuzz-bins bench-bombs bench-dashboard eval-real html-test unit-one all dev test asan check unit cli-test cli-repeat cli-valgrind check-valgrind eval check-gates mutate bench demo deps install uninstall clean \
        golden-update format format-check help
all: $(BIN)

$(BIN): $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(TEST_BIN): $(TEST_OBJ) $(LIB_OBJ) $(CLI_LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_LIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@test -n "$(TEST_LIBS)" || { echo "missing library criterion: install it with 'sudo apt-get install libcriterion-dev' or run 'make deps'" >&2; exit 1; }
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) -Wno-missing-prototypes -c -o $@ $<

# Harness objects: no Criterion; under CONFIG=fuzz they are libFuzzer's entry points.
$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(if $(filter fuzz,$(CONFIG)),-DGOTCHA_LIBFUZZER) \
	    -DFUZZ_PATTERNS=\"$(abspath patterns)\" -c -o $@ $<

# One module's tests alone, linked with that module and the ones it may use, so a module can be
# tested before the stages above it exist:  make unit-one T=ingest
mods_common    := common
mods_ingest    := common ingest
# tokenize's tests read the classifier's word lists from the pack (patterns/formats.json)
mods_tokenize  := common ingest tokenize match
mods_match     := common ingest tokenize match
mods_prefilter := common ingest tokenize match
mods_correlate := common ingest tokenize match correlate
mods_capacity_groups := common ingest tokenize match correlate
mods_possible  := common ingest tokenize match correlate
mods_report    := common ingest tokenize match correlate report
mods_batch     := common ingest tokenize match correlate report
mods_loaders_drift := common ingest tokenize match correlate
mods_kernel_availability := common ingest tokenize match correlate
mods_runtime_build := common ingest tokenize match correlate
mods_pool_groups := common ingest tokenize match correlate
mods_docker_build := common ingest tokenize match correlate
mods_vendor_checks := common ingest tokenize match correlate
mods_triton_pair := common ingest tokenize match correlate
mods_import_drift := common ingest tokenize match correlate
mods_objs = $(filter $(foreach m,$(mods_$(1)),$(BUILD)/analyzer/$(m)/%),$(LIB_OBJ))
T ?= common
unit-one: $(BUILD)/tests/test_$(T)
	GOTCHA_PATTERNS=$(abspath patterns) GOTCHA_TOP=$(CURDIR) $< --short-filename
.SECONDEXPANSION:
$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $$(call mods_objs,$$*) \
        $$(if $$(filter correlate,$$(mods_$$*)),$$(FIXTURE_OBJ))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_LIBS)

dev:
	$(MAKE) WERROR=1 all

# The README's test command: unit tests; the CLI golden tests (the HTML report in a real browser
# among them), the report goldens twice, since output must not depend on the run (cli-repeat),
# the tests a CPU each at a time (tests/cli/run.sh, CLI_JOBS), then a representative subset under
# valgrind (the full pass: make check-valgrind, in CI); accuracy on the corpus (a gate: every
# scenario right but those in corpus/KNOWN_FAILURES). A test that cannot run here (a tool missing)
# is counted as skipped, never as passed; under CI=1 it fails instead.
test: unit cli-test cli-repeat cli-valgrind eval

check: unit cli-test

# Under make asan a leak in a test's worker is printed at its exit but does not fail the test
# (Criterion ignores the worker's exit status after its last assertion), so the log is read too.
unit: $(TEST_BIN) $(BIN)
	@log=$(BUILD)/unit.log; status=0; \
	GOTCHA_BIN=$(abspath $(BIN)) GOTCHA_PATTERNS=$(abspath patterns) GOTCHA_TOP=$(CURDIR) \
	    $(TEST_BIN) --jobs 2 --short-filename >$$log 2>&1 || status=$$?; cat $$log; \
	if grep -q 'ERROR: LeakSanitizer' $$log; then \
	    echo "unit: LeakSanitizer reported a leak (above)" >&2; exit 1; fi; exit $$status

cli-test: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/cli/run.sh

# The same goldens a second time: a report that differs between two runs of one binary fails.
# Left out of the second pass (they still run once in cli-test), each with its reason:
#   scan_jobs, report_schema  compare reports within one run already (-j1/-j2/-j5 of every corpus
#                       run; plain, --verbose and reversed inputs), so a second pass adds no check
#   first_hour          asserts behaviour (exit statuses, redaction, outcome), not report bytes;
#                       the reports it reads are report_golden_*'s, which repeat
#   html_browser, batch_html_browser   chromium's time; their pages are built by
#                       report_golden_lanes and batch_html, which repeat
#   live_*, preflight_legacy   the subject is the live commands on a stand-in host (deadlines,
#                       signals), their goldens mask what varies; not a report of a log
# (issue 21 item 13: make test under 4 minutes; these were 106 of the pass's 156 CPU seconds)
REPEAT_SKIP := scan_jobs report_schema first_hour html_browser batch_html_browser \
               live_collect live_preflight live_preflight_host live_record live_record_signals \
               live_usage preflight_legacy
cli-repeat: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/cli/run.sh $(filter-out $(REPEAT_SKIP),$(CLI_TESTS))

# The goldens with every gotcha command under valgrind's memcheck (an uninitialised read, an
# invalid access or a definite leak fails the test). `make check-valgrind` (CI runs it: .ci/run) is
# the full pass: every CLI test except those listed in VALGRIND_SKIP, each with its reason:
#   scan_jobs           a 12-million-line log, ~5 min under memcheck; its code paths (scan, -j) are
#                       those of report_golden_* and batch_jobs, which do run under it
#   report_schema       186 scans of corpus/, ~12 min under memcheck; the same scans run plain here
#                       and under ASan (make asan)
#   installed_pack      installs the binary itself (make install into a temp DESTDIR), then runs it
#   html_browser, batch_html_browser   the time goes to chromium, not gotcha (the page they load
#                       is built under memcheck by report_golden_lanes and batch_html)
#   live_preflight_host, preflight_legacy   a PATH of stand-in tools only (valgrind is not on
#                       it) and 1 s deadlines
# `make test` runs VALGRIND_SUBSET, a representative few (~1 min on 2 cores): each pipeline stage
# and report format (text, md, json, html), archives and bombs, batch, the live commands' usage
# paths; the whole pass took ~5 min of make test's 9 (issue 21 item 13).
VALGRIND_SKIP  := scan_jobs report_schema installed_pack html_browser batch_html_browser \
                  live_preflight_host preflight_legacy
VALGRIND_SUBSET := report_golden_g4 report_golden_g9_md report_golden_none_json report_hostile \
                   stage_ingest batch_discovery exit_codes live_usage bad_format
CLI_TESTS      := $(filter-out run,$(basename $(notdir $(wildcard tests/cli/*.sh))))
cli-valgrind: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) GOTCHA_VALGRIND=1 sh tests/cli/run.sh $(VALGRIND_SUBSET)

# One test at a time (CLI_JOBS=1): under memcheck the tests with deadlines (record's start, a
# second Ctrl-C) were measured passing serially; two memcheck processes per core were not.
check-valgrind: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) GOTCHA_VALGRIND=1 CLI_JOBS=1 sh tests/cli/run.sh \
	    $(filter-out $(VALGRIND_SKIP),$(CLI_TESTS))

# The HTML report of the demo run loaded by headless chromium (tests/cli/html_browser.sh): no
# console error, not blank; a counted skip where chromium is missing (make deps installs it).
html-test: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/cli/run.sh html_browser

asan:
	$(MAKE) SANITIZE=address,undefined check

# The aarch64 build under qemu-user: unit, CLI and eval on the cross build, and every corpus report
# byte-identical to this machine's (tests/tools/arm64.sh; its setup installs the toolchain as root).
test-arm64:
	sh tests/tools/arm64.sh setup
	sh tests/tools/arm64.sh test

# The speed bench with the aarch64 build, grep and zstd all under qemu-user (BENCH_SIZE, default 64M).
bench-arm64:
	sh tests/tools/arm64.sh setup
	sh tests/tools/arm64.sh bench

# Then: no scenario line is a copy of a pack example (corpus_independent.py), and no file outside
# tests/realworld/ cites a source reserved for the independent check (reserved_sources.py: the
# hashes of tests/tools/reserved-sources.sha256, the list itself kept outside; its --self-test
# shows it failing on planted citations first).
eval: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/tools/eval.sh corpus --gate --known=corpus/KNOWN_FAILURES
	python3 tests/tools/corpus_independent.py patterns corpus
	python3 tests/tools/reserved_sources.py --self-test
	python3 tests/tools/reserved_sources.py check .

# Accuracy on real logs from public threads (tests/realworld/<batch>/<case>/): measured, not a gate
# (its figures never fail it), but a case that cannot be scanned (a crash, a timeout) does. Prints the per-label confusion, first-error and root-line accuracy, per-batch figures and the
# blind history (tests/realworld/BLIND.md). BATCH=b05 measures one batch alone (the blind run).
eval-real: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/tools/eval.sh tests/realworld$(if $(BATCH),/$(BATCH)) \
	    --history=tests/realworld/BLIND.md

# Rewrites the goldens (NAMES="a b": those tests only) and prints what changed, for the commit
# message. It refuses while a golden has uncommitted changes (git), so the diff shown is the
# update's alone and an earlier edit cannot slip in with it.
GOLDENS = $(wildcard tests/cli/*.stdout tests/cli/*.stderr tests/cli/*.exit)
golden-update: $(BIN)
	@dirty=$$(git status --porcelain -- $(GOLDENS)); if [ -n "$$dirty" ]; then \
	    echo "golden-update: goldens with uncommitted changes (commit or restore them first):" >&2; \
	    echo "$$dirty" >&2; exit 1; fi
	GOTCHA_BIN=$(abspath $(BIN)) GOLDEN_UPDATE=1 sh tests/cli/run.sh $(NAMES)
	@git --no-pager diff --stat -- $(GOLDENS); git --no-pager diff -- $(GOLDENS)

# Each gate above shown failing on a defect planted in a temporary copy (tests/gates/run.sh):
# eval's label, false-verdict, first-error and known-failures rules, report_schema on a crashing or
# silent scan, run.sh's CI=1 skips and golden diffs, the bombs' bound, check_html's blank page,
# golden-update's refusal. The mutation score (make mutate) tests the tests themselves.
check-gates: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/gates/run.sh

# The mutation score of the suites (tests/mutate/): each one-line mutant of mutants.tsv rebuilt
# in a temp copy and run against unit, eval and CLI; fails under 90 % caught. MUTANTS="3 7": those
# only; SAMPLE=5: a rotating five (CI).
mutate: $(BIN) $(TEST_BIN)
	SAMPLE=$(SAMPLE) sh tests/mutate/run.sh $(MUTANTS)

bench: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/speed.sh
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/run.sh
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/batch.sh
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/bombs.sh
	$(MAKE) bench-dashboard

# The batch dashboard at 100,000 synthetic rows (tests/bench/dashboard.sh): fails when the page is
# over 10 MB or took over 10 s to build, or does not load cleanly in chromium (a skip without it).
DASH_BENCH := $(BUILD)/tests/bench/dashboard
$(DASH_BENCH): $(BUILD)/tests/bench/dashboard.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-dashboard: $(DASH_BENCH)
	GOTCHA_PATTERNS=$(abspath patterns) sh tests/bench/dashboard.sh $(abspath $(DASH_BENCH))

# gotcha against grep on 40 regexes and against zstd -dc, side by side, with the issue-22 bounds
# (tests/bench/speed.sh; BENCH_SIZE, default 256M; BENCH_RUNS rounds, default 3): also the first
# part of make bench.
bench-speed: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/speed.sh

# Decompression bombs of empty records (tests/bench/bombs.sh): each should end in under 10 s.
bench-bombs: $(BIN)
	GOTCHA_BIN=$(abspath $(BIN)) sh tests/bench/bombs.sh

# Fuzzing (tests/fuzz/README.md): each harness for FUZZ_SECONDS, seeded from corpus/ and
# tests/realworld*/; a crash fails the target and leaves its input in build/fuzz/crashes/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRC))
fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) build/fuzz $(FUZZ_NAMES)

fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs clang: sudo apt-get install clang libclang-rt-dev (or make deps)" >&2; exit 1; }
	$(MAKE) CONFIG=fuzz CC=$(FUZZ_CC) OPTFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" \
	    LDFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer" fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/util.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The sample run: a GB10 fine-tune that slowed down under a ~100 W power plateau (corpus/README.md).
DEMO_RUN := corpus/G4-a-power-plateau-csv
demo:
	@$(PKG_CONFIG) --exists $(LIBS_PKG) $(TEST_PKG) 2>/dev/null || $(MAKE) deps
	$(MAKE) all
	@echo "+ ./gotcha scan $(DEMO_RUN)/  (its files, without the label expected.json)"
	@./gotcha scan $$(find $(DEMO_RUN) -type f ! -name expected.json | sort) || test $$? -eq 1

# The Debian packages (debian/; tests/tools/deb.sh): the cross build needs the aarch64 toolchain,
# the :arm64 runtime libraries and the -dev sysroot that tests/tools/arm64.sh sets up (as root).
deb:
	sh tests/tools/arm64.sh setup
	sh tests/tools/deb.sh build $(VERSION)

deb-check:
	sh tests/tools/deb.sh check $(VERSION)

# Installs only the packages that are missing (nothing to do: no apt-get at all). Ubuntu names
# its browser package chromium-browser: the name is settled after apt-get update, when the
# package lists of a fresh machine exist.
deps:
	@missing=; for p in $(DEB_PACKAGES) $(DEPS_EXTRA); do \
	    if [ $$p = chromium ] && command -v chromium-browser >/dev/null 2>&1; then continue; fi; \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "make deps: everything is installed"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	$$SUDO apt-get update -qq || exit 1; \
	case " $$missing " in *" chromium "*) apt-cache show chromium >/dev/null 2>&1 || \
	    missing=$$(echo "$$missing" | sed 's/ chromium\b/ chromium-browser/');; esac; \
	echo "make deps: installing$$missing"; \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/patterns $(DESTDIR)$(MANDIR) \
	    $(DESTDIR)$(DOCDIR) $(DESTDIR)$(COMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/gotcha
	install -m 644 patterns/*.json $(DESTDIR)$(DATADIR)/patterns/
	install -m 644 docs/gotcha.1 $(DESTDIR)$(MANDIR)/gotcha.1
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/gotcha.bash-completion $(DESTDIR)$(COMPDIR)/gotcha
	install -m 644 docs/gotcha.zsh-completion $(DESTDIR)$(ZSHCOMPDIR)/_gotcha
	install -m 644 docs/gotcha.fish-completion $(DESTDIR)$(FISHCOMPDIR)/gotcha.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gotcha $(DESTDIR)$(MANDIR)/gotcha.1 $(DESTDIR)$(COMPDIR)/gotcha \
	    $(DESTDIR)$(ZSHCOMPDIR)/_gotcha $(DESTDIR)$(FISHCOMPDIR)/gotcha.fish
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(wildcard analyzer/*/*.h) $(TEST_SRC) $(FIXTURE_SRC) tests/unit/scan_fixture.h $(wildcard tests/fuzz/*.[ch])

format-check:
	clang-format --dry-run --Werror $(LIB_SRC) $(CLI_SRC) $(wildcard analyzer/*/*.h) $(TEST_SRC) $(FIXTURE_SRC) tests/unit/scan_fixture.h $(wildcard tests/fuzz/*.[ch])

clean:
	rm -rf build gotcha

help:
	@sed -n '3,16p' Makefile

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
