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
  output logic             empty_o,
  output logic             nonempty_next_o  // the count after this cycle is not 0
);
  if (Depth < 2 || Depth > 256) begin : gen_depth_check
    $error("ibsw_lane_buf: Depth must be 2..256");
  end

  logic [Width-1:0] mem_q [Slots];
  logic [PtrW-1:0]  rd_q, wr_q;
  logic [CntW-1:0]  cnt_q;
  logic             pop_ok, push_ok;
  // The count and write pointer after a pop and without one, chosen by the
  // pop last: the pop is SA's choice (front -> crossbar -> SA -> pop), and
  // the add after it was 4.24 ns in ibsw_p8_w24 (docs/ibsw.md Status) *(ours)*.
  // A popped buffer takes the push; an unpopped one takes it when not full.
  logic [CntW-1:0]  cnt_pop, cnt_keep, cnt_d;
  logic [PtrW-1:0]  wr_pop, wr_keep;

  function automatic logic [PtrW-1:0] inc(input logic [PtrW-1:0] p);
    inc = (p == PtrW'(Slots - 1)) ? '0 : p + 1'b1;
  endfunction

  assign pop_ok  = pop_i && cnt_q != '0;
  assign push_ok = push_i && (cnt_q != CntW'(Depth) || pop_ok);
  assign cnt_pop  = push_i ? cnt_q : cnt_q - 1'b1;
  assign cnt_keep = (push_i && cnt_q != CntW'(Depth)) ? cnt_q + 1'b1 : cnt_q;
  assign wr_pop   = push_i ? inc(wr_q) : wr_q;
  assign wr_keep  = (push_i && cnt_q != CntW'(Depth)) ? inc(wr_q) : wr_q;
  assign cnt_d    = pop_ok ? cnt_pop : cnt_keep;
  // not empty next cycle, each case's answer from the registers and the push,
  // the pop choosing last (the input unit registers "ACTIVE and not empty"
  // for the crossbar, docs/ibsw.md Status) *(ours)*
  assign nonempty_next_o = pop_ok ? (push_i || cnt_q != CntW'(1)) : (push_i || cnt_q != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (pop_ok) rd_q <= inc(rd_q);
      wr_q  <= pop_ok ? wr_pop : wr_keep;
      cnt_q <= cnt_d;
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
    lb_count_next: assert (cnt_d == cnt_q + CntW'(push_ok) - CntW'(pop_ok));
  end
`endif
endmodule
