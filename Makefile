# SPDX-License-Identifier: GPL-2.0
#
# fairtest: the kernel's kernel/sched/fair.c, unmodified, in user space,
# under deterministic KUnit-style tests. `make help` lists every knob.

KSRC	?=
KVER	?= 6.12
PROFILE	?= debian
O	?= build
FILTER	?=
SEED	?= 1
JUNIT	?=
TIMEOUT	?= 60
FAULTS	?=
P	?= 0.05
SERIES	?=
MUTANTS	?=
COVERAGE ?= 1
# make sim (the workload simulator, sim/)
WORKLOAD ?=
CPUS	?=
TOPO	?=
DURATION ?=
FEATURES ?=
RESULT	?=
TRACE	?=
CHECKER	?= 1
PLOT	?=
SEEDS	?= 5
KSRC_B	?=
FEATURES_B ?=
PROFILE_B ?=
IDEAL	?=
SLACK	?=
WAKE_COST ?=
IDLE_EXIT ?=
WAKE_PREEMPT ?=
TICK_PREEMPT ?=
HRTICK_PREEMPT ?=
HRTICK_ARM ?=
TICK_COST ?=
TIMER_WAKE ?=
TIMER_COST ?=
FUTEX_WAKE_COST ?=
UNLOCK_WAKE_COST ?=
PIPE_WAKE_COST ?=
LOOP_COST ?=
EXIT_SWITCH ?=
# make twin (fairsim beside the real kernel under QEMU, twin/)
RUNS	?= 3
CALIBRATE ?=
ACCEL	?=
MARKDOWN ?=
# make domains-xcheck
SHAPES	?=
# make campaign (sched_fair/campaign.sh)
KIND	?=
SHARD	?=
HOSTS	?=
SLURM	?=
CAMPAIGN ?=

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# The build uses every core unless make was given its own -j.
JOBS	= $(if $(findstring -j,$(MAKEFLAGS)),,-j$(shell nproc))
# Runs side by side (sim-ab's runs, make mutate's mutants): make's -jN, every core without one.
NJOBS	= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$(shell nproc))
SF	:= $(TOP)/sched_fair
PROFILE_FILE := $(SF)/configs/$(PROFILE).config
RUN_ARGS = --seed $(SEED) --timeout $(TIMEOUT) $(if $(JUNIT),--junit $(JUNIT)) $(FILTER)

