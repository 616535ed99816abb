# netcosim — the only entry point. `make help` lists the targets; README.md explains them.
#
# Everything generated goes under build/. The co-simulation targets (one RTL
# top module + parameter set each) are declared in rtl/<block>/<block>.cosim;
# each gets generated glue (build/glue/T/), a Verilated archive
# (build/verilated/T/) and, after `make synth`, a Verilated yosys netlist.

SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS   += --no-print-directory

BUILD   := build
JOBS    ?= $(shell nproc)
R       ?= smoke
T       ?=
SEED    ?= 1
WAVES   ?= 0
MODE    ?=
BUG     ?=
CYCLES  ?=
ARGS    ?=
SHARD   ?= 1/1
# the simulators make regress/sim/waves/wave-png use: build/bin (-O2) or
# build/asan/bin (ASan+UBSan, what make test builds)
BIN_DIR ?= $(BUILD)/bin
VERILATOR_ROOT ?= /usr/share/verilator

# --- what exists -------------------------------------------------------------
COSIM_FILES := $(wildcard rtl/*/*.cosim)
$(BUILD)/mk/targets.mk: $(COSIM_FILES) mk/targets.awk
	@mkdir -p $(@D)
	@awk -f mk/targets.awk $(COSIM_FILES) > $@.tmp && mv $@.tmp $@
-include $(BUILD)/mk/targets.mk
TARGETS := $(foreach b,$(BLOCKS),$(TARGETS_$(b)))

# --- compilers ---------------------------------------------------------------
CC       := gcc
CXX      := g++
CWARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CFLAGS   := -std=c11 -O2 -g $(CWARN) -DNETCOSIM_SRCDIR='"$(CURDIR)"'
# -g1: line tables only, so sanitizer reports still name file and line; full
# -g cost 27 % more CPU to compile (five of the largest sources, 2026-11-28).
# build/bin's objects keep -g for gdb.
ASANFLAGS := -O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
VINC     := -I$(VERILATOR_ROOT)/include -I$(VERILATOR_ROOT)/include/vltstd
VDEFS    := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
CXXFLAGS := -std=c++17 -O2 -g -faligned-new -Wno-unused-result $(VINC) $(VDEFS)
# --assert: the RTL's assertions run in every lockstep (docs/formal.md); a failure
# is reported by the runtime's printf hook (testbench/vl_assert.h).
# -Werror-USERERROR: a parameter check's $error stops the build (5.006 takes it
# as a warning, which -Wno-fatal would let through into a Verilated model).
VERILATOR_FLAGS := --cc --trace-fst -O3 --x-assign fast --x-initial unique --assert -Wno-fatal -Werror-USERERROR
# A target's own Verilated build is also its `-Wall` lint (make lint's waivers,
# any warning fatal), so make test's lint leaves out the targets it builds
# (mk/lint.sh). --cc runs every check --lint-only does (LATCH, BLKSEQ,
# CASEINCOMPLETE, WIDTH, UNUSED... compared on a planted module, 2026-11-28;
# --xml-only misses the first three) and one more, SYNCASYNCNET (a reset used
# both as an asynchronous and a synchronous one: elite4's and elan4's rst_ni),
# which --lint-only never reports and is waived here (ours). Netlists and
# planted-bug copies keep VERILATOR_FLAGS: warnings there are not the RTL's.
VERILATOR_RTL_FLAGS := $(filter-out -Wno-fatal,$(VERILATOR_FLAGS)) -Wall rtl/lint.vlt -Wno-SYNCASYNCNET
# C++ optimisation of the Verilated RTL (VOPT): `quick` = -O1 for the
# evaluation code, -O0 for constructors; `full` = -O2/-O1. `make test`'s smoke
# runs are short, so its build is what costs: quick is the default (measured on
# a fresh clone: elite4_p16_v4 331 -> 156 CPU-s, cp_exp 3.1 -> 1.5 CPU-min).
# `make bench` and `make regress R=nightly` build full, so speed figures and
# long runs use -O2. A change of VOPT rebuilds the Verilated archives (stamp
# $(BUILD)/mk/vopt.*). VQUICK_TARGETS and every gate-level netlist stay quick
# even under full: their long runs are nightly and their -O2 build is the
# slowest of all; `make bench` marks them (mk/bench.sh).
VOPT ?= $(if $(filter nightly,$(R)),full,quick)
ifeq ($(filter quick full,$(VOPT)),)
  $(error VOPT='$(VOPT)': expected quick or full)
endif
# quick also compiles with clang++ (make deps installs it for make fuzz): the
# same -O1 build of elite4_p4's Verilated C++ took 26.5 CPU-s with clang++
# 14 against 37.8 with g++ 12 (2026-11-28, same machine, back to back).
# Except VGXX_TARGETS, where clang++ is the slower one: ibsw_p2_max (256-flit
# buffers on 7 data VLs, a 49,152-entry LFT) took 335 s with clang++ in make test's
# build, 66 CPU-s with g++.
# OPT: clang++ warns of `if ((a == b))` in Verilator's generated C++ (harmless).
VOPT_QUICK := OPT_FAST=-O1 OPT_SLOW=-O0 CXX=clang++ OPT=-Wno-parentheses-equality
VOPT_FULL  := OPT_FAST=-O2 OPT_SLOW=-O1
# Planted-bug copies (mk/planted_bugs.mk) run until their assertion or first
# mismatch, a few hundred cycles: built unoptimised with clang++ (elite4_p4's
# copy: g++ -O1 32.8 CPU-s, clang++ -O1 26.9, clang++ -O0 19.0; 2026-11-28).
VOPT_BUG   := OPT_FAST=-O0 OPT_SLOW=-O0 CXX=clang++ OPT=-Wno-parentheses-equality VM_PARALLEL_BUILDS=0
VQUICK_TARGETS := cp_exp elite4_p8_v4 elite4_p16_v4
VGXX_TARGETS := ibsw_p2_max
# VSPLIT: quick builds of targets that are not heavy compile the Verilated
# C++ as two translation units, the fast code at OPT_FAST and the slow code
# (constructors, trace declarations) at OPT_SLOW (mk/verilated-split.mk):
# Verilator's headers are parsed twice, not once per file. elite4_p4's
# archive: 23.6 CPU-s per file -> 14.7 as one unit (2026-11-28);
# elite4_p8_v4's: 86.8 as one unit -> 48.6 as two (2026-11-29). Heavy ones
# stay one unit per file (one 67 MB unit, elite4_p16_v4).
VSPLIT = VM_PARALLEL_BUILDS=1 VM_FAST=V$(1)__FastAll VM_SLOW=V$(1)__SlowAll -f $(CURDIR)/mk/verilated-split.mk
# VO0_TARGETS: under VOPT=quick their fast code too is -O0: make test's runs
# of them are short and their -O1 compiles long (elite4_p8_v4's fast unit
# 40.9 CPU-s at -O1, 7.4 at -O0; the RTL at -O0 runs ~2.2x slower:
# elite4_p8_v4_random 1.86 -> 4.16 s). Measured in a fresh-clone make test
# (2026-11-29) with elite4_p8 and cp_q20_f8 in the list too: their runs took
# back what their builds saved (elite4_p8 is every switch of the RTL fabric
# lines: elite4_fabric_core 36 -> 58 CPU-s; cp 3 -> 9), ibsw_p4's did not
# (ibsw 7 -> 15 against ~20 saved). Not elan4: 32 CPU-s of lockstep runs.
VO0_TARGETS := elite4_p8_v4 ibsw_p4
vquick_of = $(if $(filter $(1),$(VGXX_TARGETS)),$(subst clang++,$(CXX),$(VOPT_QUICK)),$(VOPT_QUICK))$(if $(and $(filter quick,$(VOPT)),$(filter $(1),$(VO0_TARGETS))), OPT_FAST=-O0)$(if $(filter $(1),$(HEAVY_TARGETS)),, $(VSPLIT))
vopt_of = $(if $(or $(filter quick,$(VOPT)),$(filter $(1),$(VQUICK_TARGETS))),$(call vquick_of,$(1)),$(VOPT_FULL))
export VQUICK_TARGETS VOPT
# The VOPT the Verilated archives were built with (a change rebuilds them)
$(BUILD)/mk/vopt.$(VOPT):
	@mkdir -p $(@D) && rm -f $(BUILD)/mk/vopt.* && touch $@
VRUNTIME := verilated verilated_fst_c verilated_threads
LDLIBS   := -lz -pthread -lm -lsqlite3

INC_ALL   = -Itestbench -Icsim $(foreach b,$(BLOCKS),-Icsim/$(b)) $(foreach t,$(TARGETS),-I$(BUILD)/glue/$(t))
ENGINE_SRC := testbench/engine.c testbench/waves.c testbench/rng.c testbench/sim_main.c

# Sources of a block's simulator: all C models (blocks reuse each other's,
# e.g. cp samples with the common LFSR), the block's binding and its tests.
UNIT_SRC  := $(wildcard csim/*/test_*.c)
# fabric_mpi.c: MPI builds only (mk/elite4_fabric.mk)
MODEL_SRC := $(filter-out $(UNIT_SRC) csim/fabric/fabric_mpi.c,$(wildcard csim/*/*.c))
block_src = $(ENGINE_SRC) $(MODEL_SRC) testbench/bind/$(1).c $(wildcard regress/tests/$(1)_*.c)
c_obj     = $(patsubst %.c,$(BUILD)/$(2)/%.o,$(1))

# --- setup ---------------------------------------------------------------------
.PHONY: help deps
help:
	@echo "netcosim make targets:"
	@echo "  make deps                   install missing Debian packages (idempotent)"
	@echo "  make test                   lint + unit tests + smoke regression (ASan/UBSan) + the runner's self-test"
	@echo "                              + README's debugging walk-through (mk/walkthrough.sh); what CI runs"
	@echo "  make regress R=<tag>        tagged regression (smoke, nightly, negative), parallel; SHARD=k/N"
	@echo "  make sim T=<test> SEED=<n> [WAVES=1] [MODE=lockstep|model|rtl|netlist] [BUG=<planted bug>]"
	@echo "           [CYCLES=<n>] [ARGS='--expect-fail=WHAT@CYCLE --no-check']   one test (what a failure's rerun line says)"
	@echo "           [BIN_DIR=build/asan/bin]   the sanitizer simulators make test built, instead of build/bin"
	@echo "  make waves T=<test> [SEED=.. MODE=.. BUG=.. CYCLES=.. ARGS=..]   open that run's waveform in GTKWave"
	@echo "  make wave-png T=<test> [same variables]   render the same view to build/sim/<test>.<seed>/waves.png"
	@echo "  make lint                   verilator -Wall and yosys synth of every block"
	@echo "  make synth [B=<block>] [T=<target>]   yosys per target: cells, depth; netlist for MODE=netlist"
	@echo "  make timing [B=<block>|T=<target>]   osu018 cells: area, flip-flops, paths in ps, fmax (build/timing/report.md)"
	@echo "  make timing-check [B=|T=]    fails when a target misses the nominal clock (mk/clock.mk)"
	@echo "  make timing-module T=<target> M=<module> [NEAR=n]   one module, that target's parameters: worst paths per group"
	@echo "  make bench                  simulation speed table, build/bench.json"
	@echo "  make demo                   64-node fat tree, one packet traced through RTL switches, SQLite, HTML report"
	@echo "  make cp-hotspot             seed 001's ECM/E2CM hotspot experiment (MATRIX=seed|full)"
	@echo "  make elite4-reports         fat-tree throughput/latency/breakdown reports"
	@echo "  make claims B=cp|elite4 [SEEDS=.. LEN=session|full]   seed claims re-run with >= 5 seeds, 95 % intervals: build/claims/<B>.md"
	@echo "  make unit                   C model unit tests"
	@echo "  make fuzz [FUZZ_TIME=<s>]   libFuzzer on the kit's parsers (fuzz/, mk/fuzz.sh; default 60 s per target)"
	@echo "  make formal [P=<proof>]     yosys-smtbmc BMC + k-induction of the RTL assertions (formal/proofs)"
	@echo "  make mutate [B=<block>] [MAX=<n> SEED=<s>]   mutation testing: every edit of a model/RTL line must fail a smoke test"
	@echo "  make coverage               RTL line/toggle and C line/branch coverage of the lockstep smoke tests: build/coverage/index.html"
	@echo "  make format                 apply the one C style (.clang-format) to csim/ testbench/ regress/"
	@echo "  make clean                  remove build/"

deps:
	@./mk/deps.sh

# --- generated glue and Verilated builds, per target ---------------------------
# Verilator's runtime headers, precompiled once for every target's C++ glue
# (T_rtl.cpp, T_netlist.cpp): parsing them was most of each glue object's
# ~1.7 CPU-s (0.6 with the header precompiled, 2026-11-28). Same CXXFLAGS, or
# g++ ignores it (-Winvalid-pch says so).
VLT_PCH := $(BUILD)/pch/vlt_pch.h.gch
VLT_PCH_FLAGS := -include $(BUILD)/pch/vlt_pch.h -Winvalid-pch
$(VLT_PCH):
	@mkdir -p $(@D)
	@printf '#include "verilated.h"\n#include "verilated_fst_c.h"\n' > $(BUILD)/pch/vlt_pch.h
	@$(CXX) $(CXXFLAGS) -x c++-header $(BUILD)/pch/vlt_pch.h -o $@

# Each block's RTL files (rtl/B/B.f), read once: the rules of its targets,
# netlists and planted-bug copies depend on them (a `sed` per rule cost every
# make invocation ~1 s: 232 processes; 2026-11-29).
$(foreach f,$(wildcard rtl/*/*.f),$(eval RTL_FILES_$(notdir $(basename $(f))) := $(addprefix ./,$(shell cat $(f)))))

