package fake

import (
	"cmp"
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/chatrest/chat"
)

// clientPrefix is where the client API is served: the platform's client
// SDKs call /v3.0/..., authenticated with the appId and authToken headers.
const clientPrefix = "/v3.0"

// clientAPIVersion is the CHAT_API_VERSION the settings announce: the
// client SDKs build their URLs as https://CLIENT_API_HOST/CHAT_API_VERSION.
const clientAPIVersion = "v3.0"

// handler is a route's handler.
type handler = func(*state, *call) (any, error)

// clientRoutes returns the routes of the client API, given the server
// API's: twins of server routes, served under /v3.0 with the auth token's
// user as the acting user, and the routes only the client API has (the
// session, the acting user's blocked users, joining and leaving groups).
func clientRoutes(server []route) []route {
	byPattern := make(map[string]route, len(server))
	for _, rt := range server {
		byPattern[rt.pattern] = rt
	}
	// twin serves the server route pattern under /v3.0, with the same
	// method unless as names another one.
	twin := func(pattern string, adapt ...func(handler) handler) route {
		rt, ok := byPattern[pattern]
		if !ok {
			panic("chattest: the client API twins an unknown route " + pattern) // a mistake in the table below
		}
		method, p, _ := strings.Cut(pattern, " ")
		rt.pattern = method + " " + clientPrefix + strings.TrimPrefix(p, "/v3")
		for _, a := range adapt {
			rt.handle = a(rt.handle)
		}
		return rt
	}
	as := func(method string, rt route) route {
		_, p, _ := strings.Cut(rt.pattern, " ")
		rt.pattern = method + " " + p
		return rt
	}
	own := func(pattern string, rs reach, h handler) route { return route{pattern: pattern, reach: rs, handle: h} }
	routes := []route{
		own("PUT /v3.0/me", ownData, (*state).clientLogin),
		own("GET /v3.0/me", ownData, (*state).clientMe),
		own("DELETE /v3.0/me", ownData, (*state).clientLogout),
		own("GET /v3.0/settings", noData, (*state).clientSettingsRoute),
		own("POST /v3.0/user_sessions", ownData, (*state).clientUserSession),

		twin("GET /v3/users", perPage),
		twin("GET /v3/users/{uid}"),
		own("POST /v3.0/blockedusers", ownData, asSelf((*state).blockUsers)),
		own("GET /v3.0/blockedusers", ownData, perPage(asSelf((*state).listBlocked))),
		own("DELETE /v3.0/blockedusers", ownData, asSelf((*state).unblockUsers)),

		twin("POST /v3/groups"),
		twin("GET /v3/groups", perPage),
		twin("GET /v3/groups/{guid}"),
		twin("PUT /v3/groups/{guid}"),
		twin("DELETE /v3/groups/{guid}"),
		own("POST /v3.0/groups/{guid}/members", onGroup(needSee), (*state).joinGroup),
		own("DELETE /v3.0/groups/{guid}/members", onGroup(needSee), (*state).leaveGroup),
		as(http.MethodPut, twin("POST /v3/groups/{guid}/members", allMemberLists)),
		twin("GET /v3/groups/{guid}/members", perPage),
		twin("PUT /v3/groups/{guid}/members/{uid}"),
		twin("DELETE /v3/groups/{guid}/members/{uid}"),
		twin("POST /v3/groups/{guid}/bannedusers/{uid}"),
		twin("DELETE /v3/groups/{guid}/bannedusers/{uid}"),
		twin("GET /v3/groups/{guid}/bannedusers", perPage),

		twin("POST /v3/messages"),
		twin("GET /v3/messages", perPageAsLimit, unreadCounts, cursorMeta(allMessagesTotal), oldestFirst),
		twin("GET /v3/messages/{id}"),
		twin("PUT /v3/messages/{id}"),
		twin("DELETE /v3/messages/{id}"),
		twin("GET /v3/users/{uid}/messages", perPageAsLimit, unreadCounts, oldestFirst), // with meta.pagination and meta.cursor already
		twin("GET /v3/groups/{guid}/messages", perPageAsLimit, unreadCounts, cursorMeta(groupMessagesTotal), oldestFirst),
		twin("POST /v3/messages/{id}/thread"),
		twin("GET /v3/messages/{id}/thread", perPageAsLimit, cursorMeta(threadTotal), oldestFirst),
		twin("GET /v3/threads", perPageAsLimit, cursorMeta(nil)),
		twin("GET /v3/messages/{id}/reactions", perPageAsLimit),
		twin("GET /v3/messages/{id}/reactions/{reaction}", perPageAsLimit),
		twin("POST /v3/messages/{id}/reactions/{reaction}"),
		twin("DELETE /v3/messages/{id}/reactions/{reaction}"),
		twin("POST /v3/messages/{id}/pin"),
		twin("DELETE /v3/messages/{id}/pin"),
		twin("POST /v3/messages/{id}/save"),
		twin("DELETE /v3/messages/{id}/save"),
		twin("PATCH /v3/messages/{id}/interacted"),
		twin("POST /v3/messages/{id}/thread/subscription"),
		twin("DELETE /v3/messages/{id}/thread/subscription"),
		twin("POST /v3/messages/{id}/flagged"),

		twin("GET /v3/conversations", perPage),

		// What the fake does not serve of the client API (calls, push
		// notifications, AI features, ...) answers 404 ERR_API_NOT_FOUND
		// to a logged-in client.
		own(clientPrefix+"/", noData, (*state).notFound),
	}
	for _, kind := range []string{"users/{uid}", "groups/{guid}"} {
		routes = append(routes,
			twin("GET /v3/"+kind+"/conversation", oneConversation),
			twin("PUT /v3/"+kind+"/conversation", oneConversation),
			twin("DELETE /v3/"+kind+"/conversation"),
			twin("POST /v3/"+kind+"/conversation/pin"),
			twin("DELETE /v3/"+kind+"/conversation/pin"),
			twin("POST /v3/"+kind+"/conversation/delivered"),
			twin("POST /v3/"+kind+"/conversation/read"),
			twin("DELETE /v3/"+kind+"/conversation/read"),
		)
	}
	for i := range routes {
		routes[i].auth, routes[i].obo = authClient, oboIgnored
	}
	return routes
}

