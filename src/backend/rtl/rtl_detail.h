// Internals of the RTL backend shared by its files (not part of its API).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "backend/rtl/kernel_interface.h"
#include "backend/rtl/rtl.h"

namespace inrarch::rtl::detail {

// One module of the kernel library (src/backend/rtl/sv/): its file name in OUT/rtl and its text.
struct SvFile {
  std::string name;
  std::string text;
};
// The library's folder beside the tool (kLibraryRelative); throws inrarch::Error, naming
// where it looked, when it is missing.
std::filesystem::path library_dir();
// Every module of the library, by file name.
std::vector<SvFile> library_files();
// The library's C++ headers (the memory-mapped kernel's testbench support), by file name.
std::vector<SvFile> library_headers();

// What the emitter needs about a design, checked and computed once.
struct Ctx {
  const dataflow::Design& d;
  const ir::Bundle& b;
  const RtlOptions& opt;
  int w = 32, f = 22;  // element bits and fraction bits
  int fa = 36;         // fraction bits of the accumulator ap_fixed<64, 64 - fa>
  std::vector<int64_t> depth;  // per stream: the FIFO's depth as built

  int stream_exp(dataflow::StreamId s) const;
  int operand_exp(dataflow::ProcessId p, size_t slot) const;
};

// The RTL column of the kernel table (kernel_modules.cpp): a class's check, which throws
// inrarch::Error naming what it cannot build, and its instance in the top.
struct KernelModule {
  void (*check)(const dataflow::Design& d, const dataflow::Process& p);
  std::string (*instance)(const Ctx& c, dataflow::ProcessId p);
};
KernelModule kernel_module(dataflow::Kind k);
// The instances of an elementwise kernel (inrarch_ew1/ew2/ew2r) and of a copy (inrarch_copy,
// also a reshape that keeps the beat).
std::string elementwise_instance(const Ctx& c, dataflow::ProcessId p);
std::string copy_instance(const Ctx& c, dataflow::ProcessId p);

// Checks the number type and every process (inrarch::Error naming what is not supported).
Ctx make_ctx(const dataflow::Design& d, const ir::Bundle& b, const RtlOptions& opt);
// Throws inrarch::Error naming the process, its op and kernel kind when the slice has no
// module for it.
void check_process(const dataflow::Design& d, dataflow::ProcessId p);

// A parameter array of 32-bit words, "{32'd<v[n-1]>, ..., 32'd<v[0]>}": a concatenation
// lists its last element first, so v[k] is at bits [32k +: 32].
std::string sv_words32(const std::vector<int64_t>& v);

// Input ports (sources of inputs, not constant outputs) and output ports (sinks), in design
// order.
std::vector<dataflow::ProcessId> input_ports(const dataflow::Design& d);
std::vector<dataflow::ProcessId> output_ports(const dataflow::Design& d);

// The matrix product (emit_mm.cpp): the check, its instance, its B ROMs as .hex files.
void check_mm(const dataflow::Design& d, const dataflow::Process& p);
std::string mm_instance(const Ctx& c, dataflow::ProcessId p);
void check_mm_reduce(const dataflow::Design& d, const dataflow::Process& p);  // emit_mm_reduce.cpp
std::string mm_reduce_instance(const Ctx& c, dataflow::ProcessId p);
std::vector<std::pair<std::string, std::string>> rom_files(const Ctx& c);
// The tables (rom_tables.cpp), the HLS library's entries (inrarch/rom_tables.h): the
// quarter-wave sine (1025 entries, Q1.31), as the hex file inrarch_lane_sin reads;
std::vector<uint32_t> sin_table();
std::string sin_table_hex();
// 2^(i/1024) and ln(1 + i/1024) (1025 entries, Q.32), and the .hex files of those a
// design's exp, tanh and log read.
std::vector<uint64_t> exp2_table();
std::vector<uint64_t> log1p_table();
std::vector<std::pair<std::string, std::string>> explog_table_files(const dataflow::Design& d);
// Gathers (emit_gather.cpp): the pass-through ones (dataflow::is_pass_through) are one-output
// copies, the others inrarch_gather with its tables (steps, sources, constants).
// check_gather refuses one without a streamed operand.
void check_gather(const dataflow::Process& p);
std::string gather_instance(const Ctx& c, dataflow::ProcessId p);
std::vector<std::pair<std::string, std::string>> gather_files(const Ctx& c);
// Transposes and permutes (emit_permute.cpp): inrarch_permute; constant outputs:
// inrarch_rom_source, its ROM written by rom_files.
void check_permute(const dataflow::Design& d, const dataflow::Process& p);
std::string permute_instance(const Ctx& c, dataflow::ProcessId p);
void check_rom_source(const dataflow::Design& d, const dataflow::Process& p);
std::string rom_source_instance(const Ctx& c, dataflow::ProcessId p);
// sum (emit_reduce.cpp): inrarch_sum with its steps and each input beat's accumulators.
bool is_sum(const dataflow::Process& p);
std::string sum_instance(const Ctx& c, dataflow::ProcessId p);
std::vector<std::pair<std::string, std::string>> sum_files(const Ctx& c, dataflow::ProcessId p);
// Raw w-bit words (word 0 first) as one hex line, word 0 in the lowest bits: a line of a
// wide ROM that $readmemh reads (emit_mm.cpp).
std::string wide_hex(const std::vector<uint64_t>& words, int w);
// A ROM's file and words (an elementwise operand: its period, or the whole operand).
std::string rom_file(const dataflow::Process& p, size_t slot);
int64_t rom_words(const dataflow::Operand& od);
// The bits of constant od's ROM words: Operand::rom_elem_bits when below the type's, else W.
int rom_word_bits(const Ctx& c, const dataflow::Operand& od);
// A constant's word as the HLS weights.h holds it: x at exponent exp, rounded to the nearest
// point of the grid and saturated (value_literal); `bits` wide (0: W; narrower keeps the
// binary point, so it has fewer fraction bits).
uint64_t rom_word(const Ctx& c, double x, int exp, int bits = 0);

// `make <target> <extra>` in dir, its output in dir/logs/<log>; true when it succeeded.
bool make(const std::filesystem::path& dir, const std::string& target, const std::string& log, double budget_s,
          const std::string& extra = "");
// A testbench's result: the last line of the file that parses as a JSON object ({} if none).
nlohmann::json last_json(const std::filesystem::path& file);

// File bodies.
std::string top_sv(const Ctx& c);
std::string tb_main_cpp(const Ctx& c);
std::string csim_dump_cpp(const Ctx& c);
std::string makefile(const Ctx& c, const std::vector<std::string>& sv_files);
// The memory-mapped kernel (emit_kernel.cpp, emit_kernel_tb.cpp): its SystemVerilog, its
// Verilator testbench, the Vitis kernel.xml and the Vivado packaging script.
std::string kernel_sv(const Ctx& c, const KernelInterface& k);
std::string kernel_tb_cpp(const KernelInterface& k);
std::string kernel_xml(const KernelInterface& k);
std::string package_tcl(const std::vector<std::string>& sv_files);
// The Icarus testbench; past max_cycles it reports a hang.
std::string icarus_tb_sv(const Ctx& c, int64_t max_cycles);

}  // namespace inrarch::rtl::detail
