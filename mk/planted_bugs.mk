# Simulators with a planted bug in the hardware itself (docs/formal.md).
# Included by the top Makefile after BLOCK_RULES.
#
# rtl-bug B (rtl/<block>/<block>.bugs): a scratch copy of rtl/ with B applied
#   (mk/rtl-bug.sh), Verilated for B's target only, linked into a copy of the
#   block's simulator: build[/asan]/bin/rtlbug/B_sim. Its negative must stop
#   on B's assertion (testlist block column `rtlbug/B`).
# netbug T (mk/netlist-bugs): target T's yosys netlist with one output bit
#   inverted (mk/netlist-bug.sh), in a copy of the block's netlist simulator:
#   build[/asan]/bin/netbug/T_netlist_sim (testlist block `netbug/T`).

# The CPU each bug simulator's own build took (mk/cpu-of.sh around every step:
# the scratch RTL, its Verilation and C++, the glue, the link) is summed into
# <binary>.build-cpu; the regression runner counts it as CPU of the line that
# runs the binary, which would otherwise show only its few cycles (docs/cosim.md).
# $(1) = the binary, $(2) = the step files (a missing one: a step built earlier, not counted)
BUILD_CPU = cat $(wildcard $(2)) $(1).link.cpu 2>/dev/null | awk '{ s += $$1 } END { printf "%.3f\n", s }' > $(1).build-cpu

$(BUILD)/mk/bugs.mk: $(wildcard rtl/*/*.bugs) mk/netlist-bugs mk/bugs.awk
	@mkdir -p $(@D)
	@awk -f mk/bugs.awk $(wildcard rtl/*/*.bugs) mk/netlist-bugs > $@.tmp && mv $@.tmp $@
-include $(BUILD)/mk/bugs.mk

