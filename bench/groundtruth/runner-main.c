/* Plain runner for a libFuzzer entry point: reads the file argv[1] and calls
 * LLVMFuzzerTestOneInput once.  Linked with -fsanitize=address (no -fsanitize=fuzzer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* md4c's DEBUG asserts end in abort() (see assert-shim.c); let ASan report it. */
const char *__asan_default_options(void) { return "handle_abort=1"; }

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = malloc(cap);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    fclose(f);
    /* exact-size copy so that ASan sees reads past the end of the input */
    uint8_t *data = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) data[i] = buf[i];
    free(buf);
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}
