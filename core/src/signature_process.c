/* SPDX-License-Identifier: MIT */
/*
 * signature_process.c - the signature of a process a debugger stopped
 * (tnorm_signature_from_process), for the gdb and lldb plugins.
 *
 * The debugger walked the stack and hands over its program counters; they become frames as the
 * runner's own walk does (tnorm__frames_from_pcs, signature.c), so that a stop in a debugger and
 * the CLI's run of the same crash get one signature.  An abort in the C++ runtime's throw or
 * terminate code is an uncaught exception, read out of the process's memory as the runner reads
 * it (cxxexc.c).  In a file of its own because it calls cxxexc.c, which calls signature.c
 * (tnorm_frame_is_runtime): here above both, no two of them call each other (issue 42).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cxxexc.h"
#include "signature_internal.h"
#include "symbolize.h"
#include "tnorm/signature.h"

int tnorm_signature_from_process(tnorm_signature **out, const char *kind, int pid,
                                 const uint64_t *pcs, size_t npcs, const char *message)
{
	tnorm__symcache *syms = NULL;
	tnorm_frame frames[TNORM__MAX_FRAMES];
	char names[TNORM__MAX_FRAMES][32];
	char mpath[64], *maps = NULL, *xkind = NULL, *what = NULL;
	size_t n, what_len = 0;
	int err;
	if (!out || !kind || (npcs && !pcs))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_from_process: NULL argument");
	*out = NULL;
	snprintf(mpath, sizeof(mpath), "/proc/%d/maps", pid);
	if ((err = tnorm__read_file(mpath, &maps, NULL)) < 0)
		return tnorm__error_set(TNORM_EIO, "cannot read the memory map of process %d (%s): is it "
		                        "still alive?", pid, mpath);
	if ((err = tnorm__symcache_new(&syms)) < 0)
		goto done;
	n = tnorm__frames_from_pcs(syms, maps, pcs, NULL, NULL, npcs, frames, names,
	                           TNORM__MAX_FRAMES);
	/* An uncaught C++ exception, read as the runner reads it (from the stack alone: the
	 * debugger's registers of each frame are not at hand). */
	if (!strcmp(kind, "SIGABRT") && npcs && tnorm__cxx_throw_frames(frames, n) &&
	    (err = tnorm__cxx_exception_stopped(pid, pcs[0], syms, maps, &xkind, &what,
	                                        &what_len)) < 0)
		goto done;
	if ((err = tnorm_signature_new(out, xkind ? xkind : kind, frames, n)) < 0)
		goto done;
	if ((what && (err = tnorm_signature_set_what(*out, what, what_len)) < 0) ||
	    (message && (err = tnorm_signature_set_message(*out, message)) < 0)) {
		tnorm_signature_free(*out);
		*out = NULL;
	}
done:
	tnorm__symcache_free(syms);
	free(maps);
	free(xkind);
	free(what);
	return err;
}