# $(1) = bug, $(2) = its target, $(3) = the target's block
define RTLBUG_RULES
$(BUILD)/rtlbug/$(1)/verilated/V$(2)__ALL.a: $(wildcard rtl/*/*.bugs) mk/rtl-bug.sh $(RTL_FILES_$(3))
	@echo "  RTL-BUG  $(1) ($(2))"
	@rm -rf $(BUILD)/rtlbug/$(1) && mkdir -p $(BUILD)/rtlbug/$(1)
	@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/rtl.cpu ./mk/rtl-bug.sh $(1) $(BUILD)/rtlbug/$(1) >/dev/null
	@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/rtl.cpu env -C $(BUILD)/rtlbug/$(1) verilator $(VERILATOR_FLAGS) \
	  --prefix V$(2) --top-module $(TOP_$(2)) $(VPARAMS_$(2)) -f rtl/$(3)/$(3).f -Mdir verilated
	+@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/rtl.cpu $(MAKE) -s -C $(BUILD)/rtlbug/$(1)/verilated -f V$(2).mk V$(2)__ALL.a \
	  $(VOPT_BUG) >/dev/null
$(BUILD)/rtlbug/$(1)/rtl.o: $(BUILD)/glue/$(2)/$(2)_rtl.cpp $(BUILD)/rtlbug/$(1)/verilated/V$(2)__ALL.a
	@rm -f $$@.cpu && ./mk/cpu-of.sh $$@.cpu $(CXX) $(CXXFLAGS) -Itestbench -I$(BUILD)/glue/$(2) -I$(BUILD)/rtlbug/$(1)/verilated \
	  -c $$< -o $$@
RTLBUG_OBJ_$(1) := $(filter-out $(BUILD)/obj/glue/$(2)_rtl.o $(BUILD)/verilated/$(2)/V$(2)__ALL.a,$($(3)_RTL_OBJ)) \
  $(BUILD)/rtlbug/$(1)/rtl.o $(BUILD)/rtlbug/$(1)/verilated/V$(2)__ALL.a
# the sanitizer build leaves out heavy targets' RTL (docs/cosim.md), as the block's own binary does
RTLBUG_ASAN_OBJ_$(1) := $(filter-out $(BUILD)/obj/glue/$(2)_rtl.o $(BUILD)/verilated/$(2)/V$(2)__ALL.a,$($(3)_ASAN_RTL_OBJ)) \
  $(BUILD)/rtlbug/$(1)/rtl.o $(BUILD)/rtlbug/$(1)/verilated/V$(2)__ALL.a
$(BUILD)/bin/rtlbug/$(1)_sim: $(call c_obj,$(call block_src,$(3)),obj) $(foreach t,$(TARGETS_$(3)),$(BUILD)/obj/glue/$(t)_glue.o) $$(RTLBUG_OBJ_$(1)) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/rtlbug/$(1)/rtl.cpu $(BUILD)/rtlbug/$(1)/rtl.o.cpu)
$(BUILD)/asan/bin/rtlbug/$(1)_sim: $(call c_obj,$(call block_src,$(3)),asan) $$($(3)_ASAN_GLUE_OBJ) $$(RTLBUG_ASAN_OBJ_$(1)) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) -fsanitize=address,undefined $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/rtlbug/$(1)/rtl.cpu $(BUILD)/rtlbug/$(1)/rtl.o.cpu)
endef
$(foreach b,$(RTLBUGS),$(eval $(call RTLBUG_RULES,$(b),$(RTLBUG_TARGET_$(b)),$(BLOCK_$(RTLBUG_TARGET_$(b))))))

# $(1) = gate target, $(2) = its block
define NETBUG_RULES
$(BUILD)/netbug/$(1)/$(1).v: $(BUILD)/synth/$(1).v mk/netlist-bug.sh mk/netlist-bugs
	@mkdir -p $$(@D)
	@echo "  NET-BUG  $(1) (~$(NETBUG_PORT_$(1))[0])"
	@rm -f $$@.cpu && ./mk/cpu-of.sh $$@.cpu ./mk/netlist-bug.sh $$< $(NETBUG_PORT_$(1)) $$@
$(BUILD)/netbug/$(1)/verilated/V$(1)_netlist__ALL.a: $(BUILD)/netbug/$(1)/$(1).v $(wildcard rtl/$(2)/$(1).netlist.vlt)
	@rm -rf $(BUILD)/netbug/$(1)/verilated && mkdir -p $(BUILD)/netbug/$(1)/verilated
	@rm -f $(BUILD)/netbug/$(1)/verilated.cpu && ./mk/cpu-of.sh $(BUILD)/netbug/$(1)/verilated.cpu verilator \
	  $(VERILATOR_FLAGS) -Wno-lint -Wno-style --prefix V$(1)_netlist --top-module $(TOP_$(1)) \
	  $(wildcard rtl/$(2)/$(1).netlist.vlt) $$< -Mdir $(BUILD)/netbug/$(1)/verilated
	+@./mk/cpu-of.sh $(BUILD)/netbug/$(1)/verilated.cpu $(MAKE) -s -C $(BUILD)/netbug/$(1)/verilated \
	  -f V$(1)_netlist.mk V$(1)_netlist__ALL.a $(VOPT_BUG) >/dev/null
$(BUILD)/netbug/$(1)/netlist.o: $(BUILD)/glue/$(1)/$(1)_netlist.cpp $(BUILD)/netbug/$(1)/verilated/V$(1)_netlist__ALL.a
	@rm -f $$@.cpu && ./mk/cpu-of.sh $$@.cpu $(CXX) $(CXXFLAGS) -Itestbench -I$(BUILD)/glue/$(1) \
	  -I$(BUILD)/netbug/$(1)/verilated -c $$< -o $$@
NETBUG_OBJ_$(1) := $(filter-out $(BUILD)/obj/glue/$(1)_netlist.o $(BUILD)/netlist/$(1)/V$(1)_netlist__ALL.a,$($(2)_NETLIST_OBJ)) \
  $(BUILD)/netbug/$(1)/netlist.o $(BUILD)/netbug/$(1)/verilated/V$(1)_netlist__ALL.a
$(BUILD)/bin/netbug/$(1)_netlist_sim: $(call c_obj,$(call block_src,$(2)),obj) $$(NETBUG_OBJ_$(1)) $$($(2)_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/netbug/$(1)/$(1).v.cpu $(BUILD)/netbug/$(1)/verilated.cpu $(BUILD)/netbug/$(1)/netlist.o.cpu)
$(BUILD)/asan/bin/netbug/$(1)_netlist_sim: $(call c_obj,$(call block_src,$(2)),asan) $$(NETBUG_OBJ_$(1)) $$($(2)_RTL_OBJ) $(VRUNTIME_OBJ)
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) -fsanitize=address,undefined $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/netbug/$(1)/$(1).v.cpu $(BUILD)/netbug/$(1)/verilated.cpu $(BUILD)/netbug/$(1)/netlist.o.cpu)
endef
$(foreach t,$(NETBUGS),$(eval $(call NETBUG_RULES,$(t),$(BLOCK_$(t)))))

# The experiments on a planted RTL bug: the bug's scratch copy of rtl/ (as
# above) Verilated for the experiment's own target, in a copy of its binary:
# build[/asan]/bin/rtlbug/B/elite4_fabric_core_sim (elite4 bugs, target elite4_p8)
# and build[/asan]/bin/rtlbug/B/cp_hotspot_sim (cp bugs, target cp_exp);
# testlist block `rtlbug/B/elite4_fabric_core` or `rtlbug/B/cp_hotspot`. A firing
# assertion fails those runs as assert:<label> (testbench/fabric/README.md,
# testbench/experiments/cp_hotspot/README.md).
# $(1) = bug, $(2) = the experiment's target, $(3) = its block, $(4) = binary name,
# $(5) = the experiment's C sources, $(6) = its glue and Verilated objects
define RTLBUG_EXP_RULES
$(BUILD)/rtlbug/$(1)/$(2)/verilated/V$(2)__ALL.a: rtl/$(3)/$(3).bugs mk/rtl-bug.sh $(RTL_FILES_$(3))
	@echo "  RTL-BUG  $(1) ($(2))"
	@rm -rf $(BUILD)/rtlbug/$(1)/$(2) && mkdir -p $(BUILD)/rtlbug/$(1)/$(2)
	@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/$(2)/rtl.cpu ./mk/rtl-bug.sh $(1) $(BUILD)/rtlbug/$(1)/$(2) >/dev/null
	@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/$(2)/rtl.cpu env -C $(BUILD)/rtlbug/$(1)/$(2) verilator \
	  $(VERILATOR_FLAGS) --prefix V$(2) --top-module $(TOP_$(2)) $(VPARAMS_$(2)) -f rtl/$(3)/$(3).f -Mdir verilated
	+@./mk/cpu-of.sh $(BUILD)/rtlbug/$(1)/$(2)/rtl.cpu $(MAKE) -s -C $(BUILD)/rtlbug/$(1)/$(2)/verilated -f V$(2).mk \
	  V$(2)__ALL.a OPT_FAST=-O1 OPT_SLOW=-O0 >/dev/null
$(BUILD)/rtlbug/$(1)/$(2)/rtl.o: $(BUILD)/glue/$(2)/$(2)_rtl.cpp $(BUILD)/rtlbug/$(1)/$(2)/verilated/V$(2)__ALL.a
	@rm -f $$@.cpu && ./mk/cpu-of.sh $$@.cpu $(CXX) $(CXXFLAGS) -Itestbench -I$(BUILD)/glue/$(2) \
	  -I$(BUILD)/rtlbug/$(1)/$(2)/verilated -c $$< -o $$@
RTLBUG_EXP_OBJ_$(1)_$(2) := $(filter-out $(BUILD)/obj/glue/$(2)_rtl.o $(BUILD)/verilated/$(2)/V$(2)__ALL.a,$(6)) \
  $(BUILD)/rtlbug/$(1)/$(2)/rtl.o $(BUILD)/rtlbug/$(1)/$(2)/verilated/V$(2)__ALL.a
$(BUILD)/bin/rtlbug/$(1)/$(4)_sim: $(call c_obj,$(5),obj) $$(RTLBUG_EXP_OBJ_$(1)_$(2))
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/rtlbug/$(1)/$(2)/rtl.cpu $(BUILD)/rtlbug/$(1)/$(2)/rtl.o.cpu)
$(BUILD)/asan/bin/rtlbug/$(1)/$(4)_sim: $(call c_obj,$(5),asan) $$(RTLBUG_EXP_OBJ_$(1)_$(2))
	@mkdir -p $$(@D)
	@rm -f $$@.link.cpu && ./mk/cpu-of.sh $$@.link.cpu $(CXX) -fsanitize=address,undefined $$^ $(LDLIBS) -o $$@
	@$$(call BUILD_CPU,$$@,$(BUILD)/rtlbug/$(1)/$(2)/rtl.cpu $(BUILD)/rtlbug/$(1)/$(2)/rtl.o.cpu)
endef
$(foreach b,$(RTLBUGS),$(if $(filter elite4,$(BLOCK_$(RTLBUG_TARGET_$(b)))),\
  $(eval $(call RTLBUG_EXP_RULES,$(b),elite4_p8,elite4,elite4_fabric_core,$(E4F_SRC),$(E4F_GLUE)))))
$(foreach b,$(RTLBUGS),$(if $(filter cp,$(BLOCK_$(RTLBUG_TARGET_$(b)))),\
  $(eval $(call RTLBUG_EXP_RULES,$(b),cp_exp,cp,cp_hotspot,$(CPHS_SRC),$(CPHS_GLUE)))))

# Which of them a regression needs: those its testlist lines (of tag R) name.
bug_sims = $(shell awk -v tag=$(R) '$$1 !~ /^\#/ && ("," $$5 ",") ~ ("," tag ",") && $$2 ~ /^(rtlbug|netbug)\// \
  { print $$2 ($$0 ~ /--mode=netlist/ ? "_netlist_sim" : "_sim") }' regress/testlist | sort -u)
bug_sims_of = $(shell awk -v t=$(1) '$$1 == t && $$2 ~ /^(rtlbug|netbug)\// \
  { print $$2 ($$0 ~ /--mode=netlist/ ? "_netlist_sim" : "_sim") }' regress/testlist)
