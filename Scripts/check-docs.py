#!/usr/bin/env python3
"""Checks the documentation's code: every fenced block in README.md, Examples/README.md and the DocC
articles.

- `yaml` blocks are manifests: each is loaded and linted by the `waypoint` tool and must show no
  error and no warning.
- Blocks of `$ waypoint …` transcripts (Examples/README.md) are run from the package root, and each
  command's output must be what the block shows; the files they read in /tmp are made first, as
  Examples/run.sh makes them.
- Each DocC catalog (Sources/*/Documentation.docc: WaypointCore's, Waypoint's) builds with the
  toolchain's `docc`, with no warning (a broken symbol link, an undocumented parameter), and every
  public declaration of the libraries Linux builds has a doc comment (Scripts/check-public-docs.py).
- `swift` blocks are compiled into a package that depends on this one, each block in a function of
  its own (those of WaypointCore's catalog against the `WaypointCore` product alone), and run; a
  line whose comment shows a result (`x // 42`, `y // "123"`, `z // true: …`, `w // .chat`)
  asserts that result. Every `swift` block, UIKit and SwiftUI ones too, is indented as
  it nests: a line that starts with `}`, `)` or `]` stands where the line that opened it starts.

A comment on the line before a block says how to check it:
  <!-- doc-check: context=NAME -->   declarations the block assumes (CONTEXTS below)
  <!-- doc-check: continues -->      the block goes on from the previous one, in the same scope
  <!-- doc-check: compile-only -->   compiled, not run
  <!-- doc-check: apple=uikit -->    needs UIKit (or SwiftUI: apple=view, apple=scene), which Linux
                                     lacks: --write-apple-blocks FILE writes these blocks as Swift that
                                     Scripts/check-adapters.sh type-checks against the SDK stubs and
                                     Scripts/check-apple-sdk.sh against a real SDK
  <!-- doc-check: skip=REASON -->    not Swift code to compile (a Package.swift excerpt…), with why
  <!-- doc-check: codegen -->        (on a yaml block) the manifest's `AppRoute` and link setup, as the
                                     WaypointGenerator plugin makes them, are compiled with the Swift
                                     blocks (one such block in all)

Usage: python3 Scripts/check-docs.py [--write-apple-blocks FILE]
       python3 Scripts/check-docs.py --apple-blocks-only FILE   (write the UIKit and SwiftUI blocks, nothing else)
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["README.md", "Examples/README.md"] + sorted(glob.glob("Sources/*/Documentation.docc/*.md"))
SCRATCH = os.path.join(ROOT, ".build-docs")

# What blocks assume without declaring it, by name. Kept small: a block that needs more should
# declare it, since a reader copies the block.
CONTEXTS = {
    "app": """
actor Session {
    var isLoggedIn = true
    var isHost = true
    var profile = "guest"
}
let session = Session()
@Sendable func logIn() async -> Bool { true }
struct Navigator { func show<Screen>(_ plan: NavigationPlan<Screen>) async {} }
let navigator = Navigator()
""",
    "policy": """
let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
""",
    "screens": """
enum Screen: Hashable, Sendable { case chat(Int), pay(order: String) }
actor Session { var isLoggedIn = true }
let session = Session()
let path = "waypoint.yaml"
""",
    "dispatching": """
enum Screen: Hashable, Sendable { case chat(Int), pay(order: String) }
actor Session { var isLoggedIn = true }
let session = Session()
struct LoginScreen { func present() async -> Bool { true } }  // whether the person logged in
let loginScreen = LoginScreen()
@Sendable func openInSafari(_ link: DeepLink) async {}
let file = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-doc-check-pending.json")
let key = PendingLinkKey.random()
struct AppRouter { func show(_ plan: NavigationPlan<Screen>) async {} }
let router = AppRouter()
""",
    "getting-started": """
func show(_ screen: some Any, id: Int?) {}
func log(_ text: String) {}
func openInBrowser(_ link: DeepLink) {}
""",
    "screen-chat": """
