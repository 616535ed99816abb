// ibsw_route: the routing decision of one HEAD at arrival (docs/ibsw.md §5.2),
// from the state at the arrival cycle; the first matching rule decides.
// err_o: 0 routed, else code 1..4; drop_o = (err_o != 0) by a shorter path:
// entry_ok_i, the LFT's "this entry names a usable data egress other than
// the ingress" (§5.2 rules 1, 3 and 4), is read beside the entry, so the drop
// mark of an arriving HEAD waits for no compare on the entry read (LFT read ->
// route -> buffer entry was 3.66 ns in ibsw_p4; the U-turn compare left on it
// was the DLID's path in ibsw_p8_w24, 3.63 ns).
// egr_o is the entry (data) or the front tag (VL15) whatever the outcome: it
// is looked at only for a live HEAD.
module ibsw_route #(
  parameter int unsigned NumPorts = 4
) (
  input  logic [4:0]          ingress_i,   // 0 = the SMA's responses
  input  logic                vl15_i,
  input  logic [63:0]         data_i,
  input  logic [7:0]          entry_i,     // LFT[DLID] (data lanes)
  input  logic                entry_ok_i,  // 1 <= LFT[DLID] <= P, not ingress_i, that port usable for data
  input  logic [15:0]         top_i,
  input  logic [NumPorts-1:0] linkup_i,    // phys = LinkUp, port n at bit n-1
  input  logic [NumPorts-1:0] active_i,    // pstate = Active
  input  logic [NumPorts-1:0] draining_i,
  output logic [4:0]          egr_o,
  output logic [3:0]          err_o,
  output logic                drop_o
);
  // port e (1..P) LinkUp, not draining and (data) Active; constant indices only
  function automatic logic usable(input logic [4:0] e, input logic data);
    usable = 1'b0;
    for (int unsigned n = 1; n <= NumPorts; n++) begin
      if (32'(e) == n) usable = linkup_i[n-1] && !draining_i[n-1] && (active_i[n-1] || !data);
    end
  endfunction
  logic unused_data;
  assign unused_data = ^data_i[47:5];   // the route's later tags: carried, not read here
  // tags 0..P name a port or the SMA (a bit mask: at P = 31 every tag is legal)
  localparam logic [31:0] Legal = (NumPorts >= 31) ? 32'hFFFF_FFFF : ((32'd1 << (NumPorts + 1)) - 32'd1);
  logic [15:0] d;
  logic [4:0]  tag;
  always_comb begin
    d     = data_i[63:48];
    tag   = data_i[4:0];
    egr_o = vl15_i ? tag : entry_i[4:0];
    err_o = 4'd0;
    drop_o = 1'b0;
    if (!vl15_i) begin
      drop_o = d == 16'h0 || d == 16'hFFFF || d > top_i || !entry_ok_i;
      if (d == 16'h0 || d == 16'hFFFF || d > top_i) err_o = 4'd2;
      else if (entry_i == 8'hFF) err_o = 4'd1;
      else if (entry_i == 8'd0 || 32'(entry_i) > NumPorts || entry_i == {3'b0, ingress_i}) err_o = 4'd3;
      else if (!usable(entry_i[4:0], 1'b1)) err_o = 4'd4;
    end else begin
      if (d != 16'hFFFF) err_o = 4'd2;
      else if (!Legal[tag] || tag == ingress_i) err_o = 4'd3;
      else if (tag != 5'd0 && !usable(tag, 1'b0)) err_o = 4'd4;
      drop_o = err_o != 4'd0;
    end
  end
endmodule
