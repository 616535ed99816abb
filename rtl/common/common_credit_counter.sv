// Per-VC credit counter for one link. Spec: docs/common.md#common_credit_counter.
//
// Sending a flit on VC v consumes one of v's credits; the downstream buffer
// returns it when the flit leaves. A consume and a return on the same VC in
// one cycle cancel, so a link can stream at full rate with a single credit.
module common_credit_counter #(
  parameter int unsigned NumVcs     = 2,
  parameter int unsigned MaxCredits = 8,
  localparam int unsigned CntW = $clog2(MaxCredits + 1),
  localparam int unsigned VcW  = (NumVcs > 1) ? $clog2(NumVcs) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   init_i,        // reload all VCs to MaxCredits
  input  logic                   consume_i,
  input  logic [VcW-1:0]         consume_vc_i,
  input  logic [NumVcs-1:0]      return_i,      // bit v: one credit back for VC v
  output logic [NumVcs*CntW-1:0] credits_o,     // VC v at [v*CntW +: CntW]
  output logic [NumVcs-1:0]      avail_o,
  // errors: registered pulses, the rejected operation changed nothing
  output logic [NumVcs-1:0]      underflow_o,
  output logic [NumVcs-1:0]      overflow_o,
  output logic                   bad_vc_o
);

  if (NumVcs < 1 || NumVcs > 16) begin : gen_vcs_check
    $error("common_credit_counter: NumVcs must be 1..16");
  end
  if (MaxCredits < 1 || MaxCredits > 65535) begin : gen_credits_check
    $error("common_credit_counter: MaxCredits must be 1..65535");
  end

  localparam logic [CntW-1:0] Full = CntW'(MaxCredits);

  logic [NumVcs*CntW-1:0] cnt_q, cnt_d;
  logic [NumVcs-1:0]      underflow_q, underflow_d;
  logic [NumVcs-1:0]      overflow_q, overflow_d;
  logic                   bad_vc_q, bad_vc_d;

  always_comb begin
    logic            cons, ret;
    logic [CntW-1:0] cnt;
    cons        = 1'b0;
    ret         = 1'b0;
    cnt         = '0;
    cnt_d       = cnt_q;
    underflow_d = '0;
    overflow_d  = '0;
    bad_vc_d    = 1'b0;
    if (init_i) begin
      cnt_d = {NumVcs{Full}};
    end else begin
      bad_vc_d = consume_i && (32'(consume_vc_i) >= NumVcs);
      for (int unsigned v = 0; v < NumVcs; v++) begin
        cons = consume_i && (32'(consume_vc_i) == v);
        ret  = return_i[v];
        cnt  = cnt_q[v*CntW +: CntW];
        if (cons && !ret) begin
          if (cnt == '0) underflow_d[v] = 1'b1;
          else           cnt_d[v*CntW +: CntW] = cnt - 1'b1;
        end else if (ret && !cons) begin
          if (cnt == Full) overflow_d[v] = 1'b1;
          else             cnt_d[v*CntW +: CntW] = cnt + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q       <= {NumVcs{Full}};
      underflow_q <= '0;
      overflow_q  <= '0;
      bad_vc_q    <= 1'b0;
    end else begin
      cnt_q       <= cnt_d;
      underflow_q <= underflow_d;
      overflow_q  <= overflow_d;
      bad_vc_q    <= bad_vc_d;
    end
  end

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      avail_o[v] = (cnt_q[v*CntW +: CntW] != '0);
    end
  end

  assign credits_o   = cnt_q;
  assign underflow_o = underflow_q;
  assign overflow_o  = overflow_q;
  assign bad_vc_o    = bad_vc_q;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  // VCs whose count is above MaxCredits (one assertion for all VCs: yosys
  // 0.23 names a labelled assertion in a loop the same in every iteration)
  logic [NumVcs-1:0] above_max, reject_moved;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      above_max[v]    = 32'(cnt_q[v*CntW +: CntW]) > MaxCredits;
      // a rejected operation leaves its VC's count alone (the error pulses' promise)
      reject_moved[v] = (underflow_d[v] || overflow_d[v]) && cnt_d[v*CntW +: CntW] != cnt_q[v*CntW +: CntW];
    end
  end
  always_ff @(posedge clk_i) begin
    credit_le_max: assert (above_max == '0);
    credit_reject_no_change: assert (reject_moved == '0);
  end
`endif

endmodule
