# elite4 fabrics: radix-4 fat-trees of elite4 switches (C model, Verilated
# RTL or both in lockstep per instance) with traffic endpoints, on the
# generic fabric core (csim/fabric/, testbench/fabric/, docs/fabric.md), and
# their reports. Included by the top Makefile after BLOCK_RULES (it uses
# BUILD, CXX, LDLIBS, VRUNTIME_OBJ, MODEL_SRC, c_obj, TARGETS_elite4, elite4_RTL_OBJ).
# Targets:
#   build/bin/elite4_fabric_core_sim, build/asan/bin/elite4_fabric_core_sim   the fabric binary
#   make elite4-reports        load sweeps (16 and 64 nodes x uniform, complement,
#                              hotspot), breakdown, link utilisation, plots,
#                              build/reports/elite4/summary.md (mk/elite4-reports.sh)
#   make elite4-fabric-bench   64-node node-cycles/s: skipping, not skipping, all-RTL
#   build/bin/elite4_fabric_mpi  the fabric binary on Open MPI (model only; mpicc)

E4F_DIR  := testbench/fabric
E4F_SRC  := $(wildcard $(E4F_DIR)/*.c) $(filter-out $(E4F_DIR)/core/test_%.c,$(wildcard $(E4F_DIR)/core/*.c)) testbench/bind/fabric_elite4.c \
            testbench/store/store.c testbench/rng.c testbench/waves.c $(MODEL_SRC) testbench/bind/elite4.c
# The switch through target elite4_p8 (the binding defines every elite4
# target, so all are linked): generated glue, C++ shims, Verilated models.
E4F_GLUE := $(foreach t,$(TARGETS_elite4),$(BUILD)/obj/glue/$(t)_glue.o) $(elite4_RTL_OBJ) $(VRUNTIME_OBJ)

$(BUILD)/bin/elite4_fabric_core_sim: $(call c_obj,$(E4F_SRC),obj) $(E4F_GLUE)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CXX) $^ $(LDLIBS) -o $@
# make test's sanitizer build leaves out heavy targets' RTL (elite4_p16_v4;
# docs/cosim.md), as the block's own binary does: the fabric uses elite4_p8
E4F_ASAN_GLUE := $(elite4_ASAN_GLUE_OBJ) $(elite4_ASAN_RTL_OBJ) $(VRUNTIME_OBJ)
$(BUILD)/asan/bin/elite4_fabric_core_sim: $(call c_obj,$(E4F_SRC),asan) $(E4F_ASAN_GLUE)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $^ $(LDLIBS) -o $@

# The same driver on Open MPI (docs/fabric.md "Parallel"): the core's parts
# on processes (csim/fabric/fabric_mpi.c), built with mpicc into
# $(BUILD)/mpi/ with -DFABRIC_MPI, model only (every elite4 target's glue
# without RTL: a switch cannot be RTL or lockstep here). Not in `make
# build` (needs libopenmpi-dev; mk/deps.sh installs it); the fabric_mpi
# testlist lines (mk/fabric-mpi.sh) build it.
MPICC     ?= mpicc
E4M_MODEL := $(filter csim/common/% csim/elite4/% csim/fabric/%,$(MODEL_SRC))
E4M_SRC   := $(filter-out $(MODEL_SRC),$(E4F_SRC)) $(E4M_MODEL) csim/fabric/fabric_mpi.c
E4M_GLUE  := $(foreach t,$(TARGETS_elite4),$(BUILD)/obj/glue/$(t)_glue_nortl.o)
E4M_PORTS := $(foreach t,$(TARGETS_elite4),$(BUILD)/glue/$(t)/$(t)_ports.h)
$(BUILD)/mpi/%.o: %.c | $(E4M_PORTS)
	@mkdir -p $(@D)
	@$(MPICC) $(CFLAGS) -DFABRIC_MPI $(INC_ALL) -MMD -MP -c $< -o $@
-include $(shell find $(BUILD)/mpi -name '*.d' 2>/dev/null)
$(BUILD)/mpi/testbench/waves.o: CFLAGS += -isystem $(VERILATOR_ROOT)/include/gtkwave
# VRUNTIME_OBJ: waves.c's FST reader and writer (GTKWave's fstapi) come with verilated_fst_c
$(BUILD)/bin/elite4_fabric_mpi: $(call c_obj,$(E4M_SRC),mpi) $(E4M_GLUE) $(VRUNTIME_OBJ)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (MPI, model only)"
	@$(MPICC) $^ $(LDLIBS) -lstdc++ -o $@

# For the top Makefile: add to build / build-asan.
E4F_SIMS      := $(BUILD)/bin/elite4_fabric_core_sim
E4F_ASAN_SIMS := $(BUILD)/asan/bin/elite4_fabric_core_sim

.PHONY: elite4-reports elite4-fabric-bench
elite4-reports: $(BUILD)/bin/elite4_fabric_core_sim
	@./mk/elite4-reports.sh run
elite4-fabric-bench: $(BUILD)/bin/elite4_fabric_core_sim
	@./mk/elite4-reports.sh bench
