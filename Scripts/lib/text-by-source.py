#!/usr/bin/env python3
"""Splits one object's machine code (`__text`) among the source files it was compiled from.

    python3 Scripts/lib/text-by-source.py OBJECT SOURCES_DIR [--folders]

OBJECT is a Mach-O object compiled whole-module with debug info (-g); SOURCES_DIR the folder of
the module's sources. Prints the bytes by file (or by folder), largest first; they add up to the
object's `__text`, unlike one object per file, where each file carries its own copy of what files
share and the shares add up to a quarter or more above the whole.

Each function (from one symbol to the next) goes to the source file whose lines cover most of its
bytes in the line table: the function's own file, or the file it was inlined from. A function with
no line of ours (value witnesses, outlined copies, thunks) goes to the file that declares the type
its name is about. What is left is the standard library's generic code specialised for the module's
types, and helpers with no name; it is printed as one line, since it serves the whole module.
"""
import bisect
import collections
import pathlib
import re
import subprocess
import sys

LIBRARY = "(standard library code specialised here, and unnamed helpers)"


def run(*command, stdin=None):
    return subprocess.run(command, input=stdin, capture_output=True, text=True, check=True).stdout


def text_end(obj):
    for fields in (line.split() for line in run("llvm-objdump", "--section-headers", obj).splitlines()):
        if len(fields) > 2 and fields[1] == "__text":
            return int(fields[2], 16)
    sys.exit(f"{obj} has no __text section")


def functions(obj):
    """(start, end, symbol) for each symbol in __text, its end the next one's start."""
    starts = {}
    for line in run("llvm-nm", "-m", "--defined-only", obj).splitlines():
        if "(__TEXT,__text)" in line and not line.split()[-1].startswith("ltmp"):
            starts.setdefault(int(line.split()[0], 16), line.split()[-1])
    addresses = sorted(starts)
    ends = addresses[1:] + [text_end(obj)]
    return [(start, end, starts[start]) for start, end in zip(addresses, ends)]


def line_rows(obj, root):
    """The line table: sorted (address, own file or None), the file only for lines of SOURCES_DIR."""
    own, directories, files, current = [], {}, {}, None

    def path(file):
        name, folder = files.get(file, ("", 0))
        return name if name.startswith("/") else f"{directories.get(folder, '')}/{name}"

    # An object has a line table for each unit (the module, and the C modules it imports), each
    # numbering its own files.
    for line in run("llvm-dwarfdump", "--debug-line", obj).splitlines():
        if line.startswith("debug_line["):
            directories, files, current = {}, {}, None
        elif match := re.match(r'include_directories\[\s*(\d+)\] = "(.*)"', line):
            directories[int(match[1])] = match[2]
        elif match := re.match(r"file_names\[\s*(\d+)\]:", line):
            current = int(match[1])
            files[current] = ["", 0]
        elif (match := re.match(r'\s+name: "(.*)"', line)) and current is not None:
            files[current][0] = match[1]
        elif (match := re.match(r"\s+dir_index: (\d+)", line)) and current is not None:
            files[current][1] = int(match[1])
        elif match := re.match(r"0x([0-9a-f]{16})\s+(\d+)\s+\d+\s+(\d+)\s", line):
            source = path(int(match[3]))
            # Line 0 is code the compiler made up; it belongs to no line of ours.
            keep = "end_sequence" not in line and int(match[2]) > 0 and source.startswith(root)
            own.append((int(match[1], 16), source[len(root):] if keep else None))
    return sorted(own, key=lambda row: row[0])


def declaring_files(root):
    """Each type's name, to the file that declares it (the first, for a name declared twice)."""
    declared = {}
    pattern = re.compile(
        r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|final|indirect|nonisolated)\s+)*"
        r"(?:struct|class|enum|actor|protocol)\s+(\w+)",
        re.M,
    )
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        for match in pattern.finditer(path.read_text()):
            declared.setdefault(match[1], str(path)[len(root):])
    return declared


# What a demangled name says before the declaration it is about.
PREFIXES = re.compile(
    r"^(?:merged |specialized |static |partial apply for |outlined \w+(?: \w+)* of |"
    r"(?:implicit )?closure #\d+ (?:\([^)]*\) )?in |"
    r"(?:type metadata|lazy protocol witness table|one-time initialization|key path \w+|"
    r"value witness|variable initialization expression)\w*(?: \w+)* (?:for|of) (?:type )?|"
    r"(?:assignWithCopy|assignWithTake|initializeWithCopy|initializeWithTake|destroy|"
    r"initializeBufferWithCopyOfBuffer|getEnumTagSinglePayload|storeEnumTagSinglePayload|"
    r"getEnumTag|destructiveProjectEnumData|destructiveInjectEnumTag) for |"
    r"protocol witness for .*? in conformance |generic specialization <.*?> of )+"
)


def owner(demangled, declared):
    name = PREFIXES.sub("", demangled)
    words = re.match(r"[\w.<>, ]+", name)
    for part in reversed(words[0].split(".") if words else []):
        if (base := part.split("<")[0].strip()) in declared:
            return declared[base]
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    obj, root = sys.argv[1], str(pathlib.Path(sys.argv[2]).resolve()) + "/"
    by_folder = "--folders" in sys.argv[3:]
    rows = line_rows(obj, root)
    addresses = [address for address, _ in rows]
    declared = declaring_files(root)
    sizes, unplaced = collections.Counter(), []
    for start, end, symbol in functions(obj):
        covered = collections.Counter()
        index = max(bisect.bisect_right(addresses, start) - 1, 0)
        while index < len(rows) and rows[index][0] < end:
            next_address = rows[index + 1][0] if index + 1 < len(rows) else end
            low, high = max(rows[index][0], start), min(next_address, end)
            if high > low and rows[index][1]:
                covered[rows[index][1]] += high - low
            index += 1
        if covered:
            sizes[covered.most_common(1)[0][0]] += end - start
        else:
            unplaced.append((start, end, symbol))
    demangled = run("swift", "demangle", "--simplified", stdin="\n".join(s for _, _, s in unplaced)).splitlines()
    for (start, end, _), name in zip(unplaced, demangled):
        sizes[owner(name, declared) or LIBRARY] += end - start
    if by_folder:
        folders = collections.Counter()
        for path, size in sizes.items():
            folders[path if path == LIBRARY else (str(pathlib.Path(path).parent) + "/").removeprefix("./")] += size
        sizes = folders
    total = sum(sizes.values())
    for path, size in sizes.most_common():
        print(f"{size:9d}  {100 * size / total:5.1f} %  {path}")
    print(f"{total:9d}  100.0 %  (the object's __text)")


if __name__ == "__main__":
    main()
