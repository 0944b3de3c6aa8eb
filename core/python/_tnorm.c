/* SPDX-License-Identifier: MIT */
/*
 * _tnorm.c - the Python binding of libtnorm, shared by the GDB and LLDB plugins.
 *
 *   _tnorm.run(argv, test, timeout=10.0, stdin=False, invalid_exit=()) -> dict
 *   _tnorm.last_trace_step(stderr) -> int or None
 *   _tnorm.pools(read, addr) -> dict
 *   _tnorm.signature(kind, frames, depth=0) -> str
 *   _tnorm.signature_at(kind, pid, pcs, message=None, depth=0) -> str
 *   _tnorm.reduce / normalize / minimize / generalize(argv, test, **options) -> dict
 *   _tnorm.why(argv, test, **options) -> dict
 *   _tnorm.triage(dir, argv, harness=None, **options) -> dict
 *   _tnorm.driver_harness(program) -> str or None
 *   _tnorm.default_output(test, mode) -> str
 *   _tnorm.slipped_dir(out) -> str
 *   _tnorm.is_driver(program) -> bool
 *   _tnorm.default_jobs() -> int
 *   _tnorm.argv_harness(argv) -> str or None
 *   _tnorm.has_placeholder(argv) -> bool
 *   _tnorm.sanitizer_environment(lookup) -> dict
 *   _tnorm.ubsan_kind(message) -> str or None
 *   _tnorm.sanitizers() -> dict; _tnorm.sanitizer_kind(tool, type, access=None) -> str
 *   _tnorm.read_steps(text) -> list
 *   _tnorm.db_path(test, explicit=None) -> str or None
 *   _tnorm.Error: engine errors (.code, .name; str() is the engine's message)
 *   _tnorm.__version__, _tnorm.POOLS_SYMBOL, _tnorm.MAX_JOBS: constants
 *
 * Each function's docstring (the method table at the end) gives its options and the keys of
 * what it returns.
 *
 * The engine runs with the GIL released.  After each run the engine calls back; the callback
 * takes the GIL, checks for signals (Ctrl-C reaches Python as a pending KeyboardInterrupt) and
 * calls the user's progress function (a true return value also stops).  A stop ends the job
 * early and still returns the result: the best test so far, with "complete": False.
 *
 * Every Python object created here is checked and released on every path.  Every str made from
 * the engine's bytes (messages, program output, tests, paths) is decoded with "backslashreplace":
 * those bytes come from users' files and programs and need not be UTF-8, and a UnicodeDecodeError
 * must never hide the engine's own error (in gdb it would replace the file:line:col message).
 * The dicts of run(), why(), the jobs and triage() are the library's JSON loaded (the objects the
 * CLI's --json prints, and report.json, issue 42): there bytes that are not UTF-8 are U+FFFD, and a "..._hex" key beside
 * the text keeps a program's output or a test exactly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "tnorm/tnorm.h"

static PyObject *TnormError; /* the module's exception class (a module constant) */

/* A new str from `n` bytes that may not be UTF-8 (see above); NULL with an exception. */
static PyObject *text_n(const char *s, size_t n)
{
	if (n > PY_SSIZE_T_MAX)
		return PyErr_NoMemory();
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "backslashreplace");
}

static PyObject *text(const char *s)
{
	return text_n(s, strlen(s));
}

/* Raise _tnorm.Error from the engine's last error. */
static PyObject *raise_engine(int code)
{
	const tnorm_error *e = tnorm_error_last();
	PyObject *msg_obj, *exc;
	const char *msg = e && e->message[0] ? e->message : tnorm_error_name(code);
	if (!(msg_obj = text(msg)))
		return NULL;
	exc = PyObject_CallOneArg(TnormError, msg_obj);
	Py_DECREF(msg_obj);
	if (!exc)
		return NULL;
	{
		PyObject *c = PyLong_FromLong(code), *n = PyUnicode_FromString(tnorm_error_name(code));
		if (!c || !n || PyObject_SetAttrString(exc, "code", c) < 0 ||
		    PyObject_SetAttrString(exc, "name", n) < 0) {
			Py_XDECREF(c);
			Py_XDECREF(n);
			Py_DECREF(exc);
			return NULL;
		}
		Py_DECREF(c);
		Py_DECREF(n);
	}
	PyErr_SetObject(TnormError, exc);
	Py_DECREF(exc);
	return NULL;
}

/* ---- argument helpers ----------------------------------------------------------------------- */

/* A list/tuple of str -> NULL-terminated char* array (strings borrowed from the objects, which
 * the caller keeps alive through `keep`, a new tuple). */
static const char **str_array(PyObject *seq, const char *what, PyObject **keep)
{
	PyObject *fast;
	const char **arr;
	Py_ssize_t n, i;
	*keep = NULL;
	if (PyUnicode_Check(seq) || !(fast = PySequence_Fast(seq, what)))
		return PyErr_Format(PyExc_TypeError, "%s must be a list of str", what), NULL;
	n = PySequence_Fast_GET_SIZE(fast);
	if (n == 0) {
		Py_DECREF(fast);
		PyErr_Format(PyExc_ValueError, "%s must not be empty", what);
		return NULL;
	}
	if (!(arr = PyMem_Calloc((size_t)n + 1, sizeof(*arr)))) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return NULL;
	}
	for (i = 0; i < n; i++) {
		PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
		if (!PyUnicode_Check(o) || !(arr[i] = PyUnicode_AsUTF8(o))) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_TypeError, "%s must be a list of str", what);
			PyMem_Free(arr);
			Py_DECREF(fast);
			return NULL;
		}
	}
	*keep = fast;
	return arr;
}

/* A sequence of ints (None: empty) as a PyMem array: the run options' invalid exit codes.
 * -1 with an exception set. */
static int int_array(PyObject *seq, const char *what, int **out, size_t *n)
{
	PyObject *fast;
	Py_ssize_t k, len;
	*out = NULL;
	*n = 0;
	if (seq == Py_None)
		return 0;
	if (!(fast = PySequence_Fast(seq, what)))
		return -1;
	len = PySequence_Fast_GET_SIZE(fast);
	if (len && !(*out = PyMem_Calloc((size_t)len, sizeof(**out)))) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return -1;
	}
	for (k = 0; k < len; k++) {
		long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
		/* Not an int (PyLong_AsLong raised), or out of range. */
		if (PyErr_Occurred() || v < 1 || v > 255) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_ValueError, "%s: exit code %ld is not 1 to 255", what, v);
			PyMem_Free(*out);
			*out = NULL;
			Py_DECREF(fast);
			return -1;
		}
		(*out)[k] = (int)v;
	}
	*n = (size_t)len;
	Py_DECREF(fast);
	return 0;
}

/* Build a signature from (kind, [(function, file, line, module), ...]). */
static int make_signature(PyObject *kind, PyObject *frames, tnorm_signature **out)
{
	PyObject *fast = NULL;
	tnorm_frame *fr = NULL;
	const char *k;
	Py_ssize_t n, i;
	int err, rc = -1;
	*out = NULL;
	if (!PyUnicode_Check(kind) || !(k = PyUnicode_AsUTF8(kind))) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "kind must be a str such as 'SIGABRT'");
		return -1;
	}
	if (!(fast = PySequence_Fast(frames, "frames must be a list of tuples")))
		return -1;
	n = PySequence_Fast_GET_SIZE(fast);
	if (!(fr = PyMem_Calloc((size_t)n + 1, sizeof(*fr)))) {
		PyErr_NoMemory();
		goto out;
	}
	for (i = 0; i < n; i++) {
		PyObject *t = PySequence_Fast_GET_ITEM(fast, i);
		const char *fn = NULL, *file = NULL, *mod = NULL;
		unsigned int line = 0;
		if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "zzI|z", &fn, &file, &line, &mod)) {
			if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
				PyErr_Clear();
				PyErr_Format(PyExc_TypeError, "frame %zd must be (function, file, line[, module])",
				             i);
			}
			goto out;
		}
		fr[i].function = fn ? fn : "??";
		fr[i].file = file ? file : "??";
		fr[i].line = line;
		fr[i].module = mod ? mod : "";
	}
	if ((err = tnorm_signature_new(out, k, fr, (size_t)n)) < 0) {
		raise_engine(err);
		goto out;
	}
	rc = 0;
out:
	PyMem_Free(fr);
	Py_XDECREF(fast);
	return rc;
}

/* ---- run ------------------------------------------------------------------------------------ */

static int set_item(PyObject *d, const char *key, PyObject *v);
static PyObject *str_or_none(const char *s);
static PyObject *json_value(const char *json);

/* A result the library rendered as JSON (`err`, then its text `json`): its value (json.loads),
 * or NULL with an exception.  Frees `json` in every case. */
static PyObject *loaded(int err, char *json)
{
	PyObject *v = err < 0 ? raise_engine(err) : json_value(json);
	tnorm_free(json);
	return v;
}