enum Screen: Sendable { case chat }
""",
}

ANNOTATION = re.compile(r"<!--\s*doc-check:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")
# A result a comment shows: a literal, a quoted string, or an enum case, optionally followed by
# `: explanation`.
RESULT = re.compile(r'^(true|false|nil|-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|\.[A-Za-z_]\w*)(?::\s.*)?$')


def blocks():
    """Yields (file, line, language, options, code) for every fenced block."""
    for name in FILES:
        lines = open(os.path.join(ROOT, name), encoding="utf-8").read().split("\n")
        index = 0
        while index < len(lines):
            match = FENCE.match(lines[index])
            if not match:
                index += 1
                continue
            options = {}
            previous = lines[index - 1] if index > 0 else ""
            annotation = ANNOTATION.match(previous.strip())
            if annotation:
                for word in annotation.group(1).split():
                    key, _, value = word.partition("=")
                    options[key] = value or True
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            yield name, start + 1, match.group(1), options, lines[start:end]
            index = end + 1


def split_comment(line):
    """A code line and its trailing `//` comment, ignoring `//` inside string literals."""
    quoted = False
    escaped = False
    for position, character in enumerate(line):
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == '"':
            quoted = not quoted
        elif not quoted and line.startswith("//", position):
            return line[:position].rstrip(), line[position + 2 :].strip()
    return line.rstrip(), None


def swift_body(name, first_line, code):
    """The block as statements, each line showing a result turned into an assertion."""
    output = []
    previous_expression = None
    for offset, line in enumerate(code):
        location = f"{name}:{first_line + offset}"
        if line.strip().startswith("import "):
            output.append("")
            continue
        statement, comment = split_comment(line)
        indent = line[: len(line) - len(line.lstrip())]
        if statement.strip() and comment is not None and RESULT.match(comment):
            expected = RESULT.match(comment).group(1)
            output.append(f"{indent}do {{ let shown = {statement.strip()}; DocCheck.expect(shown, {swift_string(expected)}, \"{location}\") }}")
            previous_expression = None
            continue
        if not statement.strip() and comment is not None and RESULT.match(comment) and previous_expression:
            # `expression` on one line, its result alone on the next.
            index, text = previous_expression
            expected = RESULT.match(comment).group(1)
            output[index] = f"{indent}do {{ let shown = {text}; DocCheck.expect(shown, {swift_string(expected)}, \"{location}\") }}"
            output.append("")
            previous_expression = None
            continue
        output.append(line)
        expression = statement.strip()
        looks_like_expression = (
            expression.startswith("try ") or expression.startswith("await ") or re.match(r"^[a-z]\w*[.(]", expression)
        ) and not re.match(r"^(let|var|if|for|while|switch|return|guard|case)\b", expression)
        previous_expression = (len(output) - 1, expression) if looks_like_expression and comment is None else None
    return output


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


HELPER = """
import Foundation

/// What a documented result looks like: strings quoted, optionals unwrapped, enum cases with a dot.
enum DocCheck {
    nonisolated(unsafe) static var failures: [String] = []

    static func expect(_ value: Any?, _ expected: String, _ location: String) {
        let shown = show(value)
        if shown != expected { failures.append("\\(location): the documentation shows \\(expected), the code gives \\(shown)") }
    }

