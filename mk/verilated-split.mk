# Read after a Verilated model's V<top>.mk by quick builds of targets that are
# not heavy (Makefile: vopt_of), which also set VM_PARALLEL_BUILDS=1,
# VM_FAST=V<top>__FastAll and VM_SLOW=V<top>__SlowAll: the generated C++
# compiles as two translation units, one per optimisation class. One unit
# per file parses Verilator's headers ~30 times; one unit for everything
# (__ALL.cpp, VM_PARALLEL_BUILDS=0) compiles the constructors, the trace
# declarations and the initial blocks at OPT_FAST instead of OPT_SLOW.
# elite4_p8_v4 with clang++ (2026-11-29, back to back): __ALL.cpp at -O1
# 86.8 CPU-s; __FastAll.cpp at -O1 40.9 + __SlowAll.cpp at -O0 7.7.
VSPLIT_FAST := $(addsuffix .cpp,$(VM_CLASSES_FAST) $(VM_SUPPORT_FAST))
VSPLIT_SLOW := $(addsuffix .cpp,$(VM_CLASSES_SLOW) $(VM_SUPPORT_SLOW))
$(VM_PREFIX)__FastAll.cpp: $(VSPLIT_FAST)
	$(VERILATOR_INCLUDER) -DVL_INCLUDE_OPT=include $^ > $@
$(VM_PREFIX)__SlowAll.cpp: $(VSPLIT_SLOW)
	$(VERILATOR_INCLUDER) -DVL_INCLUDE_OPT=include $^ > $@
