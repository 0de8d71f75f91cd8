package fake

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// The account behind the management key and secret: the owner of the fake's
// own app and of the apps created with [management.AppsService.Create].
const (
	// mgmtOwnerEmail is the email address of the account the
	// management credentials belong to (chattest.ManagementOwnerEmail).
	// Adding it as a collaborator is refused with ERR_SELF_ACTION_DENIED.
	mgmtOwnerEmail = "owner@chattest.example"
	mgmtOwnerID    = "1"
	mgmtOwnerName  = "Chattest Owner"
)

// maxManagementApps is how many active apps the fake's account may have
// (chattest.MaxManagementApps),
// its own app and tenants' apps included; creating one more fails with 403
// ERR_APP_CREATION_FAILED_MAX_LIMIT. Archived apps do not count.
const maxManagementApps = 10

// appDeletionDelay is how long an archived app waits for its deletion.
const appDeletionDelay = 30 * 24 * time.Hour

// mgmtState holds the management API's apps, tenants, collaborators,
// settings and extensions.
type mgmtState struct {
	apps    map[string]*mgmtApp // by id
	appSeq  int64               // apps created so far, the fake's own included
	tenants map[string]bool     // the (lower-cased) emails of the tenants added
	teamSeq int64               // collaborators added so far
	widgets int64               // chat widgets stored so far
	since   chat.Timestamp      // when the management account was created: the server's start
}

// mgmtApp is one app of the account. Only the fake's own app (own) is
// served by the chat API; the others are records.
type mgmtApp struct {
	seq       int64
	own       bool
	app       management.App // without APIKeys for the own app: those are the chat API's (st.apiKeys)
	scheduled chat.Timestamp // when an archived app is deleted for good

	team       []*management.Collaborator
	settings   map[management.SettingKey]any // bool, or []string
	extensions map[management.ExtensionID]*extensionRec
	widgets    []*widgetRec
	certP12    bool
	certP8     bool
}

// init seeds the fake's own app: id st.appID, region us, owned by the
// management account.
func (m *mgmtState) init(st *state) {
	m.apps = map[string]*mgmtApp{}
	m.tenants = map[string]bool{}
	m.since = chat.TimestampOf(st.clock())
	a := m.newApp(st.appID, st.appID, chat.RegionUS, m.since, m.owner())
	a.own = true
	a.app.AccessKey = chat.Secret(st.hexID("mgmt-access-key", a.seq))
}

// owner is the management account as an app owner.
func (m *mgmtState) owner() management.AppOwner {
	return management.AppOwner{ID: mgmtOwnerID, Name: mgmtOwnerName, Email: mgmtOwnerEmail, EmailVerified: true,
		CreatedAt: management.Timestamp(m.since)}
}

// newApp stores an app record.
func (m *mgmtState) newApp(id, name string, region chat.Region, now chat.Timestamp, owner management.AppOwner) *mgmtApp {
	m.appSeq++
	r := appRegion(region)
	a := &mgmtApp{
		seq: m.appSeq,
		app: management.App{
			ID: id, Name: name, Region: region, Version: "3", State: management.AppStateActive, Plan: "free",
			PlanName: "Build", Owner: owner.ID, Role: management.RoleOwner, CreatedAt: management.Timestamp(now),
			UpdatedAt: management.Timestamp(now), AppOwner: &owner, AppRegion: &r,
			TrialEndsAt: management.Timestamp(now) + management.Timestamp(30*24*time.Hour/time.Second),
		},
		settings:   defaultSettings(),
		extensions: map[management.ExtensionID]*extensionRec{},
	}
	m.apps[id] = a
	return a
}

// appRegion describes a region as the management API does.
func appRegion(r chat.Region) management.AppRegion {
	switch r {
	case chat.RegionEU:
		return management.AppRegion{ID: r, Name: "Europe", Description: "The Europe region has servers located in Germany.", IsActive: true}
	case chat.RegionIN:
		return management.AppRegion{ID: r, Name: "India", Description: "The India region has servers located in Mumbai.", IsActive: true}
	}
	return management.AppRegion{ID: r, Name: "USA", Description: "The USA region has servers located in Ohio.", IsActive: true}
}

