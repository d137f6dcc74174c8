#!/usr/bin/env python3
"""Lists the public declarations of modules, a line each, from a folder of symbol graphs.

    python3 Scripts/lib/public-api.py SYMBOL_GRAPH_DIR MODULE...   # sorted lines on stdout

A line is the module, the declaration's path and its declaration as the compiler prints it:

    Waypoint  PayloadValue.text  var text: String? { get }

The API digester cannot see a `public` declaration made `package` (it dumps both), so
check-api.sh compares these lines, which come from the symbol graph's access levels, with the
committed list in .ci/public-api.txt. Members the compiler synthesizes are left out: nobody wrote
them, and they come and go with a conformance.
"""
import json
import os
import sys


def lines(directory, module):
    # A module's own graph, and the ones for its extensions of other modules' types (Module@Other).
    for name in sorted(os.listdir(directory)):
        if name != f"{module}.symbols.json" and not name.startswith(f"{module}@"):
            continue
        with open(os.path.join(directory, name)) as graph:
            for symbol in json.load(graph)["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    continue
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                line = f"{module}  {'.'.join(symbol['pathComponents'])}  {' '.join(declaration.split())}"
                yield line + extension_note(symbol.get("swiftExtension"))


def extension_note(extension):
    """What tells a protocol's default implementation from its requirement, and a member of a
    constrained extension from an unconstrained one of the same name."""
    if not extension:
        return ""
    # A conformance or a superclass is written `T: U`, a same-type constraint `T == U`.
    constraints = [f"{c['lhs']} == {c['rhs']}" if c["kind"] == "sameType" else f"{c['lhs']}: {c['rhs']}"
                   for c in extension.get("constraints", [])]
    if extension.get("typeKind") == "swift.protocol":
        return "  (default implementation" + (" where " + ", ".join(constraints) if constraints else "") + ")"
    return "  (where " + ", ".join(constraints) + ")" if constraints else ""


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: public-api.py SYMBOL_GRAPH_DIR MODULE...")
    found = set()
    for module in sys.argv[2:]:
        module_lines = set(lines(sys.argv[1], module))
        if not module_lines:
            # An empty list would pass as "everything removed" only if the list were empty too.
            sys.exit(f"no public declaration of {module} in {sys.argv[1]}: the symbol graph is missing")
        found |= module_lines
    print("\n".join(sorted(found)))


main()
