/// Where a push provider (Braze, OneSignal, Airship…) puts the link a marketer sets for a push,
/// the links of its action buttons, and the markers of its own pushes that open nothing. Each
/// preset cites the provider's documentation or SDK source it was written from.
///
/// Added to ``LinkIntake/notificationProviders``, presets are read after the app's own
/// ``LinkIntake/linkKeys`` and before its ``LinkIntake/notificationRules``, in the order listed.
///
/// ```swift
/// intake.notificationProviders = [.braze, .oneSignal]
/// intake.notification(NotificationResponseSnapshot(userInfo: ["ab": [:], "ab_uri": "myapp://books/42"]))
/// // .link("myapp://books/42", source .notification)
/// ```
public struct NotificationProvider: Sendable, Hashable, CustomStringConvertible {
    /// The name the manifest and the tool use: `braze`, `onesignal`.
    public let name: String
    /// The provider's name for people: `Braze`, `OneSignal`.
    public let title: String
    /// Where the tap's link is, in order; the first that holds text wins.
    public let links: [Location]
    /// Where an action button's link is, for the button the user chose.
    public let buttons: ButtonLinks?
    /// The provider's own pushes (silent syncs, in-app message triggers, uninstall tracking): a
    /// payload with one of these, in the form the provider documents, opens nothing.
    public let internalMarkers: [InternalMarker]
    /// Where the places above are documented: the provider's documentation or SDK source.
    public let reference: String
    /// A payload in the provider's shape for a push whose tap opens `link`: for tests, fixtures
    /// and `waypoint payload --provider`.
    public let samplePayload: @Sendable (String) -> PayloadValue

    /// A place that holds a link, when a condition at another place holds (Iterable's
    /// `defaultAction.type` is `openUrl`).
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// Where the link is.
        public let path: PayloadPath
        /// A place whose value must equal `equals` (compared as text) for the link to count; `nil` when
        /// it always counts.
        public let condition: (path: PayloadPath, equals: String)?

        /// The link at `path`, when `condition` holds:
        /// `Location(PayloadPath("defaultAction", "data"), when: (PayloadPath("defaultAction", "type"), "openUrl"))`.
        public init(_ path: PayloadPath, when condition: (path: PayloadPath, equals: String)? = nil) {
            self.path = path
            self.condition = condition
        }

        /// The link text here, if the condition holds.
        public func link(in payload: PayloadValue) -> String? {
            if let condition, condition.path.value(in: payload)?.text != condition.equals { return nil }
            guard let text = path.value(in: payload)?.text, !LinkIntake.isBlank(text) else { return nil }
            return text
        }

        public var description: String {
            condition.map { "\(path) (when \($0.path) is \($0.equals))" } ?? "\(path)"
        }

