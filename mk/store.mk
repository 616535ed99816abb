# The results store (testbench/store/, docs/store.md): SQLite, one database
# per study. Included by the top Makefile after BLOCK_RULES.
#   build/bin/store_sim        the store's unit test (testlist block `store`)
#   build/bin/store_report     reports as SQL queries on a database (store_report --help)
STORE_DIR := testbench/store
STORE_LIBS := -lsqlite3 -lm

$(BUILD)/bin/store_sim: $(call c_obj,$(STORE_DIR)/store.c $(STORE_DIR)/test_store.c testbench/rng.c,obj)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CC) $^ $(STORE_LIBS) -o $@
$(BUILD)/asan/bin/store_sim: $(call c_obj,$(STORE_DIR)/store.c $(STORE_DIR)/test_store.c testbench/rng.c,asan)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CC) -fsanitize=address,undefined $^ $(STORE_LIBS) -o $@
$(BUILD)/bin/store_report: $(call c_obj,$(STORE_DIR)/store_report.c,obj)
	@mkdir -p $(@D)
	@echo "  LINK     $@"
	@$(CC) $^ $(STORE_LIBS) -o $@
$(BUILD)/asan/bin/store_report: $(call c_obj,$(STORE_DIR)/store_report.c,asan)
	@mkdir -p $(@D)
	@echo "  LINK     $@ (ASan+UBSan)"
	@$(CC) -fsanitize=address,undefined $^ $(STORE_LIBS) -o $@

# For the top Makefile: add to build / build-asan.
STORE_SIMS      := $(BUILD)/bin/store_sim $(BUILD)/bin/store_report
STORE_ASAN_SIMS := $(BUILD)/asan/bin/store_sim $(BUILD)/asan/bin/store_report