static PyObject *py_run(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"argv", "test", "timeout", "stdin", "invalid_exit", NULL};
	PyObject *argv_obj, *keep = NULL, *result = NULL, *invalid_obj = Py_None;
	int *invalid = NULL;
	const char *test, **argv = NULL;
	double timeout = 10.0;
	int use_stdin = 0, err;
	char *data = NULL, *json = NULL;
	size_t len = 0;
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	(void)self;
	memset(&res, 0, sizeof(res));
	if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|dpO:run", kwlist, &argv_obj, &test, &timeout,
	                                 &use_stdin, &invalid_obj))
		return NULL;
	if (timeout < 0 || timeout != timeout) /* the library's negative timeout is no limit */
		return PyErr_Format(PyExc_ValueError, "the timeout must be zero or positive");
	if (int_array(invalid_obj, "invalid_exit", &invalid, &ro.ninvalid_exits) < 0)
		return NULL;
	ro.invalid_exits = invalid;
	if (!(argv = str_array(argv_obj, "argv", &keep))) {
		PyMem_Free(invalid);
		return NULL;
	}
	ro.timeout = timeout == 0 ? -1 : timeout; /* 0: no limit (the library's 0 is 10 s) */
	ro.use_stdin = use_stdin;
	ro.suffix = ".t";
	Py_BEGIN_ALLOW_THREADS
	err = tnorm_file_read(test, &data, &len);
	if (err == 0)
		err = tnorm_runner_new(&r, argv, &ro);
	if (err == 0)
		err = tnorm_runner_run(r, data, len, &res);
	if (err == 0) /* the library's result object, as `tnorm run --json` prints it */
		err = tnorm_run_result_json(&json, &res, NULL);
	Py_END_ALLOW_THREADS
	result = loaded(err, json);
	tnorm_run_result_dispose(&res);
	tnorm_runner_free(r);
	tnorm_free(data);
	PyMem_Free(argv);
	PyMem_Free(invalid);
	Py_XDECREF(keep);
	return result;
}

/* last_trace_step(stderr): the step of the last "STEP K: " line a driver run with --trace
 * printed (str or bytes), or None. */
static PyObject *py_last_trace_step(PyObject *self, PyObject *args)
{
	const char *err;
	Py_ssize_t len;
	uint64_t step = 0;
	int rc;
	(void)self;
	if (!PyArg_ParseTuple(args, "s#:last_trace_step", &err, &len))
		return NULL;
	if ((rc = tnorm_trace_last_step(err, (size_t)len, &step)) < 0)
		return raise_engine(rc);
	if (rc == 0)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(step);
}

/* ---- pools ---------------------------------------------------------------------------------- */

/* The memory reader tnorm_pools_read calls: read(addr, size) -> bytes, or None when the memory
 * cannot be read.  An exception in it (or a result that is not bytes-like) stops every later
 * read and is raised once the library returns. */
typedef struct {
	PyObject *read;
	int raised;
} pools_ctx;

static int pools_reader(void *vctx, uint64_t addr, void *buf, size_t len)
{
	pools_ctx *c = vctx;
	PyObject *r;
	Py_buffer view;
	int rc = -1;
	if (c->raised || len > PY_SSIZE_T_MAX)
		return -1;
	if (!(r = PyObject_CallFunction(c->read, "Kn", (unsigned long long)addr, (Py_ssize_t)len))) {
		c->raised = 1;
		return -1;
	}
	if (r != Py_None) {
		if (PyObject_GetBuffer(r, &view, PyBUF_SIMPLE) < 0) {
			c->raised = 1;
		} else {
			if ((size_t)view.len == len) {
				memcpy(buf, view.buf, len);
				rc = 0;
			}
			PyBuffer_Release(&view);
		}
	}
	Py_DECREF(r);
	return rc;
}

static PyObject *pool_var_dict(const tnorm_pool_var *v)
{
	PyObject *d = PyDict_New();
	if (!d)
		return NULL;
	if (set_item(d, "name", text(v->name)) < 0 || set_item(d, "kind", text(v->kind)) < 0 ||
	    set_item(d, "value", text(v->value)) < 0 ||
	    set_item(d, "assigned", PyLong_FromLongLong(v->assigned)) < 0 ||
	    set_item(d, "changed", PyLong_FromLongLong(v->changed)) < 0 ||
	    set_item(d, "printed", str_or_none(v->printed)) < 0 ||
	    set_item(d, "printed_before", PyLong_FromLongLong(v->printed_before)) < 0) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *pools_dict(const tnorm_pools *p)
{
	PyObject *d = PyDict_New(), *vars = NULL;
	size_t i;
	if (!d)
		return NULL;
	if (p->nvars > PY_SSIZE_T_MAX || !(vars = PyList_New((Py_ssize_t)p->nvars)))
		goto fail;
	for (i = 0; i < p->nvars; i++) {
		PyObject *v = pool_var_dict(&p->vars[i]);
		if (!v)
			goto fail;
		PyList_SET_ITEM(vars, (Py_ssize_t)i, v);
	}
	if (set_item(d, "step", PyLong_FromLongLong(p->step)) < 0 ||
	    set_item(d, "nsteps", PyLong_FromUnsignedLongLong(p->nsteps)) < 0 ||
	    set_item(d, "handler",
	             p->handler ? PyLong_FromUnsignedLongLong(p->handler) : Py_NewRef(Py_None)) < 0)
		goto fail;
	if (set_item(d, "vars", vars) < 0) {
		vars = NULL;
		goto fail;
	}
	return d;
fail:
	Py_XDECREF(vars);
	Py_DECREF(d);
	return NULL;
}

/* pools(read, addr): the driver runtime's table at addr (tnorm_pools_read), read(addr, size)
 * reading the stopped program's memory. */
static PyObject *py_pools(PyObject *self, PyObject *args)
{
	pools_ctx c = {NULL, 0};
	unsigned long long addr;
	tnorm_pools p;
	PyObject *result = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "OK:pools", &c.read, &addr))
		return NULL;
	if (!PyCallable_Check(c.read)) {
		PyErr_SetString(PyExc_TypeError, "pools: read must be callable");
		return NULL;
	}
	err = tnorm_pools_read(&p, pools_reader, &c, (uint64_t)addr);
	if (c.raised)
		;
	else if (err < 0)
		raise_engine(err);
	else
		result = pools_dict(&p);
	tnorm_pools_dispose(&p);
	return result;
}

/* ---- signature ------------------------------------------------------------------------------ */

/* The signature's text as a str (NULL with a Python exception); frees the signature. */
static PyObject *formatted(tnorm_signature *s, unsigned int depth)
{
	PyObject *result = NULL;
	char *sig_text = NULL;
	int err;
	if ((err = tnorm_signature_format(s, depth, &sig_text)) < 0)
		raise_engine(err);
	else
		result = text_n(sig_text, strlen(sig_text));
	tnorm_free(sig_text);
	tnorm_signature_free(s);
	return result;
}

static PyObject *py_signature(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"kind", "frames", "depth", NULL};
	PyObject *kind, *frames;
	tnorm_signature *s = NULL;
	unsigned int depth = 0;
	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|I:signature", kwlist, &kind, &frames, &depth))
		return NULL;
	if (make_signature(kind, frames, &s) < 0)
		return NULL;
	return formatted(s, depth);
}

/* The signature of a process a debugger has stopped: kind (str), pid (int), pcs (ints, the
 * machine frames innermost first), message (str or NULL).  0, or -1 with a Python exception. */
static int process_signature(PyObject *kind_obj, PyObject *pid_obj, PyObject *pcs,
                             const char *message, tnorm_signature **out)
{
	PyObject *fast = NULL;
	uint64_t *arr = NULL;
	const char *kind;
	Py_ssize_t n, i;
	long pid;
	int err, rc = -1;
	*out = NULL;
	if (!PyUnicode_Check(kind_obj) || !(kind = PyUnicode_AsUTF8(kind_obj))) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "kind must be a str such as 'SIGSEGV'");
		return -1;
	}
	pid = PyLong_AsLong(pid_obj);
	if (pid == -1 && PyErr_Occurred())
		return -1;
	if (!(fast = PySequence_Fast(pcs, "pcs must be a list of ints")))
		return -1;
	n = PySequence_Fast_GET_SIZE(fast);
	if (!(arr = PyMem_Calloc((size_t)n + 1, sizeof(*arr)))) {
		PyErr_NoMemory();
		goto out;
	}
	for (i = 0; i < n; i++) {
		arr[i] = (uint64_t)PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
		if (PyErr_Occurred()) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "pcs[%zd] must be a non-negative int", i);
			goto out;
		}
	}
	Py_BEGIN_ALLOW_THREADS
	err = tnorm_signature_from_process(out, kind, (int)pid, arr, (size_t)n, message);
	Py_END_ALLOW_THREADS
	if (err < 0)
		raise_engine(err);
	else
		rc = 0;
out:
	PyMem_Free(arr);
	Py_XDECREF(fast);
	return rc;
}

/* signature_at(kind, pid, pcs, message=None, depth=0): a debugger's stop, symbolized by the engine. */
static PyObject *py_signature_at(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"kind", "pid", "pcs", "message", "depth", NULL};
	const char *message = NULL;
	PyObject *kind, *pid, *pcs;
	tnorm_signature *s = NULL;
	unsigned int depth = 0;
	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "UOO|zI:signature_at", kwlist, &kind, &pid, &pcs,
	                                 &message, &depth))
		return NULL;
	if (process_signature(kind, pid, pcs, message, &s) < 0)
		return NULL;
	return formatted(s, depth);
}

/* ---- the pipeline --------------------------------------------------------------------------- */

