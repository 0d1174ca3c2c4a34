// Execution of emitted MLIR. After the reference bufferize pipeline every tensor is a memref and every
// result an out-param; with llvm.emit_c_interface the function is callable from C as
// `_mlir_ciface_<name>(Desc*...)` where Desc is the ranked memref descriptor
// {alloc, aligned, offset, sizes[r], strides[r]}. A generated C driver reads all arguments
// from one raw f64 file, calls the kernel and writes all outputs to another. Strided
// memref.copy lowers to a call of the runtime's `memrefCopy`; the driver defines it, so no
// MLIR runtime library is needed.
#include "backend/mlir/toolchain.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "backend/mlir/emit.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::backend::mlir {

namespace fs = std::filesystem;

TempDir::TempDir(std::string_view tag) {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() /
          fmt::format("inrarch-mlir-{}-{}-{}", ::getpid(), counter++, tag);
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  if (std::uncaught_exceptions() > 0) return;  // keep the evidence of a failure
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {

std::string quote(const fs::path& p) { return "'" + p.string() + "'"; }

// Runs a shell command with stderr captured; throws with its tail on a non-zero exit.
void run(const std::string& cmd, const fs::path& err_file, std::string_view what) {
  const std::string full = cmd + " 2> " + quote(err_file);
  int rc = run_command(full).exit_code;
  if (rc != 0) {
    std::string err = read_file(err_file);
    if (err.size() > 4000) err = "..." + err.substr(err.size() - 4000);
    throw Error(fmt::format("{} failed (exit {}): {}\n{}", what, rc, cmd, err));
  }
}

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0; }

}  // namespace

std::string llvm19_tool(std::string_view name) {
  const std::string versioned = fmt::format("{}-19", name);
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / versioned)) return (fs::path(dir) / versioned).string();
  }
  fs::path fallback = fs::path("/usr/lib/llvm-19/bin") / name;
  if (executable(fallback)) return fallback.string();
  const char* pkg = name == "llc" ? "llvm-19" : "mlir-19-tools";
  throw Error(fmt::format("{} not found (Debian package {}; scripts/install-deps.sh installs it)",
                          versioned, pkg));
}

std::string run_mlir_opt(std::string_view mlir_text, std::string_view flags, const fs::path& work,
                         std::string_view tag) {
  const fs::path in = work / fmt::format("{}.in.mlir", tag);
  const fs::path out = work / fmt::format("{}.out.mlir", tag);
  write_file(in, mlir_text);
  run(fmt::format("{} {} {} -o {}", llvm19_tool("mlir-opt"), quote(in), flags, quote(out)),
      work / fmt::format("{}.err", tag), fmt::format("mlir-opt-19 ({})", tag));
  return read_file(out);
}

namespace {

constexpr int kMaxRank = 16;

// Desc holds sizes then strides in one array, which matches the ranked memref descriptor
// layout {alloc, aligned, offset, sizes[r], strides[r]} for every rank up to MAXR.
constexpr const char* kDriverPrelude = R"(#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define MAXR 16
typedef struct { double* alloc; double* aligned; int64_t offset; int64_t dims[2 * MAXR]; } Desc;
typedef struct { int64_t rank; Desc* d; } Unranked;

/* MLIR's runtime memrefCopy (strided copies of memref.copy), element by element. */
void memrefCopy(int64_t elem, Unranked* src, Unranked* dst) {
  int64_t r = src->rank, n = 1, idx[MAXR] = {0};
  const Desc* s = src->d; Desc* t = dst->d;
  for (int64_t i = 0; i < r; ++i) n *= s->dims[i];
  for (int64_t k = 0; k < n; ++k) {
    int64_t so = s->offset, to = t->offset;
    for (int64_t i = 0; i < r; ++i) { so += idx[i] * s->dims[r + i]; to += idx[i] * t->dims[r + i]; }
    memcpy((char*)t->aligned + to * elem, (const char*)s->aligned + so * elem, (size_t)elem);
    for (int64_t i = r - 1; i >= 0; --i) { if (++idx[i] < s->dims[i]) break; idx[i] = 0; }
  }
}

static void init(Desc* d, double* p, int r, const int64_t* shape) {
  int64_t stride = 1;
  d->alloc = d->aligned = p; d->offset = 0;
  for (int i = r - 1; i >= 0; --i) { d->dims[i] = shape[i]; d->dims[r + i] = stride; stride *= shape[i]; }
}

)";

