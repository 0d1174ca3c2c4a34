// Periodic analysis: the event graph of a design over B rows, from a prefix of k rows
// (docs/dataflow.md §7 states it with its consequences).
//
// The model. Rows (samples) are independent and every kernel runs a per-row program
// repeated: the program of process p at B rows is a head, B - c copies of a row body of
// L_p steps, and a tail, and stream s carries b_s beats per row. The design at k and at
// k + m rows therefore differ by m bodies per process, inserted somewhere in the middle.
//
// The state of the run at cycle t (all steps with time <= t fired, none later) is, per
// process, the steps fired and the cycles since the last one (capped at its largest step
// delay: older than that, it constrains nothing), and per stream the beats written and
// read and which of the last two cycles wrote one (a RAW edge has delay 1 or 2; a WAR edge
// delay 1 is met by any later step anyway). Every step after t is timed from this state
// alone, by the event graph's rules; the absolute beat numbers do not matter.
//
// The argument. Resolve k rows at the given depths. Suppose cycles t1 < t2 = t1 + T where
// the state at t2 is the state at t1 shifted by one row: every process has fired exactly
// L_p more steps, every stream carries exactly b_s more beats written and read, and the
// ages and recent writes are equal. Suppose too that the program at k + 1 rows is the
// program at k rows with the steps [s1_p, s2_p) fired between t1 and t2 repeated once
// (the step sequence at k+1 rows is P_k[0, s2_p) followed by P_k[s1_p, end)); by the
// per-row form, at B rows they are repeated B - k times. Then the run at B rows equals the
// run at k rows up to t2 (same programs there, and a step's time depends only on earlier
// steps), and from t2 on it replays the run from t1, shifted by T cycles and one row, for
// B - k rows, after which it is the k-row run from t2 shifted by (B - k) T. So:
//   - the B-row run is deadlock-free, and its latency is latency(k) + (B - k) T, i.e.
//     latency(B) = fill + (B - 1) T with fill = latency(k) - (k - 1) T;
//   - every state it passes through is one the k-row run passes through, so FIFO
//     occupancies, observed depths and the depths a sizing found safe carry over.
// A k-row run that deadlocks with every blocked step at least a row before the end of
// the part that k and k + 1 rows share deadlocks at B rows too: the blocked steps and all
// before them are the same there. When no repeating state is found, k doubles; when k
// reaches B the full run is analysed (`exact`).
//
// Why m rows: two kernels whose per-row cycles differ settle into a pattern that repeats
// every m rows (a row of 1,071 cycles over two rows alternates 536 and 535), and a state
// that repeats only every m rows never repeats every row. When B - k is not a multiple of
// m, the prefix k + (B - k) mod m is resolved instead.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"

namespace inrarch::dataflow {

// The design at `rows` rows: the same processes and streams for every rows >= 1.
using RowDesignBuilder = std::function<Design(int64_t rows)>;

struct Period {
  int64_t cycles = 0;      // T, of m rows
  int64_t rows = 1;        // m
  int64_t row = 0;         // the state when row `row` enters repeats when row + m does
  int64_t t1 = 0, t2 = 0;  // the two cycles whose states match
};

// The longest repeat, in rows, that a prefix is searched for.
inline constexpr int64_t kMaxPeriodRows = 8;

// A design resolved on k rows and the programs at k + 1 rows, for period checks.
class RowPrefix {
 public:
  RowPrefix(const RowDesignBuilder& build, int64_t k);
  int64_t rows() const { return k_; }
  EventGraph& graph() { return *eg_; }
  const Design& design() const { return eg_->design(); }

  // After graph().resolve(...) without deadlock: the earliest repeating state, if any,
  // preferring a repeat of m rows with m dividing rows - k (the B-row run can use it).
  std::optional<Period> period(int64_t rows) const;
  // After a resolve that deadlocked: whether the deadlock is proven for any larger rows.
  bool deadlock_carries_over(const Resolution& r) const;

