// ibsw_lane_buf: one input lane's buffer (docs/ibsw.md §5.0, §5.1 step 3):
// common_fifo's behaviour (a push is taken if the buffer is not full or is
// popped in the same cycle) with one spare slot of storage, written with the
// arriving flit whether or not it is taken: only the pointers and the count
// wait for SA's pop, not the memory's write enables (the 4.3 ns path of
// ibsw_p4, docs/ibsw.md Status).
module ibsw_lane_buf #(
  parameter int unsigned Width = 72,
  parameter int unsigned Depth = 4,
  localparam int unsigned Slots = Depth + 1,
  localparam int unsigned PtrW  = $clog2(Slots),
  localparam int unsigned CntW  = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] push_data_i,
  input  logic             pop_i,
  output logic [Width-1:0] pop_data_o,
  output logic             full_o,
  output logic             empty_o
);
  if (Depth < 2 || Depth > 256) begin : gen_depth_check
    $error("ibsw_lane_buf: Depth must be 2..256");
  end

  logic [Width-1:0] mem_q [Slots];
  logic [PtrW-1:0]  rd_q, wr_q;
  logic [CntW-1:0]  cnt_q;
  logic             pop_ok, push_ok;

  function automatic logic [PtrW-1:0] inc(input logic [PtrW-1:0] p);
    inc = (p == PtrW'(Slots - 1)) ? '0 : p + 1'b1;
  endfunction

  assign pop_ok  = pop_i && cnt_q != '0;
  assign push_ok = push_i && (cnt_q != CntW'(Depth) || pop_ok);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (pop_ok) rd_q <= inc(rd_q);
      if (push_ok) wr_q <= inc(wr_q);
      cnt_q <= cnt_q + CntW'(push_ok) - CntW'(pop_ok);
    end
  end
  // the slot at wr_q is never live (at most Depth entries in Depth + 1 slots)
  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_q] <= push_data_i;
  end

  assign pop_data_o = mem_q[rd_q];
  assign full_o     = cnt_q == CntW'(Depth);
  assign empty_o    = cnt_q == '0;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    lb_count_le_depth: assert (32'(cnt_q) <= Depth);
    lb_ptrs_agree: assert (32'(wr_q) == (32'(rd_q) + 32'(cnt_q)) % Slots);
  end
`endif
endmodule
