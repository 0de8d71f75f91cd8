#!/bin/sh
# make.sh COMMIT [PORT]: makes the fixture of the release COMMIT in ./COMMIT:
# builds cmd/chattest at that commit, runs it with -data COMMIT/data on
# loopback, makes a state through HTTP (users, a repeated create of a user,
# a group and its members, messages, a thread reply, a reaction, an auth
# token, an API key), stops it (SIGTERM), and exports the directory to
# COMMIT/export.json with the same binary. COMMIT/issued.json keeps the
# credentials that the state issued, for the test to try them.
# Run it from this directory, in a checkout of the repository, with curl.
set -eu
COMMIT=$1 PORT=${2:-18560}
OUT=$(pwd)/$COMMIT
KEY=0123456789abcdef0123456789abcdef01234567 # the server's own API key (-api-key)
APP=fixture-app
TMP=$(mktemp -d)
trap 'git worktree remove --force "$TMP/src" 2>/dev/null || true; rm -rf "$TMP"' EXIT
git worktree add --detach "$TMP/src" "$COMMIT" >/dev/null
if [ -f "$TMP/src/cmd/chattest/go.mod" ]; then
	(cd "$TMP/src/cmd/chattest" && go build -o "$TMP/chattest" .)
else
	(cd "$TMP/src" && go build -o "$TMP/chattest" ./cmd/chattest)
fi
rm -rf "$OUT" && mkdir -p "$OUT"
"$TMP/chattest" -http -addr 127.0.0.1:$PORT -app-id $APP -api-key $KEY -data "$OUT/data" >"$TMP/log" 2>&1 &
PID=$!
U=http://127.0.0.1:$PORT
until curl -s -o /dev/null "$U/v3/users" -H "apikey: $KEY"; do sleep 0.2; done
req() { # METHOD PATH BODY [onBehalfOf]: prints the answer's body
	curl -s -X "$1" "$U$2" -H "apikey: $KEY" -H 'Content-Type: application/json' ${4:+-H "onBehalfOf: $4"} -d "$3"
}
req POST /v3/users '{"uid":"alice","name":"Alice","metadata":{"team":"blue"}}' >/dev/null
req POST /v3/users '{"uid":"bob","name":"Bob"}' >/dev/null
req POST /v3/users '{"uid":"carol","name":"Carol"}' >/dev/null
req POST /v3/users '{"uid":"alice","name":"Alice again"}' | grep -q ERR_UID_ALREADY_EXISTS # answered 409
req POST /v3/groups '{"guid":"team","name":"Team","type":"public"}' >/dev/null
req POST /v3/groups/team/members '{"participants":["alice","bob"],"moderators":["carol"]}' >/dev/null
M1=$(req POST /v3/messages '{"receiver":"team","receiverType":"group","category":"message","type":"text","data":{"text":"hello team"}}' alice | grep -o '"id":"[0-9]*"' | head -1 | tr -dc 0-9)
req POST /v3/messages '{"receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"hi bob"}}' alice >/dev/null
req POST "/v3/messages/$M1/thread" '{"receiver":"team","receiverType":"group","category":"message","type":"text","data":{"text":"a reply"}}' bob >/dev/null
req POST "/v3/messages/$M1/reactions/%F0%9F%91%8D" '{}' carol >/dev/null
TOKEN=$(req POST /v3/users/alice/auth_tokens '{}' | grep -o '"authToken":"[^"]*"' | cut -d'"' -f4)
APIKEY=$(req POST /v3/apikeys '{"name":"ci key","scope":"fullAccess"}' | grep -o '"apiKey":"[^"]*"' | cut -d'"' -f4)
kill -TERM $PID
wait $PID || true
"$TMP/chattest" -app-id $APP -api-key $KEY -data "$OUT/data" -export "$OUT/export.json"
printf '{"commit":"%s","appId":"%s","ownAPIKey":"%s","message":"%s","authToken":"%s","apiKey":"%s"}\n' \
	"$(git rev-parse "$COMMIT")" $APP $KEY "$M1" "$TOKEN" "$APIKEY" >"$OUT/issued.json"
echo "made $OUT"
