# SPDX-License-Identifier: GPL-2.0
#
# The build graph for one tree, run by the top Makefile with KSRC (a checked
# tree), OBJ (its build dir) and PROFILE set. Kernel-side files are compiled
# with kbuild's own flags for fair.c (OBJ/kflags, see kflags.sh) and our
# override headers in front; user-side files with the host's ordinary flags.
# Dependencies come from -MMD, so editing the tree's fair.c or a header it
# includes rebuilds only what includes it. FAIR_C_DIR, when set, holds a
# fair.c that replaces the tree's (a mutant: see sched_fair/mutate.sh).

# Every header a .d file names would be tried against make's built-in rules
# (RCS, SCCS, ...): three quarters of the time of a run that finds nothing
# to do.
MAKEFLAGS += --no-builtin-rules
TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
# A variant (VARIANT=asan with its VARIANT_CFLAGS) shares the prepared
# tree and flags in OBJ but builds every object and the binary in OBJ/VARIANT.
VARIANT	?=
# The kernel-side objects' debug info: line tables and inline frames (what
# addr2line and the sanitizers use) by default, which keeps edit-to-result
# fast (full types of the kernel's headers in every shim object were a
# third of each link); FAIR_G=-g for gdb's locals too.
FAIR_G	?= -g1
B	:= $(OBJ)$(if $(VARIANT),/$(VARIANT))
PREPARED := $(OBJ)/kbuild/.fairtest-prepared
KFLAGS	= $(strip $(file < $(OBJ)/kflags))
# One KBUILD_BASENAME for every kernel-side file: a precompiled header is
# only used where the command line defines each macro as when it was made
# (only spinlock.h's LOCK_SECTION_NAME reads it, and nothing expands that).
KCFLAGS	= -fmacro-prefix-map=$(TOP)/= $(if $(FAIR_C_DIR),-iquote $(FAIR_C_DIR)) -I$(TOP)/shim/include -I$(OBJ)/gen $(KFLAGS) -I$(KSRC)/kernel/sched \
	  -O2 $(FAIR_G) -fno-omit-frame-pointer $(VARIANT_CFLAGS) \
	  -DKBUILD_MODNAME='"fairtest"' -DKBUILD_BASENAME='"fairtest"'
UCFLAGS	= -fmacro-prefix-map=$(TOP)/= -std=gnu11 $(UOPT) -g -Wall -Wextra -Wno-unused-parameter \
	  -I$(TOP)/shim -I$(TOP)/tests -I$(TOP)/tests/kunit $(VARIANT_CFLAGS) -MMD -MP
# User-side code at -O2, but the test files at -Og: they only set up
# cases and check results (fair.c and the shim are compiled apart), and
# they are most of the compiles of a cold start (-Og: about 3 s against
# 5-6 s at -O2 for all of them on a 2-core VM, with the same warnings).
UOPT	= -O2
$(B)/u/tests/%.o: UOPT = -Og
# x86 reads current through a const alias the linker provides: of the
# pcpu_hot block up to 6.12, of current_task itself from 7.2 (probe.sh
# tells which; read when a link expands it, after the probes are made).
PCPU_CURRENT = $(if $(findstring FT_HAVE_PCPU_HOT,$(file < $(OBJ)/gen/probes_tree.h)),pcpu_hot,current_task)
# -z now: libc's symbols are bound once, in the runner, not again in the
# child of every case.
# The rbtree's rebalancing calls go through shim/driver/rbwatch.c, which
# sees each rotation fair.c's callbacks make.
LDFLAGS	= -no-pie -Wl,-z,now -Wl,-T,$(TOP)/shim/percpu.lds -Wl,--defsym=const_$(PCPU_CURRENT)=$(PCPU_CURRENT) \
	  -Wl,--wrap=__rb_insert_augmented,--wrap=__rb_erase_color $(VARIANT_CFLAGS)
LDLIBS	= -lcmocka -lfiu

