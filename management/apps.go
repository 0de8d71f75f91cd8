package management

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
)

// AppsService creates, lists and deletes apps and requests usage reports. Get it from [Client.Apps].
type AppsService struct{ c caller }

// Timestamp is a point in time in a management answer. Older answers send
// Unix seconds, newer ones ISO-8601 strings ("2023-01-31T10:20:30.000Z");
// both decode, as do numeric strings, "" and null (which leave it zero). It
// holds Unix seconds and encodes as a number.
type Timestamp int64

// Time returns t as a time.Time in UTC, or the zero time.Time when t is
// zero.
func (t Timestamp) Time() time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(int64(t), 0).UTC()
}

// IsZero reports whether t is unset.
func (t Timestamp) IsZero() bool { return t == 0 }

// UnmarshalJSON accepts a number of seconds, a numeric string, an ISO-8601
// (RFC 3339) string, "" or null.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	switch s = strings.TrimSpace(s); s {
	case "", "null":
		return nil
	}
	if n, ok, valid := rest.ParseUnix([]byte(s), rest.MaxUnix); valid {
		if ok {
			*t = Timestamp(n)
		}
		return nil
	}
	if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
		*t = Timestamp(tm.Unix())
		return nil
	}
	return &json.UnmarshalTypeError{Value: "timestamp " + strconv.Quote(s), Type: reflect.TypeFor[Timestamp]()}
}

// AppState is the lifecycle state of an app.
type AppState string

// App states. An app is active; an app whose deletion is scheduled is
// archived (ERR_APP_ARCHIVED) until it is deleted for good.
const (
	AppStateActive   AppState = "active"
	AppStateArchived AppState = "archived"
)

// App is an app of the account, as created and listed. Older and newer
// answers type some fields differently (timestamps as integers or ISO
// strings, owner as a number or a string); both decode.
//
// An App holds credentials: its API keys, access key and stats token.
// Printing an App (with any fmt verb) shows them as REDACTED; JSON encoding
// keeps them.
type App struct {
	// ID is the app id, used in the chat API's host name.
	ID string `json:"id"`
	// Name is the app's name.
	Name string `json:"name,omitempty"`
	// Region is the data region the app lives in.
	Region chat.Region `json:"region,omitempty"`
	// Version is the API version of the app, "3".
	Version string `json:"version,omitempty"`
	// State is "active", or "archived" once its deletion is scheduled.
	State AppState `json:"state,omitempty"`
	// Plan is the plan's id, e.g. "trial" or "free-2023-01".
	Plan string `json:"plan,omitempty"`
	// PlanName is the plan's display name, e.g. "Build" (newer answers).
	PlanName string `json:"planName,omitempty"`
	// TrialEndsAt is when the trial ends.
	TrialEndsAt Timestamp `json:"trialEndsAt,omitempty"`
	// Owner is the id of the owning account (a number in older answers).
	Owner string `json:"owner,omitempty"`
	// Role is the account's role on the app, e.g. "owner" (newer answers).
	Role CollaboratorRole `json:"role,omitempty"`
	// CreatedAt is when the app was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the app last changed (newer answers).
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// AppOwner describes the owning account.
	AppOwner *AppOwner `json:"appOwner,omitempty"`
	// AppRegion describes the region.
	AppRegion *AppRegion `json:"appRegion,omitempty"`
	// APIKeys are the app's API keys, keyed by the key itself: on create,
	// a fullAccess "Rest API Key" and an authOnly "Auth Key".
	APIKeys AppAPIKeys `json:"apiKeys,omitempty"`
	// AccessKey is a credential lists add.
	AccessKey chat.Secret `json:"accessKey,omitempty"`
	// StatsToken is a credential newer lists add.
	StatsToken chat.Secret `json:"statsToken,omitempty"`
	// Metadata is what the owner said about the app (newer answers).
	Metadata *AppMetadata `json:"metadata,omitempty"`
}

// AppOwner is the account that owns an app.
type AppOwner struct {
	// ID is the account id (a string, though [App.Owner] may be a number).
	ID string `json:"id,omitempty"`
	// Name is the account holder's name.
	Name string `json:"name,omitempty"`
	// Email is the account's email address.
	Email string `json:"email,omitempty"`
	// EmailVerified reports whether the email address was verified (newer
	// answers, as are the fields below).
	EmailVerified bool `json:"emailVerified,omitempty"`
	// PooledBilling reports whether the account's apps share one bill.
	PooledBilling bool `json:"pooledBilling,omitempty"`
	// IsTestAccount reports whether the account is a test account.
	IsTestAccount bool `json:"isTestAccount,omitempty"`
	// CreatedAt is when the account was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the account last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
}