        public static func == (lhs: Location, rhs: Location) -> Bool {
            lhs.path == rhs.path && lhs.condition?.path == rhs.condition?.path
                && lhs.condition?.equals == rhs.condition?.equals
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(condition?.path)
            hasher.combine(condition?.equals)
        }
    }

    /// Where the chosen action button's link is.
    public enum ButtonLinks: Sendable, Hashable, CustomStringConvertible {
        /// Buttons with no link of their own: any button of the provider's push (one with a value
        /// at one of `pushes`) opens the push's tap link, as the provider's SDK does (OneSignal's
        /// buttons open its launch URL `custom.u`).
        ///
        /// Declared first, so its case tag is zero: a multi-payload enum keeps the tag in the spare
        /// bits of the first word, which for this case is a heap pointer, and a pointer so marked
        /// is invisible to the leak checker the fuzz targets run under (a preset is a global).
        case tapLink(pushes: [PayloadPath])
        /// An object keyed by action identifier, whose value holds the link at one of `links`
        /// (Airship's `com.urbanairship.interactive_actions.<id>.^d`).
        case keyed(PayloadPath, links: [Location])
        /// A list whose entry with `identifier` equal to the action identifier holds the link at
        /// `link` (Iterable's `itbl.actionButtons[].action.data`).
        case listed(PayloadPath, identifier: PayloadPath, link: Location)
        /// A list of the buttons in order, the action identifier being `prefix` and the button's
        /// number counted from `first`; its entry holds the link at one of `links` (Mixpanel's
        /// `MP_ACTION_0` is `mp_buttons[0]`, Countly's `CountlyActionIdentifier1` is `c.b[0]`).
        case numbered(PayloadPath, prefix: String, first: Int, links: [Location])

        /// The link of the button `action`, if the payload has one. (A ``tapLink(pushes:)`` button
        /// opens the tap's link, which only the provider knows: ``NotificationProvider/link(in:)``.)
        public func link(in payload: PayloadValue, action: String) -> String? {
            button(action, in: payload, taps: [])?.link
        }

        /// The button `action` as the payload declares it, with its link and where that was; `nil`
        /// when the payload declares no such button.
        package func button(
            _ action: String,
            in payload: PayloadValue,
            taps: [Location]
        ) -> (link: String?, place: String?)? {
            switch self {
            case .tapLink(let pushes):
                guard pushes.contains(where: { $0.value(in: payload).map { $0 != .null } ?? false }) else { return nil }
                let found = taps.lazy.compactMap { place in place.link(in: payload).map { ($0, place) } }.first
                return (found?.0, found.map { "\($0.1) (the tap's link, which its buttons open)" })
            case .keyed(let object, let links):
                guard let entry = object.appending(action).value(in: payload) else { return nil }
                let found = links.lazy.compactMap { place in place.link(in: entry).map { ($0, place) } }.first
                return (found?.0, found.map { "\(object.appending(action)).\($0.1)" })
            case .listed(let list, let identifier, let link):
                guard case .array(let entries) = list.value(in: payload),
                    let entry = entries.first(where: { identifier.value(in: $0)?.text == action })
                else { return nil }
                let text = link.link(in: entry)
                return (text, text.map { _ in "\(list)[\(identifier) = \(action)].\(link)" })
            case .numbered(let list, let prefix, let first, let links):
                // Digits only: no sign, no `+1` or `-0`, and no number that overflows on the way.
                let digits = action.dropFirst(prefix.count)
                guard action.hasPrefix(prefix), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let number = Int(digits), case .array(let entries) = list.value(in: payload),
                    case let (index, overflow) = number.subtractingReportingOverflow(first), !overflow,
                    entries.indices.contains(index)
                else { return nil }
                let found = links.lazy.compactMap { place in place.link(in: entries[index]).map { ($0, place) } }.first
                return (found?.0, found.map { "\(list)[\(index)].\($0.1)" })
            }
        }

        public var description: String {
            switch self {
            case .keyed(let object, let links):
                "\(object).<action>." + links.map(\.description).joined(separator: " or ")
            case .listed(let list, let identifier, let link):
                "\(list)[\(identifier) = <action>].\(link)"
            case .numbered(let list, let prefix, let first, let links):
                "\(list)[<n> - \(first) of \(prefix)<n>]." + links.map(\.description).joined(separator: " or ")
            case .tapLink(let pushes):
                "the tap's link, for any button of a push with " + pushes.map(\.description).joined(separator: " or ")
            }
        }
    }

    /// A mark of one of the provider's own pushes: a place in the payload, and the form of value
    /// the provider documents there. Only that form marks the push: `"False"`, `"0.0"`, `""` or
    /// `"off"` at a flag's place is no flag, and the push's link is routed as usual.
    ///
    /// ```swift
    /// let marker = NotificationProvider.InternalMarker(PayloadPath("moengage", "silentPush"), .flag)
    /// marker.marks(["moengage": ["silentPush": 1]])        // true
    /// marker.marks(["moengage": ["silentPush": "False"]])  // false
    /// ```
    public struct InternalMarker: Sendable, Hashable, CustomStringConvertible {
        /// The forms a marker's value takes in providers' documentation.
        public enum Form: String, Sendable, Hashable {
            /// `true` or `1` (`"silentPush": 1`), or the text `"true"` or `"1"` from a sender that
            /// writes every value as text. Nothing else: not `"False"`, `"0.0"`, `"off"` or `""`.
            case flag
            /// Something the provider fills in: an object, a list, or a text such as an id or a URL
            /// (`"os_in_app_message_preview_id": "5b1c…"`). An empty text, `null`, `false`, a zero and
            /// the words `false`, `no`, `off`, `null` and `nil` are not a value.
            case value
        }

        /// Where the marker is.
        public let path: PayloadPath
        /// The form of value that marks the push.
        public let form: Form
        /// The one value that marks the push, when the place also holds others that do not
        /// (Intercom's `intercom_push_type` is `notification` for its own conversation pushes,
        /// `push_only` for a marketer's push with a link).
        public let equals: String?

        /// A marker at `path` in `form`; see the example above.
        public init(_ path: PayloadPath, _ form: Form) {
            self.path = path
            self.form = form
            self.equals = nil
        }

        /// A marker that is one value at `path`, compared as text.
        ///
        /// ```swift
        /// let marker = NotificationProvider.InternalMarker(PayloadPath("intercom_push_type"), equals: "notification")
        /// marker.marks(["intercom_push_type": "push_only"])   // false
        /// ```
        public init(_ path: PayloadPath, equals value: String) {
            self.path = path
            self.form = .value
            self.equals = value
        }

        /// Whether `payload` carries this marker in its documented form.
        public func marks(_ payload: PayloadValue) -> Bool {
            guard let value = path.value(in: payload) else { return false }
            if let equals { return value.text == equals }
            switch (form, value) {
            case (.flag, .bool(let flag)): return flag
            case (.flag, .int(let number)): return number == 1
            case (.flag, .double(let number)): return number == 1
            case (.flag, .string(let text)):
                return ["true", "1"].contains(String(text.lowercased().filter { !$0.isWhitespace }))
            case (.flag, _): return false
            case (.value, .null), (.value, .bool(false)): return false
            case (.value, .bool(true)), (.value, .array), (.value, .object): return true
            case (.value, .int(let number)): return number != 0
            case (.value, .double(let number)): return number != 0 && !number.isNaN
            case (.value, .string(let text)):
                let word = String(text.lowercased().filter { !$0.isWhitespace })
                return !word.isEmpty && !Self.emptyWords.contains(word) && Double(word) != 0
            }
        }

        /// Words that say "no value" in a text.
        static let emptyWords: Set<String> = ["false", "no", "off", "null", "nil", "none", "undefined"]

        public var description: String { equals.map { "\(path) = \($0)" } ?? "\(path) (\(form.rawValue))" }
    }

    /// A provider of the app's own, for a sender Waypoint has no preset for:
    ///
    /// ```swift
    /// let acme = NotificationProvider(
    ///     name: "acme", title: "Acme Push", links: [.init(PayloadPath("acme", "url"))],
    ///     reference: "https://acme.example/docs/push",
    ///     samplePayload: NotificationProvider.sample(["acme": ["url": "{link}"]], opening: "{link}")
    /// )
    /// ```
    public init(
        name: String,
        title: String,
        links: [Location],
        buttons: ButtonLinks? = nil,
        internalMarkers: [InternalMarker] = [],
        reference: String,
        samplePayload: @escaping @Sendable (String) -> PayloadValue
    ) {
        self.name = name
        self.title = title
        self.links = links
        self.buttons = buttons
        self.internalMarkers = internalMarkers
        self.reference = reference
        self.samplePayload = samplePayload
    }

    /// A ``samplePayload`` made from one payload of the provider's: the push it describes, with the
    /// given link wherever the text `placeholder` stands (as a whole value).
    ///
    /// ```swift
    /// let sample = NotificationProvider.sample(["acme": ["url": "{link}"]], opening: "{link}")
    /// sample("myapp://books/42")   // ["acme": ["url": "myapp://books/42"]]
    /// ```
    public static func sample(
        _ template: PayloadValue,
        opening placeholder: String
    ) -> @Sendable (String) -> PayloadValue {
        { link in template.replacingText(placeholder, with: link) }
    }

    /// The tap's link in `payload`, if this provider's places hold one.
    public func link(in payload: PayloadValue) -> String? {
        links.lazy.compactMap { $0.link(in: payload) }.first
    }

    /// The internal marker `payload` carries in its documented form, if it is one of the provider's
    /// own pushes.
    package func internalMarker(in payload: PayloadValue) -> InternalMarker? {
        internalMarkers.first { $0.marks(payload) }
    }

    /// Where this provider looks, for people: `Braze: ab_uri`.
    public var places: String {
        let taps = links.map(\.description)
        let button = buttons.map { ["buttons at \($0)"] } ?? []
        let all = taps + button
        return "\(title): " + (all.isEmpty ? "no link (its internal pushes only)" : all.joined(separator: ", "))
    }

    public var description: String { name }

    public static func == (lhs: NotificationProvider, rhs: NotificationProvider) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
