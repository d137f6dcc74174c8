#!/usr/bin/env python3
"""Fails when the core calls standard-library, concurrency or Foundation API newer than the package's
deployment targets: the class of error that broke every Apple build at iOS 15 (`String(validating:as:)`,
iOS 18), caught on Linux without an SDK.

    python3 Scripts/check-availability.py [--sources DIR...] [--self-test]

How: the Linux toolchain's modules still carry Apple availability (`@available(macOS 15, iOS 18, …)`),
and `swift-api-digester -dump-sdk` reads it out, per declaration. `swiftc -dump-ast` names every
declaration the core's code refers to. A reference to a declaration introduced after the package's
minimum on any Apple platform (Package.swift's `platforms:`) is reported with its file and line.

What it cannot catch (the real-SDK check, Scripts/check-apple-sdk.sh, does): API that exists only in
Apple's SDKs (UIKit, Combine, Darwin-only Foundation), availability that differs between Linux's
Foundation and Apple's, a newer overload whose name and labels equal an older one's (it reports a
reference only when every declaration of that name is newer), a use inside `if #available` (reported;
the core has none, and should keep none), and types that appear only in a type annotation.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

MODULES = ["Swift", "_Concurrency", "_StringProcessing", "FoundationEssentials",
           "FoundationInternationalization", "Foundation"]
PLATFORMS = {"macOS": "intro_Macosx", "iOS": "intro_iOS", "tvOS": "intro_tvOS", "watchOS": "intro_watchOS",
             "visionOS": "intro_visionOS"}


def version(text):
    return tuple(int(part) for part in text.split("."))


def package_minimums(package_swift):
    """`.iOS(.v15)`, `.macOS(.v12)` … as {"iOS": (15,), …}."""
    minimums = {}
    for platform, major, minor in re.findall(r"\.(iOS|macOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)",
                                             package_swift):
        minimums[platform] = (int(major), int(minor or 0))
    return minimums


def newer_declarations(toolchain_modules, minimums, cache):
    """{(module, context, printedName): [reasons]} for every declaration newer than a minimum, and the
    set of keys that also have a declaration usable at every minimum (overloads we cannot tell apart)."""
    newer, usable = {}, set()
    for module in MODULES:
        path = os.path.join(cache, module + ".json")
        if not os.path.exists(path):
            # Written aside, then moved: an interrupted dump never leaves a truncated file behind.
            partial = path + ".partial"
            subprocess.run(["swift-api-digester", "-dump-sdk", "-module", module, "-o", partial,
                            "-I", toolchain_modules], check=True, capture_output=True)
            os.replace(partial, path)
        with open(path) as file:
            root = json.load(file)["ABIRoot"]

        def walk(node, context, inherited):
            reasons = dict(inherited)
            if "BackDeployed" not in node.get("declAttributes", []):
                for platform, field in PLATFORMS.items():
                    if field in node and platform in minimums and version(node[field]) > minimums[platform]:
                        reasons[platform] = node[field]
            name = node.get("printedName", "")
            if node.get("kind") in ("Function", "Constructor", "Var", "Subscript", "TypeDecl", "TypeAlias"):
                key = (module, context, name)
                if reasons:
                    newer.setdefault(key, []).append(
                        f"{module}: introduced in " + ", ".join(f"{p} {v}" for p, v in sorted(reasons.items())))
                else:
                    usable.add(key)
            inner = node.get("name", context) if node.get("kind") == "TypeDecl" else context
            for child in node.get("children", []):
                if child.get("kind") in ("Function", "Constructor", "Var", "Subscript", "TypeDecl", "TypeAlias"):
                    walk(child, inner, reasons)

        walk(root, "", {})
    return newer, usable


REFERENCE = re.compile(r'range=\[([^\]:]+):(\d+):\d+[^\]]*\][^\n]*?decl="(\w+)\.\(file\)\.([^"]*?)(?: \[with[^"]*)?"')


def references(sources, language):
    """(file, line, module, context, name) for every reference to a declaration outside the module."""
    # The folders compile as one module: what is checked is each call into the SDK, not our modules.
    files = sorted(os.path.join(folder, name) for top in sources for folder, _, names in os.walk(top)
                   for name in names if name.endswith(".swift"))
    # Waypoint re-exports WaypointCore, which is compiled here in the same module: no such import.
    files = [path for path in files if "@_exported import WaypointCore" not in open(path).read()]
    result = subprocess.run(["swiftc", "-dump-ast", "-parse-as-library", "-module-name", "Waypoint", *language,
                             *files], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("swiftc -dump-ast failed:\n" + "\n".join(result.stderr.splitlines()[-20:]))
    found = set()
    for line in (result.stdout + result.stderr).splitlines():
        for file, number, module, path in REFERENCE.findall(line):
            if module not in MODULES:
                continue
            # "String extension.init(validating:as:)" or "UTF8View extension.count": the innermost type.
            parts = path.split(".")
            if "(" in path:
                head, _, call = path.partition("(")
                parts = head.split(".")
                parts[-1] += "(" + call
            name = parts[-1]
            context = parts[-2].removesuffix(" extension") if len(parts) > 1 else ""
            found.add((file, int(number), module, context, name))
    return found


def violations(found, newer, usable):
    report = []
    for file, line, module, context, name in sorted(found):
        exact = (module, context, name)
        if "(" in name or exact in newer or exact in usable:
            keys = [exact]
        else:
            # An unlabelled reference (`append`) is matched by base name: reported only when every
            # declaration of that base name is newer.
            keys = [key for key in newer if key[:2] == (module, context) and key[2].split("(")[0] == name]
            if any(key[:2] == (module, context) and key[2].split("(")[0] == name for key in usable):
                continue
        if not keys or any(key in usable for key in keys):
            continue
        reasons = sorted({reason for key in keys for reason in newer.get(key, [])})
        if reasons:
            label = f"{context}.{name}" if context else name
            report.append(f"{file}:{line}: '{label}' is newer than the package's minimums ({'; '.join(reasons)})")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", nargs="+", default=["Sources/WaypointCore", "Sources/Waypoint"])
    parser.add_argument("--self-test", action="store_true",
                        help="also reintroduce String(validating:as:) in a copy of the core and expect a report")
    arguments = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

    with open("Package.swift") as file:
        package = file.read()
    minimums = package_minimums(package)
    # The same flags as every other compile of ours, from the one place that reads them.
    language = subprocess.run(["bash", "-c", "source Scripts/lib/package-settings.sh && package_swift_flags"],
                              check=True, capture_output=True, text=True).stdout.split()
    swiftc = subprocess.run(["sh", "-c", "command -v swiftc"], capture_output=True, text=True).stdout.strip()
    toolchain_modules = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swiftc))), "lib", "swift",
                                     "linux")
    # One cache per toolchain: another toolchain's modules say other things.
    toolchain = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
    cache = os.path.join(".build", "availability", hashlib.sha256(toolchain.encode()).hexdigest()[:12])
    os.makedirs(cache, exist_ok=True)
    newer, usable = newer_declarations(toolchain_modules, minimums, cache)

    report = violations(references(arguments.sources, language), newer, usable)
    for line in report:
        print(line)
    print(f"availability: {len(report)} use(s) of API newer than "
          + ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(minimums.items()))
          + f" in {' and '.join(arguments.sources)} ({len(newer)} newer declarations known)")
    if report:
        return 1

    if arguments.self_test:
        # The error that broke the Apple builds, put back into a copy: the check must report it.
        with tempfile.TemporaryDirectory() as copy:
            for number, folder in enumerate(arguments.sources):
                subprocess.run(["cp", "-R", folder + "/.", os.path.join(copy, str(number))], check=True)
            with open(os.path.join(copy, "Reintroduced.swift"), "w") as file:
                file.write("func reintroduced(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }\n")
            caught = violations(references([copy], language), newer, usable)
            if not any("String.init(validating:as:)" in line and "iOS 18.0" in line for line in caught):
                print("self-test FAILED: String(validating:as:) put back into the core was not reported")
                return 1
            print("self-test: String(validating:as:) put back into the core is reported: " + caught[0].split(": ", 1)[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
