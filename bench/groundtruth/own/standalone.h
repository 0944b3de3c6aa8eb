/* SPDX-License-Identifier: MIT */
/*
 * standalone.h - the plain main() of the ground-truth programs (kvmap.c, merged.c, tok.c): reads
 * the file named by argv[1] into a heap buffer of its exact size, as libFuzzer passes an input,
 * and calls LLVMFuzzerTestOneInput once.  Included at the end of each program unless
 * FUZZER_BUILD (libFuzzer's own main) is defined.
 */
int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = malloc(cap);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += r) == cap)
            buf = realloc(buf, cap *= 2);
    fclose(f);
    uint8_t *exact = malloc(n ? n : 1); /* exact size, as libFuzzer passes it */
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}
