// Per-VC CRC-32 check of each TAIL against the BODY words of its packet, as a
// lookahead pipeline that takes one word per cycle and closes the nominal
// clock. Spec: docs/link.md §6 (the CRC is common_crc32's: reflected
// 0xEDB88320, start 0xFFFFFFFF, value ~c, 4 bytes per word).
//
// Feeding a word is linear: c' = M (c ^ d), M = 32 steps of the reflected
// shift. After k words of a packet c_k = R[p] ^ M R[~p], p = k mod 2, where a
// word of parity q updates only R[q] <= M^2 R[q] ^ M d. R[q] is next needed
// two words later, so its update may take two cycles (stages B, C); the M and
// M^2 products are split by input byte so no stage chains more than one
// byte's XOR tree. A TAIL's check c_n ^ ~data == 0 takes stages C, D, E:
// err_o pulses 5 cycles after the TAIL was at the input.
module link_crc #(
  parameter int NumVcs = 2,
  localparam int VcW   = $clog2(NumVcs)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           valid_i,
  input  logic [1:0]     kind_i,
  input  logic [VcW-1:0] vc_i,
  input  logic [31:0]    data_i,
  output logic           err_o,     // registered pulse: a TAIL's CRC did not match
  output logic           err_inc_o  // err_o of the next cycle (the counter's increment)
);

  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("link_crc: NumVcs must be 2 or 4");
  end

  localparam logic [31:0] Poly = 32'hEDB88320;
  localparam logic [31:0] Init = 32'hFFFFFFFF;
  localparam logic [1:0]  KindHead = 2'd0, KindBody = 2'd1, KindTail = 2'd2;

  // M^n x: n steps of the reflected shift (yosys 0.23: no return statement)
  function automatic logic [31:0] shift_n(input logic [31:0] x, input int n);
    logic [31:0] c;
    c = x;
    for (int i = 0; i < n; i++) c = c[0] ? ((c >> 1) ^ Poly) : (c >> 1);
    shift_n = c;
  endfunction
  // byte g of x alone (the products are split by input byte)
  function automatic logic [31:0] byte_of(input logic [31:0] x, input int g);
    byte_of = x & (32'hFF << (8 * g));
  endfunction

  // per VC: the two registers (R[v][q] at bits [(2v+q)*32 +: 32]) and the word-count parity;
  // flat vectors: yosys 0.23 and Verilator then read the indexed writes alike
  logic [2*NumVcs*32-1:0] r_q;
  logic [NumVcs-1:0]      par_q;

  // stage A: the word's data term, by byte
  logic           a_valid_q;
  logic [1:0]     a_kind_q;
  logic [VcW-1:0] a_vc_q;
  logic [127:0]   a_dpart_q;  // byte g's product at [g*32 +: 32]
  logic [31:0]    a_data_q;
  // stage B: the data term; the register term by byte
  logic           b_body_q, b_tail_q, b_par_q;
  logic [VcW-1:0] b_vc_q;
  logic [31:0]    b_md_q, b_inv_q;
  logic [127:0]   b_rpart_q;
  // stage C -> D: a TAIL's c_n ^ ~data, by byte of M R[~p]
  logic           c_check_q, c_tail_q;
  logic [127:0]   c_fpart_q;
  logic [31:0]    c_x_q;
  // stage D -> E
  logic           d_check_q, d_tail_q;
  logic [31:0]    d_z_q;
  logic           err_q;

  logic        a_head, a_body, b_par_new;
  logic [31:0] a_sel, b_sel_o, b_sel_x, md, b_word;
  logic [127:0] dpart, rpart, fpart;
  logic        check_d, err_d;
  logic [31:0] z_d;

  always_comb begin
    for (int g = 0; g < 4; g++) dpart[g*32 +: 32] = shift_n(byte_of(data_i, g), 32);
    a_head    = a_valid_q && a_kind_q == KindHead;
    a_body    = a_valid_q && a_kind_q == KindBody;
    // a BODY updates the register of its own parity: the one after the count flips
    // selections by loops, not by computed part-selects (yosys 0.23 read those differently at 4 VCs)
    b_par_new = 1'b0;
    a_sel     = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (a_vc_q == VcW'(v)) begin
        b_par_new = ~par_q[v];
        a_sel     = par_q[v] ? r_q[(2*v)*32 +: 32] : r_q[(2*v+1)*32 +: 32];
      end
    end
    for (int g = 0; g < 4; g++) rpart[g*32 +: 32] = shift_n(byte_of(a_sel, g), 64);
    md = a_dpart_q[0 +: 32] ^ a_dpart_q[32 +: 32] ^ a_dpart_q[64 +: 32] ^ a_dpart_q[96 +: 32];
    // stage C: the BODY's new register value; a TAIL's operands
    b_word  = b_md_q ^ b_rpart_q[0 +: 32] ^ b_rpart_q[32 +: 32] ^ b_rpart_q[64 +: 32] ^ b_rpart_q[96 +: 32];
    b_sel_x = '0;
    b_sel_o = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (b_vc_q == VcW'(v)) begin
        b_sel_x = par_q[v] ? r_q[(2*v+1)*32 +: 32] : r_q[(2*v)*32 +: 32];
        b_sel_o = par_q[v] ? r_q[(2*v)*32 +: 32] : r_q[(2*v+1)*32 +: 32];
      end
    end
    for (int g = 0; g < 4; g++) fpart[g*32 +: 32] = shift_n(byte_of(b_sel_o, g), 32);
    check_d = b_tail_q;
    z_d     = c_fpart_q[0 +: 32] ^ c_fpart_q[32 +: 32] ^ c_fpart_q[64 +: 32] ^ c_fpart_q[96 +: 32] ^ c_x_q;
    err_d   = d_check_q && (d_z_q != '0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_kind_q  <= '0;
      a_vc_q    <= '0;
      a_data_q  <= '0;
      a_dpart_q <= '0;
      b_rpart_q <= '0;
      c_fpart_q <= '0;
      b_body_q  <= 1'b0;
      b_tail_q  <= 1'b0;
      b_par_q   <= 1'b0;
      b_vc_q    <= '0;
      b_md_q    <= '0;
      b_inv_q   <= '0;
      c_check_q <= 1'b0;
      c_tail_q  <= 1'b0;
      c_x_q     <= '0;
      d_check_q <= 1'b0;
      d_tail_q  <= 1'b0;
      d_z_q     <= '0;
      err_q     <= 1'b0;
    end else begin
      // A
      a_valid_q <= valid_i;
      a_kind_q  <= kind_i;
      a_vc_q    <= vc_i;
      a_data_q  <= data_i;
      a_dpart_q <= dpart;
      // B
      b_body_q <= a_body;
      b_tail_q <= a_valid_q && a_kind_q == KindTail;
      b_par_q  <= b_par_new;
      b_vc_q   <= a_vc_q;
      b_md_q   <= md;
      b_inv_q  <= ~a_data_q;
      b_rpart_q <= rpart;
      c_check_q <= check_d;
      c_tail_q  <= b_tail_q;
      c_x_q     <= b_sel_x ^ b_inv_q;
      c_fpart_q <= fpart;
      // D, E
      d_check_q <= c_check_q;
      d_tail_q  <= c_tail_q;
      d_z_q     <= z_d;
      err_q     <= err_d;
    end
  end

  // C: a BODY's register update; a HEAD in stage B of the same VC restarts both and wins
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    for (genvar q = 0; q < 2; q++) begin : gen_par
      logic [31:0] reg_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)                                          reg_q <= q == 0 ? Init : 32'h0;
        else if (a_head && a_vc_q == VcW'(v))                 reg_q <= q == 0 ? Init : 32'h0;
        else if (b_body_q && b_vc_q == VcW'(v) && b_par_q == 1'(q)) reg_q <= b_word;
      end
      assign r_q[(2*v+q)*32 +: 32] = reg_q;
    end
    // the word-count parity: a BODY flips it (stage B), a HEAD clears it
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)                           par_q[v] <= 1'b0;
      else if (a_vc_q == VcW'(v) && a_head)  par_q[v] <= 1'b0;
      else if (a_vc_q == VcW'(v) && a_body)  par_q[v] <= ~par_q[v];
    end
  end

  assign err_o     = err_q;
  assign err_inc_o = err_d;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // a CRC error is only ever flagged for a TAIL
    lcrc_err_only_tail: assert (!err_d || d_tail_q);
  end
`endif

endmodule
