// Synchronous show-ahead FIFO. Spec: docs/common.md#common_fifo.
//
// Depth need not be a power of two: pointers wrap explicitly. A push into a
// full FIFO is accepted when a pop frees a slot in the same cycle.
module common_fifo #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 4,
  localparam int unsigned CountW = $clog2(Depth + 1),
  localparam int unsigned PtrW   = $clog2(Depth)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // write side
  input  logic              push_i,
  input  logic [Width-1:0]  push_data_i,
  // read side: pop_data_o is the oldest entry, valid while !empty_o
  input  logic              pop_i,
  output logic [Width-1:0]  pop_data_o,
  // status
  output logic              full_o,
  output logic              empty_o,
  output logic [CountW-1:0] count_o,
  // errors: registered pulses, the rejected operation changed nothing
  output logic              overflow_o,
  output logic              underflow_o
);

  if (Width < 1 || Width > 256) begin : gen_width_check
    $error("common_fifo: Width must be 1..256");
  end
  if (Depth < 2 || Depth > 65535) begin : gen_depth_check
    $error("common_fifo: Depth must be 2..65535");
  end

  logic [Width-1:0]  mem_q [Depth];
  logic [PtrW-1:0]   rd_ptr_q, rd_ptr_d;
  logic [PtrW-1:0]   wr_ptr_q, wr_ptr_d;
  logic [CountW-1:0] count_q, count_d;
  logic              overflow_q, overflow_d;
  logic              underflow_q, underflow_d;
  logic              push_ok, pop_ok;

  // Pointer increment with wrap at Depth (not at 2**PtrW). yosys 0.23 reads
  // neither `return` nor direction-less arguments, hence the old-style body.
  function automatic logic [PtrW-1:0] ptr_inc(input logic [PtrW-1:0] ptr);
    ptr_inc = (ptr == PtrW'(Depth - 1)) ? '0 : ptr + 1'b1;
  endfunction

  always_comb begin
    pop_ok      = pop_i && (count_q != '0);
    push_ok     = push_i && ((count_q != CountW'(Depth)) || pop_ok);
    rd_ptr_d    = pop_ok  ? ptr_inc(rd_ptr_q) : rd_ptr_q;
    wr_ptr_d    = push_ok ? ptr_inc(wr_ptr_q) : wr_ptr_q;
    count_d     = count_q + CountW'(push_ok) - CountW'(pop_ok);
    overflow_d  = push_i && !push_ok;
    underflow_d = pop_i && !pop_ok;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q    <= '0;
      wr_ptr_q    <= '0;
      count_q     <= '0;
      overflow_q  <= 1'b0;
      underflow_q <= 1'b0;
    end else begin
      rd_ptr_q    <= rd_ptr_d;
      wr_ptr_q    <= wr_ptr_d;
      count_q     <= count_d;
      overflow_q  <= overflow_d;
      underflow_q <= underflow_d;
    end
  end

  // Storage has no reset: entries are only read after being written.
  always_ff @(posedge clk_i) begin
    if (push_ok) mem_q[wr_ptr_q] <= push_data_i;
  end

  assign pop_data_o  = mem_q[rd_ptr_q];
  assign full_o      = (count_q == CountW'(Depth));
  assign empty_o     = (count_q == '0);
  assign count_o     = count_q;
  assign overflow_o  = overflow_q;
  assign underflow_o = underflow_q;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  always_ff @(posedge clk_i) begin
    fifo_count_le_depth: assert (32'(count_q) <= Depth);
    fifo_ptrs_in_range: assert (32'(rd_ptr_q) < Depth && 32'(wr_ptr_q) < Depth);
    // the write pointer is always count entries past the read pointer
    fifo_ptrs_agree: assert (32'(wr_ptr_q) == (32'(rd_ptr_q) + 32'(count_q)) % Depth);
    // a push into a full FIFO is taken only with a pop in the same cycle
    fifo_no_push_when_full: assert (!(push_ok && full_o && !pop_ok));
    fifo_no_pop_when_empty: assert (!(pop_ok && empty_o));
  end
`endif

endmodule
