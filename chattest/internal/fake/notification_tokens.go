package fake

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/chatrest/chat"
)

// maxPushTokensPerUser is how many push tokens a user may have; one more
// is refused (at most 100 active per user).
const maxPushTokensPerUser = 100

// maxPushTokenLen is the longest push token accepted, in characters.
const maxPushTokenLen = 4096

// pushPlatforms are the platforms a push token may be registered for.
var pushPlatforms = []chat.PushPlatform{
	chat.PushPlatformFCMAndroid, chat.PushPlatformFCMIOS, chat.PushPlatformFCMWeb,
	chat.PushPlatformFCMFlutterAndroid, chat.PushPlatformFCMFlutterIOS,
	chat.PushPlatformFCMReactNativeAndroid, chat.PushPlatformFCMReactNativeIOS,
	chat.PushPlatformFCMIonicCordovaAndroid, chat.PushPlatformFCMIonicCordovaIOS,
	chat.PushPlatformAPNsIOSDevice, chat.PushPlatformAPNsFlutterDevice,
	chat.PushPlatformAPNsReactNativeDevice, chat.PushPlatformAPNsIonicCordovaDevice,
	chat.PushPlatformAPNsIOSVoIP, chat.PushPlatformAPNsFlutterVoIP,
	chat.PushPlatformAPNsIonicCordovaVoIP, chat.PushPlatformAPNsReactNativeVoIP,
}

func notifTokenRoutes() []route {
	return []route{
		{pattern: "POST /v3/notifications/push/v1/tokens", reach: appOnly, handle: (*state).registerPushToken},
		{pattern: "GET /v3/notifications/push/v1/tokens", reach: appOnly, handle: (*state).listPushTokens},
		{pattern: "DELETE /v3/notifications/push/v1/tokens", reach: appOnly, handle: (*state).unregisterPushTokens},
		{pattern: "DELETE /v3/notifications/push/v1/tokens/{pushToken}", reach: appOnly, handle: (*state).deletePushToken},
	}
}

// isoTime is t as the push token answers show times.
func isoTime(c *call) string { return c.now.UTC().Format("2006-01-02T15:04:05.000Z") }

// authTokenUser returns the active user whose auth token tok is, or nil.
func (st *state) authTokenUser(tok string) *UserRec {
	if tok == "" {
		return nil
	}
	has := func(u *UserRec) bool {
		return slices.ContainsFunc(u.tokens, func(t chat.AuthToken) bool { return t.AuthToken == chat.Secret(tok) })
	}
	// Tokens the fake mints are "{uid}_{hex}": look at that user first.
	if i := strings.LastIndexByte(tok, '_'); i > 0 {
		if u := st.activeUser(tok[:i]); u != nil && has(u) {
			return u
		}
	}
	for _, u := range st.users {
		if !u.deactivated && has(u) {
			return u
		}
	}
	return nil
}

// errUnknownAuthToken answers an authToken that is no login of an active
// user: 404 ERR_AUTH_TOKEN_NOT_FOUND, the auth-token code (see
// CHOICES.md). The token is not echoed.
func errUnknownAuthToken() *apiError {
	return newAPIError(http.StatusNotFound, codeAuthTokenNotFound, "The auth token does not exist.", "").
		withDetail("authToken", "The authToken must be an auth token of an active user.")
}

func errPushTokenNotFound() *apiError {
	return newAPIError(http.StatusNotFound, codeTokenNotFound, "The push token does not exist for the user.", "")
}

func errPushTokenExists() *apiError {
	return newAPIError(http.StatusConflict, codeTokenExists,
		"The push token is already registered with another login.", "Unregister it from that login first.")
}

// bodyAuthUser reads the authToken of a body and returns its user.
func (st *state) bodyAuthUser(c *call) (*UserRec, string, error) {
	var b struct {
		AuthToken string `json:"authToken"`
	}
	if err := c.decode(&b); err != nil {
		return nil, "", err
	}
	if b.AuthToken == "" {
		return nil, "", validationError(map[string][]string{"authToken": {"The authToken field is required."}})
	}
	u := st.authTokenUser(b.AuthToken)
	if u == nil {
		return nil, "", errUnknownAuthToken()
	}
	return u, b.AuthToken, nil
}