// authorizeClient authenticates a request of the client API: the appId
// header must name the app, and the authToken header an auth token of an
// active user, who becomes the acting user.
func (st *state) authorizeClient(c *call) error {
	if app := c.r.Header.Get("appId"); app != st.appID {
		return errClientApp()
	}
	u := st.authTokenUser(c.r.Header.Get("authToken"))
	if u == nil {
		return errClientAuthToken()
	}
	c.onBehalfOf = u.u.UID
	return nil
}

// errClientApp answers a client request whose appId header is not the
// fake's app.
func errClientApp() *apiError {
	return newAPIError(http.StatusUnauthorized, codeClientAppNotFound,
		"The app in the appId header does not exist.", "Send the app's id in the appId header.")
}

// errClientAuthToken answers a client request without the auth token of
// an active user; the client SDKs log out on its code. The token is not
// echoed.
func errClientAuthToken() *apiError {
	return newAPIError(http.StatusUnauthorized, codeClientAuthToken,
		"The auth token does not exist. Please make sure you are logged in and have a valid auth token or try login again.",
		"Send an auth token of an active user in the authToken header.")
}

const (
	codeClientAppNotFound = "AUTH_ERR_APP_NOT_FOUND"
	codeClientAuthToken   = "AUTH_ERR_AUTH_TOKEN_NOT_FOUND"
)

// asSelf serves h, a server route of /v3/users/{uid}/..., with {uid} the
// acting user.
func asSelf(h handler) handler {
	return func(st *state, c *call) (any, error) {
		c.r.SetPathValue("uid", c.onBehalfOf)
		return h(st, c)
	}
}

// renameParam serves h with the query parameter from renamed to, unless
// the query already has to.
func renameParam(from, to string) func(handler) handler {
	return func(h handler) handler {
		return func(st *state, c *call) (any, error) {
			q := c.r.URL.Query()
			if v, ok := q[from]; ok {
				if _, set := q[to]; !set {
					q[to] = v
				}
				delete(q, from)
				r := c.r.WithContext(c.r.Context())
				u := *r.URL
				u.RawQuery = q.Encode()
				r.URL = &u
				c.r = r
			}
			return h(st, c)
		}
	}
}

var (
	// perPage makes per_page, which the client SDKs send, the page size
	// of a page-based list (perPage).
	perPage = renameParam("per_page", "perPage")
	// perPageAsLimit makes per_page the page size of a cursor-based list
	// (limit).
	perPageAsLimit = renameParam("per_page", "limit")
)