// The C driver: reads all arguments from argv[1] (raw f64, argument order), calls the
// kernel with one descriptor per argument and result, writes the results to argv[2].
std::string driver_source(const ir::Graph& g, const std::vector<ir::NodeId>& args) {
  std::vector<Shape> shapes;
  for (ir::NodeId id : args) shapes.push_back(g.shape(id));
  for (const ir::Output& o : g.outputs()) shapes.push_back(g.shape(o.node));
  std::string s = kDriverPrelude;
  std::vector<std::string> params, calls, inits;
  int64_t total = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& sh = shapes[i];
    if (sh.size() > size_t(kMaxRank)) throw Error("execute_mlir: rank above 16");
    Shape dims = sh.empty() ? Shape{1} : sh;  // C has no empty arrays
    inits.push_back(fmt::format("  {{ static const int64_t sh[] = {{{}}}; init(&d[{}], buf + {}, {}, sh); }}",
                                fmt::join(dims, ", "), i, total, sh.size()));
    total += numel(sh);
    params.push_back("Desc*");
    calls.push_back(fmt::format("&d[{}]", i));
  }
  int64_t in_total = 0;
  for (ir::NodeId id : args) in_total += numel(g.shape(id));
  s += fmt::format("void _mlir_ciface_inrarch_kernel({});\n\n", fmt::join(params, ", "));
  s += fmt::format(R"(int main(int argc, char** argv) {{
  static Desc d[{0}];
  double* buf = calloc({1} + 1, sizeof(double));
  FILE* f = fopen(argv[1], "rb");
  if (argc != 3 || !f || fread(buf, sizeof(double), {2}, f) != {2}) {{ fprintf(stderr, "bad input\n"); return 2; }}
  fclose(f);
{3}
  _mlir_ciface_inrarch_kernel({4});
  f = fopen(argv[2], "wb");
  if (!f || fwrite(buf + {2}, sizeof(double), {5}, f) != {5}) {{ fprintf(stderr, "bad output\n"); return 3; }}
  fclose(f);
  return 0;
}}
)", shapes.size(), total, in_total, fmt::join(inits, "\n"), fmt::join(calls, ", "), total - in_total);
  return s;
}

const Tensor& value_of(const ir::Graph& g, ir::NodeId id, const ir::TensorMap& inputs,
                       const ir::TensorMap& params) {
  const ir::Node& n = g.node(id);
  const ir::TensorMap& m = n.op == ir::Op::Input ? inputs : params;
  auto it = m.find(n.attrs.name);
  if (it == m.end() || it->second.shape != n.shape)
    throw Error(fmt::format("execute_mlir: no value of shape {} for {} \"{}\"", shape_str(n.shape),
                            op_name(n.op), n.attrs.name));
  return it->second;
}

}  // namespace

std::vector<Tensor> execute_mlir(const ir::Graph& g, const ir::TensorMap& inputs,
                                 const ir::TensorMap& params, const fs::path& work) {
  MlirOptions opt;
  opt.c_interface = true;
  opt.func_name = "inrarch_kernel";  // the graph's name could clash with C's main
  const std::vector<ir::NodeId> args = mlir_arguments(g, false);
  const std::string loops = run_mlir_opt(emit_mlir(g, opt), kLinalgToLoopsPipeline, work, "loops");
  run_mlir_opt(loops, kLoopsToLlvmPipeline, work, "llvm");
  run(fmt::format("{} --mlir-to-llvmir {} -o {}", llvm19_tool("mlir-translate"),
                  quote(work / "llvm.out.mlir"), quote(work / "kernel.ll")),
      work / "translate.err", "mlir-translate-19");
  run(fmt::format("{} -O2 -filetype=obj -relocation-model=pic {} -o {}", llvm19_tool("llc"),
                  quote(work / "kernel.ll"), quote(work / "kernel.o")),
      work / "llc.err", "llc-19");
  write_file(work / "driver.c", driver_source(g, args));
  run(fmt::format("cc -O1 {} {} -lm -o {}", quote(work / "driver.c"), quote(work / "kernel.o"),
                  quote(work / "kernel")),
      work / "cc.err", "cc (C driver)");

  std::string in;
  for (ir::NodeId id : args) {
    const Tensor& t = value_of(g, id, inputs, params);
    in.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(double));
  }
  write_file(work / "in.bin", in);
  run(fmt::format("{} {} {}", quote(work / "kernel"), quote(work / "in.bin"), quote(work / "out.bin")),
      work / "kernel.err", "generated kernel");
  const std::string out = read_file(work / "out.bin");
  std::vector<Tensor> results;
  size_t pos = 0;
  for (const ir::Output& o : g.outputs()) {
    Tensor t(g.shape(o.node));
    const size_t bytes = t.data.size() * sizeof(double);
    if (pos + bytes > out.size()) throw Error("execute_mlir: short output file");
    std::memcpy(t.data.data(), out.data() + pos, bytes);
    pos += bytes;
    results.push_back(std::move(t));
  }
  return results;
}

}  // namespace inrarch::backend::mlir
