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
#include <fstream>
#include <set>
#include <sstream>
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
	std::ifstream in(argc > 1 ? argv[1] : "");
	std::string line;
	if (!in)
		return 125;
	while (std::getline(in, line)) {
		std::istringstream words(line);
		std::string cmd, key;
		words >> cmd >> key;
		if (cmd == "add" && !key.empty()) {
			if (names.size() >= 2 && isupper((unsigned char)key[0])) {
				mark("BUG-A");
				refuse(1, key);
			}
			names.insert(key);
		} else if (cmd == "del" && !key.empty() && !names.erase(key)) {
			mark("BUG-B");
			refuse(2, key);
		} else if (cmd == "count") {
			printf("%zu\n", names.size());
		}
	}
	return 0;
}