# $(1) = target
define TARGET_RULES
$(BUILD)/xml/$(1).xml: rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f $(RTL_FILES_$(BLOCK_$(1))) $(BUILD)/mk/targets.mk
	@mkdir -p $$(@D)
	@echo "  XML      $(1)"
	@verilator --xml-only -Wno-fatal --top-module $(TOP_$(1)) $(VPARAMS_$(1)) -f rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f \
	  --xml-output $$@ -Mdir $(BUILD)/xml/$(1).d

$(BUILD)/glue/$(1)/$(1)_ports.h $(BUILD)/glue/$(1)/$(1)_glue.c $(BUILD)/glue/$(1)/$(1)_rtl.cpp $(BUILD)/glue/$(1)/$(1)_netlist.cpp &: \
    $(BUILD)/xml/$(1).xml rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).cosim $(BUILD)/bin/gluegen
	@mkdir -p $(BUILD)/glue/$(1)
	@echo "  GLUE     $(1)"
	@$(BUILD)/bin/gluegen --xml $$< --cosim rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).cosim --target $(1) --out $(BUILD)/glue/$(1)

$(BUILD)/verilated/$(1)/V$(1)__ALL.a: $(BUILD)/xml/$(1).xml $(BUILD)/mk/vopt.$(VOPT) rtl/lint.vlt
	@echo "  VERILATE $(1)"
	@rm -rf $(BUILD)/verilated/$(1) && mkdir -p $(BUILD)/verilated/$(1)
	@verilator $(VERILATOR_RTL_FLAGS) --prefix V$(1) --top-module $(TOP_$(1)) $(VPARAMS_$(1)) \
	  -f rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f -Mdir $(BUILD)/verilated/$(1)
	+@$(MAKE) -s -C $(BUILD)/verilated/$(1) -f V$(1).mk V$(1)__ALL.a $(call vopt_of,$(1)) >/dev/null