    static func show(_ value: Any?) -> String {
        guard let value else { return "nil" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { show($0.value) } ?? "nil" }
        if let text = value as? String { return "\\"" + text + "\\"" }
        if mirror.displayStyle == .enum { return "." + String(describing: value) }
        return String(describing: value)
    }
}
"""


def check_indentation(location, code):
    """A line that starts with a closing bracket stands where the line that opened the bracket
    starts, so a snippet people copy reads as it nests (a `}` one step right of its `{` shipped once).
    After a line closes a bracket opened on an earlier line (a signature wrapped over several lines),
    the rest of it belongs to that earlier line."""
    failures = []
    openers = []  # (line number, indentation it counts from), innermost last
    for number, line in enumerate(code, start=1):
        text = re.sub(r"//.*", "", re.sub(r'"(?:[^"\\]|\\.)*"', '""', line))
        if not text.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        current = indent
        for position, character in enumerate(text.lstrip(" ")):
            if character in "{([":
                openers.append((number, current))
            elif character in "})]":
                opened_on, opened_at = openers.pop() if openers else (number, indent)
                if position == 0 and opened_at != indent:
                    failures.append(f"{location}: line {number} of the block closes at column {indent + 1}, "
                                    f"but the line that opened it starts at column {opened_at + 1}")
                if opened_on != number:
                    current = opened_at
    return failures


def main():
    apple_out = None
    only_apple = "--apple-blocks-only" in sys.argv
    for flag in ("--write-apple-blocks", "--apple-blocks-only"):
        if flag in sys.argv:
            apple_out = sys.argv[sys.argv.index(flag) + 1]
    failures = []
    functions = []  # (name, location, lines, run, module)
    apple = []
    yaml_count = 0
    transcripts = 0
    generated = None  # the codegen block's Swift, compiled with the Swift blocks
    # The notification transcripts read the payload Examples/run.sh writes; write it here too, so
    # this check needs no earlier step (a fresh machine has no /tmp/waypoint-post.json).
    with open("/tmp/waypoint-post.json", "w", encoding="utf-8") as payload:
        payload.write('{"aps":{"category":"post"},"postId":"8","deeplink":"social://posts/8"}\n')
    with open("/tmp/waypoint-social.json", "w", encoding="utf-8") as payload:
        payload.write('{"aps":{"alert":"Mia commented"},"social":{"actions":{"view":{"link":"social://posts/8"},'
                      '"mute":{}}}}\n')
    with open("/tmp/waypoint-klaviyo.json", "w", encoding="utf-8") as payload:
        payload.write('{"aps":{"alert":"New arrivals"},"body":{"_k":{},"action_buttons":[{"id":"shop","label":'
                      '"Shop","action":"deep_link","url":"social://posts/8"},{"id":"later","label":"Open App",'
                      '"action":"open_app"}]}}\n')
    for name, line, language, options, code in blocks():
        location = f"{name}:{line}"
        if "skip" in options or (only_apple and "apple" not in options):
            continue
        if language == "yaml":
            yaml_count += 1
            failures += check_yaml(location, "\n".join(code) + "\n")
            if "codegen" in options:
                if generated is not None:
                    failures.append(f"{location}: a second codegen block; the Swift blocks can use one AppRoute")
                generated, problem = generate_routes(location, "\n".join(code) + "\n")
                failures += problem
        elif language == "swift":
            failures += check_indentation(location, code)
            if "apple" in options:
                apple.append((location, options["apple"], code))
                continue
            body = swift_body(name, line, code)
            if "continues" in options and functions:
                functions[-1][2].extend(["", f"    // {location}"] + ["    " + l for l in body])
                functions[-1][3] = functions[-1][3] and "compile-only" not in options
                continue
            context = CONTEXTS.get(options.get("context", ""), "") if "context" in options else ""
            if "context" in options and options["context"] not in CONTEXTS:
                failures.append(f"{location}: unknown doc-check context '{options['context']}'")
            lines = ["    " + l for l in context.strip("\n").split("\n") if context] + [f"    // {location}"]
            lines += ["    " + l for l in body]
            # A block of WaypointCore's catalog is compiled against that product alone.
            module = "WaypointCore" if name.startswith("Sources/WaypointCore/") else "Waypoint"
            functions.append([f"block{len(functions) + 1}", location, lines, "compile-only" not in options, module])
        elif language:
            failures.append(f"{location}: a '{language}' block; doc-check reads swift and yaml (or skip=REASON)")
        elif any(l.startswith("$ waypoint ") for l in code):
            transcripts += 1
            failures += check_transcript(name, line, code)
    if apple_out:
        write_apple(apple_out, apple)
    if only_apple:
        print(f"{len(apple)} UIKit and SwiftUI blocks written to {apple_out}")
        return
    failures += check_docc()
    swift_failures = check_swift(functions, generated or "")
    failures += swift_failures
    for failure in failures:
        print("FAIL", failure)
    print(f"documentation: {yaml_count} yaml, {transcripts} transcript and {len(functions)} swift blocks checked here, "
          f"{len(apple)} UIKit or SwiftUI blocks left to Scripts/check-adapters.sh and check-apple-sdk.sh"
          + f"; {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


def waypoint_binary():
    subprocess.run(["swift", "build", "--product", "waypoint"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, "waypoint")


_binary = None


def check_yaml(location, text):
    global _binary
    _binary = _binary or waypoint_binary()
    os.makedirs(SCRATCH, exist_ok=True)
    path = os.path.join(SCRATCH, "block.yaml")
    open(path, "w", encoding="utf-8").write(text)
    result = subprocess.run([_binary, "lint", "--manifest", path], capture_output=True, text=True)
    summary = result.stdout.strip().split("\n")[-1] if result.stdout.strip() else ""
    if result.returncode != 0 or not summary.startswith("0 error(s), 0 warning(s)"):
        detail = (result.stderr.strip() or result.stdout.strip()).replace(path, "block")
        return [f"{location}: the manifest does not lint clean:\n{detail}"]
    return []


def generate_routes(location, text):
    """The Swift the WaypointGenerator plugin makes from a manifest block, and what failed."""
    global _binary
    _binary = _binary or waypoint_binary()
    path = os.path.join(SCRATCH, "codegen.yaml")
    open(path, "w", encoding="utf-8").write(text)
    result = subprocess.run([_binary, "codegen", "--manifest", path], capture_output=True, text=True)
    if result.returncode != 0:
        return "", [f"{location}: codegen refuses the manifest:\n{(result.stderr or result.stdout).strip()}"]
    return result.stdout, []


def check_transcript(name, first_line, code):
    """Runs each `$ waypoint …` line and compares its output with the lines that follow it."""
    global _binary
    _binary = _binary or waypoint_binary()
    # The inputs Examples/run.sh writes before the same commands.
    open("/tmp/waypoint-push.json", "w").write('{"aps":{"alert":"New message"},"data":{"messageId":"1"}}\n')
    aasa = subprocess.run([_binary, "aasa", "generate", "--manifest", "Examples/Manifests/apartments.yaml"],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout
    open("/tmp/waypoint-aasa.json", "w").write(aasa)
    failures = []
    commands = [i for i, l in enumerate(code) if l.startswith("$ waypoint ")]
    for position, index in enumerate(commands):
        end = commands[position + 1] if position + 1 < len(commands) else len(code)
        shown = "\n".join(code[index + 1:end]).rstrip("\n")
        arguments = shlex.split(code[index][len("$ waypoint "):])
        result = subprocess.run([_binary] + arguments, cwd=ROOT, capture_output=True, text=True)
        actual = (result.stdout + result.stderr).rstrip("\n")
        if actual != shown:
            failures.append(f"{name}:{first_line + index}: '{code[index]}' prints, instead of what the block shows:\n{actual}")
    return failures


# The libraries Linux builds, whose every public declaration needs a doc comment; the adapters' are
# checked by Scripts/check-apple-sdk.sh, which builds them.
DOCUMENTED_MODULES = ["WaypointCore", "Waypoint", "WaypointTesting", "WaypointManifest", "WaypointLinksClient"]
# The modules with a DocC catalog (Sources/MODULE/Documentation.docc), each built with no warning.
CATALOGS = sorted(os.path.basename(os.path.dirname(path))
                  for path in glob.glob(os.path.join(ROOT, "Sources/*/Documentation.docc")))


def check_docc():
    """Builds each DocC catalog from its module's symbol graph; any warning fails. Every public
    declaration of the libraries Linux builds has a doc comment (Scripts/check-public-docs.py)."""
    # Every build with the same flags, so a module built for one target is not compiled again for
    # the next. A module an incremental build leaves alone keeps the graph its last compile wrote,
    # which is still its graph: the folder is not emptied.
    graphs = os.path.join(SCRATCH, "symbol-graphs")
    scratch = os.path.join(SCRATCH, "symbols")

    def build():
        for module in DOCUMENTED_MODULES:
            # No index: nothing here runs tests, and it is about a sixth of a debug build's time.
            subprocess.run(["swift", "build", "--target", module, "--scratch-path", scratch, "--disable-index-store",
                            "-Xswiftc", "-emit-symbol-graph", "-Xswiftc", "-emit-symbol-graph-dir", "-Xswiftc", graphs],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    build()
    if not all(os.path.exists(os.path.join(graphs, f"{module}.symbols.json")) for module in DOCUMENTED_MODULES):
        # A graph was deleted after its module was built: only a compile writes it again.
        shutil.rmtree(scratch, ignore_errors=True)
        build()
    failures = []
    documented = subprocess.run([sys.executable, "Scripts/check-public-docs.py", graphs] + DOCUMENTED_MODULES,
                                cwd=ROOT, capture_output=True, text=True)
    if documented.returncode != 0:
        failures.append("public declarations not documented as they should be:\n"
                        + (documented.stdout + documented.stderr)[-4000:])
    for module in CATALOGS:
        # Each catalog reads its own module's graphs alone (a build also writes its dependencies').
        catalog_graphs = os.path.join(SCRATCH, f"symbol-graphs-{module}")
        shutil.rmtree(catalog_graphs, ignore_errors=True)
        os.makedirs(catalog_graphs)
        main_graph = os.path.join(graphs, f"{module}.symbols.json")
        if not os.path.exists(main_graph):
            failures.append(f"the {module} DocC catalog has no symbol graph to read ({main_graph}): is {module} in "
                            "DOCUMENTED_MODULES?")
            continue
        for path in [main_graph] + glob.glob(os.path.join(graphs, f"{module}@*")):
            shutil.copy(path, catalog_graphs)
        result = subprocess.run(["docc", "convert", f"Sources/{module}/Documentation.docc",
                                 "--additional-symbol-graph-dir", catalog_graphs,
                                 "--output-dir", os.path.join(SCRATCH, f"{module}.doccarchive"),
                                 "--fallback-display-name", module,
                                 "--fallback-bundle-identifier", f"dev.waypoint.{module}",
                                 "--warnings-as-errors"], cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"the {module} DocC catalog does not build cleanly:\n"
                            + (result.stdout + result.stderr)[-4000:])
    return failures


def check_swift(functions, generated):
    """Compiles and runs the blocks: those of WaypointCore's catalog in an executable that depends on
    the `WaypointCore` product alone (so a name only `Waypoint` has fails there, as it would in an app
    on that product), every other block in one that imports `Waypoint` and `WaypointManifest`."""
    package = os.path.join(SCRATCH, "DocBlocks")
    identity = os.path.basename(ROOT).lower()
    targets = {  # executable: (the products it depends on and imports, its blocks)
        "DocBlocks": (["Waypoint", "WaypointManifest"], [f for f in functions if f[4] != "WaypointCore"]),
        "CoreDocBlocks": (["WaypointCore"], [f for f in functions if f[4] == "WaypointCore"]),
    }
    declared = []
    for target, (products, blocks) in targets.items():
        dependencies = "".join(f'\n                .product(name: "{p}", package: "{identity}"),' for p in products)
        declared.append(f"""        .executableTarget(
            name: "{target}",
            dependencies: [{dependencies}
            ]
        ),""")
    os.makedirs(package, exist_ok=True)
    open(os.path.join(package, "Package.swift"), "w").write(f"""// swift-tools-version: 6.0
