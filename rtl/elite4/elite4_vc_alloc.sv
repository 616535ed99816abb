// Output allocation: gives requesting input VCs their output VC(s). Spec:
// docs/elite4.md §5.4.
//
// Requesters are served one after the other, starting at a pointer that
// rotates every cycle, so each input VC regularly has first pick. An
// output VC granted earlier in the same cycle is no longer free. The
// adaptive tag takes the free up-link with the most credits (the least
// occupied downstream buffer); ties go to the first port from uptr.
module elite4_vc_alloc #(
  parameter int unsigned        NumPorts = 8,
  parameter int unsigned        NumVcs   = 2,
  parameter int unsigned        CntW     = 4,
  parameter int unsigned        UpMask   = 0,     // bit p: port p is an up-link
  localparam int unsigned       NumReq   = NumPorts * NumVcs,
  localparam int unsigned       ReqW     = $clog2(NumReq),
  localparam int unsigned       PortW    = $clog2(NumPorts)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumReq-1:0]           req_valid_i,   // index i*NumVcs + v
  input  logic [NumReq-1:0]           req_up_i,
  input  logic [NumReq*NumPorts-1:0]  req_mask_i,
  input  logic [NumPorts*NumVcs-1:0]  ofree_i,       // output VC (o, v) at o*NumVcs + v
  input  logic [NumPorts*NumVcs*CntW-1:0] cred_i,
  output logic [NumReq-1:0]           grant_o,
  output logic [NumReq*NumPorts-1:0]  grant_mask_o
);

  logic [ReqW-1:0]  aptr_q, aptr_d;
  logic [PortW-1:0] uptr_q, uptr_d;

  // The rotating order aptr, aptr+1, ... is walked as two passes over the
  // fixed order (first q >= aptr, then q < aptr), so every index below is a
  // constant: no dynamic selects for synthesis to unfold. The same holds for
  // the up-link scan from uptr.
  logic [NumPorts*NumVcs-1:0] claimed;
  logic [NumPorts-1:0]        want;
  logic                       ok, found;
  logic [PortW-1:0]           best;
  logic [CntW-1:0]            best_cred, c;
  logic                       up_granted;
  logic [PortW-1:0]           last_up;
  int unsigned                q, v, o;

  // One-hot decodes and the pointer update are written without shifters or
  // adders inside the loop: synthesis would otherwise try to share 32 copies.
  always_comb begin
    q = 0; v = 0; o = 0;
    up_granted = 1'b0;
    last_up = '0;
    claimed      = '0;
    grant_o      = '0;
    grant_mask_o = '0;
    uptr_d       = uptr_q;
    want = '0; ok = 1'b0; found = 1'b0; best = '0; best_cred = '0; c = '0;
    for (int unsigned k = 0; k < 2 * NumReq; k++) begin
      q = k % NumReq;
      v = q % NumVcs;
      want = '0; ok = 1'b0; found = 1'b0; best = '0; best_cred = '0;
      if (((k < NumReq) == (q >= 32'(aptr_q))) && req_valid_i[q]) begin
        if (req_up_i[q]) begin
          for (int unsigned j = 0; j < 2 * NumPorts; j++) begin
            o = j % NumPorts;
            c = cred_i[(o*NumVcs+v)*CntW +: CntW];
            if (((j < NumPorts) == (o >= 32'(uptr_q))) && UpMask[o] != 1'b0 &&
                ofree_i[o*NumVcs+v] && !claimed[o*NumVcs+v] && (!found || c > best_cred)) begin
              found = 1'b1;
              best = PortW'(o);
              best_cred = c;
            end
          end
          if (found) begin
            for (int unsigned p = 0; p < NumPorts; p++) want[p] = (32'(best) == p);
            ok = 1'b1;
            up_granted = 1'b1;
            last_up = best;   // the last adaptive grant in this cycle's order
          end
        end else begin
          want = req_mask_i[q*NumPorts +: NumPorts];
          ok = 1'b1;
          for (int unsigned p = 0; p < NumPorts; p++) begin
            if (want[p] && (!ofree_i[p*NumVcs+v] || claimed[p*NumVcs+v])) ok = 1'b0;
          end
        end
        if (ok) begin
          grant_o[q] = 1'b1;
          grant_mask_o[q*NumPorts +: NumPorts] = want;
          for (int unsigned p = 0; p < NumPorts; p++) begin
            if (want[p]) claimed[p*NumVcs+v] = 1'b1;
          end
        end
      end
    end
    if (up_granted) uptr_d = (32'(last_up) == NumPorts - 1) ? '0 : last_up + 1'b1;
    aptr_d = (32'(aptr_q) == NumReq - 1) ? '0 : aptr_q + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aptr_q <= '0;
      uptr_q <= '0;
    end else begin
      aptr_q <= aptr_d;
      uptr_q <= uptr_d;
    end
  end

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`,
  // docs/formal.md). They hold for any inputs. Not synthesized.
`ifndef SYNTHESIS
  logic [NumPorts*NumVcs-1:0] a_seen;    // output VCs granted so far
  logic                       a_twice;   // one output VC granted to two inputs
  logic                       a_unfree;  // a granted output VC was not free
  always_comb begin
    a_seen = '0; a_twice = 1'b0; a_unfree = 1'b0;
    for (int unsigned r = 0; r < NumReq; r++) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (grant_o[r] && grant_mask_o[r*NumPorts + p]) begin
          if (a_seen[p*NumVcs + r % NumVcs]) a_twice = 1'b1;
          if (!ofree_i[p*NumVcs + r % NumVcs]) a_unfree = 1'b1;
          a_seen[p*NumVcs + r % NumVcs] = 1'b1;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    vca_ptrs_in_range: assert (32'(aptr_q) < NumReq && 32'(uptr_q) < NumPorts);
    vca_grant_requested: assert ((grant_o & ~req_valid_i) == '0);
    vca_output_vc_once: assert (!a_twice);
    vca_output_vc_free: assert (!a_unfree);
  end
`endif

endmodule
