#!/usr/bin/env bash
# The main job: the `waypoint` tool on the example manifests of the five scenarios in Examples/README.md.
# Every command's exit status is checked against the one it must have; the script fails otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

swift build --product waypoint >/dev/null || exit 1
waypoint="$(swift build --show-bin-path)/waypoint"
manifests=Examples/Manifests
failures=0

# run EXPECTED-STATUS ARGUMENTS…: print the command and its output, and check its exit status.
run() {
    local expected=$1
    shift
    printf '\n$ waypoint %s\n' "$*"
    "$waypoint" "$@"
    local status=$?
    if [ "$status" -ne "$expected" ]; then
        echo "!! exit status $status, expected $expected"
        failures=$((failures + 1))
    fi
}

echo "== 1. Apartments: chats, requests, quick actions per profile, a push that opens the chat"
run 0 lint --manifest $manifests/apartments.yaml
run 0 resolve --manifest $manifests/apartments.yaml deeplinkTutorial://messages/1 deeplinkTutorial://request/1
run 0 resolve --manifest $manifests/apartments.yaml --shortcut com.example.apartments.listing.new
echo '{"aps":{"alert":"New message"},"data":{"messageId":"1"}}' >/tmp/waypoint-push.json
run 0 resolve --manifest $manifests/apartments.yaml --notification /tmp/waypoint-push.json --format json
run 1 resolve --manifest $manifests/apartments.yaml deeplinkTutorial://messages/one otherapp://messages/1
run 0 aasa generate --manifest $manifests/apartments.yaml
$waypoint aasa generate --manifest $manifests/apartments.yaml >/tmp/waypoint-aasa.json
run 1 aasa check /tmp/waypoint-aasa.json --url https://apartments.example.com/messages/1 --url https://apartments.example.com/messages/1/edit --url https://apartments.example.com/admin/users
run 0 payload messages.detail --param id=1 --title "New message" --manifest $manifests/apartments.yaml

echo
echo "== 2. Payments: a payment link behind the auth barrier"
run 0 resolve --manifest $manifests/payments.yaml --format json "app:///pay?order_id=123" "app://pay?order_id=123"

echo
echo "== 3. Reading app: every source; own domain in the app, other sites outside"
run 0 lint --manifest $manifests/reading.yaml
run 0 resolve --manifest $manifests/reading.yaml readapp://books/42 https://read.example.com/b/42 "readapp://books/7/chapters/第一章 开始"
run 1 resolve --manifest $manifests/reading.yaml https://news.example.org/story readapp://account/delete
run 0 resolve --manifest $manifests/reading.yaml --web-message openBook --body '{"id": 3}'
run 0 codegen --manifest $manifests/reading.yaml

echo
echo "== 4. Tutoring: an order from a push on a killed app"
run 0 resolve --manifest $manifests/tutoring.yaml "wenxiaoyou://order_detail?order_id=1234"

echo
echo "== 5. Notification actions and notification settings"
echo '{"aps":{"category":"post"},"postId":"8","deeplink":"social://posts/8"}' >/tmp/waypoint-post.json
run 0 resolve --manifest $manifests/notifications.yaml --notification /tmp/waypoint-post.json --action open
run 0 resolve --manifest $manifests/notifications.yaml --notification /tmp/waypoint-post.json --action report
run 1 resolve --manifest $manifests/notifications.yaml --notification /tmp/waypoint-post.json --action like
run 0 resolve --manifest $manifests/notifications.yaml --notification-settings
# The app's own push service, described in the manifest with samples lint checks; a Klaviyo push's
# button, sent with the push.
run 0 lint --manifest $manifests/notifications.yaml
echo '{"aps":{"alert":"Mia commented"},"social":{"actions":{"view":{"link":"social://posts/8"},"mute":{}}}}' >/tmp/waypoint-social.json
run 0 resolve --manifest $manifests/notifications.yaml --notification /tmp/waypoint-social.json --action view
echo '{"aps":{"alert":"New arrivals"},"body":{"_k":{},"action_buttons":[{"id":"shop","label":"Shop","action":"deep_link","url":"social://posts/8"},{"id":"later","label":"Open App","action":"open_app"}]}}' >/tmp/waypoint-klaviyo.json
run 0 resolve --manifest $manifests/notifications.yaml --provider klaviyo --notification /tmp/waypoint-klaviyo.json --action shop
run 1 resolve --manifest $manifests/notifications.yaml --provider klaviyo --notification /tmp/waypoint-klaviyo.json --action later
run 0 plist --manifest $manifests/notifications.yaml --entitlements

echo
if [ "$failures" -ne 0 ]; then
    echo "$failures command(s) did not exit as expected"
    exit 1
fi
echo "every command exited as expected"