// cursorMeta adds to a cursor-based message list what the client SDKs
// read in its meta: meta.cursor, the cursor of meta.next, which they
// follow; and, when total counts the messages the list's filters keep
// (wherever its cursor is), meta.pagination, which SDK 3.x reads (its
// total_pages tells it whether to ask for more), as GET
// /v3/users/{uid}/messages shows it.
func cursorMeta(total func(*state, *call) int) func(handler) handler {
	return func(h handler) handler {
		return func(st *state, c *call) (any, error) {
			res, err := h(st, c)
			p, ok := res.(chat.Page[chat.Message])
			if !ok || err != nil {
				return res, err
			}
			if p.Meta.Cursor == nil {
				p.Meta.Cursor = p.Meta.Next
			}
			if total != nil && p.Meta.Pagination == nil && p.Meta.Current != nil && p.Meta.Current.Limit > 0 {
				n, limit := total(st, c), p.Meta.Current.Limit
				p.Meta.Pagination = &chat.Pagination{Total: n, Count: len(p.Data), PerPage: limit, CurrentPage: 1, TotalPages: (n + limit - 1) / limit}
			}
			return p, nil
		}
	}
}

// oldestFirst answers a page of a message list oldest first, as the
// client SDKs read it, whichever way its cursor walks: a prepend page
// (fetchPrevious) is the messages just before the cursor, in the order
// they were sent, so that the SDKs, which add a page before what they
// show and take its last message as its newest, show a conversation in
// order and mark its newest message delivered. The cursor is unchanged:
// it still names the oldest message of a prepend page.
func oldestFirst(h handler) handler {
	return func(st *state, c *call) (any, error) {
		res, err := h(st, c)
		if err != nil || chat.Direction(c.r.URL.Query().Get("affix")) != chat.DirectionBefore {
			return res, err
		}
		switch p := res.(type) {
		case chat.Page[chat.Message]:
			slices.Reverse(p.Data)
		case userMessagesPage:
			slices.Reverse(p.Data)
		}
		return res, nil
	}
}

// The totals of the message lists, for meta.pagination. Each runs after
// its list has answered, so its parameters are valid.
func allMessagesTotal(st *state, c *call) int {
	f := filterParams(c.params(), c.onBehalfOf, true)
	return st.countListed(&f, st.messages, st.visibleTo(f.viewer))
}

func groupMessagesTotal(st *state, c *call) int {
	f := filterParams(c.params(), c.onBehalfOf, false)
	return st.countListed(&f, st.groupMsgs[strings.ToLower(c.r.PathValue("guid"))], nil)
}

func threadTotal(st *state, c *call) int {
	if m := st.lookupMessage(c.r.PathValue("id")); m != nil {
		return len(m.replies)
	}
	return 0
}

// oneConversation answers the conversation as an object, as the client
// SDKs read it, where the server API answers an array of one.
func oneConversation(h handler) handler {
	return func(st *state, c *call) (any, error) {
		res, err := h(st, c)
		if e, ok := res.(envelope); ok && err == nil {
			if list, ok := e.Data.([]convWire); ok && len(list) == 1 {
				res = data(list[0])
			}
		}
		return res, err
	}
}

// clientMemberLists is the answer of add-members as the client SDKs read it:
// every list present, empty when the request had none.
type clientMemberLists struct {
	Admins       map[string]chat.MemberResult `json:"admins"`
	Moderators   map[string]chat.MemberResult `json:"moderators"`
	Participants map[string]chat.MemberResult `json:"participants"`
	UsersToBan   map[string]chat.MemberResult `json:"usersToBan"`
}

// allMemberLists answers add-members with its four lists, as the client
// SDKs read each of them.
func allMemberLists(h handler) handler {
	return func(st *state, c *call) (any, error) {
		res, err := h(st, c)
		if e, ok := res.(envelope); ok && err == nil {
			if r, ok := e.Data.(chat.AddMembersResponse); ok {
				nonNil := func(m map[string]chat.MemberResult) map[string]chat.MemberResult {
					if m == nil {
						return map[string]chat.MemberResult{}
					}
					return m
				}
				res = data(clientMemberLists{nonNil(r.Admins), nonNil(r.Moderators), nonNil(r.Participants), nonNil(r.UsersToBan)})
			}
		}
		return res, err
	}
}

// unreadCount is an entry of the unread counts list: the unread messages
// of the acting user's conversation with a user or in a group.
type unreadCount struct {
	EntityID   string            `json:"entityId"`
	EntityType chat.ReceiverType `json:"entityType"`
	Count      int               `json:"count"`
}

