/* SPDX-License-Identifier: MIT */
/*
 * signature_internal.h (internal) - what signature.c offers the engine beyond tnorm/signature.h:
 * machine frames made into a signature's frames, one way for every caller.
 *
 * Two callers, which must agree frame for frame: the runner's unwinder (unwind.c), with the
 * pcs it walked in a stopped thread, and tnorm_signature_from_process (signature_process.c),
 * with the pcs a debugger walked (gdb, lldb).  Both hand their pcs to tnorm__frames_from_pcs, so
 * that a stop in a debugger and the CLI's run of the same crash get one signature.  And where a
 * signature's text ends its kind, for the texts that show it (tnorm_signature_text_shown, the
 * triage report).
 */
#ifndef TNORM__SIGNATURE_INTERNAL_H
#define TNORM__SIGNATURE_INTERNAL_H

#include "common.h"
#include "symbolize.h"
#include "tnorm/signature.h"

/* The length of the kind at the start of a signature's text (tnorm_signature_format's): up to
 * its first " at " outside an uncaught exception's quoted what() text, or the whole text. */
size_t tnorm__signature_kind_len(const char *text);

/* 1 when the stack of `s` ran out in an unbounded recursion (its throwing frame is then the
 * recursion's, not where the stack ended: docs/signatures.md, "Stack exhaustion"). */
int tnorm__signature_exhausted(const tnorm_signature *s);

/* The deepest stack a signature is made from: machine frames walked, frames kept. */
#define TNORM__MAX_FRAMES 128

/* A machine frame's function start as the unwinder finds it in .eh_frame (0: unknown), asked
 * for frame `i` of the walk only when the symbol cache cannot name it. */
typedef uint64_t (*tnorm__frame_start_fn)(void *arg, size_t i);

/* Symbolize machine frames (pcs[0] exact, the others return addresses) of a process whose memory
 * map is `maps` into source frames, inlined calls expanded.  `start` (may be NULL) gives a machine
 * frame's function start: a frame with no symbol (a stripped binary) is then named after it,
 * "sub_1a2b" (its module-relative address), so that frames of one function compare equal and
 * recursion can be folded.  It is called only for such frames (finding the start costs the
 * unwinder a parse of the frame's FDE), with `start_arg`.  `names` is scratch space for those
 * names (max entries).  The frames' strings are borrowed from `syms` and `names`: make the
 * signature (which copies them) before either goes.  Returns the number of frames. */
size_t tnorm__frames_from_pcs(tnorm__symcache *syms, const char *maps, const uint64_t *pcs,
                              tnorm__frame_start_fn start, void *start_arg, size_t npcs,
                              tnorm_frame *frames, char (*names)[32], size_t max);

#endif
