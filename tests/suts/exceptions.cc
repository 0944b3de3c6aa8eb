// SPDX-License-Identifier: MIT
// exceptions: uncaught C++ exceptions as kinds (docs/signatures.md, tests/integration/cxxexc.sh).
// One command a line, the first letter says what is thrown:
//   a KEY   std::invalid_argument("bad key KEY")   \ both from line 23 (THROW_LINE): one line,
//   o KEY   std::out_of_range("no slot KEY")       / two types, two bugs
//   r       std::runtime_error with quotes and a tab in its message
//   i       throw 42 (not a class: no what())
//   u       a class of its own that overrides what() (the text read from stderr)
//   n       std::logic_error thrown inside a noexcept function (std::terminate without unwinding)
//   c KEY   std::invalid_argument from line 23, caught here (the program goes on)
//   l N     N std::runtime_error thrown and caught (the cost of many caught throws)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

struct own_error : std::exception {
	const char *what() const noexcept override { return "own error text"; }
};

static void lookup(char cmd, const std::string &key)
{
	cmd == 'a' ? throw std::invalid_argument("bad key " + key) : throw std::out_of_range("no slot " + key);
}

static void must_not_throw(const char *line) noexcept
{
	if (line[0] == 'n')
		throw std::logic_error("thrown through noexcept");
}

int main(int argc, char **argv)
{
	char line[256];
	FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		std::string arg = line[0] && line[1] ? line + 2 : "";
		switch (line[0]) {
		case 'a':
		case 'o':
			lookup(line[0], arg);
			break;
		case 'r':
			throw std::runtime_error("runtime \"quoted\"\tand tabbed");
		case 'i':
			throw 42;
		case 'u':
			throw own_error();
		case 'c':
			try {
				lookup('a', arg);
			} catch (const std::invalid_argument &) {
			}
			break;
		case 'l':
			for (long i = 0, n = atol(arg.c_str()); i < n; i++)
				try {
					throw std::runtime_error("caught");
				} catch (const std::exception &) {
				}
			break;
		default:
			must_not_throw(line);
		}
	}
	return 0;
}
