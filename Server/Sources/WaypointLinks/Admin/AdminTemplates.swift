import Mustache

/// The admin page's HTML, from Mustache templates: every value through `{{…}}` (escaped), never
/// `{{{…}}}`; and its one script, served as `/admin/admin.js`.
struct AdminTemplates: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { library.register(try MustacheTemplate(string: text), named: name) }
        self.library = library
    }

    /// Callers leave absent values out: Mustache prints a nil it is given as the text "nil".
    func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    /// Checks the deep link as it is typed (`GET /admin/check`) and shows the route or the reason;
    /// writes only `textContent`, so nothing the server echoes becomes markup.
    static let script = """
        "use strict";
        const field = document.getElementById("deepLink");
        const status = document.getElementById("deepLink-check");
        let timer;
        async function check() {
          const value = field.value.trim();
          if (!value) { status.textContent = ""; status.className = "check"; return; }
          try {
            const answer = await (await fetch("/admin/check?deepLink=" + encodeURIComponent(value), {credentials: "same-origin"})).json();
            status.textContent = answer.route ? "Opens the route " + answer.route : answer.error;
            status.className = answer.route ? "check ok" : "check bad";
          } catch (error) {
            status.textContent = "Could not check: " + error;
            status.className = "check bad";
          }
        }
        if (field && status) {
          field.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 200); });
          check();
        }
        """

    private static let head = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>Waypoint Links admin</title>
        <style>
        body{font:15px/1.5 -apple-system,system-ui,sans-serif;margin:0;color:#111;background:#f6f7f9}
        header{background:#0a2540;color:#fff;padding:.7rem 1.5rem;display:flex;justify-content:space-between;align-items:center}
        header a{color:#fff;text-decoration:none;font-weight:600}
        main{max-width:60rem;margin:1.5rem auto;padding:0 1.5rem}
        table{width:100%;border-collapse:collapse;background:#fff}
        th,td{text-align:left;padding:.5rem .7rem;border-bottom:1px solid #e3e6ea;word-break:break-all}
        label{display:block;margin:.8rem 0 .2rem;font-weight:600}
        input[type=text],input[type=password],input[type=search]{width:100%;padding:.5rem;border:1px solid #c6ccd4;border-radius:.4rem;box-sizing:border-box;font:inherit}
        button,.button{display:inline-block;margin-top:1rem;padding:.55rem 1.1rem;border:0;border-radius:.4rem;background:#0a66d8;color:#fff;font:inherit;text-decoration:none;cursor:pointer}
        .error{background:#fde8e8;color:#8a1c1c;padding:.6rem .8rem;border-radius:.4rem}
        .check{min-height:1.4em;font-size:.9em}.check.ok{color:#137333}.check.bad{color:#b3261e}
        .stats{display:flex;gap:1rem;margin:1rem 0}.stats div{background:#fff;padding:.7rem 1rem;border-radius:.5rem;flex:1}
        .stats strong{display:block;font-size:1.6em}
        .legend span{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 1em}
        .qr{display:flex;gap:1rem;align-items:center}.qr img{background:#fff;border-radius:.4rem}
        .breakdowns{display:flex;flex-wrap:wrap;gap:1rem}.breakdown{border-radius:.5rem;width:auto;flex:1}
        .breakdown caption{text-align:left;font-weight:600}.breakdown th{font-weight:400}
        .breakdown th,.breakdown td{padding:.2rem .5rem;word-break:normal}.bar{display:inline-block;height:.8em;background:#0a66d8}
        form.inline{display:inline}form.inline button{margin:0;background:none;color:#fff;padding:0}
        </style>
        </head>
        <body>
        <header><a href="/admin">Waypoint Links</a>
        """

    private static let signOut = """
        <form class="inline" method="post" action="/admin/signout"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out</button></form></header>
        """

    private static let templates: [String: String] = [
        "signin": head + """
            </header>
            <main>
            <h1>Sign in</h1>
            {{#error}}<p class="error" id="error">{{error}}</p>{{/error}}
            <form method="post" action="/admin/session">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="token">API token</label>
            <input type="password" id="token" name="token" autocomplete="off" required placeholder="wl_…">
            <button type="submit" id="sign-in">Sign in</button>
            </form>
            <p>Create a token with <code>waypoint-links token create --name NAME</code>.</p>
            </main>
            </body>
            </html>
            """,
        "list": head + signOut + """
            <main>
            {{#error}}<p class="error" id="error">{{error}}</p>{{/error}}
            <form method="get" action="/admin">
            <label for="q">Search by code or deep link</label>
            <input type="search" id="q" name="q" value="{{q}}">
            </form>
            <p><a class="button" id="new-link" href="/admin/links/new">New link</a></p>
            <table id="links">
            <thead><tr><th>Code</th><th>Deep link</th><th>Route</th></tr></thead>
            <tbody>
            {{#links}}<tr><td><a href="/admin/links/{{code}}">{{code}}</a></td><td>{{deepLink}}</td><td>{{route}}</td></tr>
            {{/links}}
            </tbody>
            </table>
            {{#empty}}<p>No links{{#q}} contain “{{q}}”{{/q}}.</p>{{/empty}}
            {{#next}}<p><a href="{{next}}">Next page</a></p>{{/next}}
            </main>
            </body>
            </html>
            """,
        "editor": head + signOut + """
            <main>
            <h1>{{#existing}}Link {{code}}{{/existing}}{{^existing}}New link{{/existing}}</h1>
            {{#url}}<p>Short link: <code id="short-url">{{url}}</code></p>
            <div class="qr"><img id="qr" src="/admin/links/{{code}}/qr?format=svg&amp;size=160" width="160" height="160" alt="QR code of {{url}}">
            <p>Download the QR code: <a id="qr-png" href="/admin/links/{{code}}/qr?format=png&amp;size=1024" download="{{code}}-qr.png">PNG</a> · <a id="qr-svg" href="/admin/links/{{code}}/qr?format=svg&amp;size=1024" download="{{code}}-qr.svg">SVG</a></p></div>{{/url}}
            {{#error}}<p class="error" id="error">{{error}}</p>{{/error}}
            {{#total}}
            <div class="stats">
            <div>Clicks<strong id="total-clicks">{{clicks}}</strong></div>
            <div>Installs<strong id="total-installs">{{installs}}</strong></div>
            <div>Claim rate<strong id="claim-rate">{{rate}}</strong></div>
            </div>
            <div class="breakdowns">{{#breakdowns}}
            <table class="breakdown" id="by-{{id}}"><caption>{{title}}</caption>
            {{#rows}}<tr><th>{{name}}</th><td>{{clicks}}</td><td><span class="bar" style="width:{{width}}px"></span></td></tr>
            {{/rows}}</table>{{/breakdowns}}
            </div>
            {{/total}}
            {{#chart}}{{^empty}}
            <p class="legend">Per day (last 30 with activity):<span style="background:#0a66d8"></span>clicks<span style="background:#1e9e5a"></span>installs</p>
            <svg id="chart" width="{{width}}" height="140" role="img" aria-label="Clicks and installs per day">
            {{#bars}}<g><title>{{day}}: {{clicks}} clicks, {{installs}} installs</title>
            <rect x="{{x}}" y="{{clicksY}}" width="14" height="{{clicksHeight}}" fill="#0a66d8"></rect>
            <rect x="{{installsX}}" y="{{installsY}}" width="14" height="{{installsHeight}}" fill="#1e9e5a"></rect></g>
            {{/bars}}
            </svg>
            {{/empty}}{{/chart}}
            <form method="post" action="{{#existing}}/admin/links/{{code}}{{/existing}}{{^existing}}/admin/links{{/existing}}" id="editor">
            <input type="hidden" name="csrf" value="{{csrf}}">
            {{^existing}}<label for="code">Code (blank for a generated one)</label>
            <input type="text" id="code" name="code" value="{{code}}" autocomplete="off">{{/existing}}
            {{#domainPicker}}<label for="domain">Domain</label>
            <select id="domain" name="domain">{{#domains}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/domains}}</select>{{/domainPicker}}
            <label for="deepLink">Deep link</label>
            <input type="text" id="deepLink" name="deepLink" value="{{deepLink}}" required autocomplete="off" placeholder="readapp://books/42">
            <div id="deepLink-check" class="check" aria-live="polite"></div>
            <label for="web">Web fallback (any https page)</label>
            <input type="text" id="web" name="web" value="{{web}}" autocomplete="off">
            <label for="ios">iPhone "Get the app" (instead of the App Store)</label>
            <input type="text" id="ios" name="ios" value="{{ios}}" autocomplete="off">
            <label for="android">Android (instead of the Play Store)</label>
            <input type="text" id="android" name="android" value="{{android}}" autocomplete="off">
            <label for="desktop">Desktop (instead of the web fallback)</label>
            <input type="text" id="desktop" name="desktop" value="{{desktop}}" autocomplete="off">
            <input type="hidden" name="passQueryShown" value="1">
            <label><input type="checkbox" id="passQuery" name="passQuery" value="on"{{#passQuery}} checked{{/passQuery}}> Pass a visit's query (utm_…) on</label>
            <label for="appStoreID">App Store id</label>
            <input type="text" id="appStoreID" name="appStoreID" value="{{appStoreID}}" autocomplete="off">
            <label for="title">Preview title</label>
            <input type="text" id="title" name="title" value="{{title}}" autocomplete="off">
            <label for="description">Preview description</label>
            <input type="text" id="description" name="description" value="{{description}}" autocomplete="off">
            <button type="submit" id="save">{{#existing}}Save{{/existing}}{{^existing}}Create{{/existing}}</button>
            </form>
            </main>
            <script src="/admin/admin.js"></script>
            </body>
            </html>
            """,
    ]
}