typedef struct {
	PyObject *progress;     /* the user's callable, or NULL */
	PyThreadState **saved;  /* where Py_BEGIN_ALLOW_THREADS saved the thread state */
	PyObject *exc_type, *exc_value, *exc_tb; /* an exception raised in the callback */
	int interrupted;        /* Ctrl-C or a true return from progress */
	double last;            /* when progress was last called */
	const char *last_phase;
	int last_was_gen;       /* the last triage event given to progress was a generalize one */
	char **log;             /* accepted rewrites "Rule: what" */
	size_t nlog;
} job_ctx;

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* With the GIL: a pending Ctrl-C stops the job (KeyboardInterrupt is swallowed: the job returns
 * its result so far); another exception from a signal handler is kept to be raised.  1 to stop. */
static int stop_on_exception(job_ctx *c)
{
	if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
		PyErr_Clear();
	else
		PyErr_Fetch(&c->exc_type, &c->exc_value, &c->exc_tb);
	c->interrupted = 1;
	return 1;
}

static int poll_stop(job_ctx *c)
{
	return PyErr_CheckSignals() == 0 ? 0 : stop_on_exception(c);
}

/* With the GIL: call the user's progress function with `d` (a new reference, released here; NULL
 * when building it failed).  A true return or an exception stops the job (the exception, unless
 * KeyboardInterrupt, is kept to be raised).  1 to stop. */
static int call_user(job_ctx *c, PyObject *d)
{
	PyObject *r = d ? PyObject_CallOneArg(c->progress, d) : NULL;
	int truth;
	Py_XDECREF(d);
	if (!r)
		return stop_on_exception(c);
	truth = PyObject_IsTrue(r);
	Py_DECREF(r);
	if (truth < 0)
		PyErr_Fetch(&c->exc_type, &c->exc_value, &c->exc_tb);
	if (truth != 0)
		c->interrupted = 1;
	return truth != 0;
}

/* The engine's counters as the progress function's dict (a new reference, or NULL). */
static PyObject *runs_dict(const tnorm_progress *p)
{
	return Py_BuildValue("{s:s,s:n,s:K,s:K,s:K,s:d}", "phase", p->phase, "best",
	                     (Py_ssize_t)p->best_len, "runs", (unsigned long long)p->runs, "accepted",
	                     (unsigned long long)p->accepted, "cached",
	                     (unsigned long long)p->cache_hits, "elapsed", p->elapsed);
}

/* Called by the engine without the GIL: check for Ctrl-C and, when `due`, call the user's
 * progress function with build(arg).  1 to stop. */
static int report_progress(job_ctx *c, int due, PyObject *(*build)(const void *), const void *arg)
{
	int stop;
	PyEval_RestoreThread(*c->saved);
	stop = poll_stop(c);
	if (!stop && c->progress && due) {
		c->last = mono();
		stop = call_user(c, build(arg));
	}
	*c->saved = PyEval_SaveThread();
	return stop;
}

static PyObject *build_runs(const void *p)
{
	return runs_dict(p);
}

/* Called by the engine (without the GIL) after each run: the user's function at most ten times
 * a second, and at each new phase. */
static int on_progress(void *vctx, const tnorm_progress *p)
{
	job_ctx *c = vctx;
	int due = mono() - c->last >= 0.1 || c->last_phase != p->phase;
	if (due)
		c->last_phase = p->phase;
	return report_progress(c, due, build_runs, p) ? TNORM_EINTERRUPTED : 0;
}

static void on_log(void *vctx, tnorm_rule rule, const char *what)
{
	job_ctx *c = vctx;
	size_t n = strlen(tnorm_rule_name(rule)) + strlen(what) + 3;
	char **nl = realloc(c->log, (c->nlog + 1) * sizeof(*nl));
	if (!nl)
		return;
	c->log = nl;
	if ((c->log[c->nlog] = malloc(n)))
		snprintf(c->log[c->nlog++], n, "%s: %s", tnorm_rule_name(rule), what);
}

static int set_item(PyObject *d, const char *key, PyObject *v)
{
	int rc;
	if (!v)
		return -1;
	rc = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return rc;
}

static PyObject *str_or_none(const char *s)
{
	if (s)
		return text(s);
	Py_RETURN_NONE;
}

/* What a library call that hands out a string returned (`err`, then the string `s`, which may
 * be NULL): the str (None for NULL), or _tnorm.Error.  Frees `s` in every case. */
static PyObject *owned_str(int err, char *s)
{
	PyObject *result = err < 0 ? raise_engine(err) : str_or_none(s);
	tnorm_free(s);
	return result;
}

/* The value of a JSON text (Python's json.loads), or NULL with an exception. */
static PyObject *json_value(const char *json)
{
	PyObject *mod = PyImport_ImportModule("json"), *v = NULL;
	if (mod) {
		v = PyObject_CallMethod(mod, "loads", "s", json);
		Py_DECREF(mod);
	}
	return v;
}

/*
 * The job's dict: the library's result object (tnorm_pipeline_result_json, the CLI's --json
 * output: the same keys, the same values), and what only a debugger uses: mode, text and plain
 * (the result test), stable, expect_signature, expect_matches, match_key, warning, interrupted,
 * stopped.  Kept from the binding's dict before issue 31, because the plugins and the tests read
 * them: "final" (the JSON's "reduced"), "known" ("known_normal_form"), "paper_rules"; and in
 * their old form, replacing the JSON's: "signature" (None, not "", before a target; the
 * engine's bytes decoded with backslashreplace), "log" ("Rule: what" lines, not objects) and
 * "generalization" (its JSON text, not the object).
 */
static PyObject *result_dict(const tnorm_pipeline_options *po, const tnorm_pipeline_result *r,
                             int err, const job_ctx *c)
{
	PyObject *d = NULL, *lg = NULL, *stopped;
	char *json = NULL;
	size_t i;
	int jerr;
	/* Before the JSON is made: the last error is the job's. */
	if (!(stopped = err == 0 ? str_or_none(NULL) : text(tnorm_error_last()->message)))
		return NULL;
	if ((jerr = tnorm_pipeline_result_json(&json, po, r, NULL, 0)) < 0) {
		Py_DECREF(stopped);
		return raise_engine(jerr);
	}
	d = json_value(json);
	tnorm_free(json);
	if (!d || set_item(d, "stopped", stopped) < 0) {
		if (!d)
			Py_DECREF(stopped);
		goto fail;
	}
	if (set_item(d, "mode", text(tnorm_mode_name(po->mode))) < 0 ||
	    set_item(d, "text", r->text ? text_n(r->text, r->text_len) : str_or_none(NULL)) < 0 ||
	    set_item(d, "plain", str_or_none(r->plain)) < 0 ||
	    set_item(d, "signature", str_or_none(r->signature)) < 0 ||
	    set_item(d, "stable", PyBool_FromLong(r->stable)) < 0 ||
	    set_item(d, "expect_signature", str_or_none(r->expect_signature)) < 0 ||
	    set_item(d, "match_key", str_or_none(r->match_key)) < 0 ||
	    set_item(d, "warning", str_or_none(r->warning)) < 0 ||
	    set_item(d, "expect_matches", r->expect_matches < 0 ? str_or_none(NULL)
	                                                        : PyBool_FromLong(r->expect_matches)) < 0 ||
	    set_item(d, "interrupted", PyBool_FromLong(err == TNORM_EINTERRUPTED)) < 0 ||
	    set_item(d, "known", PyBool_FromLong(r->known)) < 0 ||
	    set_item(d, "final", PyLong_FromSize_t(r->final)) < 0 ||
	    set_item(d, "paper_rules", PyBool_FromLong(r->normalize.paper)) < 0 ||
	    set_item(d, "generalization", str_or_none(r->generalization)) < 0)
		goto fail;
	if (!(lg = PyList_New(0)))
		goto fail;
	for (i = 0; i < c->nlog; i++) {
		PyObject *e = text(c->log[i]);
		if (!e || PyList_Append(lg, e) < 0) {
			Py_XDECREF(e);
			goto fail;
		}
		Py_DECREF(e);
	}
	if (PyDict_SetItemString(d, "log", lg) < 0)
		goto fail;
	Py_CLEAR(lg);
	if (po->keep_near) { /* the runs near the result, for why(known=...) */
		if (!(lg = PyList_New(0)))
			goto fail;
		for (i = 0; i < r->nnear; i++) {
			PyObject *e = Py_BuildValue("{s:y#,s:s,s:O}", "test", r->near[i].test,
			                            (Py_ssize_t)r->near[i].len, "outcome",
			                            tnorm_outcome_name(r->near[i].outcome), "same",
			                            r->near[i].same ? Py_True : Py_False);
			if (!e || PyList_Append(lg, e) < 0) {
				Py_XDECREF(e);
				goto fail;
			}
			Py_DECREF(e);
		}
		if (PyDict_SetItemString(d, "near", lg) < 0)
			goto fail;
		Py_CLEAR(lg);
	}
	return d;
fail:
	Py_XDECREF(lg);
	Py_XDECREF(d);
	return NULL;
}

/* What job() and triage() take alike: the command, the fixed program, the invalid exit codes, the
 * rule set and the progress function. */
typedef struct {
	const char **argv, **fixed; /* PyMem arrays of strings borrowed from keep, fixed_keep */
	PyObject *keep, *fixed_keep;
	int *invalid;               /* PyMem */
	size_t ninvalid;
	tnorm_rules rules;
} cmd_args;

