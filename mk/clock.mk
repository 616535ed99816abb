# The nominal clock, in one place (make timing, make timing-check, docs/timing.md).
#
# NOMINAL_MHZ is the clock every block must close in the osu018 timing flow
# (docs/timing.md) with TIMING_MARGIN_PCT % of the period to spare: a target
# closes when its worst path <= period * (100 - margin) / 100.
NOMINAL_MHZ       ?= 250
TIMING_MARGIN_PCT ?= 10

# Targets known NOT to close the nominal clock today, each with its reason.
# timing-check fails when a target outside this list stops closing, and also
# when a listed target starts closing (then take it off the list).
#   cp_exp:   not measured (docs/timing.md): the 256-entry flow table's flat
#             synthesis did not finish; cp_q20_f8 (8 entries, the same RTL)
#             closes since the queue monitor's verdicts were shortened and the
#             sampler takes them into one-bit registers (docs/cp.md section 13).
#   (elite4_p8 closes again: 3,280 ps since VA's grant only moves the input
#             VC's state and the late carries end at one flip-flop, docs/elite4.md
#             §10; it measured 3,650 ps, 50 ps over, on VA -> grant -> pend.)
#   ibsw_*:   ibsw_p4 closes (3,338-3,442 ps, docs/ibsw.md "Status"); ibsw_p8_w24
#             measured 4,320 ps (8 ports: the LFT's usable-egress flag into the
#             drop mark, SA -> pop -> buffer count, VA over 9 inputs, the
#             training counter) before those paths were retimed, 3,990 ps
#             after (SA -> pop -> the registered arrivals of pend; i2r 3,694
#             into the LFT's flag register), 3,768 ps after three more (the pop's
#             consequences; i2r 3,464), 3,624 ps after two more (ready from
#             registered flags; 24 ps over: pend = 0 -> drain -> SA -> pop;
#             i2r 3,385); ibsw_p2_max timed out (2,700 s, before
#             abc); ibsw_p24 and ibsw_p31 are not measured (docs/timing.md).
#   elan4_*:  elan4_min fails (docs/elan4.md "RTL status": last flat run 16.2 ns,
#             the DMA's, before its round; the DMA alone 9.5 ns since). The queue
#             cache closes alone (3.1-3.2 ns), STEN (3.4) and the event processor
#             (3.3) too; the paths crossing the cache through the command processor
#             to STEN and back are 3.7-4.6 ns in scratch group runs (fifth round);
#             the larger elan4 targets are not measured; elan4_onetag (elan4_min
#             with two reply slots) shares elan4_min's failing paths, not measured.
TIMING_KNOWN_FAIL := cp_exp elan4_default elan4_max elan4_min elan4_onetag elan4_onevc ibsw_p24 ibsw_p2_max ibsw_p31 ibsw_p8_w24

# The targets `make test` checks (they synthesise in seconds): per common
# module its widest target (the others are the same logic, narrower: 0.5 to
# 0.9 of its path, docs/timing.md), and link_250; `make regress R=nightly`
# checks every target (regress/testlist, timing_nominal_clock), cp_q20_f8
# among them (~50 CPU-s of yosys, a quarter of make test's timing check).
TIMING_TEST_TARGETS = common_fifo_w72_d4 common_credit_v3_c5 common_arb_n5 common_crc32_b4 \
  common_lfsr32_s44257 common_counter_w32_i4 link_250
