// Queue occupancy Q in bytes from enqueue/dequeue events. Spec: docs/cp.md §5.
//
// A dequeue may only remove bytes present at the start of the cycle, so the
// checks have an order: lengths, then the dequeue, then the enqueue.
module cp_queue_monitor #(
  parameter int unsigned QW       = 27,
  parameter int unsigned MaxFrame = 9216
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          enq_valid_i,
  input  logic [15:0]   enq_len_i,
  input  logic          deq_valid_i,
  input  logic [15:0]   deq_len_i,
  output logic          enq_ok_o,       // accepted this cycle
  output logic          deq_ok_o,
  output logic          reject_o,       // some event rejected this cycle (error counter)
  output logic [QW-1:0] q_o,            // registered occupancy
  output logic          ev_err_o,       // registered pulse
  output logic [2:0]    ev_err_code_o   // held until the next error
);

  logic [QW-1:0] q_q, q_d;
  logic          err_q;
  logic [2:0]    code_q, code_d;
  logic          enq_len_ok, deq_len_ok, enq_fits, deq_fits;
  logic [QW:0]   after_deq, after_enq;

  assign enq_len_ok = (enq_len_i >= 16'd64) && (32'(enq_len_i) <= MaxFrame);
  assign deq_len_ok = (deq_len_i >= 16'd64) && (32'(deq_len_i) <= MaxFrame);
  assign deq_fits   = (QW+1)'(deq_len_i) <= (QW+1)'(q_q);

  always_comb begin
    deq_ok_o  = deq_valid_i && deq_len_ok && deq_fits;
    after_deq = (QW+1)'(q_q) - (deq_ok_o ? (QW+1)'(deq_len_i) : '0);
    after_enq = after_deq + (QW+1)'(enq_len_i);
    enq_fits  = !after_enq[QW];  // at most QMax = 2^QW - 1
    enq_ok_o  = enq_valid_i && enq_len_ok && enq_fits;
    q_d       = enq_ok_o ? after_enq[QW-1:0] : after_deq[QW-1:0];

    code_d = code_q;
    if      (enq_valid_i && !enq_len_ok)              code_d = cp_pkg::EvErrEnqLen;
    else if (deq_valid_i && !deq_len_ok)              code_d = cp_pkg::EvErrDeqLen;
    else if (enq_valid_i && enq_len_ok && !enq_fits)  code_d = cp_pkg::EvErrOverflow;
    else if (deq_valid_i && deq_len_ok && !deq_fits)  code_d = cp_pkg::EvErrUnderflow;
    reject_o = (enq_valid_i && !enq_ok_o) || (deq_valid_i && !deq_ok_o);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q    <= '0;
      err_q  <= 1'b0;
      code_q <= '0;
    end else begin
      q_q    <= q_d;
      err_q  <= reject_o;
      code_q <= code_d;
    end
  end

  assign q_o           = q_q;
  assign ev_err_o      = err_q;
  assign ev_err_code_o = code_q;

endmodule