$(BUILD)/obj/glue/$(1)_rtl.o: $(BUILD)/glue/$(1)/$(1)_rtl.cpp $(BUILD)/verilated/$(1)/V$(1)__ALL.a $(VLT_PCH)
	@mkdir -p $$(@D)
	@$(CXX) $(CXXFLAGS) $(VLT_PCH_FLAGS) -Itestbench -I$(BUILD)/glue/$(1) -I$(BUILD)/verilated/$(1) -c $$< -o $$@

$(BUILD)/obj/glue/$(1)_glue.o: $(BUILD)/glue/$(1)/$(1)_glue.c
	@mkdir -p $$(@D)
	@$(CC) $(CFLAGS) -Itestbench -c $$< -o $$@

$(BUILD)/obj/glue/$(1)_glue_netlist.o: $(BUILD)/glue/$(1)/$(1)_glue.c
	@mkdir -p $$(@D)
	@$(CC) $(CFLAGS) -DNETCOSIM_NETLIST -Itestbench -c $$< -o $$@

$(BUILD)/obj/glue/$(1)_glue_nortl.o: $(BUILD)/glue/$(1)/$(1)_glue.c
	@mkdir -p $$(@D)
	@$(CC) $(CFLAGS) -DNETCOSIM_NO_RTL -Itestbench -c $$< -o $$@

