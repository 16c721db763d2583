/* The paper's section 4.3 worked example on the alpha-beta model, and the
 * controller's transform search driven by that model. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "react/check.h"
#include "react/costmodel.h"
#include "react/decide.h"
#include "react/detect.h"
#include "react/equiv.h"
#include "react/generators.h"

#define ALPHA 4e-6
#define BETA (8.0 / 100e9)

typedef struct ctx {
	react_costmodel_t m;
	int32_t half;
} ctx_t;

static react_status_t reduce_makespan(void *c, const react_pattern_t *g, double *out)
{
	ctx_t *x = c;
	return react_costmodel_eval(&x->m, g, 0, x->half, out, NULL);
}

Test(worked, tree_16_ranks_reduce_phase)
{
	react_pattern_t *p;
	int32_t ext[16] = {0};
	react_costmodel_t m = {ALPHA, BETA, NULL, NULL};
	double t;
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &p), REACT_OK);
	cr_assert_eq(p->nsteps % 2, 0);
	cr_assert_eq(react_costmodel_eval(&m, p, 0, p->nsteps / 2, &t, NULL), REACT_OK);
	cr_assert_float_eq(t, 576e-6, 1e-9, "uncongested reduce phase %.9g s", t);
	ext[3] = 2;
	m.ext_down = ext;
	cr_assert_eq(react_costmodel_eval(&m, p, 0, p->nsteps / 2, &t, NULL), REACT_OK);
	cr_assert_float_eq(t, 656e-6, 1e-9, "congested reduce phase %.9g s", t);
	react_pattern_destroy(p);
}

Test(worked, controller_swap_restores_576us)
{
	react_pattern_t *p;
	int32_t ext[16] = {0};
	ctx_t cx;
	double t, *fct;
	react_cong_t *cong;
	react_equiv_t *eq;
	size_t ncong;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	react_decide_in_t in = {0};
	react_decide_out_t out;
	int B = 6;

	gsl_rng_set(rng, 1);
	cr_assert_eq(react_gen_tree_allreduce(16, 2000000, &p), REACT_OK);
	ext[3] = 2;
	cx.m = (react_costmodel_t){ALPHA, BETA, NULL, ext};
	cx.half = p->nsteps / 2;
	fct = malloc((size_t)B * p->nflows * sizeof *fct);
	cong = malloc(p->nflows * sizeof *cong);
	/* the observed batch: B identical epochs of the congested model */
	cr_assert_eq(react_costmodel_eval(&cx.m, p, 0, -1, &t, fct), REACT_OK);
	for (int e = 1; e < B; e++)
		for (size_t f = 0; f < p->nflows; f++)
			fct[(size_t)e * p->nflows + f] = fct[f];
	cr_assert_eq(react_detect(p, fct, B, 0.2, 0.15, cong, &ncong), REACT_OK);
	cr_assert_gt(ncong, 0u);
	for (size_t f = 0; f < p->nflows; f++)
		if (cong[f] != REACT_CONG_NONE)
			cr_assert_eq(p->flows[f].dst, 3, "only flows into rank 3 are congested (flow %zu)", f);
	cr_assert_eq(react_equiv_fast(p, &eq), REACT_OK);
	in.g0 = p;
	in.fct = fct;
	in.B = B;
	in.cong = cong;
	in.equiv = eq;
	in.trials = 15;
	in.max_accepted = 4;
	in.epsilon = 0.05;
	in.estimate = reduce_makespan;
	in.estimate_ctx = &cx;
	in.rng = rng;
	cr_assert_eq(react_decide(&in, &out), REACT_OK);
	cr_assert_not_null(out.g1, "the controller found no swap (%zu candidates)", out.ncands);
	cr_assert_eq(react_pattern_check(out.g1, NULL), REACT_OK);
	cr_assert_eq(out.cands[0].xf.kind, REACT_XF_POSITION, "position swaps come first");
	cr_assert_eq(react_costmodel_eval(&cx.m, out.g1, 0, cx.half, &t, NULL), REACT_OK);
	cr_assert_float_eq(t, 576e-6, 1e-9, "reduce phase after the controller's swap: %.9g s", t);
	react_pattern_destroy(out.g1);
	free(out.cands);
	react_equiv_destroy(eq);
	free(fct);
	free(cong);
	gsl_rng_free(rng);
	react_pattern_destroy(p);
}