/* Check and convert them; -1 with an exception set (release `a` with cmd_args_release). */
static int cmd_args_get(cmd_args *a, PyObject *argv_obj, PyObject *fixed_obj,
                        PyObject *invalid_obj, const char *rules, PyObject *progress)
{
	memset(a, 0, sizeof(*a));
	if (strcmp(rules, "calls") && strcmp(rules, "paper"))
		return PyErr_Format(PyExc_ValueError, "rules must be 'calls' or 'paper', not '%s'", rules),
		       -1;
	a->rules = strcmp(rules, "paper") ? TNORM_RULES_CALLS : TNORM_RULES_PAPER;
	if (progress != Py_None && !PyCallable_Check(progress))
		return PyErr_Format(PyExc_TypeError, "progress must be callable"), -1;
	if (!(a->argv = str_array(argv_obj, "argv", &a->keep)) ||
	    (fixed_obj != Py_None && !(a->fixed = str_array(fixed_obj, "fixed", &a->fixed_keep))) ||
	    int_array(invalid_obj, "invalid_exit", &a->invalid, &a->ninvalid) < 0)
		return -1;
	return 0;
}

static void cmd_args_release(cmd_args *a)
{
	PyMem_Free(a->argv);
	PyMem_Free(a->fixed);
	PyMem_Free(a->invalid);
	Py_XDECREF(a->keep);
	Py_XDECREF(a->fixed_keep);
	memset(a, 0, sizeof(*a));
}

/*
 * Signals during a job (issue 28, items 5 and 6).  For the job's length the module handles, on
 * the main thread, the signals that would end or interrupt the debugger:
 *   - from a program under test (tnorm_signal_from_below: a daemon's kill(getppid(), SIGUSR1),
 *     whose parent is the debugger without a fork server) they are ignored;
 *   - from the user, SIGINT also sets the engine's cancel flag (the runner then stops a
 *     hanging candidate at once rather than at its timeout); then each signal goes on to the
 *     handler it replaced (the debugger's or Python's, which raise KeyboardInterrupt as
 *     before), or, where that was the default action, the default action is taken.
 * One job runs at a time (they hold the GIL to start), so one set of saved handlers serves.
 */
static const int job_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};
#define NJOB_SIGS (sizeof(job_sigs) / sizeof(job_sigs[0]))
static volatile int job_cancel;
static struct sigaction job_prev[NJOB_SIGS];
static int job_sigs_installed;
static unsigned long job_main_thread; /* the thread that imported the module: the main one */

static void on_job_signal(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *prev = NULL;
	size_t i;
	if (si && tnorm_signal_from_below(si->si_code, (long)si->si_pid))
		return;
	for (i = 0; i < NJOB_SIGS; i++)
		if (job_sigs[i] == sig)
			prev = &job_prev[i];
	if (!prev)
		return;
	if (prev->sa_flags & SA_SIGINFO) {
		if (prev->sa_sigaction)
			prev->sa_sigaction(sig, si, uc);
	} else if (prev->sa_handler == SIG_DFL) {
		if (sig != SIGINT) { /* its default ends the process: as it would have */
			signal(sig, SIG_DFL);
			raise(sig);
		}
	} else if (prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
	}
	/* After the debugger's handler: lldb's raises KeyboardInterrupt in the job's thread as an
	 * asynchronous exception (PyThreadState_SetAsyncExc), which ctx_stop must find there when
	 * the engine, seeing the flag, has returned. */
	if (sig == SIGINT)
		job_cancel = 1;
}

/* Ready the context for a call to the engine with the GIL released into *saved. */
static void ctx_start(job_ctx *c, PyObject *progress, PyThreadState **saved)
{
	c->progress = progress == Py_None ? NULL : progress;
	c->saved = saved;
	c->last = mono();
	job_cancel = 0;
	if (!job_sigs_installed && PyThread_get_thread_ident() == job_main_thread) {
		struct sigaction sa;
		size_t i;
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sa.sa_sigaction = on_job_signal;
		for (i = 0; i < NJOB_SIGS; i++)
			sigaction(job_sigs[i], NULL, &job_prev[i]);
		for (i = 0; i < NJOB_SIGS; i++)
			sigaction(job_sigs[i], &sa, NULL);
		job_sigs_installed = 1;
	}
}

/* After the call, with the GIL: the debugger's handlers back; a Ctrl-C that stopped the job is
 * the job's interruption, not a KeyboardInterrupt left pending for the caller. */
static void ctx_stop(job_ctx *c)
{
	size_t i;
	if (job_sigs_installed) {
		for (i = 0; i < NJOB_SIGS; i++)
			sigaction(job_sigs[i], &job_prev[i], NULL);
		job_sigs_installed = 0;
	}
	if (job_cancel) {
		c->interrupted = 1;
		/* The interrupt was the job's: gdb's KeyboardInterrupt (a pending signal) and lldb's (an
		 * asynchronous exception in this thread) are taken here, not raised in the caller's
		 * code after the job, which would lose its result. */
		PyThreadState_SetAsyncExc((unsigned long)PyThread_get_thread_ident(), NULL);
		if (PyErr_CheckSignals() < 0)
			stop_on_exception(c);
	}
}

/* After the call: re-raise what the progress function raised (1), else 0. */
static int ctx_raised(job_ctx *c)
{
	if (!c->exc_type)
		return 0;
	PyErr_Restore(c->exc_type, c->exc_value, c->exc_tb);
	c->exc_type = c->exc_value = c->exc_tb = NULL;
	return 1;
}

/* A job's `expect`: (kind, frames) as signature() takes them, or (kind, pid, pcs), a debugger's
 * stop, symbolized by the engine as signature_at() does; -1 with an exception set. */
static int expect_signature(PyObject *expect, tnorm_signature **out)
{
	PyObject *k, *f;
	if (!PyTuple_Check(expect) || (PyTuple_GET_SIZE(expect) != 2 && PyTuple_GET_SIZE(expect) != 3))
		return PyErr_Format(PyExc_TypeError, "expect must be (kind, frames) or (kind, pid, pcs)"),
		       -1;
	k = PyTuple_GET_ITEM(expect, 0);
	f = PyTuple_GET_ITEM(expect, PyTuple_GET_SIZE(expect) - 1);
	if (PyTuple_GET_SIZE(expect) == 3)
		return process_signature(k, PyTuple_GET_ITEM(expect, 1), f, NULL, out) < 0 ? -1 : 0;
	return make_signature(k, f, out) < 0 ? -1 : 0;
}

/* A match policy checked before the job starts (the engine's message); -1 with an exception. */
static int check_match(const char *match)
{
	tnorm_match *m = NULL;
	int err = tnorm_match_parse(&m, match);
	tnorm_match_free(m);
	return err < 0 ? (raise_engine(err), -1) : 0;
}

static PyObject *job(tnorm_mode mode, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"argv",    "test",     "harness",  "out",      "match",
	                         "generalize", "jobs",  "db",       "expect",   "progress",
	                         "timeout", "confirm",  "max_runs", "max_time", "slipped_dir",
	                         "wide",    "invalid_exit", "fixed", "rules", "keep_near", NULL};
	tnorm_pipeline_options po = TNORM_PIPELINE_OPTIONS_INIT;
	tnorm_pipeline_result r;
	PyObject *argv_obj, *expect = Py_None, *progress = Py_None, *result = NULL;
	PyObject *invalid_obj = Py_None, *fixed_obj = Py_None;
	cmd_args a;
	const char *test, *harness = NULL, *out = NULL, *match = "line", *db = NULL;
	const char *slipped = NULL, *rules = "calls";
	int generalize = 0, wide = 0, keep_near = 0, err;
	unsigned int confirm = 3;
	Py_ssize_t jobs = 1; /* "n": a number too large is an OverflowError, not cut down */
	unsigned long long max_runs = 0;
	double timeout = 0, max_time = 0;
	tnorm_signature *exp_sig = NULL;
	PyThreadState *saved;
	job_ctx c;
	size_t i;

	memset(&r, 0, sizeof(r));
	memset(&c, 0, sizeof(c));
	memset(&a, 0, sizeof(a));
	if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|zzzpnzOOdIKdzpOOsp", kwlist, &argv_obj, &test,
	                                 &harness, &out, &match, &generalize, &jobs, &db, &expect,
	                                 &progress, &timeout, &confirm, &max_runs, &max_time, &slipped,
	                                 &wide, &invalid_obj, &fixed_obj, &rules, &keep_near))
		return NULL;
	if (jobs < 0 || jobs > TNORM_MAX_JOBS)
		return PyErr_Format(PyExc_ValueError, "jobs: 1 to %d, not %zd", TNORM_MAX_JOBS, jobs);
	if (!out)
		return PyErr_Format(PyExc_ValueError, "out (the result file) is required"), NULL;
	if (timeout < 0 || timeout != timeout) /* 0 is derived from the confirm runs; none is no limit */
		return PyErr_Format(PyExc_ValueError, "the timeout must be zero or positive");
	if (expect != Py_None && expect_signature(expect, &exp_sig) < 0)
		return NULL;
	if (cmd_args_get(&a, argv_obj, fixed_obj, invalid_obj, rules, progress) < 0 ||
	    check_match(match) < 0)
		goto out;
	po.mode = mode;
	po.harness = harness;
	po.test = test;
	po.out = out;
	po.slipped_dir = slipped;
	po.db = db;
	po.generalize = generalize;
	po.jobs = jobs ? (unsigned)jobs : 1;
	po.argv = a.argv;
	po.run.timeout = timeout;
	po.run.invalid_exits = a.invalid;
	po.run.ninvalid_exits = a.ninvalid;
	po.session.match = match;
	po.session.fixed = a.fixed;
	po.session.confirm = confirm ? confirm : 1;
	po.session.max_runs = max_runs;
	po.session.max_time = max_time;
	po.session.progress = on_progress;
	po.session.progress_ctx = &c;
	po.session.cancel = &job_cancel;
	po.normalize.wide = wide;
	po.normalize.rules = a.rules;
	po.log = on_log;
	po.log_ctx = &c;
	po.expect = exp_sig;
	po.keep_near = keep_near;
	ctx_start(&c, progress, &saved);

	saved = PyEval_SaveThread();
	err = tnorm_pipeline_run(&po, &r);
	PyEval_RestoreThread(saved);
	ctx_stop(&c);

	if (ctx_raised(&c))
		goto out; /* the progress function raised (the best test is on disk) */
	if (err < 0 && err != TNORM_EINTERRUPTED && err != TNORM_ETIMEOUT) {
		raise_engine(err);
		goto out;
	}
	result = result_dict(&po, &r, err, &c);
