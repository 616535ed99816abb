rtl/common/common_counter.sv
rtl/link/link_wire.sv
rtl/link/link_tx.sv
rtl/common/common_crc32.sv
rtl/link/link_crc.sv
rtl/link/link_rx.sv
rtl/link/link.sv
