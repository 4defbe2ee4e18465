# tabai: the two commands of the README.
#   make bench   set up (packages, .venv, build), then run `tabai bench` with the defaults
#   make test    set up, then make lint (about 30 s, most of it regenerating bench/moduli.h
#                to compare), then build and run every test: C under ctest for every tier
#                (with the valgrind constant-time tests and the dudect timing tests), the same
#                C tests under ASan + UBSan, the VERIFY build, the C tests built by clang, a
#                bounded run of every fuzzer, pytest + hypothesis
# Other targets: setup, build, ctest, asan, pytest, install-py, clean.
#   make lint    clang-format on the C lines changed against main, ruff on the Python, the
#                generated files fresh (scripts/lint.sh; the pre-commit hooks run the same;
#                clang-format from Debian and ruff from requirements-dev.txt: scripts/setup.sh)
#   make tsan    tests/c/test_threads.c and the library under ThreadSanitizer (build-tsan)
#   make ctime   the constant-time tests under valgrind (tests/ctime; ctest label ctime)
#   make verify  build-verify with -DTABAI_VERIFY=ON (preconditions asserted inside kernels and
#                contexts; a testing build only) and its C tests at TABAI_TEST_ITERS=0.2, without
#                the valgrind and timing tests (labels nosan, dudect)
#   make fuzz-smoke  the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, build-fuzz),
#                each for FUZZ_SMOKE_SECONDS (15) from the seed corpus
#   make fuzz    the same for as long as asked: make fuzz FUZZ_SECONDS=3600 (per target)
#   make clang   the library and its C tests built by clang (build-clang, Release, no bench)
#                and run at TABAI_TEST_ITERS=0.2 with the valgrind constant-time tests, without
#                the timing ones: the other compiler users build with (its register allocation
#                of inline assembly, its intrinsics' rules and its code from the masks differ)
#   make pytest-long  pytest with the hypothesis profile "long"
#   make dudect  the constant-time tests by timing (tests/dudect; ctest label dudect; run long
#                with TABAI_DUDECT_SECONDS=300)

JOBS ?= $(shell nproc)
PY := .venv/bin/python
BUILD := build
BUILD_ASAN := build-asan
BUILD_VERIFY := build-verify
BUILD_FUZZ := build-fuzz
BUILD_TSAN := build-tsan
BUILD_CLANG := build-clang
FUZZ_TARGETS := limb mod powmod kernels batch rsa
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_SECONDS ?= 600

.PHONY: all setup build ctest asan tsan pytest install-py test bench clean ctime verify dudect \
  fuzz-build fuzz-smoke fuzz pytest-long lint clang

all: build

setup:
	@bash scripts/setup.sh

lint: setup
	PYTHON=$(PY) bash scripts/lint.sh

build: setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$(abspath $(PY)) >/dev/null
	ninja -C $(BUILD)

ctest: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

asan: setup
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DTABAI_SANITIZE=address,undefined -DTABAI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(BUILD_ASAN)
	TABAI_TEST_ITERS=$${TABAI_TEST_ITERS:-0.25} ASAN_OPTIONS=detect_leaks=1 \
	  ctest --test-dir $(BUILD_ASAN) -j$(JOBS) --output-on-failure -LE nosan

# ThreadSanitizer: the library and tests/c/test_threads.c (threads calling into a fresh
# library at once) with -fsanitize=thread; only that program is built and run (seconds)
tsan: setup
	cmake -S . -B $(BUILD_TSAN) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DTABAI_SANITIZE=thread -DTABAI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(BUILD_TSAN) test_threads
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(BUILD_TSAN) --output-on-failure -R '^threads$$'

ctime: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure -L ctime

verify: setup
	cmake -S . -B $(BUILD_VERIFY) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTABAI_VERIFY=ON \
	  -DTABAI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(BUILD_VERIFY)
	TABAI_TEST_ITERS=$${TABAI_TEST_ITERS:-0.2} \
	  ctest --test-dir $(BUILD_VERIFY) -j$(JOBS) --output-on-failure -LE 'nosan|dudect'

clang: setup
	cmake -S . -B $(BUILD_CLANG) -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
	  -DTABAI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(BUILD_CLANG)
	TABAI_TEST_ITERS=$${TABAI_TEST_ITERS:-0.2} \
	  ctest --test-dir $(BUILD_CLANG) -j$(JOBS) --output-on-failure -LE dudect

fuzz-build: setup
	cmake -S . -B $(BUILD_FUZZ) -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
	  -DTABAI_FUZZ=ON -DTABAI_SANITIZE=address,undefined -DTABAI_BUILD_BENCH=OFF \
	  -DTABAI_BUILD_TESTS=OFF >/dev/null
	ninja -C $(BUILD_FUZZ)
	python3 tests/fuzz/make_corpus.py $(BUILD_FUZZ)/seeds

# each target from the seeds into its own corpus folder; prints the executions of each
fuzz-smoke fuzz: fuzz-build
	@secs=$(if $(filter fuzz,$@),$(FUZZ_SECONDS),$(FUZZ_SMOKE_SECONDS)); \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD_FUZZ)/corpus/$$t; \
	  $(BUILD_FUZZ)/tests/fuzz/fuzz_$$t $(BUILD_FUZZ)/corpus/$$t $(BUILD_FUZZ)/seeds \
	    -max_total_time=$$secs -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD_FUZZ)/crash-$$t- 2>$(BUILD_FUZZ)/fuzz_$$t.log \
	    || { tail -40 $(BUILD_FUZZ)/fuzz_$$t.log; exit 1; }; \
	  echo "fuzz_$$t: $$(grep -o 'number_of_executed_units: [0-9]*' $(BUILD_FUZZ)/fuzz_$$t.log | cut -d' ' -f2) executions in $$secs s"; \
	done

dudect: build
	ctest --test-dir $(BUILD) --output-on-failure -V -L dudect

# the wheel's compiler is the build's (CMake's default cc, or $CC), not the one of Python's
# sysconfig that scikit-build-core would take: so ccache serves the compiles make build made
install-py: setup
	CC=$${CC:-cc} $(PY) -m pip install -q --no-build-isolation '.[bench]'

pytest: install-py
	cd tests/python && TABAI_CPU=generic ../../$(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) .
	cd tests/python && ../../$(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) .

# the Python API against Python ints with hypothesis's long profile (10x the examples)
pytest-long: install-py
	cd tests/python && HYPOTHESIS_PROFILE=long ../../$(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) .

test: lint ctest asan tsan verify clang fuzz-smoke pytest
	@echo "make test: all suites passed"

bench: install-py
	.venv/bin/tabai bench

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) build-*/ results/