out:
	for (i = 0; i < c.nlog; i++)
		free(c.log[i]);
	free(c.log);
	tnorm_pipeline_result_dispose(&r);
	tnorm_signature_free(exp_sig);
	cmd_args_release(&a);
	return result;
}

static PyObject *py_reduce(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	return job(TNORM_MODE_REDUCE, args, kw);
}

static PyObject *py_normalize(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	return job(TNORM_MODE_NORMALIZE, args, kw);
}

static PyObject *py_minimize(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	return job(TNORM_MODE_MINIMIZE, args, kw);
}

static PyObject *py_generalize(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	return job(TNORM_MODE_GENERALIZE, args, kw);
}

static PyObject *py_db_path(PyObject *self, PyObject *args)
{
	const char *test, *explicit_path = NULL;
	char *path = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "s|z:db_path", &test, &explicit_path))
		return NULL;
	err = tnorm_db_path(test, explicit_path, &path);
	return owned_str(err, path);
}

/* default_output(test, mode): the result file a job writes unless told (TEST.min, .norm, .gen). */
static PyObject *py_default_output(PyObject *self, PyObject *args)
{
	const char *test, *name;
	char *path = NULL;
	unsigned m;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "ss:default_output", &test, &name))
		return NULL;
	for (m = 0; m <= TNORM_MODE_GENERALIZE; m++)
		if (!strcmp(name, tnorm_mode_name((tnorm_mode)m)))
			break;
	if (m > TNORM_MODE_GENERALIZE)
		return PyErr_Format(PyExc_ValueError, "mode must be 'reduce', 'normalize', 'minimize' "
		                    "or 'generalize', not '%s'", name);
	err = tnorm_pipeline_default_output(&path, test, (tnorm_mode)m);
	return owned_str(err, path);
}

/* slipped_dir(out): the folder beside the result file `out` where a job files slipped tests. */
static PyObject *py_slipped_dir(PyObject *self, PyObject *args)
{
	const char *out;
	char *path = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "s:slipped_dir", &out))
		return NULL;
	err = tnorm_pipeline_slipped_dir(&path, out);
	return owned_str(err, path);
}

/* The harness compiled into a tnorm driver, or None when the program is none (or printed none). */
static PyObject *py_driver_harness(PyObject *self, PyObject *args)
{
	const char *program;
	char *text = NULL;
	PyObject *result;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "s:driver_harness", &program))
		return NULL;
	err = tnorm_driver_harness(program, &text);
	if (err == TNORM_ENOTFOUND || err == TNORM_EINVALID) {
		tnorm_error_clear();
		Py_RETURN_NONE;
	}
	if (err < 0)
		return raise_engine(err);
	result = str_or_none(text);
	tnorm_free(text);
	return result;
}

/* is_driver(program): whether the program links the tnorm driver runtime (nothing is run). */
/* ---- the front ends' rules (tnorm/policy.h) -------------------------------------------------- */

static PyObject *py_default_jobs(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromUnsignedLong(tnorm_default_jobs());
}

/* argv_harness(argv) and has_placeholder(argv): the library's reading of a command. */
static PyObject *py_argv_harness(PyObject *self, PyObject *argv_obj)
{
	PyObject *keep = NULL, *result;
	const char **argv;
	(void)self;
	if (!(argv = str_array(argv_obj, "argv", &keep)))
		return NULL;
	result = str_or_none(tnorm_argv_harness(argv));
	PyMem_Free(argv);
	Py_XDECREF(keep);
	return result;
}

static PyObject *py_has_placeholder(PyObject *self, PyObject *argv_obj)
{
	PyObject *keep = NULL;
	const char **argv;
	int has;
	(void)self;
	if (!(argv = str_array(argv_obj, "argv", &keep)))
		return NULL;
	has = tnorm_argv_has_placeholder(argv);
	PyMem_Free(argv);
	Py_XDECREF(keep);
	return PyBool_FromLong(has);
}

static PyObject *py_is_driver(PyObject *self, PyObject *args)
{
	const char *program;
	(void)self;
	if (!PyArg_ParseTuple(args, "s:is_driver", &program))
		return NULL;
	return PyBool_FromLong(tnorm_driver_links_runtime(program));
}

/* ---- what a debugger needs of the engine's rules --------------------------------------------- */

/* sanitizer_environment(lookup): {NAME: VALUE} for the inferior, lookup(NAME) giving the value
 * it would get now (str or None). */
static PyObject *py_sanitizer_environment(PyObject *self, PyObject *lookup)
{
	PyObject *d = PyDict_New();
	const char *name;
	size_t i;
	(void)self;
	if (!d)
		return NULL;
	if (!PyCallable_Check(lookup)) {
		Py_DECREF(d);
		return PyErr_Format(PyExc_TypeError, "sanitizer_environment: lookup must be callable");
	}
	for (i = 0; (name = tnorm_sanitizer_debug_var(i)) != NULL; i++) {
		PyObject *user = PyObject_CallFunction(lookup, "s", name);
		const char *user_s = NULL;
		char *value = NULL;
		int err;
		if (!user)
			goto fail;
		if (user != Py_None && !(user_s = PyUnicode_AsUTF8(user))) {
			if (!PyUnicode_Check(user))
				PyErr_Format(PyExc_TypeError, "sanitizer_environment: lookup('%s') must "
				             "return str or None", name);
			Py_DECREF(user);
			goto fail;
		}
		err = tnorm_sanitizer_debug_options(&value, name, user_s);
		Py_DECREF(user);
		if (err < 0) {
			raise_engine(err);
			goto fail;
		}
		err = set_item(d, name, text(value));
		tnorm_free(value);
		if (err < 0)
			goto fail;
	}
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

/* ubsan_kind(message): "ubsan:WORD" for UBSan's report message, None when it has no word. */
static PyObject *py_ubsan_kind(PyObject *self, PyObject *args)
{
	const char *message;
	char *kind = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "s:ubsan_kind", &message))
		return NULL;
	err = tnorm_signature_ubsan_kind(&kind, message);
	return owned_str(err, kind);
}

/* sanitizers(): {key: (name, ...)} of every list of tnorm/sanitizer.h. */
static PyObject *py_sanitizers(PyObject *self, PyObject *unused)
{
	PyObject *d = PyDict_New();
	const char *key;
	int list;
	(void)self;
	(void)unused;
	for (list = 0; d && (key = tnorm_sanitizer_list_key((tnorm_sanitizer_list)list)); list++) {
		PyObject *t;
		size_t n = 0, i;
		while (tnorm_sanitizer_name((tnorm_sanitizer_list)list, n))
			n++;
		t = PyTuple_New((Py_ssize_t)n);
		for (i = 0; t && i < n; i++) {
			PyObject *s = text(tnorm_sanitizer_name((tnorm_sanitizer_list)list, i));
			if (!s)
				Py_CLEAR(t);
			else
				PyTuple_SET_ITEM(t, (Py_ssize_t)i, s);
		}
		if (set_item(d, key, t) < 0)
			Py_CLEAR(d);
	}
	return d;
}

/* sanitizer_kind(tool, type, access=None): "TOOL:TYPE[:ACCESS]" (tnorm_sanitizer_kind). */
static PyObject *py_sanitizer_kind(PyObject *self, PyObject *args)
{
	const char *tool, *type, *access = NULL;
	char *kind = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "ss|z:sanitizer_kind", &tool, &type, &access))
		return NULL;
	err = tnorm_sanitizer_kind(&kind, tool, type, access);
	return owned_str(err, kind);
}

/* read_steps(text): [(action, [notes])] of a test text as generalize renders it. */
static PyObject *py_read_steps(PyObject *self, PyObject *args)
{
	const char *data;
	Py_ssize_t len;
	tnorm_annotated_step *steps = NULL;
	size_t n = 0, i, k;
	PyObject *list = NULL;
	int err;
	(void)self;
	if (!PyArg_ParseTuple(args, "s#:read_steps", &data, &len))
		return NULL;
	if ((err = tnorm_generalization_read(&steps, &n, data, (size_t)len)) < 0)
		return raise_engine(err);
	if (n > PY_SSIZE_T_MAX || !(list = PyList_New((Py_ssize_t)n)))
		goto done;
	for (i = 0; i < n; i++) {
		PyObject *notes = PyList_New((Py_ssize_t)steps[i].nnotes), *action, *step;
		for (k = 0; notes && k < steps[i].nnotes; k++) {
			PyObject *note = text(steps[i].notes[k]);
			if (!note) {
				Py_CLEAR(notes);
				break;
			}
			PyList_SET_ITEM(notes, (Py_ssize_t)k, note);
		}
		action = notes ? text(steps[i].action) : NULL;
		step = action ? PyTuple_Pack(2, action, notes) : NULL;
		Py_XDECREF(action);
		Py_XDECREF(notes);
		if (!step) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, step);
	}
