# INR-Arch: the two commands of the README, plus bench.
#   make run    install what is missing, build the tool (not the tests), compile the built-in
#               benchmark and verify it
#   make test   install what is missing, build (normal + ASan/UBSan), run every test once but
#               the Yosys synthesis checks: the tool's own tests under ASan/UBSan, the tests
#               that run Verilator, Yosys, g++ or Chromium and the Python tests on the normal build
#   make test-unit  every GoogleTest test on the normal build (but the synthesis checks)
#   make test-synth  the Yosys synthesis checks of the clock and the resource model
#   make bench  build and run the benchmark programs in bench/, then bench-rtl
#   make bench-rtl  the benchmark design compiled to RTL and run in Verilator to the end
#   make bench-pytorch  the design against PyTorch on the CPU: docs/benchmarks.md and its plots
#   make bench-zoo  the model zoo of bench/zoo at batch 4,096: a table in docs/benchmarks.md
#   make bench-baselines  the CPU/GPU baselines section of docs/benchmarks.md from stored results
PY        := /usr/bin/python3
BUILD     := build
ASAN      := build-asan
CMAKE_GEN := -G Ninja -DPython3_EXECUTABLE=$(PY)
RUN_OUT   := out/insp-order1-batch64

.PHONY: all deps build build-checks build-asan run test test-unit test-tools test-asan test-python \
	test-synth bench clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

$(ASAN)/build.ninja:
	cmake -S . -B $(ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DINRARCH_SANITIZE=ON

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD)

