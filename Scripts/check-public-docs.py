#!/usr/bin/env python3
"""Checks that every public declaration of the named modules has a doc comment, from the symbol graphs a
compile wrote (`-emit-symbol-graph -emit-symbol-graph-dir DIR`, in DIR or DIR/MODULE): what Xcode's Quick Help and the DocC
pages show an app's developer. Extensions a module makes on another module's types
(`MODULE@Other.symbols.json`) count as the module's.

Members whose meaning a standard protocol fixes (`description`, `rawValue`, `init(from:)`, `==`…) need
none of their own, on a type that conforms to that protocol. A type at the top level (a struct, enum, class, actor or protocol) also shows a use
of itself: its doc comment has a fenced code block (```swift, or ```yaml for what a manifest says).

Usage: python3 Scripts/check-public-docs.py SYMBOL_GRAPH_DIR MODULE…
Prints each declaration that falls short as FILE:LINE and exits 1 when there is one.
"""
import glob
import json
import os
import sys

# Members a standard library or Foundation protocol defines, named as the symbol graph names them, with
# the protocols that define them: one is exempt only on a type that conforms to one of those.
STRING_LITERAL = {"Swift.ExpressibleByStringLiteral", "Swift.ExpressibleByExtendedGraphemeClusterLiteral",
                  "Swift.ExpressibleByUnicodeScalarLiteral"}
PROTOCOL_MEMBERS = {
    "description": {"Swift.CustomStringConvertible", "Swift.LosslessStringConvertible"},
    "debugDescription": {"Swift.CustomDebugStringConvertible"},
    "customMirror": {"Swift.CustomReflectable"},
    "errorDescription": {"Foundation.LocalizedError"},
    "rawValue": {"Swift.RawRepresentable"},
    "init(rawValue:)": {"Swift.RawRepresentable"},
    "hash(into:)": {"Swift.Hashable"},
    "hashValue": {"Swift.Hashable"},
    "==(_:_:)": {"Swift.Equatable"},
    "<(_:_:)": {"Swift.Comparable"},
    "encode(to:)": {"Swift.Encodable"},
    "init(from:)": {"Swift.Decodable"},
    "makeIterator()": {"Swift.Sequence"},
    "init(stringLiteral:)": STRING_LITERAL,
    "init(unicodeScalarLiteral:)": STRING_LITERAL,
    "init(extendedGraphemeClusterLiteral:)": STRING_LITERAL,
    "init(integerLiteral:)": {"Swift.ExpressibleByIntegerLiteral"},
    "init(floatLiteral:)": {"Swift.ExpressibleByFloatLiteral"},
    "init(booleanLiteral:)": {"Swift.ExpressibleByBooleanLiteral"},
    "init(nilLiteral:)": {"Swift.ExpressibleByNilLiteral"},
    "init(arrayLiteral:)": {"Swift.ExpressibleByArrayLiteral"},
    "init(dictionaryLiteral:)": {"Swift.ExpressibleByDictionaryLiteral"},
}

TYPES = {"swift.struct", "swift.enum", "swift.class", "swift.actor", "swift.protocol"}


def undocumented(directory, module):
    """(file, line, declaration, problem) of each public declaration of `module` whose doc comment is
    missing, or for a top-level type shows no use."""
    # DIR itself, or a folder of the module's own under it (DIR/MODULE), as the callers write them.
    folders = [folder for folder in (directory, os.path.join(directory, module))
               if os.path.exists(os.path.join(folder, f"{module}.symbols.json"))]
    if len(folders) != 1:
        raise SystemExit(f"{len(folders)} symbol graphs for {module} in {directory} and {directory}/{module}; "
                         "expected one")
    # The module's own graph, and its extensions of other modules' types, beside it.
    paths = [os.path.join(folders[0], f"{module}.symbols.json")]
    paths += sorted(glob.glob(os.path.join(folders[0], f"{module}@*.symbols.json")))
    graphs = [json.load(open(path)) for path in paths]
    # Which type each member belongs to, and which protocols each type conforms to (by name).
    parent = {}
    conforms = {}
    for graph in graphs:
        for relation in graph.get("relationships", []):
            if relation["kind"] == "memberOf":
                parent[relation["source"]] = relation["target"]
            elif relation["kind"] == "conformsTo":
                conforms.setdefault(relation["source"], set()).add(
                    relation.get("targetFallback") or relation["target"])
    found = set()
    for graph in graphs:
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            name = symbol["pathComponents"][-1]
            lines = [line["text"] for line in (symbol.get("docComment") or {}).get("lines", [])]
            if lines:
                top_level_type = len(symbol["pathComponents"]) == 1 and symbol["kind"]["identifier"] in TYPES
                if not top_level_type or any(line.strip() in ("```swift", "```yaml") for line in lines):
                    continue
                problem = "has no code block in its doc comment"
            elif PROTOCOL_MEMBERS.get(name, set()) & conforms.get(parent.get(symbol["identifier"]["precise"]), set()):
                continue
            else:
                problem = "has no doc comment"
            location = symbol.get("location", {})
            file = location.get("uri", "").replace("file://", "")
            line = location.get("position", {}).get("line", -1) + 1
            found.add((os.path.relpath(file) if file else module, line,
                       f"{symbol['kind']['identifier'].replace('swift.', '')} {'.'.join(symbol['pathComponents'])}",
                       problem))
    return sorted(found)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    directory, modules = sys.argv[1], sys.argv[2:]
    failures = [row for module in modules for row in undocumented(directory, module)]
    for file, line, declaration, problem in failures:
        print(f"{file}:{line}: public {declaration} {problem}")
    if failures:
        print(f"{len(failures)} public declarations of {', '.join(modules)} are not documented as they should be")
        sys.exit(1)
    print(f"every public declaration of {', '.join(modules)} has a doc comment; every top-level type shows a use")


if __name__ == "__main__":
    main()
