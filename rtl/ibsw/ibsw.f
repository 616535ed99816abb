rtl/ibsw/ibsw.sv
