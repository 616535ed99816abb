// VA's round-robin arbiter over the inputs of one output VC: the same
// function and the same state as common_rr_arbiter (docs/common.md; a binary
// pointer that moves past the winner when the grant is taken), built for
// depth instead of a scan: the pointer alone decides, for every pair of
// requesters, which one comes first from it, so each grant is its request
// AND "no earlier request" (one AND-OR level over the requests), and the
// next pointer is the grant rotated by one and encoded (one OR level, no
// adder). The pairwise order comes from the registered pointer, in parallel
// with the requests (docs/elite4.md §10: VA was the 8-port switch's critical
// path with the scanning arbiter).
module elite4_va_arbiter #(
  parameter int unsigned NumReq = 8,
  localparam int unsigned IdxW = $clog2(NumReq)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumReq-1:0] req_i,
  input  logic              ack_i,
  output logic [NumReq-1:0] gnt_o,
  output logic              gnt_valid_o
);

  if (NumReq < 2 || NumReq > 64) begin : gen_req_check
    $error("elite4_va_arbiter: NumReq must be 2..64");
  end

  logic [IdxW-1:0]          ptr_q, ptr_d;
  logic [NumReq-1:0]        hi;       // hi[k]: k >= ptr_q (scanned before the wrap)
  logic [NumReq*NumReq-1:0] ahead;    // [i*NumReq + j]: j is scanned before i

  always_comb begin
    for (int unsigned k = 0; k < NumReq; k++) hi[k] = k >= 32'(ptr_q);
    for (int unsigned i = 0; i < NumReq; i++) begin
      for (int unsigned j = 0; j < NumReq; j++) begin
        if (j < i)      ahead[i*NumReq+j] = hi[j] || !hi[i];
        else if (j > i) ahead[i*NumReq+j] = hi[j] && !hi[i];
        else            ahead[i*NumReq+j] = 1'b0;
      end
    end
    for (int unsigned i = 0; i < NumReq; i++) begin
      gnt_o[i] = req_i[i] && ((req_i & ahead[i*NumReq +: NumReq]) == '0);
    end
  end

  assign gnt_valid_o = req_i != '0;

  // past the winner: winner i -> (i + 1) mod NumReq, read off the one-hot grant
  always_comb begin
    ptr_d = ptr_q;
    if (ack_i && gnt_valid_o) begin
      ptr_d = '0;
      for (int unsigned i = 0; i < NumReq; i++) begin
        if (gnt_o[i]) ptr_d = ptr_d | IdxW'((i + 1) % NumReq);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end

  // common_rr_arbiter's assertions about the grant are asserted on every
  // instance by elite4_vc_alloc (vaa_*; `make formal` proves them there).

endmodule
