# ibsw fabrics: 2-D tori and trees of ibsw switches (the C model; on ibsw_p4's parameters also
# the Verilated RTL or both in lockstep, --sw) with IB host
# endpoints on the generic fabric core, LFT routing (up*/down*, dimension
# order) and links deactivated by the SM's MADs (docs/ibsw.md §12, "In a
# fabric: status"). Included by the top Makefile after BLOCK_RULES (it uses
# BUILD, CC, CXX, LDLIBS, MODEL_SRC, VRUNTIME_OBJ, c_obj).
# Targets:
#   build/bin/ibsw_fabric_sim, build/asan/bin/ibsw_fabric_sim   the driver
#   make ibsw-torus-sweep   throughput and power vs deactivated links (mk/ibsw-torus-sweep.sh)
#   make ibsw-mst-sweep     one spanning tree against one per VL (updn vs updn_mst; mk/ibsw-mst-sweep.sh)
#   make ibsw-dyn-sweep     the dynamic SM against all links on, 5 seeds (mk/ibsw-dyn-sweep.sh)

IBF_SRC := $(wildcard testbench/ibfabric/*.c) testbench/fabric/core/route_lft.c testbench/bind/fabric_ibsw.c \
           $(filter csim/fabric/% csim/ibsw/%,$(MODEL_SRC))

# Own object directories: these sources need no generated glue, so they do
# not wait for every target's ports header (the shared rules' order-only list).
$(BUILD)/ibf/obj/%.o: %.c
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) -Itestbench -Icsim -MMD -MP -c $< -o $@
$(BUILD)/ibf/asan/%.o: %.c
	@mkdir -p $(@D)
	@$(CC) $(CFLAGS) $(ASANFLAGS) -Itestbench -Icsim -MMD -MP -c $< -o $@
-include $(shell find $(BUILD)/ibf -name '*.d' 2>/dev/null)

# The switch's RTL side (--sw=rtl|lockstep): target ibsw_p4 only, in both flavours (the heavy
# ibsw targets never: docs/cosim.md). fabric_ibsw.c reads its generated ports header.
IBF_RTL := $(BUILD)/obj/glue/ibsw_p4_glue.o $(BUILD)/obj/glue/ibsw_p4_rtl.o \
           $(BUILD)/verilated/ibsw_p4/Vibsw_p4__ALL.a $(VRUNTIME_OBJ)
$(BUILD)/ibf/obj/testbench/bind/fabric_ibsw.o $(BUILD)/ibf/asan/testbench/bind/fabric_ibsw.o: \
    CFLAGS += -I$(BUILD)/glue/ibsw_p4
$(BUILD)/ibf/obj/testbench/bind/fabric_ibsw.o $(BUILD)/ibf/asan/testbench/bind/fabric_ibsw.o: \
    | $(BUILD)/glue/ibsw_p4/ibsw_p4_ports.h

$(BUILD)/bin/ibsw_fabric_sim: $(call c_obj,$(IBF_SRC),ibf/obj) $(IBF_RTL)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CXX) $^ $(LDLIBS) -o $@
$(BUILD)/asan/bin/ibsw_fabric_sim: $(call c_obj,$(IBF_SRC),ibf/asan) $(IBF_RTL)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $^ $(LDLIBS) -o $@

IBF_SIMS      := $(BUILD)/bin/ibsw_fabric_sim
IBF_ASAN_SIMS := $(BUILD)/asan/bin/ibsw_fabric_sim

.PHONY: ibsw-torus-sweep ibsw-dyn-sweep ibsw-mst-sweep
ibsw-torus-sweep: $(BUILD)/bin/ibsw_fabric_sim
	@./mk/ibsw-torus-sweep.sh
ibsw-mst-sweep: $(BUILD)/bin/ibsw_fabric_sim
	@./mk/ibsw-mst-sweep.sh
ibsw-dyn-sweep: $(BUILD)/bin/ibsw_fabric_sim
	@./mk/ibsw-dyn-sweep.sh

# The routing plug-in's unit test, run by `make unit` (the top Makefile adds IBF_UNITS to UNITS).
IBF_UNITS := $(BUILD)/asan/bin/test_route_lft
$(BUILD)/asan/bin/test_route_lft: $(call c_obj,testbench/fabric/core/test_route_lft.c testbench/fabric/core/route_lft.c \
    csim/fabric/fabric.c csim/fabric/fabric_topo.c,ibf/asan)
	@mkdir -p $(@D)
	@$(CC) -fsanitize=address,undefined $^ -lm -o $@
