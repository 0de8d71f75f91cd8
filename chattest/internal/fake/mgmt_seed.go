package fake

import (
	"fmt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// AddManagementApp creates an app of the management account without going
// through the API, as POST /apps does (its id derives from name, with two
// new API keys), and returns it as the API lists it. Like the API it
// refuses beyond [maxManagementApps] active apps, with an error; unlike it,
// it validates neither name nor region. The app is a record: the chat API
// serves only the fake's own app.
func (s *Core) AddManagementApp(name string, region chat.Region) (management.App, error) {
	r := seeded(s, "AddManagementApp", appArgs{name, region}, (*state).seedApp)
	return r.app, r.err
}

// appArgs are the arguments of [Server.AddManagementApp].
type appArgs struct {
	Name   string      `json:"name"`
	Region chat.Region `json:"region"`
}

// appResult is what [Server.AddManagementApp] returns.
type appResult struct {
	app management.App
	err error
}

// seedApp is [Server.AddManagementApp] with st.mu held.
func (st *state) seedApp(a appArgs) appResult {
	app, err := st.addApp(a.Name, a.Region, chat.TimestampOf(st.clock()), st.owner())
	if err != nil {
		return appResult{err: fmt.Errorf("chattest: the account has %d active apps, its limit", maxManagementApps)}
	}
	return appResult{app: st.render(app, true)}
}

// ManagementApp returns the app id as the management API lists it (the
// fake's own app has id [Server.AppID]); ok is false when there is none.
func (s *Core) ManagementApp(id string) (app management.App, ok bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	a := st.apps[id]
	if a == nil {
		return management.App{}, false
	}
	return st.render(a, true), true
}

// EnableExtensions enables extensions of the app appID without going
// through the API, e.g. before a test stores their settings. It reports
// false, enabling nothing, when the app does not exist or an id is not one
// of [management.KnownExtensionIDs].
func (s *Core) EnableExtensions(appID string, ids ...management.ExtensionID) bool {
	return seeded(s, "EnableExtensions", extensionsArgs{appID, ids}, (*state).seedExtensions)
}

// extensionsArgs are the arguments of [Server.EnableExtensions].
type extensionsArgs struct {
	AppID string                   `json:"appId"`
	IDs   []management.ExtensionID `json:"ids"`
}

// seedExtensions is [Server.EnableExtensions] with st.mu held.
func (st *state) seedExtensions(args extensionsArgs) bool {
	appID, ids := args.AppID, args.IDs
	a := st.apps[appID]
	if a == nil {
		return false
	}
	for _, id := range ids {
		if !knownExtension(id) {
			return false
		}
	}
	for _, id := range ids {
		a.extension(id).enabled = true
	}
	return true
}
