/*
 * params.c - REACT's tunables (the paper's Table 3) in one table.
 *
 * The table below is the single source of names, defaults, units and paper
 * symbols: react_params_default(), react_params_validate(),
 * react_params_set() and docs/controller.md all follow it.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "react/controller.h"

typedef enum { P_INT, P_DOUBLE, P_U64 } ptype_t;

typedef struct pdesc {
	const char *name;   /* key of react_params_set / --set */
	const char *symbol; /* the paper's symbol */
	const char *unit;
	ptype_t type;
	size_t off;
	double def;         /* default */
	double lo, hi;      /* valid closed range */
	const char *what;
} pdesc_t;

#define OFF(f) offsetof(react_params_t, f)

static const pdesc_t params_table[] = {
	{"batch_epochs", "B", "epochs", P_INT, OFF(batch_epochs), 6, 1, 1000000,
	 "epochs per batch run with one pattern"},
	{"delta1", "delta_1", "fraction", P_DOUBLE, OFF(delta1), 0.2, 0.0, 1.0,
	 "steady congestion: p90 throughput below (1-delta_1) x degree-group mean"},
	{"delta2", "delta_2", "fraction", P_DOUBLE, OFF(delta2), 0.15, 0.0, 1e9,
	 "erratic congestion: normalised std of throughput above delta_2"},
	{"trials", "K_t", "transforms", P_INT, OFF(trials), 15, 0, 100000000,
	 "transforms tried per batch"},
	{"trials_growth", "-", "transforms", P_INT, OFF(trials_growth), 1, 0, 1000000,
	 "added to K_t after every decision"},
	{"max_accepted", "K_max", "transforms", P_INT, OFF(max_accepted), 4, 1, 1000000,
	 "transforms accepted per batch (Algorithm 1)"},
	{"epsilon", "epsilon", "fraction", P_DOUBLE, OFF(epsilon), 0.05, 0.0, 1e9,
	 "minimum estimated improvement of a transform"},
	{"history_epochs", "H", "epochs", P_INT, OFF(history_epochs), 60, 1, 100000000,
	 "epochs of FCT history kept"},
	{"explore_rounds", "E_max", "batches", P_INT, OFF(explore_rounds), 5, 1, 1000000,
	 "failed exploratory rounds before exploration stops; quiet rounds before it is forced"},
	{"max_attempts", "A_max", "patterns", P_INT, OFF(max_attempts), 10, 1, 1000000,
	 "patterns tried (and reverted) from one base pattern before it is kept"},
	{"revert_tau", "tau_r", "fraction", P_DOUBLE, OFF(revert_tau), 0.05, 0.0, 1e9,
	 "required observed improvement of a change, else revert"},
	{"apply_delay", "D", "epochs", P_INT, OFF(apply_delay), 5, 0, 1000000,
	 "epochs between a decision and the first epoch that uses it"},
	{"seed", "-", "-", P_U64, OFF(seed), 1, 0, 0, "seed of every random choice"},
	/* 256: the precomputation takes ~7 s at 256 ranks and ~50 s at 512 on a
	 * tree (results/bench/controller.txt); above, no position swaps */
	{"equiv_max_ranks", "-", "ranks", P_INT, OFF(equiv_max_ranks), 256, 0, 1000000,
	 "position-equivalent sets only for patterns up to this many ranks"},
};
#define NPARAMS (sizeof params_table / sizeof params_table[0])

size_t react_params_count(void) { return NPARAMS; }

int react_params_describe(size_t i, const char **name, const char **symbol, const char **unit,
                          double *def, const char **what)
{
	if (i >= NPARAMS)
		return -1;
	if (name) *name = params_table[i].name;
	if (symbol) *symbol = params_table[i].symbol;
	if (unit) *unit = params_table[i].unit;
	if (def) *def = params_table[i].def;
	if (what) *what = params_table[i].what;
	return 0;
}

void react_params_default(react_params_t *p)
{
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < NPARAMS; i++) {
		const pdesc_t *d = &params_table[i];
		char *base = (char *)p + d->off;
		switch (d->type) {
		case P_INT: *(int *)base = (int)d->def; break;
		case P_DOUBLE: *(double *)base = d->def; break;
		case P_U64: *(uint64_t *)base = (uint64_t)d->def; break;
		}
	}
}

react_status_t react_params_validate(const react_params_t *p, char *why, size_t whylen)
{
	if (!p) {
		if (why && whylen) snprintf(why, whylen, "params: NULL");
		return REACT_EINVAL;
	}
	for (size_t i = 0; i < NPARAMS; i++) {
		const pdesc_t *d = &params_table[i];
		const char *base = (const char *)p + d->off;
		double v;
		if (d->type == P_U64)
			continue;
		v = d->type == P_INT ? (double)*(const int *)base : *(const double *)base;
		if (!(v >= d->lo && v <= d->hi)) {
			if (why && whylen)
				snprintf(why, whylen, "parameter %s (%s) = %.9g: expected a value in [%.9g, %.9g]",
				         d->name, d->symbol, v, d->lo, d->hi);
			return REACT_EINVAL;
		}
	}
	return REACT_OK;
}

react_status_t react_params_set(react_params_t *p, const char *key, const char *value,
                                char *why, size_t whylen)
{
	react_params_t tmp;
	const pdesc_t *d = NULL;
	char *end = NULL;
	if (!p || !key || !value) {
		if (why && whylen) snprintf(why, whylen, "params: NULL argument");
		return REACT_EINVAL;
	}
	for (size_t i = 0; i < NPARAMS; i++)
		if (strcmp(params_table[i].name, key) == 0)
			d = &params_table[i];
	if (!d) {
		if (why && whylen) {
			size_t n = (size_t)snprintf(why, whylen, "unknown parameter '%s': expected one of", key);
			for (size_t i = 0; i < NPARAMS && n < whylen; i++)
				n += (size_t)snprintf(why + n, whylen - n, " %s", params_table[i].name);
		}
		return REACT_EINVAL;
	}
	tmp = *p;
	errno = 0;
	switch (d->type) {
	case P_INT: {
		long v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < INT_MIN || v > INT_MAX)
			goto bad;
		*(int *)((char *)&tmp + d->off) = (int)v;
		break;
	}
	case P_DOUBLE: {
		double v = strtod(value, &end);
		if (errno || end == value || *end)
			goto bad;
		*(double *)((char *)&tmp + d->off) = v;
		break;
	}
	case P_U64: {
		unsigned long long v;
		if (value[0] == '-')
			goto bad;
		v = strtoull(value, &end, 0);
		if (errno || end == value || *end)
			goto bad;
		*(uint64_t *)((char *)&tmp + d->off) = (uint64_t)v;
		break;
	}
	}
	if (react_params_validate(&tmp, why, whylen) != REACT_OK)
		return REACT_EINVAL;
	*p = tmp;
	return REACT_OK;
bad:
	if (why && whylen)
		snprintf(why, whylen, "parameter %s: '%s' is not a valid %s", d->name, value,
		         d->type == P_DOUBLE ? "number" : "integer");
	return REACT_EINVAL;
}
