rtl/common/common_fifo.sv
rtl/common/common_credit_counter.sv
rtl/common/common_rr_arbiter.sv
rtl/common/common_crc32.sv
rtl/common/common_lfsr32.sv
rtl/common/common_counter.sv