# gate level: yosys netlist of the same target, Verilated under the class V$(1)_netlist
$(BUILD)/synth/$(1).v $(BUILD)/synth/$(1).stat &: $(RTL_FILES_$(BLOCK_$(1))) $(BUILD)/mk/targets.mk
	@mkdir -p $(BUILD)/synth
	@echo "  SYNTH    $(1)"
	@ulimit -v 16000000; yosys -q -l $(BUILD)/synth/$(1).log -p "read_verilog -sv $$$$(tr '\n' ' ' < rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f); \
	  chparam $(YPARAMS_$(1)) $(TOP_$(1)); synth -top $(TOP_$(1)) -flatten; \
	  tee -q -o $(BUILD)/synth/$(1).stat stat; tee -q -a $(BUILD)/synth/$(1).stat ltp -noff; \
	  write_verilog -noattr $(BUILD)/synth/$(1).v"

# per-module figures: the same target synthesized without flattening (make synth only)
$(BUILD)/synth/$(1).modules: $(RTL_FILES_$(BLOCK_$(1))) $(BUILD)/mk/targets.mk
	@mkdir -p $(BUILD)/synth
	@echo "  SYNTH    $(1) (per module)"
	@ulimit -v 16000000; yosys -q -l $(BUILD)/synth/$(1).modules.log -p "read_verilog -sv $$$$(tr '\n' ' ' < rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f); \
	  chparam $(YPARAMS_$(1)) $(TOP_$(1)); synth -top $(TOP_$(1)); \
	  tee -q -o $$@.tmp stat; tee -q -a $$@.tmp ltp -noff" && mv $$@.tmp $$@

$(BUILD)/netlist/$(1)/V$(1)_netlist__ALL.a: $(BUILD)/synth/$(1).v $(wildcard rtl/$(BLOCK_$(1))/$(1).netlist.vlt)
	@echo "  VERILATE $(1) (netlist)"
	@rm -rf $(BUILD)/netlist/$(1) && mkdir -p $(BUILD)/netlist/$(1)
	@verilator $(VERILATOR_FLAGS) -Wno-lint -Wno-style --prefix V$(1)_netlist --top-module $(TOP_$(1)) \
	  $(wildcard rtl/$(BLOCK_$(1))/$(1).netlist.vlt) $$< -Mdir $(BUILD)/netlist/$(1)
	+@$(MAKE) -s -C $(BUILD)/netlist/$(1) -f V$(1)_netlist.mk V$(1)_netlist__ALL.a $(VOPT_QUICK) >/dev/null

$(BUILD)/obj/glue/$(1)_netlist.o: $(BUILD)/glue/$(1)/$(1)_netlist.cpp $(BUILD)/netlist/$(1)/V$(1)_netlist__ALL.a $(VLT_PCH)
	@mkdir -p $$(@D)
	@$(CXX) $(CXXFLAGS) $(VLT_PCH_FLAGS) -Itestbench -I$(BUILD)/glue/$(1) -I$(BUILD)/netlist/$(1) -c $$< -o $$@
endef
$(foreach t,$(TARGETS),$(eval $(call TARGET_RULES,$(t))))

ALL_PORTS_H := $(foreach t,$(TARGETS),$(BUILD)/glue/$(t)/$(t)_ports.h)

# Verilator runtime, compiled once for all targets.
# Its printf goes through testbench/vl_assert.cpp, which names failed assertions.
$(BUILD)/obj/vlt/%.o: $(VERILATOR_ROOT)/include/%.cpp testbench/vl_assert.h
	@mkdir -p $(@D)
	@$(CXX) $(CXXFLAGS) -DVL_PRINTF=netcosim_vl_printf -include testbench/vl_assert.h -c $< -o $@
$(BUILD)/obj/vlt/vl_assert.o: testbench/vl_assert.cpp testbench/vl_assert.h
	@mkdir -p $(@D)
	@$(CXX) $(CXXFLAGS) -Wall -Wextra -Werror -c $< -o $@
VRUNTIME_OBJ := $(patsubst %,$(BUILD)/obj/vlt/%.o,$(VRUNTIME) vl_assert)

# --- C objects: normal and sanitizer flavours ----------------------------------
$(BUILD)/obj/%.o: %.c | $(ALL_PORTS_H)
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) $(INC_ALL) -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: %.c | $(ALL_PORTS_H)
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) $(ASANFLAGS) $(INC_ALL) -MMD -MP -c $< -o $@
-include $(shell find $(BUILD)/obj $(BUILD)/asan $(BUILD)/cov/obj -name '*.d' 2>/dev/null)

# waves.c reads and writes FST with GTKWave's fstapi (linked in via verilated_fst_c)
$(BUILD)/obj/testbench/waves.o $(BUILD)/asan/testbench/waves.o: CFLAGS += -isystem $(VERILATOR_ROOT)/include/gtkwave
$(BUILD)/cov/obj/testbench/waves.o: COV_CFLAGS += -isystem $(VERILATOR_ROOT)/include/gtkwave

$(BUILD)/bin/gluegen: testbench/gluegen.c testbench/clock.h
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) -Itestbench $$(xml2-config --cflags) $< $$(xml2-config --libs) -o $@