# The build dir of tree $$ksrc with profile $(1), a shell word: the tree's
# name and a hash of its path and profile. Every process counts on the way
# from an edit to its results: md5sum is the only one.
obj_dir = $(abspath $(O))/$${ksrc\#\#*/}-$$(printf '%s' "$$ksrc:$(1)" | md5sum | { read -r h _; printf '%.8s' "$$h"; })
# The targets that start python3 over and over get it as the interpreter
# itself where it is a version manager's shim (sched_fair/pypath.sh, which
# starts one through the shim: 0.3-0.4 s, left off the edit path of check).
test mutate gate coverage campaign sim-ab twin: PY_FIRST = 1
# Resolving the tree may install the default one, so it is done by the
# targets that need a tree, never while parsing (make help stays instant).
define with_tree
	$(if $(wildcard $(PROFILE_FILE)),,@echo "fairtest: unknown PROFILE=$(PROFILE); profiles: $(notdir $(basename $(wildcard $(SF)/configs/*.config)))" >&2; exit 2)
	@$(SF)/deps.sh
	+@ksrc=$$(KVER='$(KVER)' $(SF)/tree.sh $(KSRC)) && \
	 $(if $(PY_FIRST),ft_pydir=$(abspath $(O))/.python3 && . $(SF)/pypath.sh && )obj=$(call obj_dir,$(PROFILE)) && \
	 $(MAKE) --no-print-directory $(JOBS) -f $(SF)/build.mk KSRC=$$ksrc OBJ=$$obj PROFILE=$(PROFILE_FILE) $(or $(2),all) && \
	 $(1)
endef

.PHONY: all build check test list mutate clean help fault valgrind asan gate coverage sim sim-ab twin domains-xcheck findings-real campaign
all: build

build:
	$(call with_tree,true)

check:
	$(call with_tree,$$obj/fairtest $(RUN_ARGS),fairtest)

list:
	$(call with_tree,$$obj/fairtest --list,fairtest)

# The project's tests: the fair.c suites, then our checks of the tools.
test:
	$(call with_tree,$(call build_variant,valgrind) && $(call build_variant,asan) && \
	 FAIRTEST_PROFILE=$(PROFILE_FILE) $(TOP)/tests/project.sh $$obj $$ksrc $(RUN_ARGS))

# Each deliberate bug of fixtures/mutants applied alone; the table of which
# cases catch it. Fails below 90% caught.
mutate:
	$(call with_tree,MUTANTS='$(MUTANTS)' MUTATE_JOBS=$(NJOBS) $(SF)/mutate.sh $$obj $$ksrc $(PROFILE_FILE) --seed $(SEED) --timeout 30 $(FILTER))

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

# One rt-app workload on the fake machine (sim/): reports on stdout.
# The machine: TOPO= a name of fixtures/topologies or a .topo file, or
# "islands" (CPUS CPUs without sched domains); else CPUS cores on one LLC.
SIM_MACHINE = $(if $(CPUS),--cpus $(CPUS)) \
	   $(if $(filter islands,$(TOPO)),--islands,$(if $(TOPO),--topology $(TOPO)))
# What a real machine adds (sim/engine.c): fairsim's defaults unless set.
SIM_COSTS = $(if $(IDEAL),--ideal) $(if $(SLACK),--timer-slack $(SLACK)) \
	   $(if $(WAKE_COST),--wake-cost $(WAKE_COST)) $(if $(IDLE_EXIT),--idle-exit $(IDLE_EXIT)) \
	   $(if $(WAKE_PREEMPT),--wake-preempt $(WAKE_PREEMPT)) \
	   $(if $(TICK_PREEMPT),--tick-preempt $(TICK_PREEMPT)) \
	   $(if $(HRTICK_PREEMPT),--hrtick-preempt $(HRTICK_PREEMPT)) \
	   $(if $(HRTICK_ARM),--hrtick-arm $(HRTICK_ARM)) $(if $(TICK_COST),--tick-cost $(TICK_COST)) \
	   $(if $(FUTEX_WAKE_COST),--futex-wake-cost $(FUTEX_WAKE_COST)) $(if $(LOOP_COST),--loop-cost $(LOOP_COST)) \
	   $(if $(UNLOCK_WAKE_COST),--unlock-wake-cost $(UNLOCK_WAKE_COST)) \
	   $(if $(PIPE_WAKE_COST),--pipe-wake-cost $(PIPE_WAKE_COST)) $(if $(TIMER_WAKE),--timer-wake $(TIMER_WAKE)) \
	   $(if $(TIMER_COST),--timer-cost $(TIMER_COST)) $(if $(EXIT_SWITCH),--exit-switch)
SIM_ARGS = $(SIM_MACHINE) $(SIM_COSTS) --seed $(SEED) $(if $(DURATION),--duration $(DURATION)) \
	   $(if $(FEATURES),--features '$(FEATURES)') $(if $(RESULT),--json $(RESULT)) \
	   $(if $(TRACE),--trace $(TRACE)) $(if $(filter 0,$(CHECKER)),--no-check)
# PLOT=dir: also the result, the trace and their plots (gnuplot) in dir.
sim:
	@[ -n "$(WORKLOAD)" ] || { echo "fairtest: make sim needs WORKLOAD=<rt-app .json>; see fixtures/workloads/" >&2; exit 2; }
	$(if $(PLOT),@$(SF)/deps.sh gnuplot-nox && mkdir -p $(PLOT))
	$(call with_tree,$$obj/fairsim $(SIM_ARGS) $(if $(PLOT),--json $(PLOT)/result.json --trace $(PLOT)/trace.txt) \
	 $(WORKLOAD) $(if $(PLOT),&& $(TOP)/sim/plot.py $(PLOT) --result $(PLOT)/result.json --trace $(PLOT)/trace.txt))

# The same workload base vs patched: another tree (KSRC_B) and/or other
# features (FEATURES_B), over SEEDS seeds; results under the build dir.
# The runs go make's -jN at a time, every core without one (-j alone too).
sim-ab:
	@[ -n "$(WORKLOAD)" ] || { echo "fairtest: make sim-ab needs WORKLOAD=<rt-app .json>" >&2; exit 2; }
	@[ -n "$(KSRC_B)$(FEATURES_B)$(PROFILE_B)" ] || { echo "fairtest: make sim-ab needs KSRC_B=<patched tree>, FEATURES_B=<features> and/or PROFILE_B=<profile>" >&2; exit 2; }
	@[ -z "$(PROFILE_B)" ] || [ -f $(SF)/configs/$(PROFILE_B).config ] || { echo "fairtest: unknown PROFILE_B=$(PROFILE_B); profiles: $(notdir $(basename $(wildcard $(SF)/configs/*.config)))" >&2; exit 2; }
	$(if $(PLOT),@$(SF)/deps.sh gnuplot-nox)
	$(if $(KSRC_B)$(PROFILE_B),+@$(MAKE) --no-print-directory build $(if $(KSRC_B),KSRC=$(KSRC_B)) \
	  $(if $(PROFILE_B),PROFILE=$(PROFILE_B)))
	$(call with_tree,bin_b=$$obj/fairsim; \
	 $(if $(KSRC_B)$(PROFILE_B),ksrc=$$(KVER='$(KVER)' $(SF)/tree.sh $(or $(KSRC_B),$(KSRC))) && \
	   bin_b=$(call obj_dir,$(or $(PROFILE_B),$(PROFILE)))/fairsim;) \
	 $(TOP)/sim/ab.sh -j $(NJOBS) $(if $(filter 1,$(MARKDOWN)),--markdown) $(WORKLOAD) $$obj/sim-ab/$$(basename $(WORKLOAD) .json) $(SEEDS) $(SEED) \
	 $$obj/fairsim '$(FEATURES)' $$bin_b '$(FEATURES_B)' $(SIM_MACHINE) $(SIM_COSTS) \
	 $(if $(DURATION),--duration $(DURATION)) $(if $(filter 0,$(CHECKER)),--no-check) \
	 $(if $(PLOT),&& $(TOP)/sim/plot.py $(PLOT) \
	   --result $$obj/sim-ab/$$(basename $(WORKLOAD) .json)/base-seed$(SEED).json \
	   --result-b $$obj/sim-ab/$$(basename $(WORKLOAD) .json)/patched-seed$(SEED).json))

# A campaign split into shards that GNU parallel runs here, on HOSTS or
# (SLURM=1) in a Slurm array; the merge prints one machine's report.
campaign:
	@[ -z "$(KSRC_B)$(PROFILE_B)" ] || { echo "fairtest: make campaign splits FEATURES_B's A/B only; for KSRC_B or PROFILE_B use make sim-ab" >&2; exit 2; }
	$(call with_tree,KIND='$(KIND)' SEEDS='$(if $(filter command line,$(origin SEEDS)),$(SEEDS))' SEED='$(SEED)' \
	 CAMPAIGN_JOBS='$(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))' SHARD='$(SHARD)' HOSTS='$(HOSTS)' SLURM='$(SLURM)' CAMPAIGN='$(CAMPAIGN)' FILTER='$(FILTER)' \
	 FAULTS='$(FAULTS)' P='$(P)' TIMEOUT='$(TIMEOUT)' MUTANTS='$(MUTANTS)' WORKLOAD='$(WORKLOAD)' \
	 FEATURES='$(FEATURES)' FEATURES_B='$(FEATURES_B)' \
	 SIM_ARGS='$(strip $(SIM_MACHINE) $(SIM_COSTS) $(if $(DURATION),--duration $(DURATION)) $(if $(filter 0,$(CHECKER)),--no-check))' \
	 $(SF)/campaign.sh run $$obj $$ksrc $(PROFILE_FILE))

# The workload in fairsim and on the tree's own kernel under QEMU, RUNS
# boots, both traces through fairsim's analysis, side by side (twin/).
TWIN_NAME = $$(basename $(WORKLOAD) .json)-$(or $(CPUS),8)cpu$(if $(FEATURES),-$$(printf '%s' '$(FEATURES)' | tr '!,' '_+'))
# With SERIES: the base, then the tree with the series (twin/kernel.sh
# --series; tried first, so that a series that does not apply stops before
# anything boots), both kernels built from their trees with one config.
twin:
	@[ -n "$(WORKLOAD)" ] || { echo "fairtest: make twin needs WORKLOAD=<rt-app .json>; see fixtures/workloads/" >&2; exit 2; }
ifneq ($(SERIES),)
	+@ksrc=$$(KVER='$(KVER)' $(SF)/tree.sh $(KSRC)) && \
	 $(TOP)/twin/kernel.sh --series $$ksrc $(abspath $(O))/twin-kernel '$(SERIES)' >/dev/null && \
	 echo "twin: base: $$ksrc" && \
	 FAIRTEST_TWIN_KERNEL=build $(MAKE) --no-print-directory twin SERIES= KSRC=$$ksrc && \
	 p=$$($(TOP)/twin/kernel.sh --series $$ksrc $(abspath $(O))/twin-kernel '$(SERIES)') && \
	 echo "twin: patched: $$ksrc + $(SERIES)" && \
	 FAIRTEST_TWIN_KERNEL=build $(MAKE) --no-print-directory twin SERIES= KSRC=$$p
else
	$(call with_tree,FAIRTEST_TWIN_CALIBRATE='$(CALIBRATE)' \
	 FAIRTEST_TWIN_SEEDS='$(if $(filter command line,$(origin SEEDS)),$(SEEDS),1)' $(TOP)/twin/twin.sh $$obj/fairsim $$ksrc $(abspath $(WORKLOAD)) $$obj/twin/$(TWIN_NAME) \
	 '$(or $(CPUS),8)' '$(DURATION)' '$(SEED)' '$(FEATURES)' '$(RUNS)' '$(ACCEL)' '$(strip $(SIM_COSTS))')
endif

# The tree's kernel booted under QEMU once per machine shape (kunit.py):
# its domain dumps re-captured into fixtures/topologies/qemu/SERIES/, which
# fair_topology compares with ours. A developer's tool; CI needs no QEMU.
domains-xcheck:
	@$(SF)/deps.sh
	@ksrc=$$(KVER='$(KVER)' $(SF)/tree.sh $(KSRC)) && \
	 $(SF)/domains_xcheck.sh $$ksrc $(abspath $(O))/qemu-xcheck/$$(basename $$ksrc) \
	 $(TOP)/fixtures/topologies/qemu $(SHAPES)

# fairtest's findings on the tree's own kernel under QEMU (kunit.py): one
# verdict line per finding. A developer's tool; CI needs no QEMU.
findings-real:
	@$(SF)/deps.sh
	@ksrc=$$(KVER='$(KVER)' $(SF)/tree.sh $(KSRC)) && \
	 $(SF)/findings_real.sh $$ksrc $(abspath $(O))/qemu-findings/$$(basename $$ksrc) $(SERIES)

clean:
	rm -rf $(O)

help:
	@echo 'fairtest: the tree'"'"'s kernel/sched/fair.c, unmodified, under user-space KUnit-style tests'
	@echo
	@echo 'Targets:'
	@echo '  check     build against the tree and run the fair.c suites (KTAP on stdout)'
	@echo '  test      everything CI runs: check, CLI and parser checks, valgrind, asan, the fault'
	@echo '            matrix, runner self-test, mutate, the gate on the fixture series,'
	@echo '            the docs'"'"' links and make targets'
	@echo '  build     prepare the tree and build the test binary only'
	@echo '  list      list suite.case names'
	@echo '  mutate    apply each mutant of fixtures/mutants to a copy of fair.c, run the'
	@echo '            suites on it, print which cases catch it (fails below 90% caught);'
	@echo '            -jN mutants at once, every core without -j'
	@echo '  fault     the suites under each libfiu failure point, once and with probability P,'
	@echo '            then all at random: a table of outcomes, WARNs, invariant breaks, crashes'
	@echo '  valgrind  the suites under valgrind memcheck: zero errors, zero bytes lost'
	@echo '  asan      the suites built with ASan+UBSan (fair.c, shim, tests): zero reports'
	@echo '  gate      SERIES=... : apply, build, test and cover each patch of a series in turn'
	@echo '            (table on stdout, KTAP and per-step coverage/HTML under the build dir)'
	@echo '  coverage  the suites on one tree built with --coverage: fair.c summary, HTML'
	@echo '  sim       WORKLOAD=f.json : run an rt-app workload on the fake machine; perf sched'
	@echo '            latency, cyclictest and schbench shaped tables (fixtures/workloads/)'
	@echo '  sim-ab    WORKLOAD=f.json KSRC_B=tree, FEATURES_B=... and/or PROFILE_B=...: base vs patched over'
	@echo '            SEEDS seeds, latency rows with change % and +/- spread'
	@echo '            (runs -jN at a time, default every core; output as a serial run'"'"'s)'
	@echo '  twin      WORKLOAD=f.json : f in fairsim and on the tree'"'"'s own kernel (Debian'"'"'s image of'
	@echo '            its exact version; for another tree, one built from it with'
	@echo '            sched_fair/configs/twin-kernel.kconfig) under QEMU, RUNS boots; the same analysis of both traces,'
	@echo '            side by side (docs/twin.md; needs QEMU, no root, no network once cached)'
	@echo '            twin/fidelity.sh [DURATION [RUNS]]: every twin of the fidelity table, whose'
	@echo '            boots are kept and reused, fairsim always run anew (docs/fidelity.md; its'
	@echo '            environment: O=dir, FIDELITY_ROWS=rows, FIDELITY_SEEDS=n, FIDELITY_RERUN=1);'
	@echo '            FAIRTEST_TWIN_APPEND=args: more kernel arguments; FAIRTEST_TWIN_STORE=dir adds'
	@echo '            the boots to those there, FAIRTEST_TWIN_REUSE=1 takes the first RUNS stored of the'
	@echo '            same key (=all: every one);'
	@echo '            FAIRTEST_TWIN_KERNEL=build: build the kernel of a Debian tree too; SERIES=s: base,'
	@echo '            then patched, both built'
	@echo '  domains-xcheck  boot the tree'"'"'s kernel under QEMU (its kunit.py) once per machine'
	@echo '            shape and re-capture its sched-domain dumps into fixtures/topologies/qemu/,'
	@echo '            which fair_topology compares with ours (needs QEMU; CI does not)'
	@echo '  findings-real  build the tree'"'"'s kernel with fairtest'"'"'s KUnit cases (its kunit.py),'
	@echo '            boot it under QEMU (TCG, 4 CPUs): one verdict line per finding of'
	@echo '            tests/findings.c (shown / not shown / cannot be shown here: why);'
	@echo '            SERIES=s: the tree with series s applied (an incremental kernel build)'
	@echo '  campaign  KIND=property|fault|mutate|sim: the run split into shards that GNU parallel'
	@echo '            runs on every core, on HOSTS, or SLURM=1 (a Slurm array script); the merged'
	@echo '            report is the one machine'"'"'s, byte for byte (docs/campaign.md)'
	@echo '  clean     remove the build dir ($(O))'
	@echo '  help      this text'
	@echo
	@echo 'Knobs (make VAR=value):'
	@echo '  KSRC=path   kernel tree to test (read only): an unpacked tree or a git checkout'
	@echo '  KVER=x.y    without KSRC: Debian'"'"'s linux-source-x.y ($(KVER)); the newest version'
	@echo '              served is fetched (apt-get download, private apt state) and unpacked'
	@echo '              once into ~/.cache/fairtest/trees/linux-source-x.y-<version>'
	@echo '              (6.12: the installed package). Trees run here: 6.12, 7.2, 7.3.'
	@echo '              Only what a build reads is unpacked; for the rest (a kernel build'
	@echo '              of your own): sched_fair/tree.sh --complete <tree>'
	@echo '  PROFILE=x   config profile from sched_fair/configs ($(PROFILE)); one of:'
	@echo '              $(notdir $(basename $(wildcard $(SF)/configs/*.config)))'
	@echo '              (debian: the scheduler options of Debian'"'"'s own config of the tree;'
	@echo '              base: the smallest config that builds fair.c, for a tree Debian has no'
	@echo '              image of; nohz: base, idle CPUs stop their tick; hz1000: base, a 1 ms'
	@echo '              tick; see docs/profiles.md)'
	@echo '  O=dir       build dir; one subdir per tree and profile ($(O))'
	@echo '  FILTER=g    run only suite.case names matching the glob(s)'
	@echo '  SEED=n      seed for randomised tests ($(SEED))'
	@echo '  JUNIT=f     also write JUnit XML to file f'
	@echo '  TIMEOUT=s   per-case time limit in seconds ($(TIMEOUT))'
	@echo '  FAIR_G=-g   full debug info for fair.c and the shim (gdb locals); default -g1:'
	@echo '              lines and inline frames only, which keeps touch-fair.c-to-results fast'
	@echo '  SERIES=s    for gate, findings-real and twin: a dir of *.patch (name order), an mbox (git format-patch,'
	@echo '              b4), or a revision range A..B when KSRC is a git checkout'
	@echo '  COVERAGE=0  gate without coverage (faster); default 1'
	@echo '  MUTANTS=g   make mutate: only the mutants whose names match the glob(s)'
	@echo '              (the 90% floor then applies to those)'
	@echo '  FAIRTEST_CACHE=dir  where the default tree is unpacked'
	@echo '  FAULTS=a,b  make fault: these failure points only (a trailing * matches a prefix);'
	@echo '              default all of:'
	@sed -n 's/^FT_POINT([A-Z_]*,[[:space:]]*"\([^"]*\)".*/                \1/p' $(TOP)/shim/faults.def
	@echo '  P=p         make fault: probability of the random runs, in [0,1] ($(P))'
	@echo '              SEED also pins libfiu'"'"'s generator (FIU_PRNG_SEED): same SEED, same faults'
	@echo '  FAIRTEST_FAULTS=a=once,b=0.1,c  (environment) enable points in any run, e.g. make check'
	@echo '  FAIRTEST_SEQUENCES=n  (environment) sequences in each fair_property case, not 400 and 100'
	@echo '  FAIRTEST_CHECKER=full  (environment) the invariant checker'"'"'s full scan in any run, auditing'
	@echo '              the incremental one'"'"'s premises (docs/sim-shortcuts.md); default incremental'
	@echo '  make sim knobs:'
	@echo '  WORKLOAD=f  the rt-app JSON file to run'
	@echo '  CPUS=n      fake CPUs, 1..64 (8): n cores on one LLC, one MC sched domain,'
	@echo '              placed and balanced by fair.c (the shape of fixtures/topologies/mc-4)'
	@echo '  TOPO=t      the machine instead: a name of fixtures/topologies ($(notdir $(basename $(wildcard $(TOP)/fixtures/topologies/*.topo))))'
	@echo '              or a .topo file; TOPO=islands: CPUS CPUs without sched domains (tasks'
	@echo '              spread round-robin at fork and never move)'
	@echo '  SEED=n      jitters each task'"'"'s start by up to 1 ms; 0 = no jitter ($(SEED))'
	@echo '  DURATION=s  simulated seconds, overrides the file'"'"'s global.duration'
	@echo '  FEATURES=l  sched features to set first, e.g. FEATURES='"'"'!RUN_TO_PARITY,PREEMPT_SHORT'"'"
	@echo '  RESULT=f    also write the JSON result to f'
	@echo '  TRACE=f     also write an ftrace text trace (opens in ui.perfetto.dev)'
	@echo '  CHECKER=0   run without the invariant checker (faster)'
	@echo '  SLACK=us    timer slack of a sleep or timer (50, the kernel'"'"'s for a normal task)'
	@echo '  WAKE_COST=us  CPU time a task spends per wake-up (10); IDLE_EXIT=us: an idle'
	@echo '              CPU'"'"'s delay from a wake-up to the switch (5); WAKE_PREEMPT=us: a busy'
	@echo '              CPU'"'"'s, when the wake-up preempts it (5); docs/twin-analysis.md'
	@echo '  FUTEX_WAKE_COST=us  CPU time a waker spends per task a futex wake-up (mutex,'
	@echo '              condition) wakes (0); LOOP_COST=us: at the end of each pass of a'
	@echo '              phase, rt-app'"'"'s own work (0); UNLOCK_WAKE_COST=us: a mutex unlock'"'"'s'
	@echo '              futex wake-up instead (FUTEX_WAKE_COST'"'"'s); docs/fidelity-sync.md'
	@echo '  EXIT_SWITCH=1  a futex call'"'"'s wake-up preemption of its own CPU switches at'
	@echo '              that call'"'"'s exit, not WAKE_PREEMPT after it; docs/fidelity-sync.md'
	@echo '  PIPE_WAKE_COST=us  CPU time a pipe writer or reader spends per task it wakes'
	@echo '              (0); docs/fidelity-pipe.md'
	@echo '  TICK_PREEMPT=us  a busy CPU'"'"'s delay from its tick'"'"'s handler to the switch the'
	@echo '              tick asks for (0); HRTICK_PREEMPT=us: from its hrtick'"'"'s (0); HRTICK_ARM=us:'
	@echo '              from a switch to its slice'"'"'s timer armed (7.2+, 0); TICK_COST=us: a tick'"'"'s'
	@echo '              handler, of the CPU time of the task it interrupts (0); TIMER_WAKE=us: from a'
	@echo '              sleep timer'"'"'s expiry to its task'"'"'s wake-up (0); TIMER_COST=us: a sleep'
	@echo '              timer'"'"'s handler, of the task it interrupts (0); docs/fidelity-differences.md'
	@echo '  IDEAL=1     none of those costs: the machine of fair.c'"'"'s decisions alone'
	@echo '  PLOT=dir    also write result, trace and SVG plots (gnuplot) into dir: latency'
	@echo '              distribution (base vs patched for sim-ab), per-CPU timeline'
	@echo '  SEEDS=n     make sim-ab: seeds per side, from SEED ($(SEEDS))'
	@echo '  KSRC_B=t    make sim-ab: the patched tree (built like KSRC, in its own dir)'
	@echo '  FEATURES_B=l  make sim-ab: the patched side'"'"'s features (FEATURES is the base'"'"'s)'
	@echo '  PROFILE_B=p make sim-ab: the patched side built with another profile, e.g.'
	@echo '              PROFILE=base PROFILE_B=hz1000 (HZ=1000 against the base profile'"'"'s 250)'
	@echo '  MARKDOWN=1  make sim-ab: the tables in markdown, headed by the machine and date'
	@echo '  make twin knobs: WORKLOAD, KVER/KSRC, CPUS (guest and fake CPUs, 8), DURATION (s of'
	@echo '              the window, default the file'"'"'s), SEED, FEATURES (set in both), the model'"'"'s'
	@echo '              costs (SLACK, WAKE_COST, IDLE_EXIT, WAKE_PREEMPT, TICK_PREEMPT, HRTICK_PREEMPT,'
	@echo '              HRTICK_ARM, TICK_COST, TIMER_WAKE, TIMER_COST, IDEAL: fairsim'"'"'s side), and:'
	@echo '  RUNS=n      boots of the real kernel, for the spread ($(RUNS))'
	@echo '  SEEDS=n     make twin: fairsim'"'"'s seeds from SEED, for its spread (1: SEED alone)'
	@echo '  CALIBRATE=1 make twin: fairsim rerun with the idle exit, wake-up preemption and wake cost'
	@echo '              the real boots measured (twin/calibrate.py; where a task broadcasts, the futex'
	@echo '              wake and loop costs too, from its segments; the tick'"'"'s and hrtick'"'"'s preemption'
	@echo '              where the trace has the timers'"'"' handlers); the header says which'
	@echo '  FAIRTEST_TWIN_EVENTS=f  (environment) make twin: dynamic events (fprobes, BTF names) of file f'
	@echo '              in every boot'"'"'s trace (twin/events/); FAIRSIM_PROBES=1: fairsim'"'"'s trace gets the'
	@echo '              same fields at each wake-up preemption check (twin/wakeup_state.py); FAIRSIM_FUTEX=1:'
	@echo '              glibc'"'"'s futex calls, as twin/events/futex.events records them (twin/futexes.py)'
	@echo '  FAIRTEST_TWIN_LIMIT=s  (environment) make twin: kill a guest after s seconds, not'
	@echo '              180 + 20 x DURATION; FAIRTEST_TWIN_KEEP=1 keeps a failed boot'"'"'s console'
	@echo '  ACCEL=a     auto (KVM if it boots here, else TCG: with -icount shift=1,sleep=off for'
	@echo '              CPUS=1, plain above), kvm, tcg (plain: guest clock = host clock), icount:N'
	@echo '  make campaign knobs (and the kind'"'"'s own: FILTER, SEED, FAULTS, P, MUTANTS, WORKLOAD, ...):'
	@echo '  KIND=k      property, fault, mutate or sim'
	@echo '  SEEDS=A-B   property and sim: seeds A..B (or a count from SEED; sim-ab'"'"'s 5 for sim)'
	@echo '  SHARD=n     property: seeds per shard, a multiple of 100 (1% of the range)'
	@echo '  HOSTS=f     a parallel --sshloginfile: shards run on those machines (the build goes there)'
	@echo '  SLURM=1     write the campaign'"'"'s Slurm array script, do not run'
	@echo '  CAMPAIGN=d  the campaign dir (default under the build dir, named by kind and knobs)'
	@echo '              make -jN: N shards at once on each machine (default: one per core);'
	@echo '              environment: RETRIES=n tries of a failing shard (3), PARALLEL_SSH=cmd'
	@echo '              the ssh command parallel uses (e.g. '"'"'ssh -F my_config'"'"')'
	@echo '  SHAPES=l    make domains-xcheck: these shapes only (default: uni-1 mc-2 mc-4'
	@echo '              smt-mc-8 two-pkg-16)'
