// One input VC buffer of elite4: BufDepth flits with common_fifo's push/pop
// rules (a push to a full buffer is accepted when the buffer is popped in the
// same cycle), built as a front register and a ring of BufDepth slots behind
// it that holds at most BufDepth-1 flits. The front register also holds the
// route decoded from the flit's data (docs/elite4.md §5 "an implementation
// may keep the front entry, or a decoded form of its route, in a register"),
// so the allocators read registers, not a memory read port and a decoder.
// The spare slot lets an arrival be written at the write pointer whether or
// not it is accepted: only the pointers wait for SA's pop, late in the cycle
// (a common_fifo gates the write itself with the pop). Spec: §3, §5.1.
module elite4_input_buf #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned BufDepth = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                push_i,
  input  logic [1:0]          push_kind_i,
  input  logic [31:0]         push_data_i,
  input  logic                pop_i,        // only with front_valid_o
  output logic                full_o,
  output logic                front_valid_o,
  output logic                front_valid_next_o, // front_valid_o of the next cycle
  output logic [1:0]          front_kind_o,
  output logic [31:0]         front_data_o,
  output logic                front_legal_o, // decoded route of the front (a HEAD's)
  output logic                front_up_o,
  output logic                front_upn_o,
  output logic                front_bcast_o,
  output logic [NumPorts-1:0] front_mask_o
);

  localparam int unsigned PtrW = $clog2(BufDepth);
  localparam int unsigned CntW = $clog2(BufDepth);   // 0..BufDepth-1 behind the front

  logic                fv_q, fv_d;
  logic [1:0]          kind_q, kind_d;
  logic [31:0]         data_q, data_d;
  logic                legal_q, legal_d, up_q, up_d, upn_q, upn_d, bc_q, bc_d;
  logic [NumPorts-1:0] mask_q, mask_d;

  logic [33:0]         mem_q [BufDepth];
  logic [PtrW-1:0]     rd_q, rd_d, wr_q, wr_d;
  logic [CntW-1:0]     cnt_q, cnt_d;
  logic                f_push, f_pop, f_full, f_empty;
  logic [33:0]         f_front;
  logic                push_ok;

  // decoded forms of the two flits that can enter the front register
  logic                f_legal, f_up, f_upn, f_bc, p_legal, p_up, p_upn, p_bc;
  logic [NumPorts-1:0] f_mask, p_mask;
  logic [31:0]         unused_f_strip, unused_p_strip;

  function automatic logic [PtrW-1:0] ptr_inc(input logic [PtrW-1:0] ptr);
    ptr_inc = (32'(ptr) == BufDepth - 1) ? '0 : ptr + 1'b1;
  endfunction

  assign f_front = mem_q[rd_q];
  assign f_empty = cnt_q == '0;
  assign f_full  = 32'(cnt_q) == BufDepth - 1;

  elite4_route_decode #(.NumPorts(NumPorts)) u_dec_fifo (
    .route_i (f_front[31:0]), .legal_o (f_legal), .up_o (f_up), .upn_o (f_upn), .bcast_o (f_bc),
    .mask_o (f_mask), .stripped_o (unused_f_strip)
  );
  elite4_route_decode #(.NumPorts(NumPorts)) u_dec_push (
    .route_i (push_data_i), .legal_o (p_legal), .up_o (p_up), .upn_o (p_upn), .bcast_o (p_bc),
    .mask_o (p_mask), .stripped_o (unused_p_strip)
  );

  assign full_o  = fv_q && f_full;
  assign push_ok = push_i && (!full_o || pop_i);

  always_comb begin
    fv_d = fv_q; kind_d = kind_q; data_d = data_q;
    legal_d = legal_q; up_d = up_q; upn_d = upn_q; bc_d = bc_q; mask_d = mask_q;
    f_push = 1'b0; f_pop = 1'b0;
    if (pop_i && !f_empty) begin
      // the next flit moves up; an arrival goes behind it
      f_pop  = 1'b1;
      f_push = push_ok;
      fv_d = 1'b1; kind_d = f_front[33:32]; data_d = f_front[31:0];
      legal_d = f_legal; up_d = f_up; upn_d = f_upn; bc_d = f_bc; mask_d = f_mask;
    end else if (pop_i || !fv_q) begin
      // the front is (or becomes) empty: an arrival goes straight there
      fv_d = push_ok;
      if (push_ok) begin
        kind_d = push_kind_i; data_d = push_data_i;
        legal_d = p_legal; up_d = p_up; upn_d = p_upn; bc_d = p_bc; mask_d = p_mask;
      end
    end else begin
      f_push = push_ok;
    end
    rd_d  = f_pop ? ptr_inc(rd_q) : rd_q;
    wr_d  = f_push ? ptr_inc(wr_q) : wr_q;
    cnt_d = cnt_q + CntW'(f_push) - CntW'(f_pop);
  end

  // the slot at the write pointer is always free (at most BufDepth-1 flits
  // in BufDepth slots): every arrival is written there, kept only if pushed
  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_q] <= {push_kind_i, push_data_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q <= '0; wr_q <= '0; cnt_q <= '0;
    end else begin
      rd_q <= rd_d; wr_q <= wr_d; cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_q <= 1'b0; kind_q <= '0; data_q <= '0;
      legal_q <= 1'b0; up_q <= 1'b0; upn_q <= 1'b0; bc_q <= 1'b0; mask_q <= '0;
    end else begin
      fv_q <= fv_d; kind_q <= kind_d; data_q <= data_d;
      legal_q <= legal_d; up_q <= up_d; upn_q <= upn_d; bc_q <= bc_d; mask_q <= mask_d;
    end
  end

  assign front_valid_o = fv_q;
  assign front_valid_next_o = fv_d;
  assign front_kind_o  = kind_q;
  assign front_data_o  = data_q;
  assign front_legal_o = legal_q;
  assign front_up_o    = up_q;
  assign front_upn_o   = upn_q;
  assign front_bcast_o = bc_q;
  assign front_mask_o  = mask_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // the front register is filled before the ring behind it
    ib_front_first: assert (fv_q || f_empty);
    // the ring's count and pointers agree and stay in range
    ib_ring_consistent: assert (32'(cnt_q) < BufDepth && 32'(rd_q) < BufDepth &&
                                32'(wr_q) == (32'(rd_q) + 32'(cnt_q)) % BufDepth);
  end
`endif

endmodule
