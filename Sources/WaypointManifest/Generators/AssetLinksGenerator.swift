import Waypoint

/// Android's `/.well-known/assetlinks.json` for the manifest's Android app.
///
/// ```swift
/// try AssetLinksGenerator(manifest: manifest).json()
/// // [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {…}}]
/// ```
package struct AssetLinksGenerator: Sendable {
    package let manifest: Manifest

    package init(manifest: Manifest) { self.manifest = manifest }

    package func json() throws(ManifestError) -> PayloadValue {
        guard let android = manifest.android else {
            throw ManifestError("The manifest has no 'android' section (package and fingerprints).", at: nil)
        }
        guard !android.fingerprints.isEmpty else {
            throw ManifestError(
                "'android.fingerprints' is empty: assetlinks.json needs the SHA-256 signing certificate fingerprints.",
                at: nil
            )
        }
        // A manifest read from a file had its package and fingerprints checked at their lines; one
        // built in code is checked here.
        if let problem = AndroidApp.packageProblem(android.package)
            ?? android.fingerprints.lazy.compactMap(AndroidApp.fingerprintProblem).first
        {
            throw ManifestError(problem, at: nil)
        }
        return [
            [
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": [
                    "namespace": "android_app",
                    "package_name": .string(android.package),
                    "sha256_cert_fingerprints": .array(android.fingerprints.map { .string($0.uppercased()) }),
                ],
            ]
        ]
    }
}