func mgmtAppRoutes() []route {
	return []route{
		{pattern: "POST /apps", reach: appOnly, handle: (*state).createApp},
		{pattern: "GET /apps", reach: appOnly, handle: (*state).listApps},
		{pattern: "DELETE /apps/{appId}", reach: appOnly, handle: (*state).deleteApp},
		{pattern: "POST /apps/{appId}/usage", reach: appOnly, handle: (*state).appUsage},
		{pattern: "POST /tenants", auth: authBasic, reach: appOnly, handle: (*state).addTenant},
		{pattern: "POST /apps/{appId}/collaborators", reach: appOnly, handle: (*state).updateCollaborators},
		{pattern: "GET /apps/{appId}/collaborators", reach: appOnly, handle: (*state).listCollaborators},
		{pattern: "POST /apps/{appId}/settings", reach: appOnly, handle: (*state).mapSettings},
		{pattern: "GET /apps/{appId}/settings", reach: appOnly, handle: (*state).listSettings},
		{pattern: "DELETE /apps/{appId}/settings", reach: appOnly, handle: (*state).unmapSettings},
		{pattern: "GET /apps/{appId}/extensions", reach: appOnly, handle: (*state).listExtensions},
		{pattern: "POST /apps/{appId}/extensions", reach: appOnly, handle: (*state).setExtensions},
		{pattern: "POST /apps/{appId}/extensions/{extId}/v1/settings", reach: appOnly, handle: (*state).storeExtensionSettings},
		{pattern: "PUT /apps/{appId}/extensions/{extId}/v1/settings", reach: appOnly, handle: (*state).updateExtensionSettings},
		{pattern: "GET /apps/{appId}/extensions/{extId}/v1/settings", reach: appOnly, handle: (*state).getExtensionSettings},
		{pattern: "DELETE /apps/{appId}/extensions/{extId}/v1/settings", reach: appOnly, handle: (*state).deleteExtensionSettings},
		{pattern: "POST /apps/{appId}/extensions/widget/v2/settings", reach: appOnly, handle: (*state).storeChatWidget},
		{pattern: "PUT /apps/{appId}/extensions/widget/v2/settings", reach: appOnly, handle: (*state).updateChatWidget},
		{pattern: "GET /apps/{appId}/extensions/widget/v2/settings", reach: appOnly, handle: (*state).listChatWidgets},
		{pattern: "POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p12", reach: appOnly, handle: (*state).uploadP12},
		{pattern: "POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p8", reach: appOnly, handle: (*state).uploadP8},
		{pattern: "GET /apps/{appId}/extensions/push-notification/v1/query-certificates", reach: appOnly, handle: (*state).queryCertificates},
	}
}

// appFor returns the active app the path's {appId} names: 404
// ERR_APP_NOT_FOUND when there is none, 403 ERR_APP_ARCHIVED when its
// deletion is scheduled.
func (st *state) appFor(c *call) (*mgmtApp, error) {
	id := c.r.PathValue("appId")
	a := st.apps[id]
	if a == nil {
		return nil, errAppNotFound(id)
	}
	if a.app.State == management.AppStateArchived {
		return nil, errAppArchived(id)
	}
	return a, nil
}

// activeApps counts the apps that are not archived.
func (st *state) activeApps() int {
	n := 0
	for _, a := range st.apps {
		if a.app.State != management.AppStateArchived {
			n++
		}
	}
	return n
}

// render returns the app as the API shows it: the own app's API keys are
// the chat API's; lists add the access key.
func (st *state) render(a *mgmtApp, inList bool) management.App {
	out := a.app
	owner, region := *a.app.AppOwner, *a.app.AppRegion
	out.AppOwner, out.AppRegion = &owner, &region
	out.APIKeys = management.AppAPIKeys{}
	if a.own {
		for key, k := range st.apiKeys {
			out.APIKeys[key] = management.AppAPIKey{APIKey: chat.Secret(key), Name: k.k.Name, Scope: k.k.Scope, CreatedBy: "app_system"}
		}
	} else {
		for key, k := range a.app.APIKeys {
			out.APIKeys[key] = k
		}
	}
	if !inList {
		out.AccessKey = ""
	}
	return out
}

// appWire is an app as the management API answers it, in the shape of the
// reference's examples: owner a number, appOwner and appRegion without
// the fields of newer answers, accessKey in lists only.
type appWire struct {
	ID          string                `json:"id"`
	Name        string                `json:"name"`
	Plan        string                `json:"plan"`
	TrialEndsAt management.Timestamp  `json:"trialEndsAt"`
	State       management.AppState   `json:"state"`
	Owner       any                   `json:"owner"` // a number (a numeric id), else a string
	Region      chat.Region           `json:"region"`
	CreatedAt   management.Timestamp  `json:"createdAt"`
	AppOwner    appOwnerWire          `json:"appOwner"`
	AppRegion   appRegionWire         `json:"appRegion"`
	AccessKey   chat.Secret           `json:"accessKey,omitempty"`
	APIKeys     management.AppAPIKeys `json:"apiKeys"`
}

