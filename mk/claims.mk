# Claims measured with confidence intervals (issue 9 item 7): mk/claims.sh.
#   make claims B=cp|elite4 [SEEDS='1 2 3 4 5'] [LEN=session|full]
#     -> build/claims/<B>.md (verdict table), <B>.csv (every run), <B>_ci.csv (intervals)
#   make claims-ci-test   the interval helper's unit test (mk/ci-test.sh; part of make unit)
# Included by the top Makefile after mk/cp_hotspot.mk and mk/elite4_fabric.mk.
.PHONY: claims claims-ci-test
claims: $(BUILD)/bin/cp_hotspot_sim $(BUILD)/bin/elite4_fabric_core_sim
	@case "$(B)" in cp|elite4) ;; *) echo "usage: make claims B=cp|elite4 [SEEDS='1 2 3 4 5'] [LEN=session|full]"; exit 2;; esac
	@JOBS=$(JOBS) $(if $(SEEDS),SEEDS='$(SEEDS)') $(if $(LEN),LEN=$(LEN)) ./mk/claims.sh $(B) run
claims-ci-test:
	@./mk/ci-test.sh
unit: claims-ci-test
