/* SPDX-License-Identifier: MIT */
/*
 * runner_env.c - the environment a run's program gets, made once per runner.
 *
 * Not the caller's environment as it is: PATH and HOME from it, LANG and LC_ALL set to C (the
 * program's messages, and so its signatures, are the same in every locale), the sanitizers'
 * option variables as the caller has them (the program fails as it does in the user's shell),
 * then tnorm's defaults over them flag by flag (abort on the first error, no leak check under
 * ptrace, no symbolizing: the engine symbolizes), then the options' `env`, merged the same way.
 * A sanitizer's options are merged key by key (sanopts.h), every other variable replaced.  A
 * driver with destructors gets a second environment for its leak check (leak_env below).
 * runner.c makes the run with them; forkserver.c adds the fork server's variables to a copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_internal.h"
#include "sanitizer_internal.h"
#include "sanopts.h"

/* Set NAME=VALUE in the program's environment; a sanitizer's options are merged into the value
 * already there, key by key (sanopts.h), every other variable replaced. */
static int env_add(char ***envp, size_t *n, const char *kv)
{
	size_t i, klen;
	const char *eq = strchr(kv, '=');
	char *copy = NULL, **nv;
	if (!eq || eq == kv)
		return tnorm__error_set(TNORM_EINVALID, "environment entry '%s' is not NAME=VALUE", kv);
	klen = (size_t)(eq - kv) + 1;
	for (i = 0; i < *n; i++)
		if (!strncmp((*envp)[i], kv, klen)) {
			if (tnorm__sanopts_is_var(kv, klen - 1)) {
				char *merged = NULL;
				tnorm__buf b = TNORM__BUF_INIT;
				int err = tnorm__sanopts_merge((*envp)[i] + klen, eq + 1, &merged);
				if (err == 0)
					err = tnorm__buf_printf(&b, "%.*s%s", (int)klen, kv, merged);
				free(merged);
				if (err == 0 && !(copy = tnorm__buf_detach(&b)))
					err = TNORM_ENOMEM;
				tnorm__buf_dispose(&b);
				if (err < 0)
					return err;
			} else if (!(copy = tnorm__strdup(kv))) {
				return TNORM_ENOMEM;
			}
			free((*envp)[i]);
			(*envp)[i] = copy;
			return 0;
		}
	if (!(copy = tnorm__strdup(kv)))
		return TNORM_ENOMEM;
	if (!(nv = tnorm__reallocarray(*envp, *n + 2, sizeof(*nv)))) {
		free(copy);
		return TNORM_ENOMEM;
	}
	nv[*n] = copy;
	nv[*n + 1] = NULL;
	*envp = nv;
	(*n)++;
	return 0;
}

/*
 * Issue 16: a tnorm driver with destructors frees what its test made, so a leak is a bug.
 * LeakSanitizer cannot run under ptrace, and every run is traced, so a run of such a driver
 * that passes is checked again untraced with detect_leaks=1 (runner.c, leak_check).  Its
 * environment is the runs' own with detect_leaks=1 put over tnorm's default and under the
 * user's --env (which may say detect_leaks=0: then nothing is checked).
 */
static int leak_env(tnorm_runner *r)
{
	size_t n = 0, i;
	int err = 0;
	if (!r->opts.unwind || !tnorm__sanopts_program_frees(r->argv[0], r->envp))
		return 0;
	if (!(r->leak_envp = tnorm__calloc(1, sizeof(*r->leak_envp))))
		return TNORM_ENOMEM;
	for (i = 0; err == 0 && r->envp[i]; i++)
		err = env_add(&r->leak_envp, &n, r->envp[i]);
	if (err == 0)
		err = env_add(&r->leak_envp, &n, TNORM__SAN_LEAK_ENV);
	for (i = 0; err == 0 && r->opts.env && r->opts.env[i]; i++)
		err = env_add(&r->leak_envp, &n, r->opts.env[i]);
	for (i = 0; err == 0 && r->leak_envp[i]; i++)
		if (!strncmp(r->leak_envp[i], TNORM__SAN_ASAN_OPTIONS "=",
		             sizeof(TNORM__SAN_ASAN_OPTIONS)) &&
		    !strstr(r->leak_envp[i], TNORM__SAN_DETECT_LEAKS)) {
			tnorm__strv_free(r->leak_envp); /* the user said no */
			r->leak_envp = NULL;
			break;
		}
	return err;
}

int tnorm__runner_env(tnorm_runner *r)
{
	size_t i, nenv = 0;
	char buf[4200];
	const char *path = getenv("PATH"), *home = getenv("HOME");
	int err = 0;

	if (!(r->envp = tnorm__calloc(1, sizeof(*r->envp))))
		return TNORM_ENOMEM;
	snprintf(buf, sizeof(buf), "PATH=%s", path ? path : "/usr/local/bin:/usr/bin:/bin");
	if ((err = env_add(&r->envp, &nenv, buf)) < 0)
		return err;
	snprintf(buf, sizeof(buf), "HOME=%s", home ? home : "/");
	if ((err = env_add(&r->envp, &nenv, buf)) < 0 ||
	    (err = env_add(&r->envp, &nenv, "LANG=C")) < 0 ||
	    (err = env_add(&r->envp, &nenv, "LC_ALL=C")) < 0)
		return err;
	/* The sanitizer options of our own environment are kept (the program fails as it does in
	 * the user's shell); the defaults below override only the flags they name.  getenv, not
	 * environ: in a module loaded with RTLD_DEEPBIND (the Python binding) environ is not ours. */
	for (i = 0; tnorm__sanopts_var(i); i++) {
		const char *name = tnorm__sanopts_var(i), *val = getenv(name);
		tnorm__buf kv = TNORM__BUF_INIT;
		if (val && (err = tnorm__buf_printf(&kv, "%s=%s", name, val)) == 0)
			err = env_add(&r->envp, &nenv, kv.ptr);
		tnorm__buf_dispose(&kv);
		if (err < 0)
			return err;
	}
	for (i = 0; tnorm__sanitizer_run_default(i); i++)
		if ((err = env_add(&r->envp, &nenv, tnorm__sanitizer_run_default(i))) < 0)
			return err;
	for (i = 0; r->opts.env && r->opts.env[i]; i++)
		if ((err = env_add(&r->envp, &nenv, r->opts.env[i])) < 0)
			return err;
	return leak_env(r);
}
