/*
 * react/equiv.h - position-equivalent sets (section 5.3.1 transform 3, A.3).
 *
 * Two vertices (t, x), (t, y) of chunk graph g are swappable when the
 * POSITION transform exchanging them gives a pattern that passes the
 * semantic check; the sets are the classes (connected components) of that
 * relation, per (graph, t).  Computed once per pattern.
 *
 * Two algorithms give the same sets:
 *   react_equiv_brute  the reference of A.3: every pair of every (g, t) is
 *                      swapped and checked (a swap that leaves the pattern
 *                      unchanged is the original pattern, which passed)
 *   react_equiv_fast   see equiv.c
 */
#ifndef REACT_EQUIV_H
#define REACT_EQUIV_H

#include "react/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct react_equiv react_equiv_t;

/* p must pass the semantic check (REACT_ESEMANTIC otherwise). */
react_status_t react_equiv_brute(const react_pattern_t *p, react_equiv_t **out);
react_status_t react_equiv_fast(const react_pattern_t *p, react_equiv_t **out);
void react_equiv_destroy(react_equiv_t *e);

/* Class id of rank r at vertex time t of graph g (classes numbered by their
 * smallest rank, so ids are comparable between the two algorithms). */
int32_t react_equiv_class(const react_equiv_t *e, int32_t graph, react_step_t t, react_rank_t r);
/* Members of the class of (g, t, r), written to out (room for nranks);
 * returns their count, r included, in increasing rank order. */
size_t react_equiv_members(const react_equiv_t *e, int32_t graph, react_step_t t, react_rank_t r,
                           react_rank_t *out);
/* 1 when both hold identical sets. */
int react_equiv_same(const react_equiv_t *a, const react_equiv_t *b);
/* Number of (graph, t) pairs with at least one class of two or more ranks. */
size_t react_equiv_nontrivial(const react_equiv_t *e);

#ifdef __cplusplus
}
#endif
#endif