done:
	tnorm_annotated_steps_free(steps, n);
	return list;
}

/* ---- triage --------------------------------------------------------------------------------- */

/* A test's dict: the library's record (tnorm_triage_test_json), the shape of its result file
 * and of report.json's "results" (a new reference, or NULL with an exception). */
static PyObject *triage_test_dict(const tnorm_triage_test *t)
{
	char *json = NULL;
	PyObject *d;
	int err = tnorm_triage_test_json(t, &json);
	if (err < 0)
		return raise_engine(err);
	d = json_value(json);
	tnorm_free(json);
	return d;
}

/* What `tnorm triage` prints after a complete job (tnorm_triage_summary_text), or None. */
static PyObject *triage_summary(const tnorm_triage_result *r, int err)
{
	char *text = NULL;
	PyObject *v;
	int e;
	if (err != 0 || !r->complete)
		Py_RETURN_NONE;
	if ((e = tnorm_triage_summary_text(r, &text)) < 0)
		return raise_engine(e);
	v = text_n(text, strlen(text));
	tnorm_free(text);
	return v;
}

/* The triage's result: report.json's object (tnorm_triage_report_json: the counts, "buckets",
 * "results", ...), the one rendering of a triage, with the job's own state beside it (where the
 * results are, whether it finished, how far it got, what `tnorm triage` prints).  A new
 * reference, or NULL with an exception. */
static PyObject *triage_result_dict(const tnorm_triage_result *r, int err)
{
	char *json = NULL;
	PyObject *stopped = err == 0 ? str_or_none(NULL) : text(tnorm_error_last()->message), *d;
	int e;
	if (!stopped)
		return NULL;
	e = tnorm_triage_report_json(r, &json);
	if (!(d = loaded(e, json))) {
		Py_DECREF(stopped);
		return NULL;
	}
	if (set_item(d, "stopped", stopped) < 0 || set_item(d, "out", str_or_none(r->out)) < 0 ||
	    set_item(d, "complete", PyBool_FromLong(r->complete)) < 0 ||
	    set_item(d, "interrupted", PyBool_FromLong(err == TNORM_EINTERRUPTED)) < 0 ||
	    set_item(d, "done", PyLong_FromSize_t(r->done)) < 0 ||
	    set_item(d, "fresh", PyLong_FromSize_t(r->fresh)) < 0 ||
	    set_item(d, "folder", str_or_none(r->folder)) < 0 ||
	    set_item(d, "summary", triage_summary(r, err)) < 0)
		Py_CLEAR(d);
	return d;
}

static const char *const triage_events[] = {"start", "test", "tick", "generalize", "polish"};

/* The triage's progress as the progress function's dict (a new reference, or NULL). */
static PyObject *triage_progress_dict(const tnorm_triage_progress *p)
{
	PyObject *d = PyDict_New();
	if (!d || set_item(d, "event", text(triage_events[p->event])) < 0 ||
	    set_item(d, "total", PyLong_FromSize_t(p->total)) < 0 ||
	    set_item(d, "done", PyLong_FromSize_t(p->done)) < 0 ||
	    set_item(d, "fresh", PyLong_FromSize_t(p->fresh)) < 0 ||
	    set_item(d, "jobs", PyLong_FromUnsignedLong(p->jobs)) < 0 ||
	    set_item(d, "out", str_or_none(p->out)) < 0 ||
	    set_item(d, "test", p->test ? triage_test_dict(p->test) : str_or_none(NULL)) < 0 ||
	    set_item(d, "bucket", PyLong_FromSize_t(p->bucket)) < 0 ||
	    set_item(d, "nbuckets", PyLong_FromSize_t(p->nbuckets)) < 0 ||
	    set_item(d, "runs", p->runs ? runs_dict(p->runs) : str_or_none(NULL)) < 0 ||
	    set_item(d, "elapsed", PyFloat_FromDouble(p->elapsed)) < 0) {
		Py_XDECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *build_triage(const void *p)
{
	return triage_progress_dict(p);
}

/* Called by the triage on the calling thread (without the GIL): every finished test, ticks
 * about ten times a second, the polish's and the generalization's runs (the first after another event always,
 * then at most ten a second: a count the caller can rely on, however fast the runs). */
static int on_triage_progress(void *vctx, const tnorm_triage_progress *p)
{
	job_ctx *c = vctx;
	int gen = p->event == TNORM_TRIAGE_EVENT_GENERALIZE || p->event == TNORM_TRIAGE_EVENT_POLISH;
	int due = !gen || !c->last_was_gen || mono() - c->last >= 0.1;
	if (due)
		c->last_was_gen = gen;
	return report_progress(c, due, build_triage, p);
}

static PyObject *py_triage(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"dir",      "argv",    "harness", "out",          "db",
	                         "jobs",     "match",   "generalize", "progress",  "timeout",
	                         "max_time_per_test",   "confirm", "invalid_exit", "fixed",
	                         "rules",    "stdin",   "thorough", "sarif", NULL};
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result r;
	PyObject *argv_obj, *progress = Py_None, *result = NULL;
	PyObject *invalid_obj = Py_None, *fixed_obj = Py_None;
	cmd_args a;
	const char *dir, *harness = NULL, *out = NULL, *db = NULL, *match = "line", *rules = "calls";
	const char *sarif = NULL;
	int generalize = 1, use_stdin = 0, thorough = 0, err;
	unsigned int confirm = 3;
	Py_ssize_t jobs = 1; /* "n": a number too large is an OverflowError, not cut down */
	double timeout = 0, max_time = 0;
	PyThreadState *saved;
	job_ctx c;
	(void)self;

	memset(&r, 0, sizeof(r));
	memset(&c, 0, sizeof(c));
	memset(&a, 0, sizeof(a));
	if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|zzznzpOddIOOsppz:triage", kwlist, &dir,
	                                 &argv_obj, &harness, &out, &db, &jobs, &match, &generalize,
	                                 &progress, &timeout, &max_time, &confirm, &invalid_obj,
	                                 &fixed_obj, &rules, &use_stdin, &thorough, &sarif))
		return NULL;
	if (jobs < 0 || jobs > TNORM_MAX_JOBS)
		return PyErr_Format(PyExc_ValueError, "jobs: 1 to %d, not %zd", TNORM_MAX_JOBS, jobs);
	if (timeout < 0 || timeout != timeout) /* as job's: 0 is derived from the confirm runs */
		return PyErr_Format(PyExc_ValueError, "the timeout must be zero or positive");
	if (cmd_args_get(&a, argv_obj, fixed_obj, invalid_obj, rules, progress) < 0)
		goto out;
	o.dir = dir;
	o.argv = a.argv;
	o.harness = harness;
	o.out = out;
	o.db = db;
	o.jobs = jobs ? (unsigned)jobs : 1;
	o.generalize = generalize ? 1 : -1;
	o.thorough = thorough;
	o.job.run.timeout = timeout;
	o.job.run.use_stdin = use_stdin;
	o.job.run.invalid_exits = a.invalid;
	o.job.run.ninvalid_exits = a.ninvalid;
	o.job.session.match = match;
	o.job.session.fixed = a.fixed;
	o.job.session.confirm = confirm ? confirm : 1;
	o.job.session.max_time = max_time;
	o.job.normalize.rules = a.rules;
	o.progress = on_triage_progress;
	o.progress_ctx = &c;
	o.cancel = &job_cancel;
	ctx_start(&c, progress, &saved);

	saved = PyEval_SaveThread();
	err = tnorm_triage_report_finish(&o, &r, tnorm_triage_run(&o, &r), sarif);
	PyEval_RestoreThread(saved);
	ctx_stop(&c);

	if (ctx_raised(&c))
		goto out;
	if (err < 0 && err != TNORM_EINTERRUPTED) {
		raise_engine(err);
		goto out;
	}
	result = triage_result_dict(&r, err);
out:
	tnorm_triage_result_dispose(&r);
	cmd_args_release(&a);
	return result;
}

/* ---- why (issue 29) ------------------------------------------------------------------------- */

/* The dict why() returns: the library's result object (tnorm_why_result_json, `tnorm why
 * --json`), and "table", the library's text of its `top` best lines (tnorm_why_result_text, what
 * `tnorm why` prints), which the plugins show. */
static PyObject *why_dict(const tnorm_why_result *w, size_t top)
{
	PyObject *d;
	char *json = NULL, *table = NULL;
	int err = tnorm_why_result_json(&json, w);
	if (!(d = loaded(err, json)))
		return NULL;
	if ((err = tnorm_why_result_text(&table, w, top)) < 0 || set_item(d, "table", text(table)) < 0) {
		if (err < 0)
			raise_engine(err);
		Py_CLEAR(d);
	}
	tnorm_free(table);
	return d;
}

/* why(known=...): a list of dicts as a job's "near" gives them ({"test": bytes, "outcome": name,
 * "same": bool}) into a PyMem array of copies; -1 with an exception set. */
