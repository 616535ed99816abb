# cp_hotspot: seed 001's ECM/E2CM hotspot experiment (testbench/experiments/cp_hotspot/),
# and the reaction point's unit tests (csim/cp/test_cp_rp.c).
#
# Included by the top Makefile after BLOCK_RULES (it uses BUILD, CXX, LDLIBS,
# VRUNTIME_OBJ, MODEL_SRC, c_obj and the cp_exp target's glue/Verilated rules).
# The reaction point's unit tests (csim/cp/test_cp_rp.c) are built by the
# generic unit-test rules. Targets:
#   build/bin/cp_hotspot_sim, build/asan/bin/cp_hotspot_sim   the experiment binary
#   make cp-hotspot [SCALE=full|short MATRIX=seed|full]       the matrix into cp_hotspot.db (SQLite);
#                                                             summary.csv, table and plots as queries
#   make cp-hotspot-bench                                     simulated s per wall s, N = 16..256
#   make cp-hotspot-checks                                    the named checks and their negatives
#   make cp-hotspot-inputs                                    bad scenario files/flags must exit 2
#                                                             with file:line: key: reason (part of
#                                                             `make unit`, hence of `make test`)

CPHS_DIR  := testbench/experiments/cp_hotspot
CPHS_SRC  := $(wildcard $(CPHS_DIR)/*.c) testbench/rng.c testbench/store/store.c $(MODEL_SRC) testbench/bind/cp.c
# The CP through target cp_exp (the binding defines every cp target, so all of
# them are linked): generated glue (C), the C++ shims and the Verilated models.
CPHS_GLUE := $(foreach t,$(TARGETS_cp),$(BUILD)/obj/glue/$(t)_glue.o) $(cp_RTL_OBJ) $(VRUNTIME_OBJ)

$(BUILD)/bin/cp_hotspot_sim: $(call c_obj,$(CPHS_SRC),obj) $(CPHS_GLUE)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CXX) $^ $(LDLIBS) -o $@
# the sanitizer binary (make test's) leaves out heavy targets' RTL, as the block's does:
# cp_exp is heavy, so its --mode=rtl runs need build/bin/cp_hotspot_sim (nightly)
$(BUILD)/asan/bin/cp_hotspot_sim: $(call c_obj,$(CPHS_SRC),asan) $(cp_ASAN_GLUE_OBJ) $(cp_ASAN_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $^ $(LDLIBS) -o $@

# For the top Makefile: add to build / build-asan.
CPHS_SIMS      := $(BUILD)/bin/cp_hotspot_sim
CPHS_ASAN_SIMS := $(BUILD)/asan/bin/cp_hotspot_sim

.PHONY: cp-hotspot cp-hotspot-bench cp-hotspot-checks cp-hotspot-inputs
cp-hotspot: $(BUILD)/bin/cp_hotspot_sim
	@./mk/cp-hotspot.sh run
cp-hotspot-bench: $(BUILD)/bin/cp_hotspot_sim
	@./mk/cp-hotspot.sh bench
cp-hotspot-checks: $(BUILD)/bin/cp_hotspot_sim
	@./mk/cp-hotspot.sh checks
cp-hotspot-inputs: $(BUILD)/asan/bin/cp_hotspot_sim
	@BIN=$(BUILD)/asan/bin/cp_hotspot_sim ./mk/cp-hotspot.sh inputs
# The input checks run with the unit tests (an extra prerequisite of `unit`).
unit: cp-hotspot-inputs