 private:
  // How the programs at k + m rows differ from those at k rows.
  struct Growth {
    std::vector<int64_t> steps;  // per process: more steps (L_p for m = 1)
    std::vector<int64_t> beats;  // per stream: more beats (b_s for m = 1)
    std::vector<int64_t> head;   // steps that k and k + m rows share from the start
    std::vector<int64_t> tail;   // ... and from the end
  };
  const Growth& growth(int64_t m) const;  // built on first use for m > 1
  // Whether P_{k+m} = P_k[0, s2) + P_k[s1, end) for the steps s1, s2 fired by t1, t2.
  bool programs_repeat(const std::vector<int64_t>& s1, const std::vector<int64_t>& s2, int64_t m) const;

  RowDesignBuilder build_;
  int64_t k_;
  std::unique_ptr<EventGraph> eg_;
  mutable std::vector<std::unique_ptr<Growth>> growth_;  // [m]
  std::vector<int64_t> max_delay_;    // per process
  std::vector<int64_t> steps_;        // per process at k rows
  StreamId clock_stream_ = -1;        // its row starts are the candidate cuts t1, t2
};

struct RowAnalysis {
  bool exact = false;          // the full run was resolved (rows small, or no period found)
  bool deadlock = false;
  int64_t rows = 0;            // B
  int64_t rows_analysed = 0;   // k (B when exact)
  int64_t period = 0;          // T (0 when exact or deadlocked), of period_rows rows
  int64_t period_rows = 1;     // m
  int64_t fill = 0;            // latency(B) = fill + floor((B - 1) / m) T
  int64_t latency = 0;         // of B rows (deadlock: of the steps that fired)
  Resolution resolution;       // of the rows analysed
  std::vector<int64_t> observed_depths;  // per stream, valid for B rows
  std::string note;            // why the analysis is exact, when it is
  int64_t events = 0, fifo_ops = 0;  // of the graph resolved
};

// The closed form of a prefix analysis's latency, e.g. "4888 + (1024 - 1) x 682", or
// "3000 + floor((1024 - 1) / 2) x 1071" for a period of two rows.
std::string closed_form(int64_t fill, int64_t rows, int64_t period, int64_t period_rows);

struct RowOptions {
  int64_t first_rows = 16;          // k tried first; doubled while no period is found
  int64_t exact_beats_limit = 1'000'000'000;  // refuse a full run over this many beats
};

// The first prefix tried: at least 3 rows, so a state can repeat between two inner rows.
int64_t first_prefix_rows(const RowOptions& opt);

// Analyses B = `rows` rows at the given depths (one per stream).
RowAnalysis analyze_rows(const RowDesignBuilder& build, int64_t rows,
                         const std::vector<int64_t>& depths, const RowOptions& opt = {});

// The peak: the latency of B rows with FIFOs that never fill. Unbounded FIFOs have no
// repeating state (a source faster than the design fills its FIFO without end), so the
// peak is analysed at the depths the k-row unbounded run observes: the same times for k
// rows, and for B rows the fastest design whose FIFOs hold what k rows need.
RowAnalysis analyze_peak(const RowDesignBuilder& build, int64_t rows, const RowOptions& opt = {});

// FIFO sizing for B rows (fifo_sizing_rows.cpp): size on the prefix the peak analysis
// needed, with the sizing's own bound there, then prove the depths on B rows with
// analyze_rows. The bound that counts is (1 + alpha) * peak(B): a design whose FIFOs slow
// the steady state can meet the prefix's bound and miss it, so the sizing is redone with
// a quarter of the slack, twice, and then the peak's depths are taken (they meet it).
struct RowSizing {
  SizingResult sized;  // depths; peak_latency, bound, latency and final are for B rows
  RowAnalysis peak, final;
  int attempts = 0;    // sizings run on the prefix
};
RowSizing size_fifos_rows(const RowDesignBuilder& build, int64_t rows, const SizingOptions& opt,
                          const RowOptions& ropt = {});

}  // namespace inrarch::dataflow