type appOwnerWire struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type appRegionWire struct {
	ID          chat.Region `json:"id"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
}

// appAnswer is the app a (as render shows it) as the API answers it.
func appAnswer(a management.App) appWire {
	var owner any = a.Owner
	if n, err := strconv.ParseInt(a.Owner, 10, 64); err == nil {
		owner = n
	}
	w := appWire{ID: a.ID, Name: a.Name, Plan: a.Plan, TrialEndsAt: a.TrialEndsAt, State: a.State, Owner: owner,
		Region: a.Region, CreatedAt: a.CreatedAt, AccessKey: a.AccessKey, APIKeys: a.APIKeys}
	if o := a.AppOwner; o != nil {
		w.AppOwner = appOwnerWire{ID: o.ID, Name: o.Name, Email: o.Email}
	}
	if r := a.AppRegion; r != nil {
		w.AppRegion = appRegionWire{ID: r.ID, Name: r.Name, Description: r.Description}
	}
	return w
}

// appIDFor derives a new app's id from its name: its letters and digits
// lower-cased, other runs of characters as one hyphen, at most 40
// characters ("app" when nothing is left), with "-2", "-3"... added when
// taken. The id is a DNS label, as chat.NewClient requires.
func (st *state) appIDFor(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	base := strings.Trim(b.String(), "-")
	if base == "" {
		base = "app"
	}
	id := base
	for n := 2; st.apps[id] != nil; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

// checkRegion validates a required region.
func checkRegion(v *validator, field string, r chat.Region) {
	switch r {
	case chat.RegionUS, chat.RegionEU, chat.RegionIN:
	case "":
		v.add(field, "The %s field is required.", field)
	default:
		v.add(field, `The %s must be "us", "eu" or "in".`, field)
	}
}

// addApp creates an app with its two API keys (a fullAccess "Rest API Key"
// and an authOnly "Auth Key"), or refuses beyond maxManagementApps.
func (st *state) addApp(name string, region chat.Region, now chat.Timestamp, owner management.AppOwner) (*mgmtApp, error) {
	if st.activeApps() >= maxManagementApps {
		return nil, errAppLimit()
	}
	a := st.newApp(st.appIDFor(name), name, region, now, owner)
	restKey := st.issue(RandomHex)
	authKey := st.issue(RandomHex)
	a.app.APIKeys = management.AppAPIKeys{
		restKey: {APIKey: chat.Secret(restKey), Name: "Rest API Key", Scope: chat.ScopeFullAccess, CreatedBy: "app_system"},
		authKey: {APIKey: chat.Secret(authKey), Name: "Auth Key", Scope: chat.ScopeAuthOnly, CreatedBy: "app_system"},
	}
	a.app.AccessKey = chat.Secret(st.issue(RandomHex))
	return a, nil
}

// POST /apps
//
// The app's id derives from its name (see appIDFor). Validation: name
// required, at most 100 characters; region required, us, eu or in; version
// "3" when given (apps are v3 only). Beyond maxManagementApps active apps:
// 403 ERR_APP_CREATION_FAILED_MAX_LIMIT. skipSampleData is accepted and
// changes nothing: the fake's new apps have no data either way.
func (st *state) createApp(c *call) (any, error) {
	var b struct {
		Name           string      `json:"name"`
		Region         chat.Region `json:"region"`
		Version        string      `json:"version"`
		SkipSampleData *bool       `json:"skipSampleData"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, 100)
	checkRegion(&v, "region", b.Region)
	if b.Version != "" && b.Version != "3" {
		v.add("version", `The version must be "3".`)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	now := c.timestamp()
	a, err := st.addApp(b.Name, b.Region, now, st.owner())
	if err != nil {
		return nil, err
	}
	return data(appAnswer(st.render(a, false))), nil
}

// GET /apps
//
// Apps in creation order, the fake's own first, archived ones included
// (state "archived"). searchKey matches ids and names containing it,
// ignoring case; perPage defaults to 25 (at most 1000).
func (st *state) listApps(c *call) (any, error) {
	p := c.params()
	q := pageQuery{perPage: p.intRange("perPage", 25, 1, 1000), page: p.intRange("page", 1, 1, math.MaxInt32)}
	search := strings.ToLower(p.str("searchKey"))
	if err := p.err(); err != nil {
		return nil, err
	}
	var match []*mgmtApp
	for _, a := range st.apps {
		if strings.Contains(strings.ToLower(a.app.ID), search) || strings.Contains(strings.ToLower(a.app.Name), search) {
			match = append(match, a)
		}
	}
	slices.SortFunc(match, func(x, y *mgmtApp) int { return int(x.seq - y.seq) })
	page, meta := paginate(match, q)
	out := make([]appWire, len(page))
	for i, a := range page {
		out[i] = appAnswer(st.render(a, true))
	}
	return chat.Page[appWire]{Data: out, Meta: meta}, nil
}