// unreadCounts answers a message list asked with unread=1 and count=1 with
// the acting user's unread counts per conversation, [{entityId,
// entityType, count}], for the conversations the list would cover: every
// conversation of the user (receiverType keeps those with users or with
// groups), or the one of the path's {uid} or {guid}. Conversations without
// unread messages, and with users the acting user blocked when
// hideMessagesFromBlockedUsers is set, are left out.
func unreadCounts(h handler) handler {
	return func(st *state, c *call) (any, error) {
		p := c.params()
		if !p.boolean("unread") || !p.boolean("count") {
			return h(st, c)
		}
		hideBlocked := p.boolean("hideMessagesFromBlockedUsers")
		only := chat.ReceiverType(p.str("receiverType"))
		var id string // the one conversation asked for, if any
		switch {
		case c.r.PathValue("uid") != "":
			uid := c.uid("uid")
			if st.activeUser(uid) == nil {
				return nil, errUIDNotFound(uid)
			}
			id = UserConversationID(c.onBehalfOf, uid)
		case c.r.PathValue("guid") != "":
			guid := strings.ToLower(c.r.PathValue("guid"))
			if _, err := st.groupFor(appSystem, guid); err != nil { // the access policy decided who reaches it: policy.go
				return nil, err
			}
			id = "group_" + guid
		}
		if err := p.err(); err != nil {
			return nil, err
		}
		owner := c.onBehalfOf
		out := []unreadCount{}
		for _, cv := range st.allConvs() {
			cid := cv.id
			rt := chat.ReceiverUser
			if cv.typ == chat.ConversationGroup {
				rt = chat.ReceiverGroup
			}
			if id != "" && cid != id || only != "" && rt != only || !st.hasOwner(cv, owner) || !st.accessible(owner, cv) ||
				hideBlocked && rt == chat.ReceiverUser && st.isBlocked(owner, cv.peer(owner)) {
				continue
			}
			if w := st.convView(owner, cv, convOptions{}); w.unread > 0 {
				out = append(out, unreadCount{EntityID: w.withID, EntityType: rt, Count: w.unread})
			}
		}
		slices.SortFunc(out, func(a, b unreadCount) int { // deterministic answers
			return cmp.Or(cmp.Compare(a.EntityType, b.EntityType), cmp.Compare(a.EntityID, b.EntityID))
		})
		return data(out), nil
	}
}

// clientSettings are the app settings the client SDKs read at login: where
// the client and admin APIs are (host:port, the SDKs add the version), and
// where the websocket is (wss://CHAT_HOST:CHAT_WSS_PORT/). Every address is
// the one the request came to, so that the SDKs talk to this server only.
type clientSettings struct {
	ClientAPIHost         string `json:"CLIENT_API_HOST"`
	AdminAPIHost          string `json:"ADMIN_API_HOST"`
	ChatAPIVersion        string `json:"CHAT_API_VERSION"`
	ChatHost              string `json:"CHAT_HOST"`
	ChatWSSPort           string `json:"CHAT_WSS_PORT"`
	ChatUseSSL            bool   `json:"CHAT_USE_SSL"`
	AnalyticsPingDisabled bool   `json:"ANALYTICS_PING_DISABLED"`
}

// settingsFor returns the settings of a client that reached the server at
// r.Host: its host and port, 443 when the Host names none.
func settingsFor(r *http.Request) clientSettings {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = strings.Trim(r.Host, "[]"), "443"
	}
	addr := net.JoinHostPort(host, port)
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 address, as a URL's host
	}
	return clientSettings{ClientAPIHost: addr, AdminAPIHost: addr, ChatAPIVersion: clientAPIVersion,
		ChatHost: host, ChatWSSPort: port, ChatUseSSL: true, AnalyticsPingDisabled: true}
}

// session is the answer of login and of GET /me: the acting user, the auth
// token the request carried, its status, the jwt that authenticates its
// websocket, and the app settings.
type session struct {
	chat.User
	JWT      string         `json:"jwt"`
	Settings clientSettings `json:"settings"`
}

// sessionOf answers c's user with a fresh jwt. The user shows "online",
// as the client SDKs expect of a login.
func (st *state) sessionOf(c *call) session {
	u := st.activeUser(c.onBehalfOf).view(false)
	tok := c.r.Header.Get("authToken")
	u.AuthToken, u.Status = chat.Secret(tok), chat.UserStatus("online")
	return session{User: u, JWT: st.signJWT(u.UID, tok, c.now), Settings: settingsFor(c.r)}
}

