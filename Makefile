# SPDX-License-Identifier: GPL-2.0
#
# fairtest: the kernel's kernel/sched/fair.c, unmodified, in user space,
# under deterministic KUnit-style tests. `make help` lists every knob.

KSRC	?=
PROFILE	?= base
O	?= build
FILTER	?=
SEED	?= 1
JUNIT	?=
TIMEOUT	?= 60
FAULTS	?=
P	?= 0.05
SERIES	?=
COVERAGE ?= 1

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# The build uses every core unless make was given its own -j.
JOBS	= $(if $(findstring -j,$(MAKEFLAGS)),,-j$(shell nproc))
SF	:= $(TOP)/sched_fair
PROFILE_FILE := $(SF)/configs/$(PROFILE).config
RUN_ARGS = --seed $(SEED) --timeout $(TIMEOUT) $(if $(JUNIT),--junit $(JUNIT)) $(FILTER)

# Resolving the tree may install the default one, so it is done by the
# targets that need a tree, never while parsing (make help stays instant).
define with_tree
	@[ -f $(PROFILE_FILE) ] || { echo "fairtest: unknown PROFILE=$(PROFILE); profiles: $(notdir $(basename $(wildcard $(SF)/configs/*.config)))" >&2; exit 2; }
	@$(SF)/deps.sh
	+@ksrc=$$($(SF)/tree.sh $(KSRC)) && \
	 obj=$(abspath $(O))/$$(basename $$ksrc)-$$(printf '%s' "$$ksrc:$(PROFILE)" | md5sum | cut -c1-8) && \
	 $(MAKE) --no-print-directory $(JOBS) -f $(SF)/build.mk KSRC=$$ksrc OBJ=$$obj PROFILE=$(PROFILE_FILE) all && \
	 $(1)
endef

.PHONY: all build check test list mutate clean help fault valgrind asan gate coverage
all: build

build:
	$(call with_tree,true)

check:
	$(call with_tree,$$obj/fairtest $(RUN_ARGS))

list:
	$(call with_tree,$$obj/fairtest --list)

# The project's tests: the fair.c suites, then our checks of the tools.
test:
	$(call with_tree,$(call build_variant,valgrind) && $(call build_variant,asan) && \
	 FAIRTEST_PROFILE=$(PROFILE_FILE) $(TOP)/tests/project.sh $$obj $$ksrc $(RUN_ARGS))

# Each deliberate bug of fixtures/mutants applied alone; the table of which
# cases catch it. Fails below 90% caught.
mutate:
	$(call with_tree,$(SF)/mutate.sh $$obj $$ksrc $(PROFILE_FILE) --seed $(SEED) --timeout 30 $(FILTER))

# Fault injection and memory/UB checking: tests/fault, tests/memcheck.
# A variant is built in $$obj/<variant> from the same prepared tree.
comma	:= ,
# No alignment checks, as in the kernel on x86 (UBSAN_ALIGNMENT is off
# where unaligned access is cheap): fair.c's list walks form container_of()
# of a bare list head, as everywhere in the kernel.
asan_CFLAGS	:= -fsanitize=address$(comma)undefined -fno-sanitize=alignment -fno-sanitize-recover=all
valgrind_CFLAGS	:= -ftrivial-auto-var-init=uninitialized
build_variant = $(MAKE) --no-print-directory -f $(SF)/build.mk KSRC=$$ksrc OBJ=$$obj \
	 PROFILE=$(PROFILE_FILE) VARIANT=$(1) VARIANT_CFLAGS='$($(1)_CFLAGS)' all
define with_variant
	$(call with_tree,$(call build_variant,$(1)) && $(TOP)/tests/memcheck/run.sh $(1) $$obj/$(1)/fairtest $(RUN_ARGS))
endef

fault:
	$(call with_tree,$(TOP)/tests/fault/matrix.sh $$obj/fairtest '$(FAULTS)' '$(P)' '$(SEED)' '$(TIMEOUT)' $(FILTER))

valgrind:
	$(call with_variant,valgrind)

asan:
	$(call with_variant,asan)