// AppRegion describes the region of an app.
type AppRegion struct {
	// ID is the region, e.g. "us".
	ID chat.Region `json:"id"`
	// Name is its display name, e.g. "USA".
	Name string `json:"name,omitempty"`
	// Description says where its servers are.
	Description string `json:"description,omitempty"`
	// IsActive, IsPrivate and IsInvisible are flags newer answers add, as
	// are the fields below.
	IsActive    bool `json:"isActive,omitempty"`
	IsPrivate   bool `json:"isPrivate,omitempty"`
	IsInvisible bool `json:"isInvisible,omitempty"`
	// CreatedAt is when the region was added.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the region last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// Meta holds the region's service hosts.
	Meta *RegionMeta `json:"meta,omitempty"`
}

// RegionMeta holds the service hosts of a region.
type RegionMeta struct {
	APIHost        string `json:"apiHost,omitempty"`
	APIVersion     string `json:"apiVersion,omitempty"`
	MetricsHost    string `json:"metricsHost,omitempty"`
	MetricsUseSSL  bool   `json:"metricsUseSSL,omitempty"`
	MetricsVersion string `json:"metricsVersion,omitempty"`
	UseSSL         bool   `json:"useSSL,omitempty"`
}

// AppMetadata is what the owner said about an app when creating it.
type AppMetadata struct {
	Industry        string `json:"industry,omitempty"`
	Technology      string `json:"technology,omitempty"`
	OtherTechnology string `json:"otherTechnology,omitempty"`
}

// AppAPIKey is one of an app's API keys as the Management API shows it.
//
// Printing an AppAPIKey shows the key as REDACTED; JSON encoding keeps it.
type AppAPIKey struct {
	// APIKey is the key itself.
	APIKey chat.Secret `json:"apiKey"`
	// Name is "Rest API Key" or "Auth Key" for the keys made with the app.
	Name string `json:"name,omitempty"`
	// Scope is what the key may do.
	Scope chat.Scope `json:"scope,omitempty"`
	// CreatedBy is "app_system" for the keys made with the app.
	CreatedBy string `json:"createdBy,omitempty"`
}

// AppAPIKeys are an app's API keys keyed by the key itself, as the wire
// has them.
//
// Printing AppAPIKeys (with any fmt verb) shows the keys, ordered by scope
// and name, with the key values and the map keys REDACTED.
type AppAPIKeys map[string]AppAPIKey

// Key returns an API key of the given scope: [chat.ScopeFullAccess] for the
// REST API key to pass to [chat.NewClient], [chat.ScopeAuthOnly] for the
// auth key. When several match, the one whose key sorts first is returned.
func (k AppAPIKeys) Key(scope chat.Scope) (string, bool) {
	for _, key := range slices.Sorted(maps.Keys(k)) {
		if v := k[key]; v.Scope == scope {
			if v.APIKey != "" {
				return string(v.APIKey), true
			}
			return key, true
		}
	}
	return "", false
}

// Format prints the keys with their values redacted, for every verb.
func (k AppAPIKeys) Format(f fmt.State, verb rune) {
	vals := make([]AppAPIKey, 0, len(k))
	for _, v := range k {
		vals = append(vals, v)
	}
	slices.SortFunc(vals, func(a, b AppAPIKey) int {
		return strings.Compare(string(a.Scope)+"\x00"+a.Name, string(b.Scope)+"\x00"+b.Name)
	})
	format := fmt.FormatString(f, verb)
	io.WriteString(f, "map[")
	for i, v := range vals {
		if i > 0 {
			io.WriteString(f, " ")
		}
		io.WriteString(f, redact.Redacted+":")
		fmt.Fprintf(f, format, v)
	}
	io.WriteString(f, "]")
}

// CreateAppRequest is the body of [AppsService.Create].
type CreateAppRequest struct {
	// Name is required (at most 100 characters).
	Name string `json:"name"`
	// Region is required: [chat.RegionUS], [chat.RegionEU] or
	// [chat.RegionIN].
	Region chat.Region `json:"region"`
	// Version is the API version, "3" by default (the only one new apps
	// can have).
	Version string `json:"version,omitempty"`
	// SkipSampleData, when true, creates the app without the sample users
	// and groups.
	SkipSampleData *bool `json:"skipSampleData,omitempty"`
}

