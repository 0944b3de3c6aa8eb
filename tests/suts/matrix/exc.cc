// SPDX-License-Identifier: MIT
// exc: a set of names, one command a line: add KEY | del KEY | count.  Keys are checked by one
// function whose one line throws one of two standard exceptions, and nothing catches them: the
// two bugs fail at the same line, and only the exception's type tells them apart (issue 40).
// Bug A: a key with a capital letter once the set holds two names is refused with
//        std::invalid_argument.  Lines: "add b", "add c", "add D"   (3 lines)
// Bug B: `del` of a key that is not in the set: std::out_of_range.  Lines: "del zeta"   (1 line)
// The input has A's lines first, so the whole test fails with A.
#include <cctype>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } // test marker

static void refuse(int why, const std::string &key)
{
	why == 1 ? throw std::invalid_argument("bad key " + key) : throw std::out_of_range("no key " + key);
}

int main(int argc, char **argv)
{
	std::set<std::string> names;
	char line[256], cmd[16], key[24];
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %23s", cmd, key);
		std::string k = n == 2 ? key : "";
		if (n == 2 && std::string(cmd) == "add") {
			if (names.size() >= 2 && isupper((unsigned char)key[0])) {
				mark("BUG-A");
				refuse(1, k);
			}
			names.insert(k);
		} else if (n == 2 && std::string(cmd) == "del") {
			if (!names.erase(k)) {
				mark("BUG-B");
				refuse(2, k);
			}
		} else if (n == 1 && std::string(cmd) == "count") {
			printf("%zu\n", names.size());
		}
	}
	fclose(f);
	return 0;
}
