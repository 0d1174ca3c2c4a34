// The resource model: what a dataflow design costs on an FPGA, per process and in total
// (docs/resources.md has the formulas per kernel kind and where each figure comes from).
//
//   DSP      every multiplier, sized from the operand widths of the number type: a DSP48E2
//            multiplies 27x18 bits, so an a x b product takes ceil(a/27)*ceil(b/18) slices
//            in the better orientation (fixed<32,*>: 4); float and double use the Vitis HLS
//            figures for their multiply/add cores.
//   memory   FIFOs (depth <= 2: registers; deeper: BRAM18K tiles, the FIFO sizing rule),
//            kernel buffers and constant ROMs. An array read P words a cycle is split into
//            P banks (cyclic partition); a bank is LUTRAM up to kLutramMaxBits, else block
//            RAM, so bandwidth as well as size sets the count. Arrays move from BRAM to URAM
//            (whole, largest saving first) only while BRAM is over the capacity.
//   LUT, FF  a documented per-kind formula (uncalibrated until an RTL backend exists).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataflow/design.h"
#include "dataflow/part.h"

namespace inrarch::dataflow {

// The arithmetic a design is built in (the HLS number type, seen from the cost model).
struct Arith {
  enum Kind : uint8_t { Fixed, Float, Double } kind = Fixed;
  int bits = 32;  // the element width (Fixed: W of fixed<W,I>)
};

// DSP48E2 slices of one a x b-bit product: min over both orientations of
// ceil(a/27) * ceil(b/18).
int64_t dsp_for_product(int64_t a_bits, int64_t b_bits);
// DSPs of one multiply / one multiply-accumulate in the arithmetic.
int64_t dsp_per_multiply(const Arith& a);
// LUTs of one multiply in the fabric (LowerOptions::fabric_elementwise_mul).
int64_t fabric_multiply_luts(const Arith& a);
// Its flip-flops (the rows' pipeline registers).
int64_t fabric_multiply_ffs(const Arith& a);
int64_t dsp_per_mac(const Arith& a);

// Banks of width x words up to this many bits are LUTRAM (Vitis's choice for small arrays).
inline constexpr int64_t kLutramMaxBits = 1024;
// An mm's constant B, read as L lanes' words a MAC cycle, is a LUT ROM when it is at most
// this many such words deep (four LUT6 ROMs and their MUXF7/F8 a bit), else block RAM.
inline constexpr int64_t kLutRomMaxDepth = 256;
// Block RAM tiles of one bank: the cheapest of the BRAM18K aspect ratios (1K x 18 ... 16K x 1);
// URAM tiles: 4K x 72.
int64_t bram18k_tiles(int64_t width_bits, int64_t words);
int64_t uram_tiles(int64_t width_bits, int64_t words);

struct Usage {
  int64_t dsp = 0, bram18k = 0, uram = 0, lut = 0, ff = 0;
  Usage& operator+=(const Usage& o);
};

// One on-chip array of a process: `banks` banks of `words` words each.
struct MemArray {
  ProcessId process = -1;
  std::string what;     // "rom", "buffer", "table"
  int64_t banks = 1, words = 0, width = 32;
  bool uram = false;    // placed in URAM (decided by estimate_resources)
  int64_t bits() const { return banks * words * width; }
};

struct ResourceReport {
  Usage total;
  std::vector<Usage> per_process;     // compute (DSP, LUT, FF) and memory of each process
  std::vector<Usage> per_stream;      // each stream's FIFO
  std::vector<std::pair<std::string, Usage>> by_kind;  // kind names, then "fifo"
  Usage fifos;
  std::vector<MemArray> arrays;
  int64_t rom_bits = 0, buffer_bits = 0, fifo_bits = 0;  // on-chip data bits by role
  bool fits = false;                  // total within the capacity
  std::string over;                   // the first resource over the capacity ("" if fits)
};

// Estimates the design with the given (finite) FIFO depths against `cap`.
ResourceReport estimate_resources(const Design& d, const std::vector<int64_t>& depths,
                                  const Arith& arith, const Capacity& cap);
// The same with every FIFO at kShiftRegisterDepth (registers, no BRAM): a design before
// FIFO sizing, as the search costs it.
ResourceReport estimate_unsized(const Design& d, const Arith& arith, const Capacity& cap);

// Multiplies the design performs (mm MACs + elementwise multiplies): the work that the DSPs
// bound.
int64_t count_multiplies(const Design& d);
// DSP48E2s of one product of process p: its operands' widths for an mm (narrow weights,
// Operand::rom_elem_bits), dsp_per_multiply(arith) otherwise.
int64_t dsp_per_product(const Process& p, const Arith& arith);
// The multiplies, each times its DSPs (DSP-cycles); the floor is ceil(that / the part's DSPs)
// cycles: every DSP of the part busy every cycle.
int64_t count_dsp_work(const Design& d, const Arith& arith);
int64_t floor_cycles(const Design& d, const Part& part, const Arith& arith);

}  // namespace inrarch::dataflow
