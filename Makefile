# tabai: the two commands of the README.
#   make bench   set up (packages, .venv, build), then run `tabai bench` with the defaults
#   make test    set up, then build and run every test (C under ctest for every tier,
#                the same C tests under ASan + UBSan, pytest + hypothesis)
# Other targets: setup, build, ctest, asan, pytest, install-py, clean.
#   make ctime   the constant-time tests under valgrind (tests/ctime; ctest label ctime)
#   make verify  build-verify with -DTABAI_VERIFY=ON (preconditions asserted inside kernels and
#                contexts; a testing build only) and its C tests at TABAI_TEST_ITERS=0.2, without
#                the valgrind and timing tests (labels nosan, dudect)
#   make dudect  the constant-time tests by timing (tests/dudect; ctest label dudect; run long
#                with TABAI_DUDECT_SECONDS=300)

JOBS ?= $(shell nproc)
PY := .venv/bin/python
BUILD := build
BUILD_ASAN := build-asan
BUILD_VERIFY := build-verify

.PHONY: all setup build ctest asan pytest install-py test bench clean ctime verify dudect

all: build

setup:
	@bash scripts/setup.sh

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

ctime: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure -L ctime

verify: setup
	cmake -S . -B $(BUILD_VERIFY) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTABAI_VERIFY=ON \
	  -DTABAI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(BUILD_VERIFY)
	TABAI_TEST_ITERS=$${TABAI_TEST_ITERS:-0.2} \
	  ctest --test-dir $(BUILD_VERIFY) -j$(JOBS) --output-on-failure -LE 'nosan|dudect'

dudect: build
	ctest --test-dir $(BUILD) --output-on-failure -V -L dudect

install-py: setup
	$(PY) -m pip install -q --no-build-isolation '.[bench]'

pytest: install-py
	cd tests/python && TABAI_CPU=generic ../../$(PY) -m pytest -q -p no:cacheprovider .
	cd tests/python && ../../$(PY) -m pytest -q -p no:cacheprovider .

test: ctest asan pytest
	@echo "make test: all suites passed"

bench: install-py
	.venv/bin/tabai bench

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) build-*/ results/