$(BUILD)/bin/regress: regress/regress.c
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) $< -o $@

# --- one simulator per block: build/bin/<b>_sim, build/asan/bin/<b>_sim, build/bin/<b>_netlist_sim
define BLOCK_RULES
$(1)_RTL_OBJ := $(foreach t,$(TARGETS_$(1)),$(BUILD)/obj/glue/$(t)_rtl.o $(BUILD)/verilated/$(t)/V$(t)__ALL.a)
# the netlist simulator: gate targets with their netlist, the others as in the RTL build
$(1)_NETLIST_OBJ := $(foreach t,$(TARGETS_$(1)),$(if $(filter $(t),$(GATE_TARGETS)),$(BUILD)/obj/glue/$(t)_glue_netlist.o $(BUILD)/obj/glue/$(t)_netlist.o $(BUILD)/netlist/$(t)/V$(t)_netlist__ALL.a,$(BUILD)/obj/glue/$(t)_glue.o))
$(BUILD)/bin/$(1)_sim: $(call c_obj,$(call block_src,$(1)),obj) $(foreach t,$(TARGETS_$(1)),$(BUILD)/obj/glue/$(t)_glue.o) $$($(1)_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@echo "  LINK     $$@"
	@$(CXX) $$^ $(LDLIBS) -o $$@
# the sanitizer binaries (make test's) leave out the RTL of heavy targets and
# the netlists of `gate T nightly` targets (docs/cosim.md)
$(1)_ASAN_RTL_OBJ := $(foreach t,$(filter-out $(HEAVY_TARGETS),$(TARGETS_$(1))),$(BUILD)/obj/glue/$(t)_rtl.o $(BUILD)/verilated/$(t)/V$(t)__ALL.a)
$(1)_ASAN_GLUE_OBJ := $(foreach t,$(TARGETS_$(1)),$(BUILD)/obj/glue/$(t)_glue$(if $(filter $(t),$(HEAVY_TARGETS)),_nortl).o)
$(1)_ASAN_NETLIST_OBJ := $(foreach t,$(TARGETS_$(1)),$(if $(filter $(t),$(filter-out $(GATE_NIGHTLY_TARGETS),$(GATE_TARGETS))),$(BUILD)/obj/glue/$(t)_glue_netlist.o $(BUILD)/obj/glue/$(t)_netlist.o $(BUILD)/netlist/$(t)/V$(t)_netlist__ALL.a,$(BUILD)/obj/glue/$(t)_glue$(if $(filter $(t),$(HEAVY_TARGETS)),_nortl).o))
$(BUILD)/asan/bin/$(1)_sim: $(call c_obj,$(call block_src,$(1)),asan) $$($(1)_ASAN_GLUE_OBJ) $$($(1)_ASAN_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@echo "  LINK     $$@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $$^ $(LDLIBS) -o $$@
$(BUILD)/bin/$(1)_netlist_sim: $(call c_obj,$(call block_src,$(1)),obj) $$($(1)_NETLIST_OBJ) $$($(1)_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@echo "  LINK     $$@"
	@$(CXX) $$^ $(LDLIBS) -o $$@
$(BUILD)/asan/bin/$(1)_netlist_sim: $(call c_obj,$(call block_src,$(1)),asan) $$($(1)_ASAN_NETLIST_OBJ) $$($(1)_ASAN_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@echo "  LINK     $$@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $$^ $(LDLIBS) -o $$@
endef
$(foreach b,$(BLOCKS),$(eval $(call BLOCK_RULES,$(b))))

# --- coverage flavour (make coverage): build/cov/ -----------------------------------
# The same simulators with Verilator line/toggle/user coverage in the RTL
# (--coverage, VM_COVERAGE=1: the glue writes one .dat per instance) and gcov
# in the C (-O0 --coverage, so lines and branches map to the source). The
# Verilated C++ compiles as two units (VSPLIT), its slow code at -O0: one
# unit per file took ~15 CPU-s each, 66 files for elan4_default (2026-11-29).
COV      := $(BUILD)/cov
COV_CXXFLAGS := $(subst -DVM_COVERAGE=0,-DVM_COVERAGE=1,$(CXXFLAGS))
COV_CFLAGS   := $(filter-out -O2,$(CFLAGS)) -O0 --coverage
define COV_TARGET_RULES
$(COV)/verilated/$(1)/V$(1)__ALL.a: $(BUILD)/xml/$(1).xml
	@echo "  VERILATE $(1) (coverage)"
	@rm -rf $(COV)/verilated/$(1) && mkdir -p $(COV)/verilated/$(1)
	@verilator $(VERILATOR_FLAGS) --coverage --prefix V$(1) --top-module $(TOP_$(1)) $(VPARAMS_$(1)) \
	  -f rtl/$(BLOCK_$(1))/$(BLOCK_$(1)).f -Mdir $(COV)/verilated/$(1)
	+@$(MAKE) -s -C $(COV)/verilated/$(1) -f V$(1).mk V$(1)__ALL.a OPT_FAST=-O1 OPT_SLOW=-O0 $(VSPLIT) >/dev/null
$(COV)/obj/glue/$(1)_rtl.o: $(BUILD)/glue/$(1)/$(1)_rtl.cpp $(COV)/verilated/$(1)/V$(1)__ALL.a
	@mkdir -p $$(@D)
	@$(CXX) $(COV_CXXFLAGS) -Itestbench -I$(BUILD)/glue/$(1) -I$(COV)/verilated/$(1) -c $$< -o $$@
endef
$(foreach t,$(TARGETS),$(eval $(call COV_TARGET_RULES,$(t))))
$(COV)/obj/vlt/%.o: $(VERILATOR_ROOT)/include/%.cpp testbench/vl_assert.h
	@mkdir -p $(@D)
	@$(CXX) $(COV_CXXFLAGS) -DVL_PRINTF=netcosim_vl_printf -include testbench/vl_assert.h -c $< -o $@
$(COV)/obj/%.o: %.c | $(ALL_PORTS_H)
	@mkdir -p $(@D)
	@$(CC) $(COV_CFLAGS) $(INC_ALL) -MMD -MP -c $< -o $@
# Heavy targets (docs/cosim.md) get no RTL here unless COV_HEAVY=1 (mk/coverage.sh
# sets it for a tag other than smoke): make test's smoke lines only run their
# models, as the sanitizer build, and their coverage builds were most of the
# flavour's (elan4_max: 43 MB of Verilated C++ before --coverage).
COV_HEAVY ?= 0
cov_rtl_of = $(if $(and $(filter $(1),$(HEAVY_TARGETS)),$(filter 0,$(COV_HEAVY))),$(BUILD)/obj/glue/$(1)_glue_nortl.o,$(BUILD)/obj/glue/$(1)_glue.o $(COV)/obj/glue/$(1)_rtl.o $(COV)/verilated/$(1)/V$(1)__ALL.a)
define COV_BLOCK_RULES
$(COV)/bin/$(1)_sim: $(call c_obj,$(call block_src,$(1)),cov/obj) $(foreach t,$(TARGETS_$(1)),$(call cov_rtl_of,$(t))) $(patsubst %,$(COV)/obj/vlt/%.o,$(VRUNTIME) verilated_cov) $(BUILD)/obj/vlt/vl_assert.o
	@mkdir -p $$(@D)
	@echo "  LINK     $$@ (coverage)"
	@$(CXX) --coverage $$^ $(LDLIBS) -o $$@
endef
$(foreach b,$(BLOCKS),$(eval $(call COV_BLOCK_RULES,$(b))))

# Experiments built on the blocks (each a fragment with its own binary).
include mk/cp_hotspot.mk
include mk/elite4_fabric.mk
include mk/elan4_fabric.mk
include mk/ibsw_fabric.mk
include mk/planted_bugs.mk
include mk/claims.mk
include mk/store.mk

SIMS      := $(foreach b,$(BLOCKS),$(BUILD)/bin/$(b)_sim) $(CPHS_SIMS) $(E4F_SIMS) $(EF_SIMS) $(IBF_SIMS) $(STORE_SIMS)
ASAN_SIMS := $(foreach b,$(BLOCKS),$(BUILD)/asan/bin/$(b)_sim) $(CPHS_ASAN_SIMS) $(E4F_ASAN_SIMS) $(EF_ASAN_SIMS) $(IBF_ASAN_SIMS) $(STORE_ASAN_SIMS)
NETLIST_SIMS := $(foreach b,$(BLOCKS),$(BUILD)/bin/$(b)_netlist_sim)
# make test's netlist simulators: only blocks with a gate target it runs (the
# rule exists for every block; a block whose netlists are all nightly's would
# link its whole RTL a second time for nothing)
ASAN_NETLIST_SIMS := $(foreach b,$(BLOCKS),$(if $(filter-out $(GATE_NIGHTLY_TARGETS),$(filter $(GATE_TARGETS),$(TARGETS_$(b)))),$(BUILD)/asan/bin/$(b)_netlist_sim))
UNITS     := $(patsubst %.c,$(BUILD)/asan/bin/%,$(notdir $(UNIT_SRC))) $(IBF_UNITS)

# C model unit tests: one binary per csim/<block>/test_*.c, sanitizers on.
define UNIT_RULES
$(BUILD)/asan/bin/$(basename $(notdir $(1))): $(call c_obj,$(MODEL_SRC) $(1),asan)
	@mkdir -p $$(@D)
	@$(CC) -fsanitize=address,undefined $$^ -lm -o $$@
endef
$(foreach u,$(UNIT_SRC),$(eval $(call UNIT_RULES,$(u))))

.PHONY: build build-asan build-netlist
build: $(SIMS) $(BUILD)/bin/regress
build-asan: $(ASAN_SIMS) $(ASAN_NETLIST_SIMS) $(BUILD)/bin/regress
build-netlist: $(NETLIST_SIMS)

# --- user targets --------------------------------------------------------------
.PHONY: test lint unit regress regress-build sim waves wave-png synth bench mutate formal coverage format clean demo

# What CI runs (.ci/run): everything from a fresh clone.
# Each step's wall time goes to build/test-steps.txt and is printed before the
# closing line (regress's own "wall" line splits its step into build and run).
# CPU (user + system of the step and everything it ran) beside wall: wall
# depends on the machine's load, CPU does not, so the budget is kept in both.
STEP = ./mk/step.sh '$(2)' $(BUILD)/test-steps.txt $(1)
# Lint runs beside unit + build (its log is printed when both are done): each
# alone leaves a core idle at times (Verilator and yosys runs are one thread,
# link steps wait on each other), together they keep both busy. The
# walk-through runs beside the smoke run, under the locks of the two smoke
# lines that run make themselves: the waveform check (both render
# common_fifo_directed's view) and the MPI fabric's build (both build
# build/obj's objects).
test: deps
	@mkdir -p $(BUILD) && : > $(BUILD)/test-steps.txt
	@SECONDS=0; \
	{ $(call STEP,sh -c '$(MAKE) lint LINT_SCOPE=test > $(BUILD)/lint.log 2>&1',lint (beside unit + build)); echo $$? > $(BUILD)/lint.rc; } & \
	rc=0; \
	{ $(call STEP,$(MAKE) -j$(JOBS) -O unit,unit) && \
	  $(call STEP,$(MAKE) -j$(JOBS) regress-build R=smoke BIN_DIR=$(BUILD)/asan/bin,build); } || rc=$$?; \
	wait; cat $(BUILD)/lint.log; \
	[ "$$(cat $(BUILD)/lint.rc)" = 0 ] || { echo "make test: lint failed (above; build/lint.log)"; exit 1; }; \
	[ $$rc = 0 ] || { echo "make test: unit tests or build failed (above)"; exit 1; }; \
	echo "lint, unit and build: $$SECONDS s wall" >> $(BUILD)/test-steps.txt
	@SECONDS=0; \
	{ $(call STEP,sh -c 'flock $(BUILD)/.wave-smoke.lock flock $(BUILD)/.fabric-mpi.lock ./mk/walkthrough.sh > $(BUILD)/walkthrough.log 2>&1',README walk-through (beside the smoke run)); echo $$? > $(BUILD)/walkthrough.rc; } & \
	rc=0; $(call STEP,$(MAKE) regress R=smoke BIN_DIR=$(BUILD)/asan/bin,smoke regression) || rc=$$?; \
	wait; cat $(BUILD)/walkthrough.log; \
	[ "$$(cat $(BUILD)/walkthrough.rc)" = 0 ] || { echo "make test: the README walk-through failed (above)"; exit 1; }; \
	[ $$rc = 0 ] || exit 1; \
	echo "smoke and walk-through: $$SECONDS s wall" >> $(BUILD)/test-steps.txt
	@$(call STEP,./regress/selftest/run.sh $(BUILD)/asan/bin,runner self-test)
	@echo "make test steps (wall, and CPU): $$(paste -sd, $(BUILD)/test-steps.txt | sed 's/,/, /g')"
	@# the closing line CI reads: the smoke regression's count (the steps above stop on any failure)
	@sed -n 's/.*"passed": \([0-9]*\), "failed": \([0-9]*\).*/\1 passed, \2 failed/p' $(BUILD)/regress/summary.json | head -1

# LINT_SCOPE=test (make test's) leaves out what targets already cover (mk/lint.sh)
LINT_SCOPE ?= full
lint: deps
	@LINT_SCOPE=$(LINT_SCOPE) ./mk/lint.sh

unit: deps
	@$(MAKE) -j$(JOBS) $(UNITS)
	@JOBS=$(JOBS) ./mk/run-units.sh $(UNITS)

# what a regression of R runs on BIN_DIR: its simulators and the lines' planted-bug copies
regress-build: deps
	@$(MAKE) -j$(JOBS) $(if $(filter $(BUILD)/asan/bin,$(BIN_DIR)),build-asan,build build-netlist) \
	  $(addprefix $(BIN_DIR)/,$(bug_sims))

regress: regress-build
	@$(BUILD)/bin/regress --tag $(R) --jobs $(JOBS) --shard $(SHARD) --bin-dir $(BIN_DIR) --out $(BUILD)/regress
	@$(if $(and $(filter nightly,$(R)),$(filter 1/%,$(SHARD))),$(MAKE) lint LINT_SCOPE=full)
	@$(if $(and $(filter nightly,$(R)),$(filter 1/%,$(SHARD))),JOBS=$(JOBS) ./mk/nightly-extra.sh)
	@$(if $(and $(filter nightly,$(R)),$(filter 1/%,$(SHARD))),$(MAKE) claims B=cp && $(MAKE) claims B=elite4)

# make sim / waves / wave-png: every variable is checked by one program,
# build/bin/regress --run ... --make, before anything is built or run (exit 2
# and the variable named on bad input). Single quotes in values are escaped.
shq = '$(subst ','\'',$(1))'
RUN_ARGS = --run $(call shq,$(T)) --make --seed $(call shq,$(SEED)) --cycles $(call shq,$(CYCLES)) \
  --mode $(call shq,$(MODE)) --bug $(call shq,$(BUG)) --args $(call shq,$(ARGS)) --bin-dir $(BIN_DIR) --out $(BUILD)/sim
SIM_USAGE = usage: make $@ T=<test> [SEED=<n>] [MODE=lockstep|model|rtl|netlist] [BUG=<planted bug>] [CYCLES=<n>] [ARGS=...]
sim: deps
	@test -n "$(T)" || { echo "$(SIM_USAGE) [WAVES=1]"; exit 2; }
	@case "$(WAVES)" in 0|1) ;; *) echo "make sim: WAVES='$(WAVES)': expected 0 or 1"; exit 2;; esac
	@$(MAKE) $(BUILD)/bin/regress >/dev/null
	@bin=$$($(BUILD)/bin/regress $(RUN_ARGS) --check) && { $(MAKE) -j$(JOBS) $$bin | { grep -v 'is up to date' || true; }; }
	@$(BUILD)/bin/regress $(RUN_ARGS) $(if $(filter 1,$(WAVES)),--waves)

# The view of exactly the run these variables make: reused if that run left
# one (and the simulator is not newer), else the run is repeated with a trace.
waves wave-png: deps
	@test -n "$(T)" || { echo "$(SIM_USAGE)"; exit 2; }
	@$(MAKE) $(BUILD)/bin/regress >/dev/null
	@bin=$$($(BUILD)/bin/regress $(RUN_ARGS) --view $(if $(filter waves,$@),gtkwave,png) --check) && { $(MAKE) -j$(JOBS) $$bin | { grep -v 'is up to date' || true; }; }
	@$(BUILD)/bin/regress $(RUN_ARGS) --view $(if $(filter waves,$@),gtkwave,png)

# B=<block> limits synthesis to that block's targets, T=<target> to one.
SYNTH_TARGETS = $(if $(T),$(T),$(if $(B),$(TARGETS_$(B)),$(TARGETS)))
synth: deps
	@$(if $(B),$(if $(filter $(B),$(BLOCKS)),,echo "make synth: B=$(B): no such block (blocks: $(BLOCKS))"; exit 2))
	@$(if $(T),$(if $(filter $(T),$(TARGETS)),,echo "make synth: T=$(T): no such target (targets: $(TARGETS))"; exit 2))
	@$(if $(SYNTH_TARGETS),,echo "make synth: B=$(B) has no co-simulation target"; exit 2)
	@$(MAKE) -j$(JOBS) -k $(foreach t,$(SYNTH_TARGETS),$(BUILD)/synth/$(t).stat $(BUILD)/synth/$(t).modules) || true
	@./mk/synth-report.sh $(foreach t,$(SYNTH_TARGETS),$(t):$(TOP_$(t)))

# make timing: every target mapped onto the osu018 cells, area/flip-flops/paths
# per target and per module (docs/timing.md); the nominal clock is mk/clock.mk.
# T=<target ...> or B=<block> limits it. A result is kept until its sources change.
include mk/clock.mk
export NOMINAL_MHZ TIMING_MARGIN_PCT TIMING_KNOWN_FAIL
TIMING_SEL = $(if $(T),$(T),$(if $(filter command line environment,$(origin B)),$(TARGETS_$(B)),$(TARGETS)))
define TIMING_RULES
$(BUILD)/timing/$(1).flat.status $(BUILD)/timing/$(1).hier.status: $(BUILD)/timing/$(1).%.status: \
    $(RTL_FILES_$(BLOCK_$(1))) $(BUILD)/mk/targets.mk mk/timing-synth.sh mk/timing-sta.awk
	@./mk/timing-synth.sh $(1) $$*
endef
$(foreach t,$(TARGETS),$(eval $(call TIMING_RULES,$(t))))

.PHONY: timing timing-results timing-check timing-module timing-test-targets
TIMING_KINDS ?= flat hier
timing-results:
	@$(MAKE) -j$(JOBS) -k $(foreach t,$(TIMING_SEL),$(foreach k,$(TIMING_KINDS),$(BUILD)/timing/$(t).$(k).status)) || true

timing: deps
	@$(MAKE) timing-results
	@./mk/timing-report.sh $(foreach t,$(TIMING_SEL),$(t):$(BLOCK_$(t)):$(TOP_$(t)))

timing-check: deps
	@$(MAKE) timing-results TIMING_KINDS=flat
	@./mk/timing-check.sh $(TIMING_SEL)

# one module of a target, with the parameters that target gives it, flat
# (mk/timing-module.sh): a designer's loop while closing a module's paths
timing-module: deps
	@$(if $(and $(T),$(M)),,echo "make timing-module: needs T=<target> M=<module>" >&2; exit 2)
	@NEAR=$(NEAR) ./mk/timing-module.sh $(T) $(M)

timing-test-targets:
	@echo $(TIMING_TEST_TARGETS)

# the flags of a target's own Verilation, which is also its -Wall lint (mk/lint-build-test.sh)
.PHONY: verilator-rtl-flags
verilator-rtl-flags:
	@echo $(VERILATOR_RTL_FLAGS)

bench: deps
	@$(MAKE) -j$(JOBS) VOPT=full build
	@VOPT=full ./mk/bench.sh $(BLOCKS)

# The kit's main job (mk/demo.sh, README "Quick start"): deps, build, a 64-node
# elite4 fat tree with one packet's path in RTL, SQLite (docs/store.md), build/demo/index.html.
demo:
	@JOBS=$(JOBS) ./mk/demo.sh

# libFuzzer on the parsers (mk/fuzz.sh, docs/fabric.md "Fuzzing"): Debian's clang, ASan+UBSan,
# a bounded run per target; nightly runs 600 s (regress/testlist fuzz_*).
FUZZ_TIME ?= 60
.PHONY: fuzz
fuzz: deps
	@./mk/fuzz.sh --target=ibnd --time=$(FUZZ_TIME)

# Formal proofs of the RTL assertions (mk/formal.sh, docs/formal.md): P=<proof> for one.
formal: deps
	@./mk/formal.sh $(P)

# Mutation testing (mk/mutate.sh): report in build/mutate/<B>/report.txt,
# equivalent mutants documented in docs/mutation/<B>.equiv (docs/mutation.md).
# MIN=<pct>: fail below that kill rate.
mutate: deps
	@./mk/mutate.sh --block $(or $(B),common) $(if $(MAX),--max $(MAX) --seed $(SEED)) $(if $(MIN),--min-rate $(MIN)) --jobs $(JOBS)

# Coverage of the lockstep smoke tests (mk/coverage.sh); not part of make test.
coverage: deps
	@./mk/coverage.sh --jobs $(JOBS) $(BLOCKS)

# One C style (.clang-format); `make lint` checks it.
format:
	@git ls-files -z -- 'csim/*.[ch]' 'testbench/*.[ch]' 'regress/*.[ch]' | xargs -0 clang-format -i
	@echo "format: csim/ testbench/ regress/ follow .clang-format"

clean:
	rm -rf $(BUILD)