// PUT /v3.0/me
//
// The login of the client SDKs: body {platform, deviceId, appInfo}. The
// body's name, avatar, link, statusMessage and metadata, when present,
// update the user, as PUT /v3/users/{uid} does (and are validated as
// there); the SDKs' role and tags are the backend's to set.
func (st *state) clientLogin(c *call) (any, error) {
	var b struct {
		Name          *string        `json:"name,omitempty"`
		Avatar        *string        `json:"avatar,omitempty"`
		Link          *string        `json:"link,omitempty"`
		StatusMessage *string        `json:"statusMessage,omitempty"`
		Metadata      map[string]any `json:"metadata,omitempty"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.Name != nil || b.Avatar != nil || b.Link != nil || b.StatusMessage != nil || b.Metadata != nil {
		upd := *c
		upd.body, _ = json.Marshal(b) // strings and decoded JSON always encode
		c.r.SetPathValue("uid", c.onBehalfOf)
		if _, err := st.updateUser(&upd); err != nil {
			return nil, err
		}
	}
	return data(st.sessionOf(c)), nil
}

// GET /v3.0/me
func (st *state) clientMe(c *call) (any, error) { return data(st.sessionOf(c)), nil }

// DELETE /v3.0/me
//
// The logout of the client SDKs, which close their websocket themselves.
// The auth token stays valid: deleting it is the backend's call.
func (st *state) clientLogout(c *call) (any, error) {
	return data(chat.Result{Success: true, Message: "The user " + c.onBehalfOf + " has been logged out."}), nil
}

// GET /v3.0/settings
func (st *state) clientSettingsRoute(c *call) (any, error) { return data(settingsFor(c.r)), nil }

// POST /v3.0/user_sessions
//
// The client SDKs report their session here; nothing is kept. The answer
// is an empty object: an error makes the SDK fail under Node.
func (st *state) clientUserSession(c *call) (any, error) { return data(struct{}{}), nil }

// POST /v3.0/groups/{guid}/members
//
// The acting user joins the group as a participant: a public group, or a
// password group with its password in the body ({"password"}). A private
// group is joined only by being added: to others it does not exist
// (access.go). The answer is the "joined" action message; it fires
// group_member_joined.
func (st *state) joinGroup(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Password string `json:"password"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	uid := c.onBehalfOf
	switch {
	case g.banned[uid] != nil:
		return nil, errBannedGroupMember(g.g.GUID, uid)
	case st.member(g, uid) != nil:
		return nil, errAlreadyJoined(g.g.GUID, uid)
	case g.g.Type == chat.GroupPassword && b.Password != g.password:
		return nil, errWrongGroupPassword(g.g.GUID)
	case st.membersCount(g) >= maxGroupMembers:
		return nil, errGroupFull(g.g.GUID)
	}
	st.join(g, uid, chat.MemberParticipant, c.timestamp())
	joined := st.memberAction(c, g, "joined", uid)
	return data(joined.view(uid, true)), nil
}

// DELETE /v3.0/groups/{guid}/members
//
// The acting user leaves the group; it fires group_member_left.
func (st *state) leaveGroup(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	uid := c.onBehalfOf
	if st.member(g, uid) == nil {
		return nil, errNotAMember(g.g.GUID, uid)
	}
	st.leave(g, uid)
	st.memberAction(c, g, "left", uid)
	return data(chat.Result{Success: true, Message: "The user " + uid + " has left the group " + g.g.GUID + "."}), nil
}

func errWrongGroupPassword(guid string) *apiError {
	return newAPIError(http.StatusUnauthorized, codeWrongGroupPass, "The password of the group "+guid+" is not correct.", "")
}

const codeWrongGroupPass = "ERR_WRONG_GROUP_PASS"

// clientCORS answers the preflight requests browsers send before a client
// API call from a page of another origin, and lets every origin read the
// client API's answers: it authenticates with headers, never cookies. It
// reports whether it answered r.
func (h *Core) clientCORS(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != clientPrefix && !strings.HasPrefix(r.URL.Path, clientPrefix+"/") {
		return false
	}
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	hdr.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		hdr.Set("Access-Control-Allow-Headers", req)
	}
	hdr.Set("Access-Control-Max-Age", "600")
	hdr.Add("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
	return true
}
