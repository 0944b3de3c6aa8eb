/* SPDX-License-Identifier: MIT */
/*
 * signature.h - failure signatures and the policies that compare them.
 *
 * A signature is the failure's kind (SIGABRT, SIGSEGV, ..., or exit(N)) plus the stack at the
 * failure, innermost frame first, each frame symbolized to function, file and line.  The
 * *throwing frame* is the first frame outside the runtimes (libc's abort/raise/__assert_fail and
 * exit path, libstdc++'s throw/terminate, the sanitizer runtimes, the tnorm driver runtime).
 * Canonical text, from the throwing frame outwards:
 *
 *     SIGABRT at check_node (avl.c:191) <- avl_check (avl.c:197) <- h_check (driver.c:40)
 *
 * An uncaught C++ exception is a kind of its own, named after the thrown object's type, with
 * the text its what() gave where it can be read (shown, never compared):
 *
 *     uncaught std::invalid_argument ("bad key") at parse (conf.cc:12) <- main (conf.cc:40)
 *
 * Defined in: signature.c, report.c (sanitizer reports: tnorm_signature_ubsan_kind),
 * signature_process.c (tnorm_signature_from_process).
 */
#ifndef TNORM_SIGNATURE_H
#define TNORM_SIGNATURE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_signature tnorm_signature;

/** One stack frame.  Strings are borrowed from the signature. */
typedef struct tnorm_frame {
	uint64_t pc;          /**< address in the traced process */
	const char *function; /**< "??" when unknown */
	const char *file;     /**< basename; "??" when unknown */
	uint32_t line;        /**< 0 when unknown */
	const char *module;   /**< path of the module (executable or library) */
	int is_runtime;       /**< 1 for frames of libc, libstdc++, sanitizers, the driver runtime */
	uint64_t offset;      /**< module-relative address looked up (pc, or pc-1 for callers) */
	const char *build_id; /**< the module's GNU build-id in hex; "" when unknown */
	int inlined;          /**< 1 when this function was inlined into the next frame (same pc) */
} tnorm_frame;

/**
 * The kind the engine gives an UndefinedBehaviorSanitizer report whose message is `message`
 * (what follows "runtime error: ", e.g. "signed integer overflow: 1 + 2 cannot be ..."):
 * "ubsan:" and the message up to its first ':', digit, quote or newline, blanks as dashes,
 * trailing dashes dropped ("ubsan:signed-integer-overflow").  A capital first letter is read in
 * lower case: __ubsan_get_current_report_data, which a debugger calls, gives the message so.
 * @param out  receives the kind, or NULL when the message has no such word; free with
 *             tnorm_free().
 * @return 0; TNORM_EINVALID (NULL argument); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_ubsan_kind(char **out, const char *message);

/** The kind, e.g. "SIGABRT", "exit(3)" or "uncaught std::invalid_argument".  Borrowed. */
TNORM_EXTERN const char *tnorm_signature_kind(const tnorm_signature *s);

/** Number of frames (all of them, runtime frames included). */
TNORM_EXTERN size_t tnorm_signature_frame_count(const tnorm_signature *s);

/** Frame i (0 = innermost), or NULL.  Borrowed: valid while the signature lives. */
TNORM_EXTERN const tnorm_frame *tnorm_signature_frame(const tnorm_signature *s, size_t i);

/** Index of the throwing frame, or the frame count when every frame is a runtime frame. */
TNORM_EXTERN size_t tnorm_signature_throwing(const tnorm_signature *s);