# The tree's own code: fair.c (through the bridge), pelt.c, topology.c,
# autogroup.c (where the profile has it) and three libs.
# x86's __sw_hweight* are the asm ones: callers assume only %rax changes.
REAL_OBJS := $(B)/k/fair_bridge.o $(B)/k/pelt_unit.o $(B)/k/topology_unit.o $(B)/k/autogroup_unit.o \
	     $(B)/k/lib/rbtree.o $(B)/k/lib/find_bit.o $(B)/k/arch/x86/lib/hweight.o
# The shim's kernel-side files are compiled as two units, shim/driver and
# shim/seams, each a generated list of #includes of its files: a file alone
# spent most of its compile loading the precompiled kernel headers (67 MB;
# 0.43 s a file on a 2-core VM, 26 files), a unit loads them once.
SHIM_UNITS := driver seams
# Built in k/shim/: coverage reads k/ and k/lib/ as the tree's own code.
SHIM_OBJS := $(patsubst %,$(B)/k/shim/%.o,$(SHIM_UNITS)) $(B)/k/gen/prio_tables.o
USER_SRCS := $(TOP)/shim/host.c $(TOP)/shim/arena.c $(TOP)/shim/fiu_host.c $(TOP)/shim/topo_file.c $(TOP)/tests/kunit/runner.c $(TOP)/tests/kunit/snapshot.c \
	     $(TOP)/tests/harness.c $(filter-out $(TOP)/tests/harness.c,$(wildcard $(TOP)/tests/*.c))
USER_OBJS := $(patsubst $(TOP)/%.c,$(B)/u/%.o,$(USER_SRCS)) $(B)/u/gen/seam_stubs.o \
	     $(B)/u/gen/topologies.o

BIN	:= $(B)/fairtest
# The workload simulator (sim/, user side) on the same kernel-side objects.
SIM_SRCS := $(wildcard $(TOP)/sim/*.c)
SIM_OBJS := $(patsubst $(TOP)/%.c,$(B)/u/%.o,$(SIM_SRCS)) $(B)/u/shim/host.o $(B)/u/shim/arena.o \
	    $(B)/u/shim/fiu_host.o $(B)/u/shim/topo_file.o $(B)/u/gen/seam_stubs.o \
	    $(B)/u/gen/topologies.o
FAIRSIM	:= $(B)/fairsim

all: $(BIN) $(FAIRSIM)
# make check needs the test binary alone: one link fewer after an edit.
fairtest: $(BIN)
fairsim: $(FAIRSIM)

$(PREPARED): $(TOP)/sched_fair/prepare.sh $(TOP)/sched_fair/kflags.sh $(PROFILE) \
	     $(wildcard $(dir $(PROFILE))*.config)	# a profile may include another
	@$(TOP)/sched_fair/prepare.sh $(KSRC) $(OBJ) $(PROFILE)
# prepare.sh also writes these (flags, weight tables from the tree's core.c,
# the profile against the kernel's config).
$(OBJ)/kflags $(OBJ)/gen/prio_tables.c $(OBJ)/gen/profile_desc.h: $(PREPARED) ;

# $(1).tmp replaces $(1) only when their text differs: a generated file's
# users rebuild when it changes, not whenever it is made (its rule's
# target is then a stamp, touched each time). Each rule on the way from
# an edit of fair.c to the test binary is one shell line, and makes
# directories only when missing: every process counts there.
replace_if_changed = { cmp -s $(1).tmp $(1) && rm $(1).tmp || mv $(1).tmp $(1); }
mkdir_for = [ -d $(dir $(1)) ] || mkdir -p $(dir $(1))

# probes.h holds what fair.c has (probes_fair.h: the part an edit of fair.c
# can change, a third of the probing) and what the headers and flags have
# (probes_tree.h). Each part is replaced only when its text changes, so
# editing fair.c does not rebuild everything that includes them.
PROBES	:= $(OBJ)/gen/probes.h $(OBJ)/gen/probes_fair.h $(OBJ)/gen/probes_tree.h
$(OBJ)/gen/probes.h: $(OBJ)/gen/probes_h.stamp ;
$(OBJ)/gen/probes_h.stamp: $(TOP)/sched_fair/build.mk
	@mkdir -p $(dir $@)
	@printf '#include "probes_tree.h"\n#include "probes_fair.h"\n' >$(OBJ)/gen/probes.h.tmp
	@$(call replace_if_changed,$(OBJ)/gen/probes.h)
	@touch $@
define probe
	@$(call mkdir_for,$@) && \
	 $(TOP)/sched_fair/probe.sh $(KSRC) $(OBJ)/kflags $(TOP)/shim $(1) >$(OBJ)/gen/probes_$(1).h.tmp && \
	 $(call replace_if_changed,$(OBJ)/gen/probes_$(1).h) && : >$@
endef
$(OBJ)/gen/probes_fair.h: $(OBJ)/gen/probes_fair.stamp ;
$(OBJ)/gen/probes_fair.stamp: $(PREPARED) $(TOP)/sched_fair/probe.sh $(KSRC)/kernel/sched/fair.c
	$(call probe,fair)
$(OBJ)/gen/probes_tree.h: $(OBJ)/gen/probes_tree.stamp ;
$(OBJ)/gen/probes_tree.stamp: $(PREPARED) $(TOP)/sched_fair/probe.sh $(KSRC)/kernel/sched/sched.h \
		$(KSRC)/kernel/sched/features.h $(KSRC)/include/linux/sched.h $(KSRC)/kernel/sched/topology.c
	$(call probe,tree)

# The tree a run names in its KTAP header: kernel version from the tree's
# Makefile, Debian package version where tree.sh unpacked it.
$(OBJ)/gen/tree_desc.h: $(KSRC)/Makefile $(wildcard $(KSRC)/.fairtest-version)
	@mkdir -p $(dir $@)
	@v=$$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\|EXTRAVERSION\) = *//p' $(KSRC)/Makefile | \
	     awk 'NR == 1 { v = $$0 } NR == 2 || NR == 3 { v = v "." $$0 } NR == 4 { v = v $$0 } END { print v }'); \
	 deb=$$(cat $(KSRC)/.fairtest-version 2>/dev/null); \
	 printf '#define FT_TREE_DESC "%s%s at %s"\n' "$$v" "$${deb:+ (Debian $$deb)}" "$(KSRC)" >$@.tmp && mv $@.tmp $@
$(B)/u/tests/kunit/runner.o: $(OBJ)/gen/tree_desc.h $(OBJ)/gen/profile_desc.h
$(B)/u/tests/kunit/runner.o: UCFLAGS += -include $(OBJ)/gen/tree_desc.h -include $(OBJ)/gen/profile_desc.h
$(B)/u/tests/preempt_model.o: $(OBJ)/gen/profile_desc.h
$(B)/u/tests/preempt_model.o: UCFLAGS += -include $(OBJ)/gen/profile_desc.h

# A precompiled header: most of a kernel-side compile is parsing the tree's
# headers (fair.c: half of gcc's time), the same for every file and every
# edit of fair.c. The PCH holds fair.c's own leading #include lines, read
# from the tree (quoted ones made absolute, so they name the same files as
# from fair.c's directory), and serves every kernel-side file that starts
# with the scheduler's headers: fair.c, pelt.c, topology.c and the shim
# units (shim/ksched.h adds a header or two; the kernel too compiles pelt.c
# and topology.c after more headers than they name, in build_*.c). One
# PCH, not one per prefix: making one is 3-4 s that the shim units wait
# for on a cold start. Made with the users' own flags, kbuild's -include
# files first as always; a user then names the PCH first and leaves those
# -include files to it. The include guards make the users' own #include
# of the same headers empty, so each file is compiled as it is, just
# without parsing its headers again. gcc checks a PCH against the command
# line and parses the header instead when they differ (-Winvalid-pch).
PCH	:= $(B)/k/pch
FAIR_SRC = $(if $(FAIR_C_DIR),$(FAIR_C_DIR),$(KSRC)/kernel/sched)/fair.c
space	:= $(subst ,, )
KINCLUDES = $(patsubst -include:%,%,$(filter -include:%,$(subst -include$(space),-include:,$(KFLAGS))))
KCFLAGS_PCH = $(filter-out -include $(KINCLUDES),$(KCFLAGS))
# Rewritten only when the list changes: an edit of fair.c keeps the PCH.
$(PCH)/fair_headers.h: $(PCH)/fair_headers.stamp ;
$(PCH)/fair_headers.stamp: $(FAIR_SRC) $(TOP)/sched_fair/build.mk
	@$(call mkdir_for,$@) && \
	 awk -v dir='$(KSRC)/kernel/sched/' '/^#include "/ { sub(/"/, "\"" dir) } \
	     /^#include/ { print; next } /^[ \t]*$$/ || /^\/\*/ || /^ \*/ || /^\/\// { next } { exit }' $< >$(PCH)/fair_headers.h.tmp && \
	 $(call replace_if_changed,$(PCH)/fair_headers.h) && : >$@
# Dated as its newest input, not as the time it was made: on a cold start
# fair.c compiles beside it (BRIDGE_PCH below) and may finish first, and a
# PCH dated after fair_bridge.o would have the next run compile fair.c
# again for nothing.
$(PCH)/%.h.gch: $(PCH)/%.h $(PREPARED) $(OBJ)/gen/kernel_g
	@echo "  PCH     $*.h"
	@$(CC) $(KCFLAGS) -MMD -MP -MF $@.d -MT $@ -c -x c-header $< -o $@.tmp && \
	 touch -r "$$(ls -t $^ | head -n 1)" $@.tmp && mv $@.tmp $@

# Kernel-side compiles; a failure names the file and shows the first error.
# With $(1), a PCH from above: its header first, kbuild's -include files
# left to it. -pipe: the assembler works beside the compiler, on a core
# that is idle while fair.c compiles.
define kcc
	@$(call mkdir_for,$@); echo "  KCC     $(patsubst $(KSRC)/%,%,$(patsubst $(TOP)/%,%,$<))"; \
	 $(CC) -pipe $(if $(1),-include $(PCH)/$(1) -Winvalid-pch $(KCFLAGS_PCH),$(KCFLAGS)) -MMD -MP -MF $@.d -c $< -o $@ 2>$@.err || \
	 { grep -m1 -E 'error|Error' $@.err | sed 's/^/fairtest: first error: /' >&2; \
	   echo "fairtest: $< does not compile for user space (full output: $@.err)" >&2; rm -f $@; exit 1; }; \
	 [ ! -s $@.err ] || cat $@.err >&2
endef

# The value of variable $(2) kept in file $(1), rewritten (while parsing,
# without a process) only when it changes, so that its users rebuild then.
# Compared stripped: a value of several lines would not compare as read.
define remember
ifneq ($$(strip $$(file < $(1))),$$(strip $$($(2))))
$$(shell mkdir -p $(dir $(1)))
$$(file > $(1),$$($(2)))
endif
endef
# Changing FAIR_G rebuilds the kernel side.
$(eval $(call remember,$(OBJ)/gen/kernel_g,FAIR_G))
$(REAL_OBJS) $(SHIM_OBJS): $(OBJ)/gen/kernel_g

# Changing a variant's flags (make asan) rebuilds all of it.
ifneq ($(VARIANT),)
$(eval $(call remember,$(B)/variant_cflags,VARIANT_CFLAGS))
$(REAL_OBJS) $(SHIM_OBJS) $(USER_OBJS): $(B)/variant_cflags
endif

# On a cold start, making the PCH and then compiling fair.c with it would
# be one serial chain on the way to results: fair.c is compiled without
# it then, beside the PCH the shim units wait for, and with it from the
# first edit on (it exists when make reads this).
BRIDGE_PCH := $(wildcard $(PCH)/fair_headers.h.gch)
$(B)/k/fair_bridge.o: $(TOP)/shim/fair_bridge.c $(PREPARED) $(PROBES) $(BRIDGE_PCH)
	$(call kcc,$(if $(BRIDGE_PCH),fair_headers.h))
$(B)/k/pelt_unit.o $(B)/k/topology_unit.o $(B)/k/autogroup_unit.o: $(B)/k/%.o: $(TOP)/shim/%.c $(PREPARED) $(PROBES) $(PCH)/fair_headers.h.gch
	$(call kcc,fair_headers.h)
$(B)/k/lib/%.o: $(KSRC)/lib/%.c $(PREPARED)
	$(kcc)
$(B)/k/arch/x86/lib/%.o: KCFLAGS += -D__ASSEMBLY__ -Wa,--noexecstack
$(B)/k/arch/x86/lib/%.o: $(KSRC)/arch/x86/lib/%.S $(PREPARED)
	$(kcc)
define newline


endef
hash	:= \#
# A unit's text, rewritten when its list of files changes. SHIM_DIR, when
# set, holds a patched copy of shim/ (a mutant of the shim itself, see
# tests/checker/modes.sh) whose units SHIM_PATCHED replace the repo's: only
# those are rebuilt.
shim_dir = $(if $(filter $(1),$(SHIM_PATCHED)),$(SHIM_DIR),$(TOP)/shim)
shim_unit = $(subst $(newline) ,$(newline),$(foreach f,$(sort $(wildcard $(call shim_dir,$(1))/$(1)/*.c)),$(hash)include "$(f)"$(newline)))
$(foreach u,$(SHIM_UNITS),$(eval SHIM_UNIT_$(u) = $$(call shim_unit,$(u))) \
	$(eval $(call remember,$(OBJ)/gen/shim_$(u).c,SHIM_UNIT_$(u))))
$(B)/k/shim/%.o: $(OBJ)/gen/shim_%.c $(PREPARED) $(PROBES) $(PCH)/fair_headers.h.gch
	$(call kcc,fair_headers.h)
$(B)/k/gen/prio_tables.o: $(OBJ)/gen/prio_tables.c $(PREPARED)
	$(kcc)

# Every symbol the real objects need must come from a seam in the manifest;
# any other gets a generated abort-if-reached stub, listed, not a link error.
# The .c is rewritten only when it changes (editing fair.c rarely changes
# what it needs), so its object and the stamp's users stay put.
$(B)/gen/seam_stubs.c: $(B)/gen/seam_stubs.stamp ;
$(B)/gen/seam_stubs.stamp: $(REAL_OBJS) $(SHIM_OBJS) $(TOP)/shim/seams.manifest $(TOP)/sched_fair/seams.sh
	@$(call mkdir_for,$@) && \
	 $(TOP)/sched_fair/seams.sh $(TOP)/shim/seams.manifest "$(REAL_OBJS)" "$(SHIM_OBJS)" $(B)/gen/seam_stubs.c && : >$@

# fairsim's trace in the tree's own tracepoint formats.
$(OBJ)/gen/trace_formats.h: $(KSRC)/include/trace/events/sched.h $(TOP)/sched_fair/trace_formats.sh
	@$(call mkdir_for,$@) && $(TOP)/sched_fair/trace_formats.sh $(KSRC) >$@.tmp && mv $@.tmp $@
$(B)/u/sim/trace.o: $(OBJ)/gen/trace_formats.h
$(B)/u/sim/trace.o: UCFLAGS += -I$(OBJ)/gen
# Which reads wake a pipe's writer (sim/pipe.c): the tree's fs/pipe.c says;
# a partial tree has none, and its version decides (7.2, 7.3 wake on a freed page).
SIM_PIPE_FLAGS := $(shell if [ -f $(KSRC)/fs/pipe.c ]; then \
	grep -q 'wake_writer |= pipe_full' $(KSRC)/fs/pipe.c && echo -DSIM_PIPE_WAKE_ON_FREE; \
	elif [ "$$(sed -n 's/^VERSION = //p' $(KSRC)/Makefile 2>/dev/null)" -ge 7 ] 2>/dev/null; then \
	echo -DSIM_PIPE_WAKE_ON_FREE; fi)
$(B)/u/sim/pipe.o: UCFLAGS += $(SIM_PIPE_FLAGS)

$(B)/u/%.o: $(TOP)/%.c
	@$(call mkdir_for,$@) && echo "  CC      $*.c" && $(CC) $(UCFLAGS) -c $< -o $@
# SIM_DIR, when set, holds a patched copy of sim/ (a mutant of the engine,
# see tests/sim/mutants.sh): fairsim is built from it, in a copy of the
# base build, so only the patched files are compiled again.
ifneq ($(SIM_DIR),)
$(B)/u/sim/%.o: $(SIM_DIR)/%.c
	@$(call mkdir_for,$@) && echo "  CC      $(SIM_DIR)/$*.c" && $(CC) $(UCFLAGS) -c $< -o $@
endif
# Likewise the user side of a patched shim/ (its files at the top: the
# arena, the host's helpers), compiled from SHIM_DIR.
ifneq ($(SHIM_DIR),)
$(B)/u/shim/%.o: $(SHIM_DIR)/%.c
	@$(call mkdir_for,$@) && echo "  CC      $(SHIM_DIR)/$*.c" && $(CC) $(UCFLAGS) -c $< -o $@
endif
# Named machines (fixtures/topologies) compiled into the test binary, with
# the real kernel's dumps of them (qemu/SERIES/*.dump) for the tree's series;
# the directories too, so that a dump removed is gone from the binary.
$(B)/gen/topologies.c: $(wildcard $(TOP)/fixtures/topologies/*.topo $(TOP)/fixtures/topologies/qemu/*/*.dump) \
		$(wildcard $(TOP)/fixtures/topologies/qemu $(TOP)/fixtures/topologies/qemu/*/) \
		$(TOP)/sched_fair/topologies.sh $(TOP)/sched_fair/qemu_dump.awk
	@$(call mkdir_for,$@) && $(TOP)/sched_fair/topologies.sh $(TOP)/fixtures/topologies $@
$(B)/u/gen/topologies.o: $(B)/gen/topologies.c $(OBJ)/gen/tree_desc.h
	@$(call mkdir_for,$@) && $(CC) $(UCFLAGS) -include $(OBJ)/gen/tree_desc.h -c $< -o $@
$(B)/u/gen/seam_stubs.o: $(B)/gen/seam_stubs.c
	@$(call mkdir_for,$@) && $(CC) $(UCFLAGS) -c $< -o $@

$(BIN): $(REAL_OBJS) $(SHIM_OBJS) $(USER_OBJS) $(TOP)/shim/percpu.lds
	@echo "  LD      $(patsubst $(TOP)/%,%,$@)"; \
	 $(CC) $(LDFLAGS) $(filter %.o,$^) $(LDLIBS) -o $@.tmp && mv $@.tmp $@

$(FAIRSIM): $(REAL_OBJS) $(SHIM_OBJS) $(SIM_OBJS) $(TOP)/shim/percpu.lds
	@echo "  LD      $(patsubst $(TOP)/%,%,$@)"; \
	 $(CC) $(LDFLAGS) $(filter %.o,$^) -ljson-c -lfiu -lm -o $@.tmp && mv $@.tmp $@

.PHONY: all fairtest fairsim
# Globbed, not found: this is parsed on every run.
-include $(wildcard $(foreach d,k k/* k/*/* k/*/*/* u/* u/*/*,$(B)/$(d)/*.d))
