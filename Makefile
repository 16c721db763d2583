# The README's two commands.  Everything else is meson.
#   make demo            install what is missing, build, run the quick-start scenario
#   make test            install what is missing, build, run every test suite
#   make test SANITIZE=1 the same in build-san/ under AddressSanitizer + UBSan
BUILD ?= build
MESON_OPTS ?=
ifeq ($(SANITIZE),1)
BUILD := build-san
MESON_OPTS += -Db_sanitize=address,undefined -Db_lundef=false
TEST_OPTS := --timeout-multiplier 4
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
endif

.PHONY: all demo test bootstrap build clean
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

clean:
	rm -rf build build-san
