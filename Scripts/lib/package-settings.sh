# Reads the settings every compile of ours must share from Package.swift, so scripts that call
# swiftc directly cannot drift from what SwiftPM and Xcode build. Sourced, not run.

# The package's iOS minimum, as "15.0".
package_ios_minimum() {
    local version
    version=$(sed -nE 's/.*\.iOS\(\.v([0-9]+)(_([0-9]+))?\).*/\1.\3/p' Package.swift | head -n 1)
    version=${version%.}
    [[ -z "$version" || "$version" == *.* ]] || version="$version.0"
    echo "$version"
}

# The language mode, upcoming features and a package name (so `package` declarations are visible
# across the modules, as SwiftPM arranges), as swiftc flags, one a line.
package_swift_flags() {
    echo -swift-version
    echo 6
    echo -package-name
    echo waypoint
    # One flag a line; read with a loop, as BSD sed writes no newline for "\n" in a replacement.
    sed -nE 's/.*enableUpcomingFeature\("([A-Za-z]+)"\).*/\1/p' Package.swift | while read -r feature; do
        echo -enable-upcoming-feature
        echo "$feature"
    done
}

# The versions given, each once, oldest first ("15.0 18.6").
distinct_versions() { # VERSION…
    printf '%s\n' "$@" | sort -uV
}

# The iOS version an example app is built for: the one it declares in its sources (a
# `// Deployment target: iOS N` line), never below the package's own minimum.
example_ios_minimum() { # FOLDER
    local declared
    declared=$(sed -nE 's|^// Deployment target: iOS ([0-9.]+).*|\1|p' "$1"/*.swift | head -n 1)
    declared=${declared:-$(package_ios_minimum)}
    [[ "$declared" == *.* ]] || declared="$declared.0"
    distinct_versions "$declared" "$(package_ios_minimum)" | tail -n 1
}

# The swiftc flags that point a compile for an Apple SDK at this toolchain's Clang headers alone,
# one a line (none on a Mac). On Linux the toolchain's own resource directory holds Linux's Dispatch
# and SwiftShims, which clash with the SDK's ("redefinition of module 'Dispatch'"); a resource
# directory under OUT links only its Clang headers. Call it as `flags=$(sdk_resource_flags OUT)`, so
# a failure stops a `set -e` script there.
sdk_resource_flags() { # OUT
    [[ "$(uname)" == Darwin ]] && return
    local toolchain_lib
    toolchain_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift"
    mkdir -p "$1/resource" || return 1
    ln -sfn "$toolchain_lib/clang" "$1/resource/clang" || return 1
    printf '%s\n' -resource-dir "$1/resource"
}
