rtl/elan4/elan4.sv