/**
 * Canonical text: the kind, then up to `depth` frames from the throwing frame outwards
 * (depth 0: all).  *out is freed with tnorm_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_format(const tnorm_signature *s, size_t depth, char **out);

/**
 * The kind and the throwing frame only, as a one-line note names the failure: "SIGABRT at
 * check_node (avl.c:191)" (a recursion's " xN" kept; no callers, no stack of the free, no
 * message); the kind alone when every frame is a runtime frame.  *out is freed with
 * tnorm_free(); NULL on error.  0, TNORM_EINVALID (NULL argument) or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_format_top(const tnorm_signature *s, char **out);

/**
 * The crash state to print for a signature's text (tnorm_signature_format's, depth 0), as a
 * triage prints a test's line and a bucket's header.  When the stack runs through a fuzzing
 * engine, its frames say nothing of the bug and fill hundreds of characters: libFuzzer's
 * `fuzzer::` frames, the AFL++ driver's (`LLVMFuzzerRunDriver`, aflpp_driver.c) and every caller
 * of `LLVMFuzzerTestOneInput` are left out, and at most 3 frames of the program's own code are
 * kept, in each stack (the crash's, and the free's after "; freed at ").  Any other text is
 * copied as it is.  For display only: the key, the database and the reports keep the full text.
 * *out is freed with tnorm_free(); NULL on error.  0, TNORM_EINVALID (NULL argument) or
 * TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_text_shown(const char *text, char **out);

/**
 * The same facts as JSON: an object with "kind", "text", "throwing", "frames" (and "free" and
 * "alloc" when the sanitizer report gave those stacks, "what" when an uncaught exception's what()
 * text is known), one line, valid UTF-8 (see
 * tnorm_text_utf8).  On success *out is a new string owned by the caller, freed with
 * tnorm_free(); on error *out is NULL.  0, TNORM_EINVALID or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_json(const tnorm_signature *s, char **out);

/**
 * Build a signature from parts (used by the debugger plugins to describe the current stop in the
 * engine's format): `kind` and `nframes` frames, innermost first (strings copied; is_runtime is
 * recomputed).  Free with tnorm_signature_free().
 */
TNORM_EXTERN int tnorm_signature_new(tnorm_signature **out, const char *kind,
                                     const tnorm_frame *frames, size_t nframes);

/** The extra stacks a sanitizer report carries. */
typedef enum tnorm_stack_kind {
	TNORM_STACK_FREE = 0,  /**< where the memory was freed (use-after-free, double-free) */
	TNORM_STACK_ALLOC = 1, /**< where the memory was allocated */
	TNORM_STACK_COUNT = 2
} tnorm_stack_kind;

/**
 * Attach a copy of `n` frames (innermost first) as the signature's `which` stack, replacing any;
 * is_runtime is recomputed.  0, TNORM_EINVALID, TNORM_ENOMEM (the signature is unchanged then).
 */
TNORM_EXTERN int tnorm_signature_set_stack(tnorm_signature *s, tnorm_stack_kind which,
                                           const tnorm_frame *frames, size_t n);

/** Number of frames of the `which` stack (0 when the failure has none). */
TNORM_EXTERN size_t tnorm_signature_stack_count(const tnorm_signature *s, tnorm_stack_kind which);

/** Frame i of the `which` stack, or NULL.  Borrowed: valid while the signature lives. */
TNORM_EXTERN const tnorm_frame *tnorm_signature_stack_frame(const tnorm_signature *s,
                                                            tnorm_stack_kind which, size_t i);

/**
 * Record what the program said last on standard error (its first line is kept, numbers and
 * quoted text masked so that one fault reached with other values keeps one message; NULL or ""
 * clears it).  The default policy compares it only where the stack cannot tell which call reached
 * a failure helper.  0, TNORM_EINVALID, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_set_message(tnorm_signature *s, const char *message);

/** The masked message, or NULL.  Borrowed: valid while the signature lives. */
TNORM_EXTERN const char *tnorm_signature_message(const tnorm_signature *s);

/**
 * Record the text an uncaught C++ exception's what() gave (`len` bytes, any: the text shows them
 * escaped; NULL clears it), for a signature whose kind is "uncaught TYPE".  Shown after the kind
 * (`uncaught std::runtime_error ("no such key")`) but never compared: it may carry the test's
 * data.  0, TNORM_EINVALID, TNORM_ENOMEM (the signature is unchanged then).
 */
TNORM_EXTERN int tnorm_signature_set_what(tnorm_signature *s, const char *what, size_t len);

/** The exception's what() text (NUL-terminated; *len its length when len is not NULL), or NULL
 * when there is none.  Borrowed: valid while the signature lives. */
