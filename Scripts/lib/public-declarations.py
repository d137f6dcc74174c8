#!/usr/bin/env python3
"""Counts the public declarations of one module in a folder of symbol graphs.

    python3 Scripts/lib/public-declarations.py SYMBOL_GRAPH_DIR [MODULE]   # prints "DECLARED WITH_SYNTHESIZED"

MODULE is Waypoint unless given; its graph and those of its extensions to other modules
(MODULE@OTHER) are counted.

A declaration is a symbol whose access is public or open. Members the compiler synthesizes (an
Equatable's `!=`, a protocol's default implementations) are counted apart: nobody wrote them, and
they come and go with a conformance.
"""
import glob
import json
import sys

symbols = [
    symbol
    for module in [sys.argv[2] if len(sys.argv) > 2 else "Waypoint"]
    for path in glob.glob(f"{sys.argv[1]}/{module}.symbols.json") + glob.glob(f"{sys.argv[1]}/{module}@*.symbols.json")
    for symbol in json.load(open(path))["symbols"]
]
public = [s for s in symbols if s.get("accessLevel") in ("public", "open")]
declared = [s for s in public if "::SYNTHESIZED::" not in s["identifier"]["precise"]]
print(len(declared), len(public))
