package chat

import "github.com/chatrest/chat/internal/redact"

// Secret is a credential the API sends or receives: an API key, an auth
// token, a group's or a webhook's password, a push or email provider's
// key. On the wire it is a JSON string like any other, and string(s) is its
// value; but printing it with any fmt verb, or logging it with log/slog,
// shows REDACTED (an empty Secret shows as ""), and an error of a call whose
// request carried it never shows it, even when the service echoes it back.
type Secret = redact.Secret
