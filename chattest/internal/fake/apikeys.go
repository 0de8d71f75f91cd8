package fake

import (
	"sort"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

const (
	scopeFullAccess = chat.ScopeFullAccess
	scopeAuthOnly   = chat.ScopeAuthOnly
	// maxAPIKeys is how many API keys an app may have.
	maxAPIKeys = 25
)

// apiKeyRec is a stored API key; seq orders the list.
type apiKeyRec struct {
	k   chat.APIKey
	seq int64
}

func apiKeyRoutes() []route {
	return []route{
		{pattern: "POST /v3/apikeys", reach: appOnly, handle: (*state).createAPIKey},
		{pattern: "GET /v3/apikeys", reach: appOnly, handle: (*state).listAPIKeys},
		{pattern: "GET /v3/apikeys/{apiKey}", reach: appOnly, handle: (*state).getAPIKey},
		{pattern: "PUT /v3/apikeys/{apiKey}", reach: appOnly, handle: (*state).updateAPIKey},
		{pattern: "DELETE /v3/apikeys/{apiKey}", reach: appOnly, handle: (*state).deleteAPIKey},
	}
}

// addAPIKey stores a key; an empty key is generated (40 random hex
// characters: credentials.go).
func (st *state) addAPIKey(key, name string, scope chat.Scope, now time.Time) *apiKeyRec {
	st.apiKeySeq++
	for key == "" || st.apiKeys[key] != nil {
		key = st.issue(RandomHex)
	}
	k := &apiKeyRec{k: chat.APIKey{APIKey: chat.Secret(key), Name: name, Scope: scope, CreatedAt: chat.TimestampOf(now)}, seq: st.apiKeySeq}
	st.apiKeys[key] = k
	touch(st, &st.apiKeys, key)
	return k
}

// checkScope validates a scope; empty is allowed (the caller defaults it).
func checkScope(v *validator, s chat.Scope) {
	if s != "" && s != scopeFullAccess && s != scopeAuthOnly {
		v.add("scope", `The scope must be "fullAccess" or "authOnly".`)
	}
}

// POST /v3/apikeys
func (st *state) createAPIKey(c *call) (any, error) {
	var b struct {
		Name  string     `json:"name"`
		Scope chat.Scope `json:"scope"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, 100)
	checkScope(&v, b.Scope)
	if err := v.err(); err != nil {
		return nil, err
	}
	if len(st.apiKeys) >= maxAPIKeys {
		return nil, errAPIKeyQuota()
	}
	if b.Scope == "" {
		b.Scope = scopeAuthOnly
	}
	return data(st.addAPIKey("", b.Name, b.Scope, c.now).k), nil
}

// GET /v3/apikeys
//
// searchKey matches names containing it, ignoring case.
func (st *state) listAPIKeys(c *call) (any, error) {
	p := c.params()
	pq := pageParams(p)
	scope := chat.Scope(p.str("scope"))
	checkScope(&p.v, scope)
	search := strings.ToLower(p.str("searchKey"))
	if err := p.err(); err != nil {
		return nil, err
	}
	var match []*apiKeyRec
	for _, k := range st.apiKeys {
		if (scope == "" || k.k.Scope == scope) && strings.Contains(strings.ToLower(k.k.Name), search) {
			match = append(match, k)
		}
	}
	sort.Slice(match, func(i, j int) bool { return match[i].seq < match[j].seq })
	page, meta := paginate(match, pq)
	out := make([]chat.APIKey, len(page))
	for i, k := range page {
		out[i] = k.k
	}
	return chat.Page[chat.APIKey]{Data: out, Meta: meta}, nil
}

// pathKey returns the stored key named by the path's {apiKey}.
func (st *state) pathKey(c *call) (*apiKeyRec, error) {
	k := st.apiKeys[c.r.PathValue("apiKey")]
	if k == nil {
		return nil, errAPIKeyNotFound()
	}
	return k, nil
}

// GET /v3/apikeys/{apiKey}
func (st *state) getAPIKey(c *call) (any, error) {
	k, err := st.pathKey(c)
	if err != nil {
		return nil, err
	}
	return data(k.k), nil
}

// PUT /v3/apikeys/{apiKey}
func (st *state) updateAPIKey(c *call) (any, error) {
	k, err := st.pathKey(c)
	if err != nil {
		return nil, err
	}
	if k.k.APIKey == chat.Secret(c.apiKey) {
		return nil, errAPIKeyNoSelfAction()
	}
	var b struct {
		Name  *string    `json:"name"`
		Scope chat.Scope `json:"scope"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if b.Name != nil {
		checkText(&v, "name", *b.Name, true, 100)
	}
	checkScope(&v, b.Scope)
	if err := v.err(); err != nil {
		return nil, err
	}
	if b.Name != nil {
		k.k.Name = *b.Name
	}
	if b.Scope != "" {
		k.k.Scope = b.Scope
	}
	touch(st, &st.apiKeys, string(k.k.APIKey))
	return data(k.k), nil
}

// DELETE /v3/apikeys/{apiKey}
func (st *state) deleteAPIKey(c *call) (any, error) {
	k, err := st.pathKey(c)
	if err != nil {
		return nil, err
	}
	if k.k.APIKey == chat.Secret(c.apiKey) {
		return nil, errAPIKeyNoSelfAction()
	}
	delete(st.apiKeys, string(k.k.APIKey))
	touch(st, &st.apiKeys, string(k.k.APIKey))
	return data(chat.Result{Success: true, Message: "The API key " + k.k.Name + " has been deleted successfully."}), nil
}

// AddAPIKey does the work of chattest.Server.AddAPIKey, which documents it.
func (s *Core) AddAPIKey(name string, scope chat.Scope) chat.APIKey {
	return seeded(s, "AddAPIKey", apiKeyArgs{name, scope}, (*state).seedAPIKey)
}

// apiKeyArgs are the arguments of [Server.AddAPIKey].
type apiKeyArgs struct {
	Name  string     `json:"name"`
	Scope chat.Scope `json:"scope,omitempty"`
}

// seedAPIKey is [Server.AddAPIKey] with st.mu held.
func (st *state) seedAPIKey(a apiKeyArgs) chat.APIKey {
	if a.Scope == "" {
		a.Scope = scopeAuthOnly
	}
	return st.addAPIKey("", a.Name, a.Scope, st.clock()).k
}
