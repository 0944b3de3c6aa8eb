#!/usr/bin/env python3
"""Bucket crash files by (a) a ClusterFuzz-style stack hash: sanitizer bug type
+ the top 3 frames (function names) of the crash stack, skipping sanitizer,
libc and harness frames; (b) the crash line: file:line of the first such frame.

usage: stackbuckets.py RUNNER STACKHASH.tsv CRASHLINE.tsv FILE...

Harness frames of a corpus (its fuzz target, a shim) are skipped too when named
by the environment: GT_SKIP_FUNC and GT_SKIP_FILE, each a Python regex
(function names are matched from the start, file names searched).
"""
import os, re, subprocess, sys

TYPE = re.compile(r"ERROR: (?:AddressSanitizer|LeakSanitizer): ([\w-]+(?: on unknown address)?)")
ACCESS = re.compile(r"^(READ|WRITE) of size (\d+)", re.M)
FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (.+?) (\S+?)(?::(\d+))?(?::\d+)?$")
FRAME_NOFILE = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ (?:in (\S+) )?\((.+)\)$")
SKIP_FUNC = re.compile(
    r"^(__asan|__lsan|__sanitizer|__interceptor_|__interception|__ubsan|asan_|__libc_|__GI_|_start$|"
    r"abort$|raise$|__pthread_kill\w*$|pthread_kill$|__assert_fail\w*$|malloc$|calloc$|"
    r"realloc$|free$|mem(cpy|move|set|cmp|chr)$|"
    # libc's string functions by name (an interceptor without a file), not a library's own str_*
    r"str(n?cmp|n?casecmp|n?cpy|n?cat|n?len|r?chr|str|n?dup|tok(_r)?|c?spn|pbrk|to[a-z]+)$|"
    # and its formatted output (an interceptor reached through its weak alias)
    r"v?[sf]?n?printf$|"
    r"LLVMFuzzerTestOneInput$|main$|fuzzer::" +
    ("|" + os.environ["GT_SKIP_FUNC"] if os.environ.get("GT_SKIP_FUNC") else "") + ")")
BUILD_ID = re.compile(r"\s+\(BuildId: [0-9a-f]+\)\s*$")
SKIP_FILE = re.compile(r"(compiler-rt|/sanitizer_common/|/asan/|/lsan/|libc\.so|libc-|/glibc" +
    ("|" + os.environ["GT_SKIP_FILE"] if os.environ.get("GT_SKIP_FILE") else "") + ")")


def analyze(runner, path):
    env = dict(os.environ, ASAN_OPTIONS="handle_abort=1:symbolize=1")
    try:
        p = subprocess.run([runner, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60, env=env)
        err = p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ["timeout"], "timeout"
    m = TYPE.search(err)
    if not m:
        return "nocrash", ["rc=%d" % p.returncode], "nocrash"
    btype = m.group(1).replace(" on unknown address", "")
    if "LeakSanitizer" in m.group(0):
        btype = "memory-leak"
    frames = []  # (func, file:line)
    started = False
    for line in err[m.end():].splitlines():
        # clang 14's runtime ends a frame it has no source line for with " (BuildId: HEX)"
        fm = FRAME.match(BUILD_ID.sub("", line))
        if fm:
            if fm.group(1) == "0" and started:
                break  # only the first stack (the crash / allocation stack)
            started = True
            func, fil, ln = fm.group(2), fm.group(3), fm.group(4)
            func = re.sub(r"\(.*$", "", func).strip()
            if SKIP_FUNC.match(func) or SKIP_FILE.search(fil):
                continue
            frames.append((func, "%s:%s" % (os.path.basename(fil), ln)))
        elif started and not line.strip():
            break
    top = [f for f, _ in frames[:3]] or ["?"]
    line = frames[0][1] if frames else "?"
    return btype, top, line


def main():
    runner, out_hash, out_line = sys.argv[1:4]
    with open(out_hash, "w") as oh, open(out_line, "w") as ol:
        for f in sorted(sys.argv[4:]):
            btype, top, line = analyze(runner, f)
            b = os.path.basename(f)
            oh.write("%s\t%s|%s\n" % (b, btype, ">".join(top)))
            ol.write("%s\t%s\n" % (b, line))


if __name__ == "__main__":
    main()
