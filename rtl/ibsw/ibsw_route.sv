// ibsw_route: the routing decision of one HEAD at arrival (docs/ibsw.md §5.2),
// from the state at the arrival cycle; the first matching rule decides.
// err_o: 0 routed, else code 1..4.
module ibsw_route #(
  parameter int unsigned NumPorts = 4
) (
  input  logic [4:0]          ingress_i,   // 0 = the SMA's responses
  input  logic                vl15_i,
  input  logic [63:0]         data_i,
  input  logic [7:0]          entry_i,     // LFT[DLID] (data lanes)
  input  logic [15:0]         top_i,
  input  logic [NumPorts-1:0] linkup_i,    // phys = LinkUp, port n at bit n-1
  input  logic [NumPorts-1:0] active_i,    // pstate = Active
  input  logic [NumPorts-1:0] draining_i,
  output logic [4:0]          egr_o,
  output logic [3:0]          err_o
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
    egr_o = '0;
    err_o = 4'd0;
    if (!vl15_i) begin
      if (d == 16'h0 || d == 16'hFFFF || d > top_i) err_o = 4'd2;
      else if (entry_i == 8'hFF) err_o = 4'd1;
      else if (entry_i == 8'd0 || 32'(entry_i) > NumPorts || entry_i == {3'b0, ingress_i}) err_o = 4'd3;
      else if (!usable(entry_i[4:0], 1'b1)) err_o = 4'd4;
      else egr_o = entry_i[4:0];
    end else begin
      if (d != 16'hFFFF) err_o = 4'd2;
      else if (!Legal[tag] || tag == ingress_i) err_o = 4'd3;
      else if (tag != 5'd0 && !usable(tag, 1'b0)) err_o = 4'd4;
      else egr_o = tag;
    end
  end
endmodule
