/*
 * fuzz.h - what the fuzz harnesses share (tests/fuzz/README.md).
 *
 * Each harness defines LLVMFuzzerTestOneInput, the libFuzzer entry point:
 * it feeds one input to one reader and checks the reader's contract (an
 * error names the file and is never empty; what is read back is
 * consistent).  A broken contract aborts, which both libFuzzer and the
 * replay driver (driver.c) report as a crash.  The same harness links
 * either with libFuzzer (clang, `make fuzz`) or with driver.c (any
 * compiler, the meson tests).
 */
#ifndef REACT_FUZZ_H
#define REACT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A scratch file of this process (created on first use, removed at exit)
 * now holding exactly data[0..size): for readers that take a path.  which
 * (0 or 1) picks one of two scratch files, for harnesses that write a file
 * back and read it again.  The name ends with `suffix`.  Aborts when the
 * file cannot be written (a harness error, not a finding). */
const char *fuzz_file(int which, const uint8_t *data, size_t size, const char *suffix);

/* Abort with a message: a reader broke its contract on this input. */
#define FUZZ_CHECK(cond, ...)                                                        \
	do {                                                                            \
		if (!(cond)) {                                                              \
			fprintf(stderr, "fuzz: %s:%d: contract broken: %s: ", __FILE__, __LINE__, \
			        #cond);                                                         \
			fprintf(stderr, __VA_ARGS__);                                           \
			fputc('\n', stderr);                                                    \
			abort();                                                                \
		}                                                                           \
	} while (0)

#endif