# Per-patch gate (sched_fair/gate.sh) and whole-suite coverage (coverage/).
gate:
	@[ -n "$(SERIES)" ] || { echo "fairtest: make gate needs SERIES=<dir of *.patch | mbox | rev range>" >&2; exit 2; }
	$(call with_tree,$(SF)/gate.sh "$(SERIES)" $$ksrc $$obj $(PROFILE_FILE) $(COVERAGE) $(RUN_ARGS))

coverage:
	$(call with_tree,$(TOP)/coverage/suite.sh $$ksrc $$obj $(PROFILE_FILE) $(RUN_ARGS))

clean:
	rm -rf $(O)

help:
	@echo 'fairtest: the tree'"'"'s kernel/sched/fair.c, unmodified, under user-space KUnit-style tests'
	@echo
	@echo 'Targets:'
	@echo '  check     build against the tree and run the fair.c suites (KTAP on stdout)'
	@echo '  test      everything CI runs: check, CLI and parser checks, valgrind, asan, the fault'
	@echo '            matrix, runner self-test, mutate, the gate on the fixture series'
	@echo '  build     prepare the tree and build the test binary only'
	@echo '  list      list suite.case names'
	@echo '  mutate    apply each mutant of fixtures/mutants to a copy of fair.c, run the'
	@echo '            suites on it, print which cases catch it (fails below 90% caught)'
	@echo '  fault     the suites under each libfiu failure point, once and with probability P,'
	@echo '            then all at random: a table of outcomes, WARNs, invariant breaks, crashes'
	@echo '  valgrind  the suites under valgrind memcheck: zero errors, zero bytes lost'
	@echo '  asan      the suites built with ASan+UBSan (fair.c, shim, tests): zero reports'
	@echo '  gate      SERIES=... : apply, build, test and cover each patch of a series in turn'
	@echo '            (table on stdout, KTAP and per-step coverage/HTML under the build dir)'
	@echo '  coverage  the suites on one tree built with --coverage: fair.c summary, HTML'
	@echo '  clean     remove the build dir ($(O))'
	@echo '  help      this text'
	@echo
	@echo 'Knobs (make VAR=value):'
	@echo '  KSRC=path   kernel tree to test (read only); default: Debian linux-source-6.12,'
	@echo '              installed and unpacked into ~/.cache/fairtest on first use'
	@echo '  PROFILE=x   config profile from sched_fair/configs ($(PROFILE)); one of:'
	@echo '              $(notdir $(basename $(wildcard $(SF)/configs/*.config)))'
	@echo '              (nohz: idle CPUs stop their tick; fair_nohz runs there)'
	@echo '  O=dir       build dir; one subdir per tree and profile ($(O))'
	@echo '  FILTER=g    run only suite.case names matching the glob(s)'
	@echo '  SEED=n      seed for randomised tests ($(SEED))'
	@echo '  JUNIT=f     also write JUnit XML to file f'
	@echo '  TIMEOUT=s   per-case time limit in seconds ($(TIMEOUT))'
	@echo '  FAIR_G=-g   full debug info for fair.c (gdb locals); default -g1: lines and'
	@echo '              inline frames only, which keeps touch-fair.c-to-results fast'
	@echo '  SERIES=s    for gate: a dir of *.patch (name order), an mbox (git format-patch,'
	@echo '              b4), or a revision range A..B when KSRC is a git checkout'
	@echo '  COVERAGE=0  gate without coverage (faster); default 1'
	@echo '  FAIRTEST_CACHE=dir  where the default tree is unpacked'
	@echo '  FAULTS=a,b  make fault: these failure points only (a trailing * matches a prefix);'
	@echo '              default all of:'
	@sed -n 's/^FT_POINT([A-Z_]*,[[:space:]]*"\([^"]*\)".*/                \1/p' $(TOP)/shim/faults.def
	@echo '  P=p         make fault: probability of the random runs, in [0,1] ($(P))'
	@echo '              SEED also pins libfiu'"'"'s generator (FIU_PRNG_SEED): same SEED, same faults'
	@echo '  FAIRTEST_FAULTS=a=once,b=0.1,c  (environment) enable points in any run, e.g. make check'
