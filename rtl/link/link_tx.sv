// Serialiser end of a link: training, exact pacing (a Bresenham accumulator:
// RateNum slots every RateDen cycles, spread evenly), the tx register.
// Spec: docs/link.md §4.
module link_tx #(
  parameter int NumVcs      = 2,
  parameter int RateNum     = 1,
  parameter int RateDen     = 1,
  parameter int TrainCycles = 8,
  localparam int VcW        = $clog2(NumVcs),
  localparam int FlitW      = 1 + 2 + VcW + 32
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           valid_i,
  input  logic [1:0]     kind_i,
  input  logic [VcW-1:0] vc_i,
  input  logic [31:0]    data_i,
  output logic           slot_o,    // the next cycle is a slot
  output logic           up_o,      // training done
  output logic           err_o,     // registered pulse: an offer outside a slot, dropped
  output logic           accept_o,  // this cycle's offer is taken (counter)
  output logic           offslot_o, // this cycle's offer is dropped (counter)
  output logic [FlitW-1:0] flit_o  // tx register {valid, kind, vc, data}; empty = 0
);

  if (RateDen < 1 || RateDen > 1024) begin : gen_den_check
    $error("link_tx: RateDen must be 1..1024");
  end
  if (RateNum < 1 || RateNum > RateDen) begin : gen_num_check
    $error("link_tx: RateNum must be 1..RateDen");
  end
  if (TrainCycles < 0 || TrainCycles > 4095) begin : gen_train_check
    $error("link_tx: TrainCycles must be 0..4095");
  end

  // acc + RateNum <= 2 * RateDen - 1
  localparam int AccW  = $clog2(2 * RateDen + 1);
  localparam logic [AccW-1:0] Num = AccW'(RateNum);
  localparam logic [AccW-1:0] Den = AccW'(RateDen);

  logic [11:0]      tcnt_q, tcnt_d;
  logic [AccW-1:0]  acc_q, acc_d, sum_q, sum_d;
  logic             up, slot, up_d;
  logic [FlitW-1:0] txq_q, txq_d;
  logic             err_q, err_d;

  always_comb begin
    up        = (tcnt_q == 12'(TrainCycles));
    sum_q     = acc_q + Num;
    slot      = up && (sum_q >= Den);
    accept_o  = valid_i && slot;
    offslot_o = valid_i && !slot;
    tcnt_d    = up ? tcnt_q : tcnt_q + 12'd1;
    if (!up)       acc_d = '0;
    else if (slot) acc_d = sum_q - Den;
    else           acc_d = sum_q;
    txq_d = accept_o ? {1'b1, kind_i, vc_i, data_i} : '0;
    err_d = offslot_o;
    up_d  = (tcnt_d == 12'(TrainCycles));
    sum_d = acc_d + Num;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tcnt_q <= '0;
      acc_q  <= '0;
      txq_q  <= '0;
      err_q  <= 1'b0;
    end else begin
      tcnt_q <= tcnt_d;
      acc_q  <= acc_d;
      txq_q  <= txq_d;
      err_q  <= err_d;
    end
  end

  assign up_o   = up;
  assign slot_o = up_d && (sum_d >= Den);
  assign err_o  = err_q;
  assign flit_o = txq_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // a flit reaches the tx register only in a slot
    ltx_accept_in_slot: assert (!txq_d[FlitW-1] || slot);
    // the accumulator stays below RateDen (checked on its next value: the edge that would break it)
    ltx_acc_in_range: assert (acc_d < Den);
  end
`endif

endmodule
