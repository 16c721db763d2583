/*
 * The fluid timeline of the "fluid" estimator (controller/src/ctl/fluid.c):
 * moved flows share their endpoints and paths max-min fairly moment by
 * moment, fixed flows run their observed time, every flow starts when its
 * predecessors have ended.  Each case has a timeline worked out by hand.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "fluid.h"
#include "react/controller.h"
#include "react/decide.h"

static const double c0 = 1e-9; /* s per byte alone on its path */

static react_pattern_t *make(const react_flow_t *fl, int n, int32_t ranks)
{
	react_pattern_t *g;
	cr_assert_eq(react_pattern_create(REACT_COLL_ALLGATHER, REACT_ALGO_CUSTOM, ranks, ranks,
	                                  1000 * ranks, &g),
	             REACT_OK);
	for (int i = 0; i < n; i++)
		cr_assert_eq(react_pattern_add_flow(g, &fl[i]), REACT_OK);
	cr_assert_eq(react_pattern_finalize(g, NULL, 0), REACT_OK);
	return g;
}

/* Two flows leave rank 0 together, 1000 and 3000 bytes: both at half the
 * rate until the short one ends at 2000 ns, then the long one alone:
 * its last 2000 bytes take 2000 ns more.  (Counted by the step, both would
 * take twice their time: 2000 and 6000 ns.) */
Test(fluid, two_flows_share_a_sender_only_while_both_run)
{
	const react_flow_t fl[2] = {{0, 0, 1, 0, 1, 1000, REACT_RECV_STORE},
	                            {0, 0, 2, 1, 1, 3000, REACT_RECV_STORE}};
	react_pattern_t *g = make(fl, 2, 3);
	react_fluid_t w;
	unsigned char fixed[2] = {0, 0};
	double dur[2] = {0, 0}, x[2] = {0, 0}, y[2] = {0, 0}, z[2] = {0, 0}, fin[2], sum;
	cr_assert_eq(react_fluid_init(&w, 2, 3), REACT_OK);
	double last = react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, &sum);
	cr_assert_float_eq(fin[0], 2000e-9, 1e-15);
	cr_assert_float_eq(fin[1], 4000e-9, 1e-15);
	cr_assert_float_eq(last, 4000e-9, 1e-15);
	cr_assert_float_eq(sum, 6000e-9, 1e-15);
	/* a sender loaded by one flow from outside (x = 1): a third of the
	 * line rate each while both run (3000 ns for the short one's 1000
	 * bytes), then half for the long one's last 2000 (4000 ns) */
	x[0] = x[1] = 1;
	last = react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, NULL);
	cr_assert_float_eq(fin[0], 3000e-9, 1e-15);
	cr_assert_float_eq(last, 3000e-9 + 4000e-9, 1e-15);
	/* the long one's path carries a quarter of the line rate (z = 3): it
	 * runs at 1/4 throughout (12000 ns), and the short one takes the
	 * other 3/4 of the sender (1333 ns), not half: max-min, not an even
	 * split of the endpoint */
	x[0] = x[1] = 0;
	z[1] = 3;
	react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, NULL);
	cr_assert_float_eq(fin[0], 1000e-9 / 0.75, 1e-15);
	cr_assert_float_eq(fin[1], 12000e-9, 1e-15);
	react_fluid_free(&w);
	react_pattern_destroy(g);
}

/* A fixed flow keeps its time and still takes its share of the endpoint:
 * 0 -> 3 runs 1000 ns (observed), 0 -> 1 (1000 bytes, moved) shares rank
 * 0 with it for that time (500 bytes), then runs alone (500 ns).  The flow
 * after 0 -> 1 (1 -> 2, moved, 1000 bytes) starts at its end, 1500 ns. */
Test(fluid, fixed_flows_keep_their_time_and_successors_wait)
{
	const react_flow_t fl[3] = {{0, 0, 3, 0, 1, 1000, REACT_RECV_STORE},
	                            {0, 0, 1, 1, 1, 1000, REACT_RECV_STORE},
	                            {1, 1, 2, 1, 1, 1000, REACT_RECV_STORE}};
	react_pattern_t *g = make(fl, 3, 4);
	react_fluid_t w;
	unsigned char fixed[3] = {1, 0, 0};
	double dur[3] = {1000e-9, 0, 0}, x[3] = {0}, y[3] = {0}, z[3] = {0}, fin[3];
	cr_assert_eq(react_fluid_init(&w, 3, 4), REACT_OK);
	double last = react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, NULL);
	cr_assert_float_eq(fin[0], 1000e-9, 1e-15);
	cr_assert_float_eq(fin[1], 1500e-9, 1e-15);
	cr_assert_float_eq(fin[2], 2500e-9, 1e-15);
	cr_assert_float_eq(last, 2500e-9, 1e-15);
	/* every flow fixed: the longest path of the observed times */
	fixed[1] = fixed[2] = 1;
	dur[1] = 700e-9;
	dur[2] = 100e-9;
	last = react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, NULL);
	cr_assert_float_eq(last, 1000e-9, 1e-15);
	cr_assert_float_eq(fin[2], 800e-9, 1e-15);
	react_fluid_free(&w);
	react_pattern_destroy(g);
}

/* Two flows into one receiver at different times share it only while
 * both run: 0 -> 2 (2000 bytes) from 0; 1 -> 2 (1000 bytes) after 3 -> 1
 * (1000 bytes, alone: ends at 1000 ns).  From 1000 ns both share rank 2:
 * 0 -> 2 has 1000 bytes left, 1 -> 2 1000: both end at 3000 ns. */
Test(fluid, a_receiver_is_shared_from_the_moment_the_second_flow_arrives)
{
	const react_flow_t fl[3] = {{0, 0, 2, 0, 1, 2000, REACT_RECV_STORE},
	                            {0, 3, 1, 1, 1, 1000, REACT_RECV_STORE},
	                            {1, 1, 2, 1, 1, 1000, REACT_RECV_STORE}};
	react_pattern_t *g = make(fl, 3, 4);
	react_fluid_t w;
	unsigned char fixed[3] = {0, 0, 0};
	double dur[3] = {0}, x[3] = {0}, y[3] = {0}, z[3] = {0}, fin[3];
	cr_assert_eq(react_fluid_init(&w, 3, 4), REACT_OK);
	react_fluid_run(&w, g, fixed, dur, c0, x, y, z, fin, NULL);
	cr_assert_float_eq(fin[1], 1000e-9, 1e-15);
	cr_assert_float_eq(fin[0], 3000e-9, 1e-15);
	cr_assert_float_eq(fin[2], 3000e-9, 1e-15);
	react_fluid_free(&w);
	react_pattern_destroy(g);
}
