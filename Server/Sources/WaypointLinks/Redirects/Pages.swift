import Crypto
import Foundation
import Mustache

/// The HTML the service shows people and link-preview crawlers, rendered from Mustache templates.
/// Every value goes through `{{…}}`, which escapes `<`, `>`, `&`, `"` and `'`; no template uses
/// the unescaped `{{{…}}}`. The one script, the landing page's copy of the claim URL, is fixed
/// text allowed by its hash (``contentSecurityPolicy``); it reads the URL from an attribute.
///
/// ```swift
/// let pages = try Pages()
/// pages.preview(PreviewPage(title: "<b>Sale</b>", …))  // "…<meta property=\"og:title\" content=\"&lt;b&gt;Sale…"
/// ```
struct Pages: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { library.register(try MustacheTemplate(string: text), named: name) }
        self.library = library
    }

    /// What the landing page for iPhone and iPad visitors shows.
    struct Landing {
        var title: String
        var description: String?
        /// The deep link: opens the app when it is installed.
        var openURL: String
        /// The App Store page, when the link or the configuration names the app's id.
        var storeURL: String?
        /// What "Get the app" copies to the pasteboard before it opens the store, for the app to
        /// claim on its first launch (`https://links.example.com/c/<token>`).
        var claimURL: String?
        /// Where to read on without the app.
        var webURL: String?
    }

    /// What a crawler reads to build a preview card.
    struct Preview {
        var title: String
        var description: String?
        var imageURL: String?
        /// The short link itself, as `og:url`.
        var pageURL: String
        /// Where a person who reaches this page goes (a crawler's user agent sent by a browser).
        var continueURL: String?
    }

    func landing(_ page: Landing) -> String {
        let values: [String: String?] = [
            "title": page.title, "description": page.description, "openURL": page.openURL,
            "storeURL": page.storeURL, "claimURL": page.claimURL, "webURL": page.webURL,
        ]
        return render("landing", values)
    }

    func preview(_ page: Preview) -> String {
        let values: [String: String?] = [
            "title": page.title, "description": page.description, "imageURL": page.imageURL,
            "pageURL": page.pageURL, "continueURL": page.continueURL,
        ]
        return render("preview", values)
    }

    /// The page for an unknown (404) or expired (410) code.
    func missing(code: String, expired: Bool) -> String {
        // No code (the root, a long link not followed): the page says "this address".
        let values: [String: Any] = code.isEmpty ? ["expired": expired] : ["code": code, "expired": expired]
        return library.render(values, withTemplate: "missing") ?? ""
    }

    /// Absent values are left out: Mustache would print a `nil` it is given as the text "nil".
    private func render(_ name: String, _ values: [String: String?]) -> String {
        library.render(values.compactMapValues { $0 }, withTemplate: name) ?? ""
    }

    /// Copies the claim URL on the tap, then follows the link whether or not the copy worked (a
    /// browser without the Clipboard API, a refused permission): the store opens either way.
    static let claimScript = """
        for(const a of document.querySelectorAll("a[data-claim]"))a.addEventListener("click",e=>{\
        if(!navigator.clipboard||!navigator.clipboard.writeText)return;e.preventDefault();\
        const go=()=>{location.href=a.href};navigator.clipboard.writeText(a.dataset.claim).then(go,go)})
        """

    /// Nothing but the pages' own inline style and the claim script runs; images only over https.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src https:; style-src 'unsafe-inline'; script-src 'sha256-"
        + Data(SHA256.hash(data: Data(claimScript.utf8))).base64EncodedString()
        + "'; base-uri 'none'; form-action 'none'"

    private static let head = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <style>body{font:17px/1.5 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:32rem;padding:2rem 1rem;text-align:center}a.button{display:block;margin:1rem 0;padding:.9rem;border-radius:.8rem;background:#0a66d8;color:#fff;text-decoration:none}a.secondary{background:#eee;color:#111}</style>

        """

    private static let templates: [String: String] = [
        "landing": head + """
            <title>{{title}}</title>
            </head>
            <body>
            <h1>{{title}}</h1>
            {{#description}}<p>{{description}}</p>{{/description}}
            <a class="button" href="{{openURL}}">Open in the app</a>
            {{#storeURL}}<a class="button secondary" href="{{storeURL}}"{{#claimURL}} data-claim="{{claimURL}}"{{/claimURL}}>Get the app</a>{{/storeURL}}
            {{#webURL}}<p><a href="{{webURL}}">Continue on the web</a></p>{{/webURL}}
            {{#claimURL}}<script>\(claimScript)</script>{{/claimURL}}
            </body>
            </html>
            """,
        "preview": head + """
            <title>{{title}}</title>
            <meta property="og:type" content="website">
            <meta property="og:title" content="{{title}}">
            {{#description}}<meta property="og:description" content="{{description}}">
            <meta name="description" content="{{description}}">{{/description}}
            <meta property="og:url" content="{{pageURL}}">
            {{#imageURL}}<meta property="og:image" content="{{imageURL}}">
            <meta name="twitter:image" content="{{imageURL}}">{{/imageURL}}
            <meta name="twitter:card" content="{{#imageURL}}summary_large_image{{/imageURL}}{{^imageURL}}summary{{/imageURL}}">
            <meta name="twitter:title" content="{{title}}">
            {{#description}}<meta name="twitter:description" content="{{description}}">{{/description}}
            </head>
            <body>
            <h1>{{title}}</h1>
            {{#description}}<p>{{description}}</p>{{/description}}
            {{#continueURL}}<p><a href="{{continueURL}}">Continue</a></p>{{/continueURL}}
            </body>
            </html>
            """,
        "missing": head + """
            <title>{{#expired}}This link has expired{{/expired}}{{^expired}}No such link{{/expired}}</title>
            </head>
            <body>
            {{#expired}}<h1>This link has expired</h1><p>The link “{{code}}” is no longer in use.</p>{{/expired}}
            {{^expired}}<h1>No such link</h1><p>{{#code}}Nothing is linked at “{{code}}”.{{/code}}{{^code}}Nothing is linked at this address.{{/code}} Check the address for a typo.</p>{{/expired}}
            </body>
            </html>
            """,
    ]
}
