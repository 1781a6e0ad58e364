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

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SF	:= $(TOP)/sched_fair
PROFILE_FILE := $(SF)/configs/$(PROFILE).config
RUN_ARGS = --seed $(SEED) --timeout $(TIMEOUT) $(if $(JUNIT),--junit $(JUNIT)) $(FILTER)

# Resolving the tree may install the default one, so it is done by the
# targets that need a tree, never while parsing (make help stays instant).
define with_tree
	@[ -f $(PROFILE_FILE) ] || { echo "fairtest: unknown PROFILE=$(PROFILE); profiles: $(notdir $(basename $(wildcard $(SF)/configs/*.config)))" >&2; exit 2; }
	@$(SF)/deps.sh
	@ksrc=$$($(SF)/tree.sh $(KSRC)) && \
	 obj=$(abspath $(O))/$$(basename $$ksrc)-$$(printf '%s' "$$ksrc:$(PROFILE)" | md5sum | cut -c1-8) && \
	 $(MAKE) --no-print-directory -f $(SF)/build.mk KSRC=$$ksrc OBJ=$$obj PROFILE=$(PROFILE_FILE) all && \
	 $(1)
endef

.PHONY: all build check test list mutate clean help
all: build

build:
	$(call with_tree,true)

check:
	$(call with_tree,$$obj/fairtest $(RUN_ARGS))

list:
	$(call with_tree,$$obj/fairtest --list)

# The project's tests: the fair.c suites, then our checks of the tools.
test:
	$(call with_tree,FAIRTEST_PROFILE=$(PROFILE_FILE) $(TOP)/tests/project.sh $$obj $$ksrc $(RUN_ARGS))

# Each deliberate bug of fixtures/mutants applied alone; the table of which
# cases catch it. Fails below 90% caught.
mutate:
	$(call with_tree,$(SF)/mutate.sh $$obj $$ksrc $(PROFILE_FILE) --seed $(SEED) --timeout 30 $(FILTER))

clean:
	rm -rf $(O)

help:
	@echo 'fairtest: the tree'"'"'s kernel/sched/fair.c, unmodified, under user-space KUnit-style tests'
	@echo
	@echo 'Targets:'
	@echo '  check     build against the tree and run the fair.c suites (KTAP on stdout)'
	@echo '  test      the project'"'"'s own tests: check, CLI and parser checks, runner self-test, mutate'
	@echo '  build     prepare the tree and build the test binary only'
	@echo '  list      list suite.case names'
	@echo '  mutate    apply each mutant of fixtures/mutants to a copy of fair.c, run the'
	@echo '            suites on it, print which cases catch it (fails below 90% caught)'
	@echo '  clean     remove the build dir ($(O))'
	@echo '  help      this text'
	@echo
	@echo 'Knobs (make VAR=value):'
	@echo '  KSRC=path   kernel tree to test (read only); default: Debian linux-source-6.12,'
	@echo '              installed and unpacked into ~/.cache/fairtest on first use'
	@echo '  PROFILE=x   config profile from sched_fair/configs ($(PROFILE))'
	@echo '  O=dir       build dir; one subdir per tree and profile ($(O))'
	@echo '  FILTER=g    run only suite.case names matching the glob(s)'
	@echo '  SEED=n      seed for randomised tests ($(SEED))'
	@echo '  JUNIT=f     also write JUnit XML to file f'
	@echo '  TIMEOUT=s   per-case time limit in seconds ($(TIMEOUT))'
	@echo '  FAIRTEST_CACHE=dir  where the default tree is unpacked'