// Validate checks r as [AppsService.Create] does before sending: Name and
// Region set. It returns a [*chat.ArgumentError] naming the field at
// fault, or nil.
func (r *CreateAppRequest) Validate() error {
	return required("req.Name", r.Name, "req.Region", string(r.Region))
}

// Create creates an app and returns it with its API keys: use
// App.APIKeys.Key(chat.ScopeFullAccess) and App.Region with
// [chat.NewClient] to talk to it. Beyond the plan's limit of free apps it
// fails with ERR_APP_CREATION_FAILED_MAX_LIMIT.
//
// API: POST /apps (management)
func (s *AppsService) Create(ctx context.Context, req *CreateAppRequest, opts ...chat.RequestOption) (*App, error) {
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[App](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps"}, Body: req}, opts)
}

// ListAppsOptions filters and pages the list of apps.
type ListAppsOptions struct {
	// SearchKey keeps the apps whose id or name matches it.
	SearchKey string `url:"searchKey,omitempty"`
	// PerPage is the page size: default 25, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1 (the default).
	Page int `url:"page,omitempty"`
}

// List returns one page of the account's apps.
//
// API: GET /apps (management)
func (s *AppsService) List(ctx context.Context, opts *ListAppsOptions, reqOpts ...chat.RequestOption) (*chat.Page[App], error) {
	return listPage[App](ctx, s.c, &chat.Request{Path: []string{"apps"}, Query: opts}, reqOpts)
}

// All iterates over the account's apps from the page opts names (default
// 1), page after page, in the order of the list. It stops after a page
// shorter than its size or the last page the meta names, making no further
// request, at the first error, which it yields, and when ctx is done; a
// page other than the one asked for, or one that repeats the previous
// page, stops it with [chat.ErrPaginationStalled]. Each range starts afresh
// from opts, which is not modified.
//
// API: GET /apps (management)
func (s *AppsService) All(ctx context.Context, opts *ListAppsOptions, reqOpts ...chat.RequestOption) iter.Seq2[*App, error] {
	var o ListAppsOptions
	if opts != nil {
		o = *opts
	}
	return rest.Pages(ctx, o.Page, o.PerPage, 0, func(ctx context.Context, page int) ([]App, *rest.PageInfo, error) {
		po := o
		po.Page = page
		p, err := s.List(ctx, &po, reqOpts...)
		if err != nil {
			return nil, nil, err
		}
		var info *rest.PageInfo
		if pg := p.Meta.Pagination; pg != nil {
			info = &rest.PageInfo{CurrentPage: pg.CurrentPage, PerPage: pg.PerPage, TotalPages: pg.TotalPages}
		}
		return p.Data, info, nil
	})
}

// DeleteAppResult is the answer of [AppsService.Delete].
type DeleteAppResult struct {
	// Success reports whether the deletion was scheduled.
	Success bool `json:"success"`
	// ScheduledToDeleteAt is when the app will be deleted for good (Unix
	// seconds).
	ScheduledToDeleteAt chat.Timestamp `json:"scheduledToDeleteAt,omitempty"`
	// Message is the service's description, when it sends one.
	Message string `json:"message,omitempty"`
}

// Delete schedules the deletion of the app appID: the app is archived at
// once (its calls then fail with ERR_APP_ARCHIVED) and deleted for good at
// ScheduledToDeleteAt. An app tied to a paid subscription cannot be deleted
// (ERR_APP_DELETION).
//
// API: DELETE /apps/{appId} (management)
func (s *AppsService) Delete(ctx context.Context, appID string, opts ...chat.RequestOption) (*DeleteAppResult, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return do[DeleteAppResult](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: []string{"apps", appID}}, opts)
}

// UsageRequest is the body of [AppsService.RequestUsage].
type UsageRequest struct {
	// UsePreviousBillingCycle selects the previous billing cycle; false
	// (the default, always sent) selects the current one.
	UsePreviousBillingCycle bool `json:"usePreviousBillingCycle"`
}

// RequestUsage asks for the usage report of the multi-tenant subscription
// linked to the parent app appID; the report is emailed, and the answer
// only says so. A nil req asks for the current billing cycle.
//
// API: POST /apps/{appId}/usage (management)
func (s *AppsService) RequestUsage(ctx context.Context, appID string, req *UsageRequest, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		req = &UsageRequest{}
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "usage"}, Body: req}, opts)
}
