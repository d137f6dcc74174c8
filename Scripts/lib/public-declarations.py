#!/usr/bin/env python3
"""Counts the public declarations of the Waypoint module in a folder of symbol graphs.

    python3 Scripts/lib/public-declarations.py SYMBOL_GRAPH_DIR   # prints "DECLARED WITH_SYNTHESIZED"

A declaration is a symbol whose access is public or open. Members the compiler synthesizes (an
Equatable's `!=`, a protocol's default implementations) are counted apart: nobody wrote them, and
they come and go with a conformance.
"""
import glob
import json
import sys

symbols = [
    symbol
    for path in glob.glob(sys.argv[1] + "/Waypoint*.symbols.json")
    for symbol in json.load(open(path))["symbols"]
]
public = [s for s in symbols if s.get("accessLevel") in ("public", "open")]
declared = [s for s in public if "::SYNTHESIZED::" not in s["identifier"]["precise"]]
print(len(declared), len(public))