// DELETE /apps/{appId}
//
// Archives the app and schedules its deletion 30 days later; the app then
// answers 403 ERR_APP_ARCHIVED (a second delete too). The fake's own app
// stands for the paid app the chat API serves: deleting it is refused with
// 403 ERR_APP_DELETION.
func (st *state) deleteApp(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	if a.own {
		return nil, errAppDeletion(a.app.ID)
	}
	a.app.State = management.AppStateArchived
	a.app.UpdatedAt = management.Timestamp(c.timestamp())
	a.scheduled = chat.TimestampOf(c.now.Add(appDeletionDelay))
	return data(management.DeleteAppResult{Success: true, ScheduledToDeleteAt: a.scheduled}), nil
}

// POST /apps/{appId}/usage
//
// Answers that the report of the selected billing cycle will be emailed to
// the app owner; nothing is sent.
func (st *state) appUsage(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		UsePreviousBillingCycle bool `json:"usePreviousBillingCycle"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	cycle := "current"
	if b.UsePreviousBillingCycle {
		cycle = "previous"
	}
	return data(chat.Result{Success: true,
		Message: "The usage report of the " + cycle + " billing cycle will be emailed to " + a.app.AppOwner.Email + "."}), nil
}

// POST /tenants
//
// Authenticated with HTTP Basic auth (authorizeMgmt). Validation: name,
// email (an address, not taken by another tenant or the management
// account), password, appName (at most 100 characters) and appRegion (us,
// eu or in) required. The tenant's app is an app of the fake's account
// (listed, counted against maxManagementApps) owned by the tenant.
func (st *state) addTenant(c *call) (any, error) {
	var b struct {
		Name          string      `json:"name"`
		Email         string      `json:"email"`
		Password      string      `json:"password"`
		ContactNumber string      `json:"contactNumber"`
		Role          string      `json:"role"`
		AppName       string      `json:"appName"`
		AppRegion     chat.Region `json:"appRegion"`
		Industry      string      `json:"industry"`
		Technology    string      `json:"technology"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, 100)
	email := strings.ToLower(b.Email)
	checkEmail(&v, "email", email)
	if st.tenants[email] || email == mgmtOwnerEmail {
		v.add("email", "The email has already been taken.")
	}
	if b.Password == "" {
		v.add("password", "The password field is required.")
	}
	checkText(&v, "appName", b.AppName, true, 100)
	checkRegion(&v, "appRegion", b.AppRegion)
	if err := v.err(); err != nil {
		return nil, err
	}
	now := c.timestamp()
	st.tenants[email] = true
	touchField(st, &st.tenants)
	owner := management.AppOwner{ID: "tenant-" + strconv.Itoa(len(st.tenants)), Name: b.Name, Email: email,
		CreatedAt: management.Timestamp(now)}
	a, err := st.addApp(b.AppName, b.AppRegion, now, owner)
	if err != nil {
		delete(st.tenants, email)
		touchField(st, &st.tenants)
		return nil, err
	}
	if b.Industry != "" || b.Technology != "" {
		a.app.Metadata = &management.AppMetadata{Industry: b.Industry, Technology: b.Technology}
	}
	restKey, _ := a.app.APIKeys.Key(chat.ScopeFullAccess)
	authKey, _ := a.app.APIKeys.Key(chat.ScopeAuthOnly)
	return data(management.Tenant{Name: b.Name, Email: email, CreatedAt: now, ContactNumber: b.ContactNumber,
		App: management.TenantApp{Name: a.app.Name, AppID: a.app.ID, Region: a.app.Region, AuthKey: chat.Secret(authKey), APIKey: chat.Secret(restKey),
			CreatedAt: now, Plan: "Build"}}), nil
}

// checkEmail validates a required email address: something@domain, at most
// 255 characters, no spaces.
func checkEmail(v *validator, field, email string) {
	if email == "" {
		v.add(field, "The %s field is required.", field)
		return
	}
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(email, " \t\r\n") || strings.Contains(domain, "@") || len(email) > 255 {
		v.add(field, "The %s must be a valid email address.", field)
	}
}

// mgmtResult is an item's outcome in a management answer.
func mgmtResult(message string) chat.Result { return chat.Result{Success: true, Message: message} }

// rawJSON encodes v; the values the handlers encode always encode.
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
