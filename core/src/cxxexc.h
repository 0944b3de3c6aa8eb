/* SPDX-License-Identifier: MIT */
/*
 * cxxexc.h (internal) - the uncaught C++ exception a stopped thread is aborting with: its type
 * and what() text, read out of the process's memory at the abort (cxxexc.c).
 */
#ifndef TNORM__CXXEXC_H
#define TNORM__CXXEXC_H

#include <sys/types.h>

#include "common.h"
#include "symbolize.h"
#include "tnorm/signature.h"

/* Whether the runtime frames of frames[0..n) (innermost first, up to the first frame that is not
 * a runtime's, as tnorm_frame_is_runtime says) are those of an abort in the
 * C++ runtime's throw or terminate machinery (__cxa_throw, __cxa_rethrow, std::terminate, a
 * noexcept function's terminate call, the personality routine): 1 or 0. */
int tnorm__cxx_throw_frames(const tnorm_frame *frames, size_t n);

/*
 * The exception thread `tid` of a stopped process (memory map `maps`) aborts with.  `cands` are
 * the words the throw and terminate code held at the abort (the callee-saved registers of its
 * frames), then come the words of its stack [stack_lo, stack_hi) (at most 64 KB): the pointer
 * to the exception lies among them.  Each is tried
 * as the exception's unwind header and as the thrown object, and the first that is a live
 * exception of libstdc++ (its 8-byte exception class "GNUCC++\0", or "GNUCC++\1" for one
 * rethrown by std::rethrow_exception) is taken.  On 1, *kind is "uncaught " and the thrown
 * object's type demangled ("uncaught std::invalid_argument", "uncaught int") and *what the text its what() returns when that can
 * be read without calling it (the std::logic_error and std::runtime_error families: their
 * message is a string at a fixed place), else NULL, with *what_len its length; both allocated
 * (free them).  0: no exception found (nothing set); TNORM_ENOMEM.
 */
int tnorm__cxx_exception(pid_t tid, tnorm__symcache *syms, const char *maps, const uint64_t *cands,
                         size_t ncands, uint64_t stack_lo, uint64_t stack_hi, char **kind,
                         char **what, size_t *what_len);

/*
 * The same for a process a debugger stopped, of which the engine knows only the program counters
 * (tnorm_signature_from_process): the thread stopped at `pc` and its stack pointer are read from
 * /proc/PID/task/TID/syscall, and the words of its stack from there (at most 64 KB, within its
 * mapping) are the candidates.  Same results.
 */
int tnorm__cxx_exception_stopped(pid_t pid, uint64_t pc, tnorm__symcache *syms, const char *maps,
                                 char **kind, char **what, size_t *what_len);

/*
 * The what() text libstdc++'s default terminate handler printed on standard error `err` for an
 * exception of type `type` ("terminate called after throwing an instance of 'TYPE'" then
 * "  what():  TEXT"), for a type whose what() the memory cannot give (a user's class that
 * overrides it): 1 with *what (allocated) and *len, 0 when the text has no such lines,
 * TNORM_ENOMEM.
 */
int tnorm__cxx_what_from_stderr(const char *err, const char *type, char **what, size_t *len);

#endif