// POST /v3/notifications/push/v1/tokens
//
// The token goes in fcmToken, deviceToken or voipToken as the platform
// says; authToken must be a login of an active user, and providerId, when
// empty, is the app's default FCM or APNs provider (a provider that does
// not exist is accepted: its notifications are logged with the reason
// INVALID_PUSH_PROVIDER_ID). A login keeps one token per kind (FCM,
// device, VoIP): registering another replaces it, and registering the
// same token again updates it. A token registered with another login is
// 409 ERR_TOKEN_ALREADY_EXISTS; a user's 101st token is refused (400).
// timezone, when sent, becomes the user's timezone.
func (st *state) registerPushToken(c *call) (any, error) {
	st.notifSync()
	var b struct {
		Platform    chat.PushPlatform `json:"platform"`
		ProviderID  string            `json:"providerId"`
		FCMToken    string            `json:"fcmToken"`
		DeviceToken string            `json:"deviceToken"`
		VoIPToken   string            `json:"voipToken"`
		AuthToken   string            `json:"authToken"`
		Timezone    string            `json:"timezone"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	field := b.Platform.TokenField()
	token := map[string]string{"fcmToken": b.FCMToken, "deviceToken": b.DeviceToken, "voipToken": b.VoIPToken}[field]
	switch {
	case b.Platform == "":
		v.add("platform", "The platform field is required.")
	case !slices.Contains(pushPlatforms, b.Platform):
		v.add("platform", "The platform %q is not supported.", b.Platform)
	case token == "":
		v.add(field, "The %s field is required for the platform %s.", field, b.Platform)
	case charLen(token) > maxPushTokenLen:
		v.add(field, "The %s may not be greater than %d characters.", field, maxPushTokenLen)
	}
	if b.AuthToken == "" {
		v.add("authToken", "The authToken field is required.")
	}
	checkText(&v, "providerId", b.ProviderID, false, 100)
	if b.Timezone != "" && !validTimezone(b.Timezone) {
		v.add("timezone", "The timezone must be an IANA time zone id, e.g. Asia/Kolkata.")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	u := st.authTokenUser(b.AuthToken)
	if u == nil {
		return nil, errUnknownAuthToken()
	}
	n := st.notif
	uid := u.u.UID
	if b.ProviderID == "" {
		b.ProviderID = n.fcm.def
		if field != "fcmToken" {
			b.ProviderID = n.apns.def
		}
	}
	now := isoTime(c)
	if i := slices.IndexFunc(n.tokens, func(t chat.PushToken) bool { return t.Token == chat.Secret(token) }); i >= 0 {
		t := &n.tokens[i]
		if t.AuthToken != chat.Secret(b.AuthToken) || t.Platform != b.Platform {
			return nil, errPushTokenExists()
		}
		t.ProviderID, t.UpdatedAt = b.ProviderID, now
	} else {
		// The login's token of the same kind is replaced.
		n.tokens = slices.DeleteFunc(n.tokens, func(t chat.PushToken) bool {
			return t.AuthToken == chat.Secret(b.AuthToken) && t.Platform.TokenField() == field
		})
		count := 0
		for _, t := range n.tokens {
			if t.UID == uid {
				count++
			}
		}
		if count >= maxPushTokensPerUser {
			return nil, validationError(map[string][]string{field: {fmt.Sprintf("A user can have at most %d push tokens.", maxPushTokensPerUser)}})
		}
		n.tokens = append(n.tokens, chat.PushToken{
			UID: uid, AuthToken: chat.Secret(b.AuthToken), Token: chat.Secret(token), Type: chat.PushTokenChat, Platform: b.Platform,
			ProviderID: b.ProviderID, CreatedAt: now, UpdatedAt: now,
		})
	}
	touchField(st, &n.tokens)
	if b.Timezone != "" {
		st.notifUser(uid).timezone = b.Timezone
	}
	return data(chat.Result{Success: true}), nil
}

// pushTokensOf returns the tokens of uid, or only those of the login
// authToken unless all.
func (n *notifStore) pushTokensOf(uid, authToken string, all bool) []chat.PushToken {
	out := []chat.PushToken{}
	for _, t := range n.tokens {
		if t.UID == uid && (all || t.AuthToken == chat.Secret(authToken)) {
			out = append(out, t)
		}
	}
	return out
}

// removePushTokens removes the tokens drop selects and returns them.
func (n *notifStore) removePushTokens(drop func(chat.PushToken) bool) []chat.PushToken {
	removed := []chat.PushToken{}
	n.tokens = slices.DeleteFunc(n.tokens, func(t chat.PushToken) bool {
		if drop(t) {
			removed = append(removed, t)
			return true
		}
		return false
	})
	return removed
}

// GET /v3/notifications/push/v1/tokens?authToken=&all=
//
// authToken is required (400) and must be a login of an active user
// (404 ERR_AUTH_TOKEN_NOT_FOUND).
func (st *state) listPushTokens(c *call) (any, error) {
	st.notifSync()
	p := c.params()
	authToken := p.str("authToken")
	all := p.boolean("all")
	if authToken == "" {
		p.v.add("authToken", "The authToken field is required.")
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	u := st.authTokenUser(authToken)
	if u == nil {
		return nil, errUnknownAuthToken()
	}
	return data(map[string]any{"pushTokens": st.notif.pushTokensOf(u.u.UID, authToken, all)}), nil
}

// DELETE /v3/notifications/push/v1/tokens?all=
//
// It answers with the tokens removed (see CHOICES.md).
func (st *state) unregisterPushTokens(c *call) (any, error) {
	st.notifSync()
	p := c.params()
	all := p.boolean("all")
	if err := p.err(); err != nil {
		return nil, err
	}
	u, authToken, err := st.bodyAuthUser(c)
	if err != nil {
		return nil, err
	}
	uid := u.u.UID
	removed := st.notif.removePushTokens(func(t chat.PushToken) bool {
		return t.UID == uid && (all || t.AuthToken == chat.Secret(authToken))
	})
	return data(map[string]any{"pushTokens": removed}), nil
}

// DELETE /v3/notifications/push/v1/tokens/{pushToken}
//
// The token must be one of the user of the body's authToken (from any of
// their logins), else 404 ERR_TOKEN_NOT_FOUND. It answers with the token
// removed.
func (st *state) deletePushToken(c *call) (any, error) {
	st.notifSync()
	u, _, err := st.bodyAuthUser(c)
	if err != nil {
		return nil, err
	}
	token, uid := c.r.PathValue("pushToken"), u.u.UID
	removed := st.notif.removePushTokens(func(t chat.PushToken) bool { return t.UID == uid && t.Token == chat.Secret(token) })
	if len(removed) == 0 {
		return nil, errPushTokenNotFound()
	}
	return data(map[string]any{"pushTokens": removed}), nil
}

// PushTokens does the work of chattest.Server.PushTokens, which documents it.
func (s *Core) PushTokens(uid string) []chat.PushToken {
	return synced(s, func(st *state) []chat.PushToken {
		st.notifSync()
		return st.notif.pushTokensOf(strings.ToLower(uid), "", true)
	})
}
