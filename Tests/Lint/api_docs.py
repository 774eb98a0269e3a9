#!/usr/bin/env python3
"""Checks that the public API of the given source folders is documented in DocC's form.

Every public (or open) function, initializer and subscript, and every requirement of a public
protocol, needs a `///` comment; one that takes arguments needs `- Parameter name:` or
`- Parameters:`, one that returns a value needs `- Returns:`, one that throws needs `- Throws:`.
swift-format's ValidateDocumentationComments rule then checks that the sections match the
signature (names, order, no `Returns` on a Void function).

A witness of a protocol requirement without a comment of its own is passed over: DocC shows the
requirement's (the protocols of the folders, and the standard library's `==`, `hash(into:)`…).

Usage: api_docs.py FOLDER...   Exit status 1, with one line per missing section, when any is missing.
"""

import pathlib
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?P<access>(?:public|open)\s+)?"
    r"(?:(?:static|class|final|mutating|nonmutating|convenience|override|required|nonisolated|"
    r"consuming|borrowing|@\w+)\s+)*"
    r"(?P<kind>func|init|subscript)\b"
)
PUBLIC_PROTOCOL = re.compile(r"^\s*(?:@[\w.]+\s+)*public\s+protocol\s+\w+")
PUBLIC_EXTENSION = re.compile(r"^\s*(?:@[\w.]+\s+)*public\s+extension\b")
STANDARD_WITNESSES = {
    ("==", ("_", "_")), ("<", ("_", "_")), ("hash", ("into",)), ("encode", ("to",)), ("init", ("from",)),
    ("init", ("rawValue",)), ("init", ("stringLiteral",)), ("init", ("integerLiteral",)),
    ("_rawHashValue", ("seed",)), ("makeIterator", ()), ("index", ("after",)),
}
DOC_SECTION = re.compile(r"^\s*///\s*-\s*(Parameters?|Returns|Throws)\b")


def signature(lines, start):
    """The declaration's text from its first line up to its body's brace (or its last line)."""
    text, depth = "", 0
    for index in range(start, min(start + 40, len(lines))):
        code = lines[index].split("//", 1)[0]
        for position, char in enumerate(code):
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif char == "{" and depth == 0:
                return text + code[:position]
        text += code + " "
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if depth == 0 and not following.startswith(("->", "throws", "rethrows", "async", "where")):
            return text
    return text


def parameters(text):
    """The argument list of a declaration's text (after any generic clause), split at top-level commas."""
    match = re.search(r"\b(?:func\s+(?:\w+|[^\w\s(]+)|init[?!]?|subscript)\s*(?:<[^(]*>)?\s*\(", text)
    if not match:
        return [], ""
    depth, body = 1, ""
    position = match.end()
    while position < len(text) and depth > 0:
        char = text[position]
        depth += char == "("
        depth -= char == ")"
        if depth > 0:
            body += char
        position += 1
    parts, depth, current = [], 0, ""
    for char in body:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [part for part in parts if part.strip()], text[position:]


def key(kind, text):
    """A declaration's name and argument labels: `connection(_:didReceive:)` is ("connection", ("_", "didReceive"))."""
    name = re.search(r"\bfunc\s+(\w+|[^\w\s(]+)", text) if kind == "func" else None
    arguments, _ = parameters(text)
    labels = tuple(part.split(":", 1)[0].split()[0] for part in arguments if part.split(":", 1)[0].split())
    base = name.group(1) if name else kind
    if not re.match(r"\w", base):
        labels = ("_",) * len(labels)
    return (base, labels)


def requirements(paths):
    """The keys of every requirement of every protocol declared in `paths`."""
    found = set()
    for path in paths:
        lines, inside, depth = path.read_text().splitlines(), None, 0
        for number, line in enumerate(lines):
            code = line.split("//", 1)[0]
            if re.match(r"^\s*(?:@[\w.]+\s+)*(?:public\s+)?protocol\s+\w+", line):
                inside = depth
            match = DECLARATION.match(line)
            if match and inside is not None and depth == inside + 1:
                found.add(key(match.group("kind"), signature(lines, number)))
            depth += code.count("{") - code.count("}")
            if inside is not None and depth <= inside:
                inside = None
    return found


def needs(kind, text):
    arguments, rest = parameters(text)
    wanted = set()
    if arguments:
        wanted.add("Parameters")
    if re.search(r"\b(throws|rethrows)\b", rest.split("->", 1)[0]):
        wanted.add("Throws")
    if kind != "init" and "->" in rest:
        returned = rest.split("->", 1)[1].split(" where ", 1)[0].strip()
        if returned not in ("Void", "()", "Never"):
            wanted.add("Returns")
    return wanted


def documented(lines, start):
    """The `///` lines above a declaration (attributes and blank comment lines allowed between)."""
    found, index = [], start - 1
    while index >= 0 and lines[index].strip().startswith(("///", "@")):
        found.insert(0, lines[index])
        index -= 1
    return [line for line in found if line.strip().startswith("///")]


def check(path, witnesses):
    lines = path.read_text().splitlines()
    problems, public_blocks, depth, protocol = [], [], 0, None
    for number, line in enumerate(lines):
        code = line.split("//", 1)[0]
        if PUBLIC_PROTOCOL.match(line) or PUBLIC_EXTENSION.match(line):
            public_blocks.append(depth)
        if PUBLIC_PROTOCOL.match(line):
            protocol = depth
        match = DECLARATION.match(line)
        if match and not line.strip().startswith("//"):
            inside = bool(public_blocks) and depth == public_blocks[-1] + 1
            private = re.search(r"\b(private|fileprivate|internal)\b", line[:match.start("kind")])
            if (match.group("access") or inside) and not private:
                comment = documented(lines, number)
                requirement = protocol is not None and depth == protocol + 1
                if not comment and not requirement and key(match.group("kind"), signature(lines, number)) in witnesses:
                    continue
                sections = set()
                for doc in comment:
                    section = DOC_SECTION.match(doc)
                    if section:
                        sections.add("Parameters" if section.group(1).startswith("Parameter") else section.group(1))
                if not comment:
                    problems.append(f"{path}:{number + 1}: public {match.group('kind')} has no /// comment")
                else:
                    missing = needs(match.group("kind"), signature(lines, number)) - sections
                    for section in sorted(missing):
                        problems.append(f"{path}:{number + 1}: add a '- {section}' section")
        depth += code.count("{") - code.count("}")
        while public_blocks and depth <= public_blocks[-1]:
            public_blocks.pop()
        if protocol is not None and depth <= protocol:
            protocol = None
    return problems


def main(folders):
    paths = [path for folder in folders for path in sorted(pathlib.Path(folder).rglob("*.swift"))]
    witnesses = requirements(paths) | STANDARD_WITNESSES
    problems = [problem for path in paths for problem in check(path, witnesses)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} missing documentation section(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
