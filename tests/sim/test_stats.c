/* The statistics of react compare-backends (react/stats.h) on samples whose
 * mean, standard error and verdicts are worked out by hand. */
#include <math.h>

#include <criterion/criterion.h>

#include "react/stats.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1))

/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squares about the mean 32, sample
 * variance 32 / 7, standard error sqrt(32 / 7 / 8) = sqrt(4 / 7). */
Test(stats, mean_and_standard_error_by_hand)
{
	const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	double m, se;
	react_stats_mean_se(x, 8, &m, &se);
	cr_assert(NEAR(m, 5.0), "mean %.17g", m);
	cr_assert(NEAR(se, sqrt(4.0 / 7.0)), "se %.17g, want %.17g", se, sqrt(4.0 / 7.0));
	react_stats_mean_se(x, 1, &m, &se);
	cr_assert(m == 2.0 && se == 0.0, "one sample: mean %g se %g", m, se);
	/* 1, 2, 3: mean 2, sample variance 1, se 1 / sqrt(3) */
	const double y[] = {1, 2, 3};
	react_stats_mean_se(y, 3, &m, &se);
	cr_assert(NEAR(m, 2.0) && NEAR(se, 1 / sqrt(3.0)), "mean %.17g se %.17g", m, se);
	/* constant samples: no error */
	const double z[] = {1.25, 1.25, 1.25, 1.25};
	react_stats_mean_se(z, 4, &m, &se);
	cr_assert(m == 1.25 && se == 0.0);
	react_stats_mean_se(NULL, 0, &m, &se);
	cr_assert(m == 0.0 && se == 0.0);
}

/* 100 (r / b - 1) with b = 2 +- 0.1, r = 3 +- 0.3: relative errors 0.05 and
 * 0.1, so 100 x 1.5 x sqrt(0.0025 + 0.01) = 150 sqrt(0.0125). */
Test(stats, improvement_standard_error_by_hand)
{
	double se = react_stats_impr_se_pct(2.0, 0.1, 3.0, 0.3);
	cr_assert(NEAR(se, 150 * sqrt(0.0125)), "se %.17g, want %.17g", se, 150 * sqrt(0.0125));
	/* only the baseline varies: 100 (r / b) (sb / b) */
	se = react_stats_impr_se_pct(4.0, 0.2, 5.0, 0.0);
	cr_assert(NEAR(se, 100 * 1.25 * 0.05), "se %.17g", se);
	/* exact means: no error; a mean that is not positive: 0 */
	cr_assert_eq(react_stats_impr_se_pct(1.0, 0.0, 2.0, 0.0), 0.0);
	cr_assert_eq(react_stats_impr_se_pct(0.0, 0.1, 2.0, 0.1), 0.0);
	cr_assert_eq(react_stats_impr_se_pct(1.0, 0.1, NAN, 0.1), 0.0);
	/* the same relative errors with the runs swapped: (b / r)^2 times the error */
	double ab = react_stats_impr_se_pct(2.0, 0.1, 3.0, 0.3);
	double ba = react_stats_impr_se_pct(3.0, 0.3, 2.0, 0.1);
	cr_assert(NEAR(ba, ab * (2.0 / 3.0) / (3.0 / 2.0)), "%.17g vs %.17g", ba, ab);
}

/* The significant-sign verdict: an improvement within 2 standard errors of
 * zero counts as zero, and the dead band of the plain sign. */
Test(stats, sign_with_a_band)
{
	cr_assert_eq(react_stats_sign(5.0, 2.0), 1);
	cr_assert_eq(react_stats_sign(-5.0, 2.0), -1);
	cr_assert_eq(react_stats_sign(2.0, 2.0), 0, "the band's edge counts as zero");
	cr_assert_eq(react_stats_sign(-2.0, 2.0), 0);
	cr_assert_eq(react_stats_sign(1.9, 2.0), 0);
	cr_assert_eq(react_stats_sign(0.001, 0.0), 1);
	cr_assert_eq(react_stats_sign(0.0, 0.0), 0);
	cr_assert_eq(react_stats_sign(NAN, 1.0), 0);
	/* +7.5 % with a standard error of 3 points is significant (7.5 > 6),
	 * with 4 points it is not (7.5 < 8) */
	cr_assert_eq(react_stats_sign(7.5, 2 * 3.0), 1);
	cr_assert_eq(react_stats_sign(7.5, 2 * 4.0), 0);
	cr_assert_eq(react_stats_sign(-7.5, 2 * 3.0), -1);
}
