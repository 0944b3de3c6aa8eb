/* merged.c: a small stack VM.  The input is a program of 2-byte instructions
 * [opcode % NOPS] [argument]; it runs for at most 1000 steps on a stack of
 * STACK_MAX ints and a memory of MEM cells, and stops at the end of the program.
 *
 * Every opcode first checks that the program may do it (need(): enough
 * operands, room for the results; jump targets; addresses) and stops the run
 * gracefully when not.  Below those checks, the stack primitives and the
 * instruction fetch check their own invariants with fail(msg), an
 * always-inline helper that prints msg and aborts: clang -O2 inlines it at
 * every check and merges the abort calls into one (one call to abort in run()).
 *
 * Bugs, each removed by defining FIX_k (fixes are applied cumulatively):
 *  1. SWAP checks for one operand instead of two: SWAP on a stack of one pops
 *     an empty stack, fail("vm: pop from an empty stack").
 *  2. DUP checks room for one result instead of two: DUP on a full stack
 *     pushes onto it, fail("vm: push onto a full stack").
 *  3. JZ checks its relative target only against the end of the program, not
 *     against 0 (JMP checks both): a backward JZ before the first instruction
 *     reaches the fetch, fail("vm: pc outside the program").
 *  4. STORE checks its address with > MEM instead of >= MEM: the cell()
 *     accessor's assert(a < MEM) fails (a plain assert, its own line).
 *
 * Build: the plain runner (reads argv[1], calls the entry point once) by
 * default; -DFUZZER_BUILD leaves main out for -fsanitize=fuzzer.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STACK_MAX 8
#define MEM 16
#define STEPS 1000

enum { OP_PUSH, OP_POP, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_OVER,
       OP_JZ, OP_JMP, OP_LOAD, OP_STORE, OP_NOP, NOPS };

struct vm {
    const uint8_t *code;
    long n;  /* instructions */
    long pc; /* instruction index */
    int sp;
    unsigned st[STACK_MAX];
    unsigned mem[MEM];
};

static inline __attribute__((always_inline)) void fail(const char *m)
{
    fputs(m, stderr);
    abort();
}

static inline unsigned pop(struct vm *v)
{
    if (v->sp <= 0)
        fail("vm: pop from an empty stack\n");
    return v->st[--v->sp];
}

static inline void push(struct vm *v, unsigned x)
{
    if (v->sp >= STACK_MAX)
        fail("vm: push onto a full stack\n");
    v->st[v->sp++] = x;
}

static inline const uint8_t *fetch(struct vm *v)
{
    if (v->pc < 0 || v->pc >= v->n)
        fail("vm: pc outside the program\n");
    return v->code + 2 * v->pc;
}

static unsigned *cell(struct vm *v, unsigned a)
{
    assert(a < MEM);
    return &v->mem[a];
}

/* the program may pop npop operands and then push npush results */
static inline int need(struct vm *v, int npop, int npush)
{
    return v->sp >= npop && v->sp - npop + npush <= STACK_MAX;
}

/* 0: ran to the end; -1: the program was stopped (bad operands, too long) */
static int run(struct vm *v)
{
    unsigned a, b;
    for (int steps = 0; v->pc != v->n; steps++) {
        if (steps == STEPS)
            return -1;
        const uint8_t *ins = fetch(v);
        int op = ins[0] % NOPS, arg = ins[1];
        long next = v->pc + 1;
        switch (op) {
        case OP_PUSH:
            if (!need(v, 0, 1))
                return -1;
            push(v, (unsigned)arg);
            break;
        case OP_POP:
            if (!need(v, 1, 0))
                return -1;
            pop(v);
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
            if (!need(v, 2, 1))
                return -1;
            b = pop(v);
            a = pop(v);
            push(v, op == OP_ADD ? a + b : op == OP_SUB ? a - b : a * b);
            break;
        case OP_DUP:
#ifdef FIX_2
            if (!need(v, 1, 2))
#else
            if (!need(v, 1, 1)) /* BUG 2: DUP pushes two results, not one */
#endif
                return -1;
            a = pop(v);
            push(v, a);
            push(v, a);
            break;
        case OP_SWAP:
#ifdef FIX_1
            if (!need(v, 2, 2))
#else
            if (!need(v, 1, 2)) /* BUG 1: SWAP takes two operands */
#endif
                return -1;
            b = pop(v);
            a = pop(v);
            push(v, b);
            push(v, a);
            break;
        case OP_OVER:
            if (!need(v, 2, 3))
                return -1;
            b = pop(v);
            a = pop(v);
            push(v, a);
            push(v, b);
            push(v, a);
            break;
        case OP_JZ:
            if (!need(v, 1, 0))
                return -1;
            next = v->pc + (int8_t)arg;
#ifdef FIX_3
            if (next < 0 || next > v->n)
#else
            if (next > v->n) /* BUG 3: a backward jump before the start is not refused */
#endif
                return -1;
            if (pop(v) != 0)
                next = v->pc + 1;
            break;
        case OP_JMP:
            next = v->pc + (int8_t)arg;
            if (next < 0 || next > v->n)
                return -1;
            break;
        case OP_LOAD:
            if (!need(v, 0, 1) || arg >= MEM)
                return -1;
            push(v, *cell(v, (unsigned)arg));
            break;
        case OP_STORE:
#ifdef FIX_4
            if (!need(v, 1, 0) || arg >= MEM)
#else
            if (!need(v, 1, 0) || arg > MEM) /* BUG 4: off by one */
#endif
                return -1;
            *cell(v, (unsigned)arg) = pop(v);
            break;
        default:
            break;
        }
        v->pc = next;
    }
    return 0;
}

volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vm v;
    memset(&v, 0, sizeof v);
    v.code = data;
    v.n = (long)(size / 2);
    if (run(&v) == 0 && v.sp > 0)
        sink = v.st[v.sp - 1];
    return 0;
}

#ifndef FUZZER_BUILD
#include "standalone.h" /* main(): the file in argv[1], once */
#endif
