// Decodes the front tag of a HEAD's route word. Spec: docs/elite4.md §3.
//
// Tags 0..NumPorts-1 name a port, 13 asks for any up-link, 12 asks for any
// up-link here and in the next k-1 switches (k the next tag, 1..15; ours),
// 14 broadcasts to the port range held in the next tag; anything else is
// illegal. The used tag(s) are removed and 0xF shifted in, so a route that
// runs out of tags ends in an illegal tag; a counted up tag with k > 1 stays,
// its count decremented in place.
module elite4_route_decode #(
  parameter int unsigned NumPorts = 8
) (
  input  logic [31:0]         route_i,
  output logic                legal_o,
  output logic                up_o,       // adaptive: any up-link (TagUp or TagUpN)
  output logic                upn_o,      // TagUpN (how the HEAD is stripped)
  output logic                bcast_o,
  output logic [NumPorts-1:0] mask_o,     // requested ports (explicit or broadcast)
  output logic [31:0]         stripped_o  // the route word the HEAD leaves with
);

  logic [3:0] tag, range_tag;
  logic [1:0] lo, hi;

  always_comb begin
    tag       = route_i[3:0];
    range_tag = route_i[7:4];
    lo        = range_tag[3:2];
    hi        = range_tag[1:0];
    legal_o   = 1'b0;
    up_o      = 1'b0;
    upn_o     = 1'b0;
    bcast_o   = 1'b0;
    mask_o    = '0;
    if (32'(tag) < NumPorts) begin
      legal_o = 1'b1;
      for (int unsigned p = 0; p < NumPorts; p++) mask_o[p] = (32'(tag) == p);
    end else if (tag == elite4_pkg::TagUp) begin
      legal_o = 1'b1;
      up_o    = 1'b1;
    end else if (tag == elite4_pkg::TagUpN && range_tag != 4'd0) begin
      // only reached with NumPorts <= 12 (tag < NumPorts is tested first)
      legal_o = 1'b1;
      up_o    = 1'b1;
      upn_o   = 1'b1;
    end else if (tag == elite4_pkg::TagBcast && lo <= hi && 32'(hi) < NumPorts) begin
      legal_o = 1'b1;
      bcast_o = 1'b1;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        mask_o[p] = (p >= 32'(lo)) && (p <= 32'(hi));
      end
    end
    // bcast_o, not tag == TagBcast: with 15 or 16 ports tag 14 names a port and
    // loses one tag (found by the 16-port lockstep target elite4_p16_v4)
    if (upn_o && range_tag != 4'd1) stripped_o = {route_i[31:8], range_tag - 4'd1, elite4_pkg::TagUpN};
    else if (bcast_o || upn_o)      stripped_o = {8'hFF, route_i[31:8]};
    else                            stripped_o = {4'hF, route_i[31:4]};
  end

endmodule
