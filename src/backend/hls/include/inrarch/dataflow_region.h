// INR-Arch HLS kernel library: the processes of a dataflow region.
//
// The generated top (model.cpp) writes every kernel call as
//   INRARCH_PROCESS(<process id>, "<name>", kernel(args...));
// and ends its region with INRARCH_DATAFLOW_END. For Vitis (synthesis and its csim) and for
// the plain g++ testbench the macros are the bare call and nothing: the top is an ordinary
// `#pragma HLS dataflow` region. With -DINRARCH_SIM each call becomes a closure handed to
// the simulation driver (sim_driver.h), which runs it at once (sequential csim, trace) or
// as one fiber among all of them (threaded csim). So the one emitted top is what all three
// simulations and the shipped project run; nothing re-states the kernel calls.
// Header-only, C++14 (what Vitis HLS compiles).
#ifndef INRARCH_HLS_DATAFLOW_REGION_H
#define INRARCH_HLS_DATAFLOW_REGION_H

#ifdef INRARCH_SIM

namespace inrarch_hls {
namespace region {

typedef void (*body_fn)(void* closure);

// Receives the region's processes; the simulation driver implements it.
class runner {
 public:
  virtual ~runner() {}
  // A process of the region: body(closure) runs it. The closure lives in the top's frame,
  // so it stays valid until end() returns.
  virtual void process(int id, const char* name, body_fn body, void* closure) = 0;
  // Every process has been handed over; returns when the region has run.
  virtual void end() = 0;
};

inline runner*& current() {
  static runner* r = 0;
  return r;
}

// Runs or hands over one process. Never inlined: inlined into the top, its fallback call
// would pull every kernel's body into one function of thousands, which g++ takes minutes
// (and gigabytes) to compile; out of line, the top is a list of calls.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
inline void dispatch(int id, const char* name, body_fn body, void* closure) {
  if (runner* r = current()) r->process(id, name, body, closure);
  else body(closure);  // no driver (a plain testbench built with INRARCH_SIM): Vitis csim order
}

template <class F>
void run_closure(void* closure) {
  (*static_cast<F*>(closure))();
}

// A plain function pointer per closure type, not std::function: a top of thousands of
// processes compiles about four times faster this way.
template <class F>
inline void process(int id, const char* name, F& closure) {
  dispatch(id, name, &run_closure<F>, &closure);
}

inline void end() {
  if (runner* r = current()) r->end();
}

}  // namespace region
}  // namespace inrarch_hls

#define INRARCH_PROCESS(id, name, ...)                    \
  auto inrarch_process_##id = [&]() { __VA_ARGS__; }; \
  ::inrarch_hls::region::process(id, name, inrarch_process_##id)
#define INRARCH_DATAFLOW_END ::inrarch_hls::region::end();

#else

#define INRARCH_PROCESS(id, name, ...) __VA_ARGS__
#define INRARCH_DATAFLOW_END

#endif  // INRARCH_SIM

#endif  // INRARCH_HLS_DATAFLOW_REGION_H
