"""The unit set for `make check`: a `swift test --filter` pattern naming every suite declared in
Tests/*/Unit (the tests that start no server and touch no network).

A type, extension or free function under Unit/ that holds a `@Test` is named by its target and
name; a file whose tests cannot be placed in one of them (a declaration this reader does not
know) fails the run, naming the file, so that a suite never drops out of `make check` unseen.

usage: python3 Tests/Lint/unit_suites.py   (prints the pattern; exit status 1 on a file it cannot read)
"""
import glob
import os
import re
import sys

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^\n]*)?\s*)*(?:(?:public|internal|private|fileprivate|final|package)\s+)*"
    r"(struct|class|enum|actor|extension)\s+(\w+)", re.M)
FREE_TEST = re.compile(r"^@Test\b[^\n]*\n(?:[^\n]*\n)*?func\s+(\w+)", re.M)
TOP_LEVEL = re.compile(r"^(?:@|struct|class|enum|actor|extension|final|public|private|fileprivate|func)", re.M)


def suites(path):
    """The filter alternatives for `path`'s tests, or raise when some cannot be placed."""
    target = os.path.basename(os.path.dirname(os.path.dirname(path)))
    text = open(path, encoding="utf-8").read()
    names, placed = [], 0
    starts = [m.start() for m in TOP_LEVEL.finditer(text)] + [len(text)]
    for match in DECLARATION.finditer(text):
        end = next(start for start in starts if start > match.start())
        # The body runs to the next top-level declaration after this one's own attributes.
        following = [s for s in starts if s > match.end()]
        body = text[match.end():following[0] if following else len(text)]
        count = body.count("@Test")
        if count:
            names.append(re.escape(f"{target}.{match.group(2)}") + "/")
            placed += count
    for match in FREE_TEST.finditer(text):
        names.append(re.escape(f"{target}.{match.group(1)}") + r"\(")
        placed += 1
    total = len(re.findall(r"@Test\b", text))
    if placed < total:
        raise ValueError(f"{path}: {total - placed} of its {total} @Test could not be placed in a suite")
    return names


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    names = []
    for path in sorted(glob.glob(os.path.join(root, "*", "Unit", "*.swift"))):
        try:
            names += suites(path)
        except ValueError as problem:
            print(f"unit_suites: {problem}", file=sys.stderr)
            sys.exit(1)
    print("^(" + "|".join(sorted(set(names))) + ")")


main()
