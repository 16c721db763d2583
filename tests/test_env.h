/* Test settings that depend on how the tests were built.  Under
 * AddressSanitizer/UBSan (make test SANITIZE=1) instrumented code runs several
 * times slower: per-test timeouts scale up, and the brute-force reference
 * sweeps stop at a smaller rank count (the plain build sweeps the full range). */
#ifndef REACT_TEST_ENV_H
#define REACT_TEST_ENV_H

#ifdef REACT_TEST_SANITIZED
#define REACT_TEST_TIME_SCALE 4
#define REACT_TEST_EQUIV_MAXN 16
#else
#define REACT_TEST_TIME_SCALE 1
#define REACT_TEST_EQUIV_MAXN 32
#endif

#endif
