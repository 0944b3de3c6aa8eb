#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docgen.py - man pages and the bash completion, generated from the Markdown docs.

The docs are the one source: docs/cli.md becomes tnorm(1), each docs/commands/NAME.md becomes
tnorm-NAME(1) (a page that documents two commands, as normalize.md does, gets a second name),
docs/harness.md becomes tnorm-harness(5); the bash completion takes the commands and their
options from the SYNOPSIS of the command pages and the --match policies from the policy table of
docs/signatures.md.  So a new command is one new page under docs/commands/, and a new option is
one more word in its SYNOPSIS (tests/integration/docs.sh checks both against the CLI).

It runs with the standard library only (meson itself needs python3), and converts the subset of
Markdown the docs use: headings, paragraphs, fenced code, inline code, bold, emphasis, links,
tables and lists.

usage: docgen.py list DOCS_DIR              the command pages: "FILE NAME..." a line
       docgen.py man SRC.md OUT SECTION VERSION [--name NAME --summary TEXT]
       docgen.py completion DOCS_DIR OUT    the bash completion script
"""
import os
import re
import sys

# ---------------------------------------------------------------------------------------------
# Reading the docs


def command_pages(docs):
    """[(path, [command names])] for docs/commands/*.md, sorted by file name.  The names are
    those the page's title gives: "# tnorm normalize, tnorm minimize" names two commands."""
    d = os.path.join(docs, 'commands')
    pages = []
    for f in sorted(os.listdir(d)):
        if not f.endswith('.md'):
            continue
        path = os.path.join(d, f)
        with open(path, encoding='utf-8') as fh:
            title = fh.readline()
        names = re.findall(r'\btnorm ([a-z][a-z-]*)', title)
        if not names:
            sys.exit('%s: the title must name the command ("# tnorm NAME")' % path)
        pages.append((path, names))
    return pages


def section(text, name):
    """The body of the "## NAME" section of a page ('' if it has none)."""
    m = re.search(r'^## ' + re.escape(name) + r'\s*\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    return m.group(1) if m else ''


# ---------------------------------------------------------------------------------------------
# Markdown -> roff

SPECIAL = {'\u2014': r'\(em', '\u2013': r'\(en', '\u2192': r'\(->', '\u2190': r'\(<-',
           '\u2026': '...', '\u2018': r'\(oq', '\u2019': r'\(cq', '\u201c': r'\(lq',
           '\u201d': r'\(rq', '\u00d7': r'\(mu', '\u2264': r'\(<=', '\u2265': r'\(>=',
           '\u2260': r'\(!='}


def esc(s):
    """Escape plain text for roff: backslashes, hyphens (an ASCII minus, so that options can be
    copied from the page), and every character outside ASCII."""
    out = []
    for c in s:
        if c == '\\':
            out.append(r'\e')
        elif c == '-':
            out.append(r'\-')
        elif ord(c) > 126:
            out.append(SPECIAL.get(c, r'\[u%04X]' % ord(c)))
        else:
            out.append(c)
    return ''.join(out)


class Roff:
    """Converts one page.  `links` maps a Markdown file name (as a link gives it, relative to
    the docs folder) to the man page it became, for SEE ALSO and for the links' text."""

    def __init__(self, links, src, names=()):
        self.links = links
        self.names = set(names)
        self.srcdir = os.path.dirname(os.path.abspath(src))
        self.docs = None
        self.seealso = []

    def target(self, href):
        href = href.split('#')[0]
        if not href or '://' in href:
            return None
        path = os.path.normpath(os.path.join(self.srcdir, href))
        for md, page in self.links.items():
            if os.path.normpath(md) == path:
                return page
        return None

    def inline(self, s):
        """Inline Markdown -> roff: `code`, **bold**, *emphasis*, [text](link), and an image
        ![alt](file.png) as its text in brackets (a man page shows no picture)."""
        out = []
        pos = 0
        pat = re.compile(r'`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])'
                         r'|(!?)\[([^\]]+)\]\(([^)]+)\)')
        for m in pat.finditer(s):
            out.append(esc(s[pos:m.start()]))
            pos = m.end()
            if m.group(1) is not None:
                out.append(r'\fB' + esc(m.group(1)) + r'\fR')
            elif m.group(2) is not None:
                out.append(r'\fB' + self.inline(m.group(2)) + r'\fR')
            elif m.group(3) is not None:
                out.append(r'\fI' + self.inline(m.group(3)) + r'\fR')
            elif m.group(4):
                out.append('[' + self.inline(m.group(5)) + ']')
            else:
                text, page = m.group(5), self.target(m.group(6))
                out.append(self.inline(text))
                if page:
                    if page not in self.seealso:
                        self.seealso.append(page)
                    name, sec = page
                    plain = 'tnorm-' + re.sub(r'^tnorm ', '', text.strip('`'))
                    if plain == name or (plain in self.names and sec == '1'):
                        # [reduce](reduce.md) reads tnorm-reduce(1); [minimize](normalize.md)
                        # tnorm-minimize(1), the second name of that page.
                        out[-1] = r'\fB%s\fR(%s)' % (esc(plain), sec)
                    else:
                        out.append(r' (\fB%s\fR(%s))' % (esc(name), sec))
        out.append(esc(s[pos:]))
        return ''.join(out)

    @staticmethod
    def line(s):
        """A line of roff input that starts with a control character is made text."""
        return r'\&' + s if s[:1] in ('.', "'") else s

    def table(self, rows):
        cells = [[c.strip() for c in r.strip().strip('|').split('|')] for r in rows]
        cells = [r for r in cells if not all(re.fullmatch(r':?-+:?', c) for c in r)]
        ncol = max(len(r) for r in cells)
        cells = [r + [''] * (ncol - len(r)) for r in cells]
        # Short columns (codes, limits) as they are; the others fill the width, wrapped.
        wide = [max(len(r[c]) for r in cells) > 24 for c in range(ncol)]
        if not any(wide):
            wide[-1] = True
        fmt = ' '.join('lx' if w else 'l' for w in wide)
        head = ' '.join('lbx' if w else 'lb' for w in wide)
        out = ['.TS', 'allbox tab(\t);', head, fmt + '.']
        for r in cells:
            out.append('\t'.join('T{\n' + self.line(self.inline(c)) + '\nT}' if wide[k]
                                 else self.line(self.inline(c)) for k, c in enumerate(r)))
        out.append('.TE')
        return out

    def body(self, lines):
        """Markdown lines (no title) -> roff lines."""
        out = []
        para = []
        i = 0

        def flush():
            if para:
                out.append('.PP')
                out.append(self.line(self.inline(' '.join(para))))
                del para[:]

        while i < len(lines):
            ln = lines[i]
            s = ln.strip()
            if s.startswith('<!--'):
                while '-->' not in lines[i]:
                    i += 1
                i += 1
                continue
            if s.startswith('```'):
                flush()
                i += 1
                out += ['.PP', '.RS 2', '.nf']
                while i < len(lines) and not lines[i].strip().startswith('```'):
                    out.append(self.line(esc(lines[i].rstrip())))
                    i += 1
                out += ['.fi', '.RE']
                i += 1
                continue
            m = re.match(r'(#{2,4}) (.*)', ln)
            if m:
                flush()
                title = re.sub(r'`([^`]*)`', r'\1', m.group(2))
                if len(m.group(1)) == 2:
                    out.append('.SH "%s"' % esc(title.upper()).replace('"', ''))
                else:
                    out.append('.SS "%s"' % esc(title).replace('"', ''))
                i += 1
                continue
            if s.startswith('|'):
                flush()
                rows = []
                while i < len(lines) and lines[i].strip().startswith('|'):
                    rows.append(lines[i])
                    i += 1
                out += self.table(rows)
                continue
            m = re.match(r'(\s*)([-*]|\d+\.) (.*)', ln)
            if m and (not para or m.group(2) in '-*'):
                flush()
                item = [m.group(3)]
                indent = len(m.group(1)) + len(m.group(2)) + 1
                i += 1
                while (i < len(lines) and lines[i].strip() and
                       not re.match(r'\s*([-*]|\d+\.) ', lines[i]) and
                       len(lines[i]) - len(lines[i].lstrip()) >= min(indent, 2)):
                    item.append(lines[i].strip())
                    i += 1
                mark = r'\(bu' if m.group(2) in '-*' else m.group(2)
                out.append('.IP %s 4' % mark)
                out.append(self.line(self.inline(' '.join(item))))
                continue
            if not s:
                flush()
            else:
                para.append(s)
            i += 1
        flush()
        return out


def man(src, out, sec, version, links, name=None, summary=None, names=()):
    with open(src, encoding='utf-8') as fh:
        text = fh.read()
    lines = text.split('\n')
    title = lines[0]
    lines = lines[1:]
    if name is None:
        name = 'tnorm-' + re.findall(r'\btnorm ([a-z][a-z-]*)', title)[0]
    r = Roff(links, src, names)
    body = []
    if summary is not None:
        body += ['.SH NAME', '%s \\- %s' % (esc(name), esc(summary))]
        # The text before the first section describes the whole page.
        first = next((k for k, ln in enumerate(lines) if ln.startswith('## ')), len(lines))
        body += ['.SH DESCRIPTION'] + r.body(lines[:first])
        lines = lines[first:]
    else:
        # "tnorm run — what it does" in NAME becomes "tnorm-run \- what it does".
        nm = section(text, 'NAME').strip().split('\n')
        entries = []
        for ln in nm:
            m = re.match(r'tnorm ([a-z-]+) \u2014 (.*)', ln.strip())
            if not m:
                sys.exit('%s: NAME must read "tnorm CMD \u2014 what it does"' % src)
            entries.append('tnorm\\-%s \\- %s' % (esc(m.group(1)), esc(m.group(2))))
        body += ['.SH NAME', '\n.br\n'.join(entries)]
        start = next(k for k, ln in enumerate(lines) if ln.strip() == '## NAME')
        rest = lines[start + 1:]
        nxt = next((k for k, ln in enumerate(rest) if ln.startswith('## ')), len(rest))
        lines = rest[nxt:]
    body += r.body(lines)
    seealso = [p for p in r.seealso if p[0] != name]
    if name == 'tnorm':
        # The top page lists every page: each command's, each second name, the harness's.
        seealso += [(n, '1') for n in names if (n, '1') not in seealso]
        seealso += [p for p in links.values() if p not in seealso and p[0] != name]
    if name != 'tnorm':
        seealso = [('tnorm', '1')] + [p for p in seealso if p[0] != 'tnorm']
    if seealso:
        body += ['.SH "SEE ALSO"',
                 ',\n'.join(r'\fB%s\fR(%s)' % (esc(n), s) for n, s in seealso)]
    head = ["'\\\" t" if any(b == '.TS' for b in body) else '.\\" ',
            '.\\" Generated by docs/docgen.py from %s: edit that file, not this one.' %
            os.path.relpath(src, os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            '.TH "%s" "%s" "" "tnorm %s" "tnorm manual"' % (esc(name.upper()), sec, esc(version)),
            # Left-aligned, no hyphenation: options and paths stay whole, as they are typed.
            '.ad l', '.nh']
    write(out, '\n'.join(head + body) + '\n')


def write(out, text):
    tmp = out + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as fh:
        fh.write(text)
    os.replace(tmp, out)


def all_links(docs):
    """Every Markdown page that becomes a man page -> (name, section)."""
    links = {os.path.join(docs, 'cli.md'): ('tnorm', '1'),
             os.path.join(docs, 'harness.md'): ('tnorm-harness', '5')}
    for path, names in command_pages(docs):
        links[path] = ('tnorm-' + names[0], '1')
    return links


# ---------------------------------------------------------------------------------------------
# The bash completion

# What the value of an option (or a positional argument) is, by its placeholder in a SYNOPSIS.
FILE_ARGS = {'H': 'harness', 'HARNESS': 'harness', 'OUT': 'file', 'PATH': 'file', 'TEST': 'file',
             'DIR': 'dir', 'P': 'match', 'CMD': 'command'}


def synopsis_options(text):
    """{option: value kind} from a page's SYNOPSIS: '' for a flag, 'file', 'dir', 'harness',
    'match', 'command', 'words:A B' for a choice, 'value' for anything else (N, T, SIZE)."""
    opts = {}
    syn = section(text, 'SYNOPSIS')
    syn = re.sub(r'```|`', ' ', syn)
    by_cmd = {}
    cur = None
    for ln in syn.split('\n'):
        m = re.match(r'\s*tnorm ([a-z-]+)(.*)', ln)
        if m:
            cur = m.group(1)
            by_cmd.setdefault(cur, [])
            ln = m.group(2)
            if 'the same options' in ln:
                # "tnorm minimize (the same options) [--generalize]": the page's first
                # command's options, and these.
                by_cmd[cur] = ['@SAME@']
                ln = ln.replace('the same options', '')
        if cur is not None and by_cmd[cur] is not None:
            by_cmd[cur].append(ln)
    result = {}
    first = next(iter(by_cmd))
    for cmd, chunks in by_cmd.items():
        opts = {}
        toks = re.findall(r'\[|\]|\||\.\.\.|[^\s\[\]|.()]+(?:\|[^\s\[\]|]+)*|\.|[()]',
                          ' '.join(chunks))
        k = 0
        while k < len(toks):
            t = toks[k]
            if t == '--':
                break
            if re.fullmatch(r'--?[A-Za-z][\w-]*', t):
                nxt = toks[k + 1] if k + 1 < len(toks) else ''
                if re.fullmatch(r'[a-z:]+(\|[a-z:]+)+', nxt):
                    opts[t] = 'words:' + nxt.replace('|', ' ')
                    k += 1
                elif re.fullmatch(r'[A-Z][A-Z_=]*', nxt):
                    opts[t] = FILE_ARGS.get(nxt, 'value')
                    k += 1
                else:
                    opts.setdefault(t, '')
            k += 1
        result[cmd] = opts
    for cmd in result:
        if '@SAME@' in (by_cmd[cmd] or []):
            result[cmd] = dict(result[first], **result[cmd])
    return result


def match_policies(docs):
    """The --match policies, from the table under "## Match policies" in signatures.md:
    `line`, `stack:N` -> "line", "stack:"."""
    with open(os.path.join(docs, 'signatures.md'), encoding='utf-8') as fh:
        text = fh.read()
    m = re.search(r'^## Match policies.*?\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    pols = []
    for row in re.findall(r'^\| `([^`]+)`', m.group(1) if m else '', re.M):
        pols.append(re.sub(r':.*', ':', row))
    if not pols:
        sys.exit('signatures.md: no table of match policies under "## Match policies"')
    return pols


COMPLETION = r'''# bash completion for tnorm(1).
# Generated by docs/docgen.py from docs/commands/*.md (each SYNOPSIS) and docs/signatures.md
# (the --match policies): edit those, not this file.

_tnorm_commands='@COMMANDS@'
_tnorm_policies='@POLICIES@'

# The options of a command, one word each.
_tnorm_options()
{
    case $1 in
@OPTIONS@
    esac
}

# What an option's value is: "" (a flag), file, dir, harness, match, command, value, words:A B.
_tnorm_value()
{
    case "$1 $2" in
@VALUES@
    *) echo "" ;;
    esac
}

_tnorm_files() # [harness|dir|file]
{
    local IFS=$'\n'
    case $1 in
    dir) COMPREPLY=($(compgen -d -- "$cur")) ;;
    harness) COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.tnh' -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
    compopt -o filenames 2>/dev/null
}

_tnorm()
{
    local cur prev words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n := cur prev words cword
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${words[cword]}
        prev=${words[cword - 1]}
    fi
    COMPREPLY=()
    if ((cword == 1)); then
        COMPREPLY=($(compgen -W "$_tnorm_commands --help --version" -- "$cur"))
        return
    fi
    local cmd=${words[1]} i dashdash=0
    for ((i = 2; i < cword; i++)); do
        if [[ ${words[i]} == -- ]]; then
            dashdash=$i
            break
        fi
    done
    if ((dashdash)); then
        # The program that runs a test, then its arguments ({} stands for the test).
        if ((cword == dashdash + 1)); then
            COMPREPLY=($(compgen -c -- "$cur"))
        else
            _tnorm_files file
            [[ {} == "$cur"* ]] && COMPREPLY+=({})
        fi
        return
    fi
    local kind
    kind=$(_tnorm_value "$cmd" "$prev")
    case $kind in
    match)
        COMPREPLY=($(compgen -W "$_tnorm_policies" -- "$cur"))
        [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
        ;;
    words:*) COMPREPLY=($(compgen -W "${kind#words:}" -- "$cur")) ;;
    file | dir | harness) _tnorm_files "$kind" ;;
    command) COMPREPLY=($(compgen -c -- "$cur")) ;;
    value) ;;
    *)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$(_tnorm_options "$cmd") --help --" -- "$cur"))
        else
            _tnorm_files file
        fi
        ;;
    esac
    # Without bash-completion's helpers "stack:" is split at the colon: complete its remainder.
    if declare -F __ltrim_colon_completions >/dev/null; then
        __ltrim_colon_completions "$cur"
    fi
} &&
complete -F _tnorm tnorm
'''


def completion(docs, out):
    pages = command_pages(docs)
    cmds, options, values = [], [], []
    for path, names in pages:
        with open(path, encoding='utf-8') as fh:
            per = synopsis_options(fh.read())
        for name in names:
            cmds.append(name)
            opts = per.get(name, {})
            options.append('    %s) echo \'%s\' ;;' % (name, ' '.join(sorted(opts))))
            for o, kind in sorted(opts.items()):
                if kind:
                    values.append('    "%s %s") echo \'%s\' ;;' % (name, o, kind))
    text = (COMPLETION.replace('@COMMANDS@', ' '.join(sorted(cmds)))
            .replace('@POLICIES@', ' '.join(match_policies(docs)))
            .replace('@OPTIONS@', '\n'.join(options))
            .replace('@VALUES@', '\n'.join(values)))
    write(out, text)


def main(argv):
    if len(argv) >= 2 and argv[0] == 'list':
        for path, names in command_pages(argv[1]):
            print(os.path.basename(path), ' '.join('tnorm-' + n for n in names))
        return 0
    if len(argv) >= 5 and argv[0] == 'man':
        src, out, sec, version = argv[1:5]
        rest = argv[5:]
        name = summary = None
        while rest:
            if rest[0] == '--name':
                name = rest[1]
            elif rest[0] == '--summary':
                summary = rest[1]
            else:
                sys.exit('docgen.py: unknown option ' + rest[0])
            rest = rest[2:]
        docs = os.path.dirname(os.path.abspath(__file__))
        names = ['tnorm-' + n for _, ns in command_pages(docs) for n in ns]
        man(src, out, sec, version, all_links(docs), name, summary, names)
        return 0
    if len(argv) == 3 and argv[0] == 'completion':
        completion(argv[1], argv[2])
        return 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
