// Configuration registers of the CP: shadow copy written by software, made
// active in one step by APPLY after validation. Spec: docs/cp.md §3.
module cp_config #(
  parameter int unsigned QW = 27
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           cfg_we_i,
  input  logic [3:0]     cfg_addr_i,
  input  logic [31:0]    cfg_wdata_i,
  // active configuration
  output logic [1:0]     mode_o,
  output logic [QW-1:0]  qeq_o,
  output logic [3:0]     w_o,
  output logic [31:0]    psample_o,
  output logic [31:0]    sample_bytes_o,
  output logic [QW-1:0]  bcnmax_o,
  output logic [QW-1:0]  qeq_flow_o,
  output logic [QW-1:0]  bcnmax_flow_o,
  output logic [15:0]    cpid_o,
  // a successful APPLY this cycle, with the values it loads elsewhere
  output logic           apply_o,
  output logic [31:0]    apply_seed_o,
  output logic [31:0]    apply_sample_bytes_o,
  output logic           reject_o,       // this cycle's write is rejected (for the error counter)
  output logic           cfg_err_o,      // registered pulse
  output logic [2:0]     cfg_err_code_o  // held until the next error
);

  // Reset values: the seed's parameters (§3).
  localparam logic [QW-1:0] QeqRst        = QW'(76800);
  localparam logic [QW-1:0] BcnMaxRst     = QW'(266240);
  localparam logic [QW-1:0] QeqFlowRst    = QW'(15360);
  localparam logic [QW-1:0] BcnMaxFlowRst = QW'(53248);
  localparam logic [31:0]   PsampleRst    = 32'd85899346;

  // shadow (s_) and active (a_) register sets
  logic [1:0]    s_mode_q, a_mode_q;
  logic [QW-1:0] s_qeq_q, a_qeq_q, s_bcnmax_q, a_bcnmax_q;
  logic [QW-1:0] s_qeq_flow_q, a_qeq_flow_q, s_bcnmax_flow_q, a_bcnmax_flow_q;
  logic [3:0]    s_w_q, a_w_q;
  logic [31:0]   s_psample_q, a_psample_q, s_sample_bytes_q, a_sample_bytes_q, s_seed_q;
  logic [15:0]   s_cpid_q, a_cpid_q;
  logic          err_q, err_d;
  logic [2:0]    err_code_q, err_code_d;
  logic          apply_req, known_addr;
  logic [2:0]    check_code;

  assign apply_req  = cfg_we_i && (cfg_addr_i == cp_pkg::AddrApply);
  assign known_addr = (cfg_addr_i <= cp_pkg::AddrSeed) || (cfg_addr_i == cp_pkg::AddrApply);

  // Validation of the shadow set, first failure wins (§3 table).
  always_comb begin
    check_code = 3'd0;
    if      (s_qeq_q == '0)                                  check_code = 3'd1;
    else if (s_bcnmax_q <= s_qeq_q)                          check_code = 3'd2;
    else if (s_qeq_flow_q == '0)                             check_code = 3'd3;
    else if (s_bcnmax_flow_q <= s_qeq_flow_q)                check_code = 3'd4;
    else if (s_seed_q == '0)                                 check_code = 3'd5;
    else if (s_sample_bytes_q != '0 && s_sample_bytes_q < 32'd64) check_code = 3'd6;
  end

  assign apply_o              = apply_req && (check_code == 3'd0);
  assign apply_seed_o         = s_seed_q;
  assign apply_sample_bytes_o = s_sample_bytes_q;
  assign reject_o             = cfg_we_i && (!known_addr || (apply_req && check_code != 3'd0));

  always_comb begin
    err_d      = reject_o;
    err_code_d = err_code_q;
    if (cfg_we_i && !known_addr)    err_code_d = 3'd7;
    else if (reject_o)              err_code_d = check_code;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_mode_q <= cp_pkg::ModeOff;  a_mode_q <= cp_pkg::ModeOff;
      s_qeq_q <= QeqRst;            a_qeq_q <= QeqRst;
      s_w_q <= 4'd2;                a_w_q <= 4'd2;
      s_psample_q <= PsampleRst;    a_psample_q <= PsampleRst;
      s_sample_bytes_q <= '0;       a_sample_bytes_q <= '0;
      s_bcnmax_q <= BcnMaxRst;      a_bcnmax_q <= BcnMaxRst;
      s_qeq_flow_q <= QeqFlowRst;   a_qeq_flow_q <= QeqFlowRst;
      s_bcnmax_flow_q <= BcnMaxFlowRst; a_bcnmax_flow_q <= BcnMaxFlowRst;
      s_cpid_q <= '0;               a_cpid_q <= '0;
      s_seed_q <= 32'd1;
      err_q <= 1'b0;
      err_code_q <= '0;
    end else begin
      err_q      <= err_d;
      err_code_q <= err_code_d;
      if (cfg_we_i) begin
        case (cfg_addr_i)
          cp_pkg::AddrMode:        s_mode_q         <= cfg_wdata_i[1:0];
          cp_pkg::AddrQeq:         s_qeq_q          <= cfg_wdata_i[QW-1:0];
          cp_pkg::AddrW:           s_w_q            <= cfg_wdata_i[3:0];
          cp_pkg::AddrPsample:     s_psample_q      <= cfg_wdata_i;
          cp_pkg::AddrSampleBytes: s_sample_bytes_q <= cfg_wdata_i;
          cp_pkg::AddrBcnMax:      s_bcnmax_q       <= cfg_wdata_i[QW-1:0];
          cp_pkg::AddrQeqFlow:     s_qeq_flow_q     <= cfg_wdata_i[QW-1:0];
          cp_pkg::AddrBcnMaxFlow:  s_bcnmax_flow_q  <= cfg_wdata_i[QW-1:0];
          cp_pkg::AddrCpid:        s_cpid_q         <= cfg_wdata_i[15:0];
          cp_pkg::AddrSeed:        s_seed_q         <= cfg_wdata_i;
          default: ;
        endcase
      end
      if (apply_o) begin
        a_mode_q         <= s_mode_q;
        a_qeq_q          <= s_qeq_q;
        a_w_q            <= s_w_q;
        a_psample_q      <= s_psample_q;
        a_sample_bytes_q <= s_sample_bytes_q;
        a_bcnmax_q       <= s_bcnmax_q;
        a_qeq_flow_q     <= s_qeq_flow_q;
        a_bcnmax_flow_q  <= s_bcnmax_flow_q;
        a_cpid_q         <= s_cpid_q;
      end
    end
  end

  assign mode_o         = a_mode_q;
  assign qeq_o          = a_qeq_q;
  assign w_o            = a_w_q;
  assign psample_o      = a_psample_q;
  assign sample_bytes_o = a_sample_bytes_q;
  assign bcnmax_o       = a_bcnmax_q;
  assign qeq_flow_o     = a_qeq_flow_q;
  assign bcnmax_flow_o  = a_bcnmax_flow_q;
  assign cpid_o         = a_cpid_q;
  assign cfg_err_o      = err_q;
  assign cfg_err_code_o = err_code_q;

endmodule
