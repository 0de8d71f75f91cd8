package fake

// The apikey and onBehalfOf headers, canonical, as http.Header keys them:
// Header.Get allocates to canonicalize any other spelling.
const (
	headerAPIKey     = "Apikey"
	headerOnBehalfOf = "Onbehalfof"
)

// authorize checks the apikey header, the key's scope, and the onBehalfOf
// header as rt requires, and records the caller in c.
func (st *state) authorize(rt route, c *call) error {
	switch rt.auth {
	case authClient:
		return st.authorizeClient(c)
	case authMgmt, authBasic:
		return st.authorizeMgmt(rt, c)
	}
	key := c.r.Header.Get(headerAPIKey)
	if key == "" {
		return errEmptyAPIKey()
	}
	k := st.apiKeys[key]
	if k == nil {
		return errAPIKeyUnknown(st.appID)
	}
	if k.k.Scope != scopeFullAccess && !rt.authOnly {
		return errNoAccess()
	}
	c.apiKey = key
	if rt.obo == oboIgnored {
		return nil
	}
	uid := c.r.Header.Get(headerOnBehalfOf)
	if uid == "" {
		if rt.obo == oboRequired {
			return errOnBehalfOfRequired()
		}
		return nil
	}
	u := st.activeUser(uid)
	if u == nil {
		return errUIDNotFound(uid)
	}
	c.onBehalfOf = u.u.UID
	return nil
}
