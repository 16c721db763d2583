# The README's two commands.  Everything else is meson.
#   make demo            install what is missing, build, run the quick-start scenario
#   make test            install what is missing, build, run every test suite
#   make test SANITIZE=1 the same in build-san/ under AddressSanitizer + UBSan
#   make fuzz            libFuzzer on every input reader, FUZZ_SECONDS (60) each,
#                        in build-fuzz/ (clang, ASan + UBSan); tests/fuzz/README.md
BUILD ?= build
MESON_OPTS ?=
ifeq ($(SANITIZE),1)
BUILD := build-san
MESON_OPTS += -Db_sanitize=address,undefined -Db_lundef=false
TEST_OPTS := --timeout-multiplier 4
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
endif

FUZZ_SECONDS ?= 60
FUZZ_READERS := scenario topology alibaba pattern trace

.PHONY: all demo test fuzz bootstrap build clean
all: build

bootstrap:
	@./scripts/bootstrap.sh

build: bootstrap
	@[ -f $(BUILD)/build.ninja ] || meson setup $(BUILD) $(MESON_OPTS)
	meson compile -C $(BUILD)

demo: build
	./scripts/demo.sh $(BUILD)

test: build
	meson test -C $(BUILD) --print-errorlogs --num-processes 2 $(TEST_OPTS)

fuzz: bootstrap
	@[ -f build-fuzz/build.ninja ] || CC=clang CXX=clang++ \
	    CFLAGS="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
	    meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
	    -Dns3=disabled -Dcuda=disabled -Dmpi=disabled
	meson compile -C build-fuzz $(FUZZ_READERS:%=tests/fuzz/fuzz-%)
	./tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_READERS)

clean:
	rm -rf build build-san build-fuzz