static int known_tests(PyObject *list, tnorm_tested **out, size_t *n)
{
	Py_ssize_t i, len;
	tnorm_tested *v;
	*out = NULL;
	*n = 0;
	if (!PyList_Check(list))
		return PyErr_Format(PyExc_TypeError, "known must be a list (a job's 'near')"), -1;
	len = PyList_GET_SIZE(list);
	if (!(v = PyMem_Calloc((size_t)len + 1, sizeof(*v))))
		return PyErr_NoMemory(), -1;
	for (i = 0; i < len; i++) {
		PyObject *e = PyList_GET_ITEM(list, i), *t, *oc, *same;
		const char *name, *bytes;
		Py_ssize_t blen;
		int o;
		if (!PyDict_Check(e) || !(t = PyDict_GetItemString(e, "test")) || !PyBytes_Check(t) ||
		    !(oc = PyDict_GetItemString(e, "outcome")) || !(name = PyUnicode_AsUTF8(oc)) ||
		    !(same = PyDict_GetItemString(e, "same"))) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_TypeError, "known[%zd]: a dict with test (bytes), outcome "
				             "and same", i);
			goto fail;
		}
		for (o = 0; o <= TNORM_OUTCOME_ERROR && strcmp(tnorm_outcome_name((tnorm_outcome)o), name);
		     o++)
			;
		if (o > TNORM_OUTCOME_ERROR) {
			PyErr_Format(PyExc_ValueError, "known[%zd]: unknown outcome '%s'", i, name);
			goto fail;
		}
		PyBytes_AsStringAndSize(t, (char **)&bytes, &blen);
		if (!(v[i].test = PyMem_Malloc((size_t)blen + 1))) {
			PyErr_NoMemory();
			goto fail;
		}
		memcpy(v[i].test, bytes, (size_t)blen);
		v[i].test[blen] = '\0';
		v[i].len = (size_t)blen;
		v[i].outcome = (tnorm_outcome)o;
		v[i].same = PyObject_IsTrue(same) == 1;
		*n = (size_t)i + 1;
	}
	*out = v;
	return 0;
fail:
	for (i = 0; i < len; i++)
		PyMem_Free(v[i].test);
	PyMem_Free(v);
	*n = 0;
	return -1;
}

static PyObject *py_why(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"argv", "test", "steps", "neighbours", "timeout", "stdin",
	                         "invalid_exit", "known", "top", NULL};
	PyObject *argv_obj, *keep = NULL, *result = NULL, *invalid_obj = Py_None, *known = Py_None;
	tnorm_tested *kv = NULL;
	size_t nk = 0, k;
	PyThreadState *saved = NULL;
	tnorm_why_options o = TNORM_WHY_OPTIONS_INIT;
	tnorm_why_result w;
	const char *test, **argv = NULL;
	unsigned long long nmax = 0, top = 10;
	double timeout = 10.0;
	int steps = 0, use_stdin = 0, err;
	int *invalid = NULL;
	char *data = NULL;
	size_t len = 0;
	job_ctx c;
	(void)self;
	memset(&w, 0, sizeof(w));
	memset(&c, 0, sizeof(c));
	if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|pKdpOOK:why", kwlist, &argv_obj, &test, &steps,
	                                 &nmax, &timeout, &use_stdin, &invalid_obj, &known, &top))
		return NULL;
	if (known != Py_None && known_tests(known, &kv, &nk) < 0)
		return NULL;
	if (int_array(invalid_obj, "invalid_exit", &invalid, &o.run.ninvalid_exits) < 0)
		return NULL;
	o.run.invalid_exits = invalid;
	if (!(argv = str_array(argv_obj, "argv", &keep))) {
		PyMem_Free(invalid);
		return NULL;
	}
	o.argv = argv;
	o.run.timeout = timeout > 0 ? timeout : 0; /* 0 or less: the default, 10 s */
	o.run.use_stdin = use_stdin;
	o.run.suffix = steps ? ".t" : NULL;
	o.text_steps = steps;
	o.max_neighbours = (size_t)nmax;
	o.cancel = &job_cancel;
	o.known = kv;
	o.nknown = nk;
	ctx_start(&c, Py_None, &saved);
	saved = PyEval_SaveThread();
	err = tnorm_file_read(test, &data, &len);
	if (err == 0)
		err = tnorm_why(&o, data, len, &w);
	PyEval_RestoreThread(saved);
	ctx_stop(&c);
	if (err < 0) {
		raise_engine(err);
		goto out;
	}
	result = why_dict(&w, (size_t)top);
out:
	tnorm_why_result_dispose(&w);
	tnorm_free(data);
	PyMem_Free(argv);
	PyMem_Free(invalid);
	Py_XDECREF(keep);
	for (k = 0; k < nk; k++)
		PyMem_Free(kv[k].test);
	PyMem_Free(kv);
	return result;
}

#define JOB_DOC(name, what)                                                                       \
	name "(argv, test, harness=None, out=None, match='line', generalize=False, jobs=1, db=None,\n" \
	     "     expect=None, progress=None, timeout=0.0, confirm=3, max_runs=0, max_time=0.0,\n"     \
	     "     slipped_dir=None, wide=False, invalid_exit=(), fixed=None, rules='calls') -> dict\n\n"  \
	     what \
	     "\n\nargv: the command, '{}' standing for the test file; out: the result file (required; "\
	     "the\nbest test so far is written there from the start); expect: (kind, frames) or (kind, "\
	     "pid, pcs)\nas seen by a debugger (see signature_at), compared with the engine's own "    \
	     "target;\nprogress(dict): called about 10 times a second, a true return stops.  Ctrl-C "  \
	     "(or a\nstop) returns the best test so far with 'complete': False.  invalid_exit: exit "  \
	     "codes\nthat mean 'not a valid test' like 125; fixed: the fixed program's argv (a test "   \
	     "counts\nonly if it passes there); rules: 'calls' or 'paper' (docs/normalization.md).  "  \
	     "Raises\n_tnorm.Error with the engine's message."

