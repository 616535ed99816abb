# elan4 nodes on fat trees of elite4 switches, on the generic fabric core
# (testbench/elan4fab/, docs/elan4fab.md): the NICs are instances of type
# elan4_node (target elan4_default: C model, Verilated RTL or both in
# lockstep), the switches of type elite4_p8. Included by the top Makefile
# after BLOCK_RULES (it uses BUILD, CXX, LDLIBS, VRUNTIME_OBJ, MODEL_SRC,
# c_obj, TARGETS_elite4, TARGETS_elan4 and their RTL / glue objects).
# Targets:
#   build/bin/elan4_fabric_sim, build/asan/bin/elan4_fabric_sim

EF_SRC := $(wildcard testbench/elan4fab/*.c) testbench/fabric/e4t_topo.c testbench/store/store.c testbench/bind/fabric_elite4.c \
          testbench/bind/elite4.c testbench/bind/elan4.c testbench/rng.c testbench/waves.c $(MODEL_SRC)
# The NIC's RTL is elan4_default's only; the binding defines every elan4
# target, so the others are linked as glue without RTL.
EF_NIC_GLUE := $(foreach t,$(TARGETS_elan4),$(BUILD)/obj/glue/$(t)_glue$(if $(filter elan4_default,$(t)),,_nortl).o) \
           $(BUILD)/obj/glue/elan4_default_rtl.o $(BUILD)/verilated/elan4_default/Velan4_default__ALL.a
EF_GLUE := $(foreach t,$(TARGETS_elite4),$(BUILD)/obj/glue/$(t)_glue.o) $(elite4_RTL_OBJ) $(EF_NIC_GLUE) $(VRUNTIME_OBJ)
$(BUILD)/bin/elan4_fabric_sim: $(call c_obj,$(EF_SRC),obj) $(EF_GLUE)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CXX) $^ $(LDLIBS) -o $@
# make test's sanitizer build: heavy targets' RTL left out (docs/cosim.md)
EF_ASAN_GLUE := $(elite4_ASAN_GLUE_OBJ) $(elite4_ASAN_RTL_OBJ) $(EF_NIC_GLUE) $(VRUNTIME_OBJ)
$(BUILD)/asan/bin/elan4_fabric_sim: $(call c_obj,$(EF_SRC),asan) $(EF_ASAN_GLUE)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CXX) -fsanitize=address,undefined $^ $(LDLIBS) -o $@

EF_SIMS      := $(BUILD)/bin/elan4_fabric_sim
EF_ASAN_SIMS := $(BUILD)/asan/bin/elan4_fabric_sim