// Generated by Scripts/check-docs.py: the documentation's Swift blocks, compiled and run.
import PackageDescription

let package = Package(
    name: "DocBlocks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: {swift_string(ROOT)})],
    targets: [
{chr(10).join(declared)}
    ]
)
""")
    for target, (products, blocks) in targets.items():
        sources = os.path.join(package, "Sources", target)
        os.makedirs(sources, exist_ok=True)
        code = [HELPER] + [f"import {p}" for p in products] + [""]
        for name, location, lines, run, _ in blocks:
            code.append(f"// {location}")
            code.append(f"func {name}() async throws {{")
            code += lines
            code.append("}")
            code.append("")
        code.append("var thrown: [String] = []")
        for name, location, lines, run, _ in blocks:
            if run:
                code.append(f"do {{ try await {name}() }} catch {{ thrown.append(\"{location}: threw \\(error)\") }}")
        code.append("for failure in DocCheck.failures + thrown { print(\"FAIL\", failure) }")
        code.append("print(\"ran\", " + str(sum(1 for f in blocks if f[3])) + ", \"blocks\")")
        code.append("exit(DocCheck.failures.isEmpty && thrown.isEmpty ? 0 : 1)")
        open(os.path.join(sources, "main.swift"), "w").write("\n".join(code) + "\n")
        if target == "DocBlocks":
            open(os.path.join(sources, "WaypointRoutes.swift"), "w").write(generated)
    build = subprocess.run(["swift", "build", "--package-path", package, "--disable-index-store"], capture_output=True,
                           text=True)
    if build.returncode != 0:
        errors = [l for l in (build.stdout + build.stderr).split("\n") if ": error:" in l]
        return ["the Swift blocks do not compile (generated in .build-docs/DocBlocks/Sources/*/main.swift):\n"
                + "\n".join(sorted(set(errors))[:40])]
    failures = []
    for target in targets:
        run = subprocess.run(["timeout", "120", "swift", "run", "--skip-build", "--package-path", package, target],
                             capture_output=True, text=True)
        print(f"{target}: " + (run.stdout.strip().split("\n")[-1] if run.stdout.strip() else ""))
        if run.returncode != 0:
            failures += [l[5:] for l in run.stdout.split("\n") if l.startswith("FAIL ")] or [
                f"{target} did not run (exit {run.returncode}; 124 is the 120 s timeout): {run.stderr[-2000:]}"]
    return failures


def write_apple(path, apple):
    """The UIKit and SwiftUI blocks as Swift to type-check with Scripts/doc-check/AppleContext.swift.

    `apple=uikit`: the block's top-level `func` declarations go in a `DocScene` subclass of its own,
    its statements in a method with a scene callback's parameters. `apple=view` and `apple=scene`:
    the block is the `body` of a view or the scene of an app, with the app's links and navigation.
    """
    out = ["// Generated by Scripts/check-docs.py from the documentation's UIKit and SwiftUI blocks.",
           "import Foundation", "import SwiftUI", "import UIKit", "import UserNotifications", "import Waypoint",
           "import WaypointSwiftUI", "import WaypointUIKit", "import WebKit", ""]
    for index, (location, kind, code) in enumerate(apple, start=1):
        out.append(f"// {location}")
        if kind in ("view", "scene"):
            protocol, result = ("View", "some View") if kind == "view" else ("Sendable", "some Scene")
            out += [f"@MainActor struct DocBlock{index} {{",
                    "    @StateObject var navigation = NavigationModel<Screen>()",
                    "    let links: ApartmentLinks",
                    "    func view(_ screen: Screen) -> some View { Text(\"\\(screen)\") }",
                    f"    var body: {result} {{"]
            out += ["        " + l for l in code]
            out += ["    }", "}", ""]
            continue
        members, statements = [], []
        position = 0
        while position < len(code):
            line = code[position]
            if line.startswith("func "):
                # The declaration runs to the brace that closes its body (its signature may wrap).
                end, depth, opened = position, 0, False
                while end < len(code):
                    depth += code[end].count("{") - code[end].count("}")
                    opened = opened or "{" in code[end]
                    if opened and depth <= 0:
                        break
                    end += 1
                members += code[position:end + 1]
                position = end + 1
            else:
                statements.append(line)
                position += 1
        out.append(f"final class DocBlock{index}: DocScene {{")
        out += ["    " + l for l in members]
        out.append("    func statements(scene: UIScene, connectionOptions: UIScene.ConnectionOptions) async throws {")
        out += ["        " + l for l in statements]
        # What the block declares, an app keeps: used here so the compiler does not warn.
        kept = [m.group(1) for l in statements for m in [re.match(r"^let (\w+)\b", l)] if m]
        out += [f"        _ = {name}" for name in kept]
        out += ["    }", "}", ""]
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(out) + "\n")

if __name__ == "__main__":
    main()
