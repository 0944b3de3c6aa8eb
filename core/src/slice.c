/* SPDX-License-Identifier: MIT */
/*
 * slice.c - convention-aware backward slicing of a harness test.
 *
 * From the last step backwards, a step is kept when it defines a variable that a kept later step
 * uses (and the last step is always kept).  What a step defines depends on the level: at ℓ0 a
 * `pure` call, or a call whose result is stored, modifies nothing but its left-hand side; at ℓ1
 * every non-pure call modifies its non-const pool arguments; ℓ2 keeps everything.  The levels are
 * conventions, not facts about the code, which is why the reducer verifies each slice with one
 * run and falls back to the next level when the failure does not survive.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tnorm/reduce.h"

int tnorm_slice(tnorm_test **out, const tnorm_test *t, tnorm_slice_level level)
{
	const tnorm_harness *h;
	unsigned char *live = NULL, *keep = NULL;
	size_t n, i;
	int err = 0;

	if (!out || !t)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_slice: NULL argument");
	*out = NULL;
	if (level == TNORM_SLICE_L2 || tnorm_test_len(t) == 0)
		return tnorm_test_dup(out, t);
	h = tnorm_test_harness(t);
	n = tnorm_test_len(t);
	if (!(live = tnorm__calloc(tnorm_harness_var_count(h) + 1, 1)) || !(keep = tnorm__calloc(n, 1))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = n; i-- > 0;) {
		uint32_t def[TNORM_MAX_SLOTS], use[TNORM_MAX_SLOTS];
		size_t nd = 0, nu = 0, k;
		int needed = i == n - 1;
		if ((err = tnorm_harness_defuse(h, tnorm_test_step(t, i),
		                                level == TNORM_SLICE_L0 ? TNORM_DEFUSE_L0 : TNORM_DEFUSE_L1,
		                                def, &nd, use, &nu)) < 0)
			goto done;
		for (k = 0; k < nd && !needed; k++)
			if (live[def[k]])
				needed = 1;
		if (!needed)
			continue;
		keep[i] = 1;
		/* A pure redefinition (an assignment) ends the variable's liveness above this step; a
		 * modification keeps it live, since the value before it matters too. */
		{
			tnorm_template_info info;
			tnorm_harness_template(h, tnorm_test_step(t, i)->tmpl, &info);
			if (info.has_lhs)
				live[def[0]] = 0;
		}
		for (k = 0; k < nu; k++)
			live[use[k]] = 1;
	}
	if ((err = tnorm_test_new(out, h)) < 0)
		goto done;
	for (i = 0; i < n; i++)
		if (keep[i] && (err = tnorm_test_append(*out, tnorm_test_step(t, i))) < 0)
			goto done;
done:
	if (err < 0) {
		tnorm_test_free(*out);
		*out = NULL;
	}
	free(live);
	free(keep);
	return err;
}
