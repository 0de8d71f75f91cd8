package fake

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/chatrest/chat"
)

// maxTokensPerUser is how many auth tokens a user keeps; minting one more
// drops the oldest (100 active, rolling).
const maxTokensPerUser = 100

func authTokenRoutes() []route {
	return []route{
		{pattern: "POST /v3/users/{uid}/auth_tokens", authOnly: true, reach: appOnly, handle: (*state).createAuthToken},
		{pattern: "GET /v3/users/{uid}/auth_tokens", reach: appOnly, handle: (*state).listAuthTokens},
		{pattern: "DELETE /v3/users/{uid}/auth_tokens", reach: appOnly, handle: (*state).flushAuthTokens},
		{pattern: "GET /v3/users/{uid}/auth_tokens/{authToken}", reach: appOnly, handle: (*state).getAuthToken},
		{pattern: "PUT /v3/users/{uid}/auth_tokens/{authToken}", reach: appOnly, handle: (*state).updateAuthToken},
		{pattern: "DELETE /v3/users/{uid}/auth_tokens/{authToken}", reach: appOnly, handle: (*state).deleteAuthToken},
	}
}

// mintToken creates an auth token for u: "{uid}_" and 40 characters, the
// time in Unix seconds then random hex (credentials.go).
func (st *state) mintToken(u *UserRec, c *call) chat.AuthToken {
	tok := st.issue(func() string { return authTokenFor(u.u.UID, c.now) })
	t := chat.AuthToken{UID: u.u.UID, AuthToken: chat.Secret(tok), CreatedAt: c.timestamp()}
	u.tokens = append(u.tokens, t)
	st.touchUser(u)
	if len(u.tokens) > maxTokensPerUser {
		u.tokens = slices.Delete(u.tokens, 0, len(u.tokens)-maxTokensPerUser)
	}
	return t
}

// tokenUser returns the active user of the path's {uid}.
func (st *state) tokenUser(c *call) (*UserRec, error) {
	uid := c.uid("uid")
	u := st.activeUser(uid)
	if u == nil {
		return nil, errUIDNotFound(uid)
	}
	return u, nil
}

// token returns the path's user and the index of the path's {authToken}
// among that user's tokens.
func (st *state) token(c *call) (*UserRec, int, error) {
	u, err := st.tokenUser(c)
	if err != nil {
		return nil, 0, err
	}
	tok := c.r.PathValue("authToken")
	i := slices.IndexFunc(u.tokens, func(t chat.AuthToken) bool { return t.AuthToken == chat.Secret(tok) })
	if i < 0 {
		return nil, 0, errAuthTokenNotFound(u.u.UID)
	}
	return u, i, nil
}

// POST /v3/users/{uid}/auth_tokens
//
// Without force it returns the user's newest token when there is one.
func (st *state) createAuthToken(c *call) (any, error) {
	u, err := st.tokenUser(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Force bool `json:"force"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if !b.Force && len(u.tokens) > 0 {
		return data(u.tokens[len(u.tokens)-1]), nil
	}
	t := st.mintToken(u, c)
	st.closeRevoked(u.u.UID) // access.go: the oldest token may have rolled off
	return data(t), nil
}

// GET /v3/users/{uid}/auth_tokens
func (st *state) listAuthTokens(c *call) (any, error) {
	u, err := st.tokenUser(c)
	if err != nil {
		return nil, err
	}
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	page, meta := paginate(u.tokens, pq)
	return chat.Page[chat.AuthToken]{Data: page, Meta: meta}, nil
}

// GET /v3/users/{uid}/auth_tokens/{authToken}
func (st *state) getAuthToken(c *call) (any, error) {
	u, i, err := st.token(c)
	if err != nil {
		return nil, err
	}
	return data(u.tokens[i]), nil
}

// PUT /v3/users/{uid}/auth_tokens/{authToken}
//
// Fields absent from the body are left unchanged.
func (st *state) updateAuthToken(c *call) (any, error) {
	u, i, err := st.token(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Platform  *string         `json:"platform"`
		UserAgent *string         `json:"userAgent"`
		AppInfo   json.RawMessage `json:"appInfo"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	t := &u.tokens[i]
	st.touchUser(u)
	if b.Platform != nil {
		t.Platform = *b.Platform
	}
	if b.UserAgent != nil {
		t.UserAgent = *b.UserAgent
	}
	if len(b.AppInfo) > 0 && !bytes.Equal(b.AppInfo, []byte("null")) {
		t.AppInfo = slices.Clone(b.AppInfo)
	}
	return data(*t), nil
}

// DELETE /v3/users/{uid}/auth_tokens/{authToken}
func (st *state) deleteAuthToken(c *call) (any, error) {
	u, i, err := st.token(c)
	if err != nil {
		return nil, err
	}
	u.tokens = slices.Delete(u.tokens, i, i+1)
	st.touchUser(u)
	st.closeRevoked(u.u.UID) // access.go
	return data(chat.Result{Success: true, Message: "The auth token of user " + u.u.UID + " has been deleted successfully."}), nil
}

// DELETE /v3/users/{uid}/auth_tokens
func (st *state) flushAuthTokens(c *call) (any, error) {
	u, err := st.tokenUser(c)
	if err != nil {
		return nil, err
	}
	u.tokens = nil
	st.touchUser(u)
	st.closeRevoked(u.u.UID) // access.go
	return data(chat.Result{Success: true, Message: "All auth tokens of user " + u.u.UID + " have been deleted successfully."}), nil
}
