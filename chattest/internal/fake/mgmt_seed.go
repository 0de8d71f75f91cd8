package fake

import (
	"fmt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// AddManagementApp does the work of chattest.Server.AddManagementApp, which documents it.
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
	touchField(st, &st.apps)
	app, err := st.addApp(a.Name, a.Region, chat.TimestampOf(st.clock()), st.owner())
	if err != nil {
		return appResult{err: fmt.Errorf("chattest: the account has %d active apps, its limit", maxManagementApps)}
	}
	return appResult{app: st.render(app, true)}
}

// ManagementApp does the work of chattest.Server.ManagementApp, which documents it.
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

// EnableExtensions does the work of chattest.Server.EnableExtensions, which documents it.
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
	touchField(st, &st.apps)
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