TNORM_EXTERN const char *tnorm_signature_what(const tnorm_signature *s, size_t *len);

/**
 * The signature of a process that a debugger has stopped, computed as the runner computes it:
 * `pcs` are the program counters of its machine frames as the debugger unwound them, innermost
 * first (pcs[0] exact, the others return addresses; no inlined frames: they are expanded here from
 * DWARF), mapped through /proc/PID/maps and symbolized with the engine's own tables, so that a
 * stop in gdb or lldb and the CLI's run of the same crash give the same signature.  `kind` as the
 * runner names it ("SIGSEGV", "asan:heap-use-after-free:READ", "exit(3)"); `message` the program's
 * last stderr line or NULL (tnorm_signature_set_message).  Free *out with tnorm_signature_free().
 * 0, TNORM_EINVALID, TNORM_EIO (the process's memory map cannot be read), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_signature_from_process(tnorm_signature **out, const char *kind, int pid,
                                              const uint64_t *pcs, size_t npcs,
                                              const char *message);

/** Deep copy (the extra stacks and the message included).  Free with tnorm_signature_free(). */
TNORM_EXTERN int tnorm_signature_dup(tnorm_signature **out, const tnorm_signature *s);

/** Free a signature.  NULL is a no-op. */
TNORM_EXTERN void tnorm_signature_free(tnorm_signature *s);

/** 1 when a frame with this function name and module path belongs to a runtime. */
TNORM_EXTERN int tnorm_frame_is_runtime(const char *function, const char *module);

/* ---- match policies --------------------------------------------------------------------- */

typedef enum tnorm_match_kind {
	TNORM_MATCH_LINE = 0,  /**< kind + throwing frame's function, file and line (default) */
	TNORM_MATCH_STACK = 1, /**< kind + N frames from the throwing frame (function/file/line) */
	TNORM_MATCH_KIND = 2,  /**< kind only */
	TNORM_MATCH_ANY = 3,   /**< any failure */
	TNORM_MATCH_OUTPUT = 4 /**< any failure whose stdout+stderr matches a POSIX ERE */
} tnorm_match_kind;

typedef struct tnorm_match tnorm_match;

/**
 * Parse a policy: "line", "stack:N", "kind", "any" or "output:REGEX".  Free with
 * tnorm_match_free().  0, or TNORM_EINVALID with a message naming the bad policy.
 */
TNORM_EXTERN int tnorm_match_parse(tnorm_match **out, const char *policy);

/** Free a policy.  NULL is a no-op. */
TNORM_EXTERN void tnorm_match_free(tnorm_match *m);

/** The policy's kind. */
TNORM_EXTERN tnorm_match_kind tnorm_match_get_kind(const tnorm_match *m);

/**
 * Does a failure (its signature `cand` and its captured output) match the target under the
 * policy?  `cand` NULL means the run did not fail: never a match.  1 or 0.
 */
TNORM_EXTERN int tnorm_match_test(const tnorm_match *m, const tnorm_signature *target,
                                  const tnorm_signature *cand, const char *out, const char *err);

/**
 * The part of a signature the policy compares, as text: two failures match under `m` exactly
 * when their keys are equal (`any` and `output:` give "").  For bucketing failures by fault.
 * *out is freed with tnorm_free().  0, TNORM_EINVALID, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_match_key(const tnorm_match *m, const tnorm_signature *s, char **out);

/**
 * Calibrate a target from the signatures of several runs of the original test: *out receives
 * a copy of sigs[0] (its extra stacks and message included) cut to the frames (from the
 * throwing frame outwards) that all runs share, and *stable is 1 when all runs agreed on every
 * frame and on the message.  0, TNORM_EINVALID (n == 0 or a NULL
 * signature), TNORM_ENOMEM.  Free *out with tnorm_signature_free().
 */
TNORM_EXTERN int tnorm_signature_calibrate(tnorm_signature **out, int *stable,
                                           tnorm_signature *const *sigs, size_t n);

#ifdef __cplusplus
}
#endif
#endif