# What `make test` needs of the normal build: the tool, the tool-bound tests, and the
# benchmarks (built, not run). The tool's own tests run under the sanitizers instead.
BENCHES := $(patsubst bench/%.cpp,%,$(wildcard bench/*.cpp))
build-checks: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) --target inrarch inrarch_tool_tests $(BENCHES)

build-asan: deps $(ASAN)/build.ninja
	cmake --build $(ASAN) --target inrarch_tests inrarch

# The tool alone: it finds the kernel library through build/share (a link cmake makes).
run: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) --target inrarch
	$(BUILD)/inrarch model insp --order 1 --batch 64 -o out/insp-order1-batch64-bundle
	$(BUILD)/inrarch eval out/insp-order1-batch64-bundle --check --quiet
	$(BUILD)/inrarch compile --builtin insp --order 1 --batch 64 -o $(RUN_OUT)
	@echo "--- report.json of $(RUN_OUT): verification"
	@$(PY) -c "import json; r=json.load(open('$(RUN_OUT)/report.json')); print(json.dumps(r['verification'], indent=2))"

test: test-tools test-python test-asan

test-unit: build
	ctest --test-dir $(BUILD) -j2 --output-on-failure -LE synth

test-tools: build-checks
	ctest --test-dir $(BUILD) -j2 --output-on-failure -L tools

test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN) -j2 --output-on-failure

# Two workers (pytest-xdist): each test runs the tool, mostly on one core. -p no:nose: pytest
# would take the tests' module-level setup() helpers for nose-style fixtures.
test-python: build-checks
	cd python && INRARCH_BIN=$(CURDIR)/$(BUILD)/inrarch $(PY) -m pytest -n 2 -p no:cacheprovider -p no:nose \
	  --durations=10 tests

# The suites labelled synth (CMakeLists.txt): Yosys synthesizes kernels to check that they meet
# the clock and that the resource model follows the netlists (800 test-seconds in one run).
test-synth: build-checks
	ctest --test-dir $(BUILD) -j2 --output-on-failure -L synth

bench: build
	@for b in $(BUILD)/bench_*; do echo "=== $$b"; $$b || exit 1; done
	$(MAKE) bench-rtl

# make bench-rtl: `make run`'s design (INSP order 1, batch 64, width 256) compiled with its RTL
# and run in Verilator to the end: bit-exact with the C simulation and cycle-exact with the
# event graph (compile exits 2 otherwise), timed by /usr/bin/time (about 22 minutes and 1.5 GB
# on 2 cores: docs/rtl.md "Pipelined lanes"). Prints verification.rtl's verdict.
.PHONY: bench-rtl
bench-rtl: build
	/usr/bin/time -f "bench-rtl: %e s wall, %M KB peak" $(BUILD)/inrarch compile --builtin insp --order 1 --batch 64 \
	  --rtl --rtl-sim -q -o out/bench-rtl
	$(PY) -c "import json; v = json.load(open('out/bench-rtl/report.json'))['verification']['rtl']; \
	  print('bench-rtl: pass', v['pass'], 'bit_exact', v['bit_exact'], 'cycles', v['cycles'], 'model_cycles', v['model_cycles'])"

# make bench-pytorch: INSP orders 1-3 in PyTorch (CPU, 1 and 2 threads) against the compiled
# design's latency and on-chip memory; compiles cached in out/bench-pytorch/. Writes
# docs/benchmarks.md, docs/benchmarks_latency.png, docs/benchmarks_memory.png.
bench-pytorch: build
	$(PY) bench/compare_pytorch.py --inrarch $(BUILD)/inrarch

# make bench-zoo: every model of bench/zoo/models.py exported and compiled (--no-csim) at
# batch 4,096; writes the "Model zoo" section of docs/benchmarks.md (the rest is kept).
.PHONY: bench-zoo
bench-zoo: build
	$(PY) bench/zoo/run_zoo.py --inrarch $(BUILD)/inrarch

# make bench-baselines: the "Baselines" section of docs/benchmarks.md, docs/baselines_latency.png
# and docs/baselines_energy.png from bench/baselines/results/ alone (no measurement, no GPU).
# make bench-baselines-measure: the CPU measurement (results/cpu-<time>.json; about an hour on
# 2 cores: docs/benchmarks.md "A quiet re-run"; BASELINES_FLAGS=--quick for a few repetitions),
# then the render.
# The GPU part is measured on a CUDA machine by bench/baselines/run_gpu.sh OUTDIR (its gpu.json goes to
# results/gpu-<time>.json); nothing here needs a GPU.
# make bench-baselines-design: the INSP designs compiled (cached in out/bench-baselines/) into
# results/design-insp.json, which the render reads.
.PHONY: bench-baselines bench-baselines-measure bench-baselines-design
bench-baselines:
	$(PY) bench/baselines/render.py

bench-baselines-measure:
	$(PY) bench/baselines/measure_cpu.py $(BASELINES_FLAGS)
	$(PY) bench/baselines/render.py

bench-baselines-design: build
	$(PY) bench/baselines/design.py --inrarch $(BUILD)/inrarch

# make fuzz: the libFuzzer targets of tests/fuzz (clang, ASan+UBSan) in build-fuzz, each run
# for FUZZ_SECONDS (default 60), one at a time; new inputs go to build-fuzz/corpus/<target>, crashes to build-fuzz/crashes/<target>.
.PHONY: fuzz
fuzz: deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz $(CMAKE_GEN) -DINRARCH_SANITIZE=ON -DINRARCH_FUZZ=ON -DINRARCH_BENCH=OFF
	cmake --build build-fuzz --target fuzz_targets
	@for t in text_ir graph_json npy depths csynth pipeline; do \
	  mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes/$$t; echo "=== fuzz_$$t for $(or $(FUZZ_SECONDS),60) s"; \
	  build-fuzz/tests/fuzz/fuzz_$$t -max_total_time=$(or $(FUZZ_SECONDS),60) -artifact_prefix=build-fuzz/crashes/$$t/ -dict=tests/fuzz/dict/$$t.dict \
	    build-fuzz/corpus/$$t tests/fuzz/corpus/$$t tests/fuzz/regressions/$$t || exit 1; done

clean:
	rm -rf $(BUILD) $(ASAN) out

# make bench-synth: the searched INSP order 1 (batch 8, width 32) compiled to RTL, then
# synthesized per class (cached in out/bench-synth-w32/rtl/logs/synth/); prints the
# resources and the per-class timing estimate (docs/rtl.md, "Timing estimate").
.PHONY: bench-synth
bench-synth: build
	$(BUILD)/inrarch compile --builtin insp --mode reverse --order 1 --batch 8 --width 32 --rtl --no-rtl-sim --no-csim \
	  -q -o out/bench-synth-w32
	$(BUILD)/inrarch synth out/bench-synth-w32 --method per-class --class-timeout 1800