static PyMethodDef methods[] = {
	{"run", (PyCFunction)(void (*)(void))py_run, METH_VARARGS | METH_KEYWORDS,
	 "run(argv, test, timeout=10.0, stdin=False, invalid_exit=()) -> dict\n\nRun the program "
	 "once on the test file: the library's result object, as `tnorm run --json` prints it "
	 "(tnorm_run_result_json, docs/commands/run.md): outcome, exit_code, signal, wall, "
	 "child_cpu, signature (a dict: 'kind', 'text' (the engine's text), 'frames', ...; or None), "
	 "kind (such as 'SIGSEGV' or 'asan:heap-use-after-free:READ', or None), top (the kind and the "
	 "throwing frame only, as a note names the failure: 'SIGABRT at check_node (avl.c:191)', or "
	 "None), message, key (None), stdout, stderr (text; stdout_hex, stderr_hex: the exact bytes "
	 "when they are not all text)."},
	{"last_trace_step", py_last_trace_step, METH_VARARGS,
	 "last_trace_step(stderr) -> int or None\n\nThe step a tnorm driver run with --trace was in "
	 "when it ended: the number of the last 'STEP K: ' line of its stderr (str or bytes); None "
	 "when there is none (tnorm_trace_last_step)."},
	{"pools", py_pools, METH_VARARGS,
	 "pools(read, addr) -> dict\n\nThe driver runtime's table at addr (the address of "
	 "POOLS_SYMBOL in a stopped driver), read through read(addr, size) -> bytes, or None when "
	 "that memory cannot be read: {'step', 'nsteps', 'handler' (an address or None), 'vars': "
	 "[{'name', 'kind', 'value', 'assigned', 'changed', 'printed', 'printed_before'}]}, the "
	 "instances that have a value (tnorm_pools_read).  Raises _tnorm.Error with the user's "
	 "message: ENOTFOUND (no table: not a tnorm driver), ERROR (the test is not running), "
	 "EINVALID (a layout this library does not know), EIO (the table cannot be read); an "
	 "exception read raises is raised as it is."},
	{"signature", (PyCFunction)(void (*)(void))py_signature, METH_VARARGS | METH_KEYWORDS,
	 "signature(kind, frames, depth=0) -> str\n\nThe engine's text for a failure: kind such as "
	 "'SIGSEGV', frames innermost first as (function, file, line[, module]).  Runtime frames "
	 "(libc, the tnorm driver runtime) are skipped as the engine skips them."},
	{"signature_at", (PyCFunction)(void (*)(void))py_signature_at, METH_VARARGS | METH_KEYWORDS,
	 "signature_at(kind, pid, pcs, message=None, depth=0) -> str\n\nThe engine's text for a "
	 "process a debugger has stopped: pcs are its machine frames' program counters, innermost "
	 "first (the first exact, the others return addresses, no inlined frames); they are "
	 "symbolized from /proc/PID/maps with the engine's own tables, inlined calls expanded, so "
	 "the text equals the CLI's for the same crash."},
	{"reduce", (PyCFunction)(void (*)(void))py_reduce, METH_VARARGS | METH_KEYWORDS,
	 JOB_DOC("reduce", "Confirm and reduce the failing test.")},
	{"normalize", (PyCFunction)(void (*)(void))py_normalize, METH_VARARGS | METH_KEYWORDS,
	 JOB_DOC("normalize", "Confirm and normalize the failing test (needs harness).")},
	{"minimize", (PyCFunction)(void (*)(void))py_minimize, METH_VARARGS | METH_KEYWORDS,
	 JOB_DOC("minimize", "Confirm, reduce, then normalize the failing test (needs harness).")},
	{"generalize", (PyCFunction)(void (*)(void))py_generalize, METH_VARARGS | METH_KEYWORDS,
	 JOB_DOC("generalize", "Confirm, then annotate the test with what in it is accidental.")},
	{"why", (PyCFunction)(void (*)(void))py_why, METH_VARARGS | METH_KEYWORDS,
	 "why(argv, test, steps=False, neighbours=0, timeout=10.0, stdin=False, invalid_exit=(),\n"
	 "    known=None, top=10) -> dict\n\n"
	 "Rank the source lines that make `test` (a normal form) fail over its neighbours' covered\n"
	 "runs (tnorm/why.h): the library's result object, as `tnorm why --json` prints it\n"
	 "(tnorm_why_result_json): {'signature', 'lines': [{'file', 'line', 'function', 'score',\n"
	 "'ochiai', 'failing', 'passing', 'on_stack'}] best first, 'neighbours': [{'test',\n"
	 "('test_hex'), 'outcome', 'reused'}], 'failing', 'passing', 'runs', 'reused', 'seconds'},\n"
	 "and 'table': the text `tnorm why --top TOP` prints (tnorm_why_result_text).  steps: the\n"
	 "test is a harness test (neighbours delete a step or change an integer).  known: the\n"
	 "'near' list of the job that made the test (minimize(..., keep_near=True)): its runs one\n"
	 "edit away, the first neighbours.  Ctrl-C raises _tnorm.Error."},
	{"triage", (PyCFunction)(void (*)(void))py_triage, METH_VARARGS | METH_KEYWORDS,
	 "triage(dir, argv, harness=None, out=None, db=None, jobs=1, match='line', generalize=True,\n"
	 "       progress=None, timeout=0.0, max_time_per_test=0.0, confirm=3, invalid_exit=(),\n"
	 "       fixed=None, rules='calls', stdin=False, thorough=False, sarif=None) -> dict\n\n"
	 "Run every test (*.t) in dir once, minimize a few of each signature (every one when\n"
	 "thorough) on `jobs` worker threads and group them into buckets, as `tnorm triage` does: out (default dir/triage) receives the\n"
	 "results, report.json and report.html; sarif, a path, also receives the buckets as SARIF\n"
	 "2.1.0; db is the database file (None: none; see db_path).\n"
	 "Without a harness dir is a fuzzer's crash folder: any files, minimized as bytes (each\n"
	 "bucket's 'normal_form_bytes' the hex of every byte, its representative written to its\n"
	 "'file').\n"
	 "progress(dict) is called on this thread: event 'start', 'test' (a test done: its dict in\n"
	 "'test'), 'tick' (about ten a second) or 'generalize'; a true return stops.  Ctrl-C (or a\n"
	 "stop) returns what is done with 'complete': False and 'interrupted': True; calling again\n"
	 "resumes.  Returns report.json's object (the counts, 'tests' (how many), 'buckets',\n"
	 "'results' (each test's record)), the job's 'out', 'folder', 'complete', 'interrupted',\n"
	 "'stopped', 'done', 'fresh', and 'summary' (what `tnorm triage` prints; None unless\n"
	 "complete).  Raises _tnorm.Error with the\n"
	 "engine's message (a bad harness, no tests, a folder that cannot be read)."},
	{"driver_harness", py_driver_harness, METH_VARARGS,
	 "driver_harness(program) -> str or None\n\nThe harness compiled into a tnorm driver "
	 "(program --print-harness, run only when the file links the driver runtime); None when the "
	 "program is not a tnorm driver or printed no harness."},
	{"slipped_dir", py_slipped_dir, METH_VARARGS,
	 "slipped_dir(out) -> str\n\nThe folder a job files its slipped tests in: slipped/ beside its "
	 "result file `out` (tnorm_pipeline_slipped_dir), the CLI's rule."},
	{"default_output", py_default_output, METH_VARARGS,
	 "default_output(test, mode) -> str\n\nThe result file a job in `mode` ('reduce', 'normalize', "
	 "'minimize', 'generalize') on test writes when out is not given, as the CLI's -o defaults: "
	 "TEST.min, TEST.norm (normalize, minimize) or TEST.gen."},
	{"default_jobs", py_default_jobs, METH_NOARGS,
	 "default_jobs() -> int\n\nThe default number of jobs (-j) of a job or a triage, as the CLI's: "
	 "the CPUs online, at least 1 and at most 64 (tnorm_default_jobs)."},
	{"argv_harness", py_argv_harness, METH_O,
	 "argv_harness(argv) -> str or None\n\nThe harness the command gives its program: the word "
	 "after a '--harness' among the program's own arguments (argv[1] on), which a front end "
	 "uses rather than the driver's compiled-in one, as the CLI does; None when there is none "
	 "(tnorm_argv_harness)."},
	{"has_placeholder", py_has_placeholder, METH_O,
	 "has_placeholder(argv) -> bool\n\nWhether an argument of the command holds the test's "
	 "placeholder, '{}' or '@@', anywhere in it: each run replaces it with the test's path "
	 "(tnorm_argv_has_placeholder)."},
	{"is_driver", py_is_driver, METH_VARARGS,
	 "is_driver(program) -> bool\n\nWhether the program links the tnorm driver runtime (an ELF "
	 "file that names tnorm_drv_main), as driver_harness checks before it runs anything; "
	 "nothing is run.  False when the file cannot be read."},
	{"sanitizer_environment", py_sanitizer_environment, METH_O,
	 "sanitizer_environment(lookup) -> dict\n\n{NAME: VALUE} to put in the environment of a "
	 "program a debugger runs (ASAN_OPTIONS, UBSAN_OPTIONS), so that a sanitizer's report ends in "
	 "an abort the debugger stops on: lookup(NAME) is the value the program would get now (str, "
	 "or None); its flags are kept as written, then the defaults it does not set "
	 "(halt_on_error=1 for UBSan), then abort_on_error=1, replacing the user's "
	 "(tnorm_sanitizer_debug_options)."},
	{"ubsan_kind", py_ubsan_kind, METH_VARARGS,
	 "ubsan_kind(message) -> str or None\n\nThe engine's kind for an UndefinedBehaviorSanitizer "
	 "report message (what __ubsan_get_current_report_data gives, or what follows 'runtime "
	 "error: '): 'ubsan:signed-integer-overflow' for 'Signed integer overflow: 1 + ...'; None "
	 "when the message has no kind word (tnorm_signature_ubsan_kind)."},
	{"sanitizers", py_sanitizers, METH_NOARGS,
	 "sanitizers() -> dict\n\nWhat the engine knows about the sanitizers, as tuples of names: "
	 "'functions' (prefixes of their runtimes' functions), 'namespaces' (their C++ namespaces), "
	 "'libraries' (prefixes of their runtimes' library file names), 'report_entries' (where a "
	 "report starts), 'option_vars' (their options variables), 'ubsan_hook' (UBSan's hook for "
	 "debuggers), 'queries' (the runtime functions a debugger calls to read a report: ASan's "
	 "description, report-present and access type, UBSan's report data) (tnorm/sanitizer.h)."},
	{"sanitizer_kind", py_sanitizer_kind, METH_VARARGS,
	 "sanitizer_kind(tool, type, access=None) -> str\n\nThe engine's kind for a sanitizer's "
	 "report: 'TOOL:TYPE', with ':ACCESS' when access is given and not empty "
	 "(tnorm_sanitizer_kind)."},
	{"read_steps", py_read_steps, METH_VARARGS,
	 "read_steps(text) -> list\n\nThe steps of a test text with the notes generalize writes "
	 "under each, as a debugger shows them while stepping: [(action, [note, ...])], the action "
	 "without its '# STEP k' comment, '#]' as 'ends a block of steps that can be in any order', "
	 "'# or A' then '# - B' as one note 'or A ... B' (tnorm_generalization_read)."},
	{"db_path", py_db_path, METH_VARARGS,
	 "db_path(test, explicit=None) -> str or None\n\nThe cross-test database a job on test uses "
	 "by default ($TNORM_DB, else .tnorm/cache.db beside the test)."},
	{NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tnorm",
                                    "libtnorm for Python: the engine behind the gdb and lldb plugins.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tnorm(void);

PyMODINIT_FUNC PyInit__tnorm(void)
{
	PyObject *m = PyModule_Create(&module);
	if (!m)
		return NULL;
	job_main_thread = PyThread_get_thread_ident();
	if (!TnormError &&
	    !(TnormError = PyErr_NewExceptionWithDoc("_tnorm.Error",
	                                             "An engine error: str() is the engine's message; "
	                                             ".code and .name say which kind.",
	                                             NULL, NULL))) {
		Py_DECREF(m);
		return NULL;
	}
	Py_INCREF(TnormError);
	if (PyModule_AddObject(m, "Error", TnormError) < 0 ||
	    PyModule_AddStringConstant(m, "__version__", "0.1.0") < 0 ||
	    PyModule_AddStringConstant(m, "POOLS_SYMBOL", TNORM_POOLS_SYMBOL) < 0 ||
	    PyModule_AddIntConstant(m, "MAX_JOBS", TNORM_MAX_JOBS) < 0) {
		Py_DECREF(TnormError);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
