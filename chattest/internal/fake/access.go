package fake

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

// Who sees what. A user's credentials (an auth token on the client API, or
// the onBehalfOf header on the server API) reach only what the predicates
// below allow. The access policy (policy.go) decides with them, for every
// route and websocket frame, before its handler runs; the lists filter
// what they show with them. What a
// user may not see is answered as what does not exist (the operation's own
// 404), so that its existence does not leak; what a user sees but may not
// do keeps the operation's own code (ERR_GROUP_NOT_JOINED, ERR_NOT_A_MEMBER,
// ERR_MESSAGE_NOT_A_SENDER, ...). The app (the server API without
// onBehalfOf, or app_system) sees everything.
//
//   - A one-on-one message: its two users.
//   - A group message: the group's current members.
//   - A group: public and password groups, every user (to find and join
//     them); a private group, its members only.
//   - A group's members and banned users: every user for a public group,
//     its members otherwise.
//   - A group's messages and conversation: its members.
//   - A conversation named by its id: its owners; another's answers
//     ERR_CONVERSATION_NOT_ACCESSIBLE whether or not it exists.
//   - A call and its transcriptions: the users who took part in it (see
//     callRec.tookPart); another's answers ERR_CALL_SESSION_NOT_FOUND, as
//     a call that does not exist does.
//
// A user creates groups as themself: with an acting user, the body's owner
// is ignored, as update-group ignores it.
//
// A user's private metadata, the "@private" member of their metadata (the
// email and phone number the notification extensions use), is seen by
// that user alone and by the app. Every answer that an acting user gets
// (the client API, the server API with onBehalfOf) and every websocket
// frame leaves through hidePrivate, which takes it out of every user
// object but the acting user's own, wherever the object sits: the user
// asked for, lists of users, friends and members, message entities
// (sender, receiver, by, on, and the messages and users inside them),
// conversationWith, reactions, typing and presence frames. Webhook
// deliveries, the dashboard and the Server's methods are the app's and
// keep it, but for Server.Conversation and Server.MessageAs, which show
// what a user is answered (cloneFor).

// isApp reports whether uid is the app rather than a user: no acting user,
// or app_system.
func isApp(uid string) bool { return uid == "" || uid == appSystem }

// canSee reports whether uid may see m: the app, the two users of a
// one-on-one message, the current members of its group.
func (st *state) canSee(uid string, m *MsgRec) bool {
	if isApp(uid) {
		return true
	}
	if m.m.ReceiverType == chat.ReceiverGroup {
		_, ok := st.memberScope(m.m.Receiver, uid)
		return ok
	}
	return m.between[0] == uid || m.between[1] == uid
}

// canSeeGroup reports whether uid may know that g exists: the app and
// every user for a public or password group; its members for a private
// one.
func (st *state) canSeeGroup(uid string, g *GroupRec) bool {
	return isApp(uid) || g.g.Type != chat.GroupPrivate || st.member(g, uid) != nil
}

// canListMembers reports whether uid may list g's members and banned
// users: the app, every user for a public group, its members otherwise.
func (st *state) canListMembers(uid string, g *GroupRec) bool {
	return isApp(uid) || g.g.Type == chat.GroupPublic || st.member(g, uid) != nil
}

// canSeeCall reports whether uid may see the call r: the app, and the
// users who took part in it.
func canSeeCall(uid string, r *callRec) bool { return isApp(uid) || r.tookPart(uid) }

// callFor returns the call id when uid may see it, or
// ERR_CALL_SESSION_NOT_FOUND.
func (st *state) callFor(uid, id string) (*callRec, error) {
	r := st.calls[id]
	if r == nil || !canSeeCall(uid, r) {
		return nil, errCallSessionNotFound(id)
	}
	return r, nil
}

// messageFor returns the message id when uid may see it; otherwise, and
// when there is none, the operation's not-found answer for id.
func (st *state) messageFor(uid, id string, notFound func(string) *apiError) (*MsgRec, error) {
	m := st.lookupMessage(id)
	if m == nil || !st.canSee(uid, m) {
		return nil, notFound(id)
	}
	return m, nil
}

// visibleMessage returns the message id of c's path, or ERR_MSG_NOT_FOUND
// when there is none: the answer of get, edit, delete, threads, reactions
// and thread subscriptions. Whether the acting user may reach it is the
// access policy's to decide (policy.go), before the handler runs.
func (st *state) visibleMessage(c *call, id string) (*MsgRec, error) {
	return st.messageFor(appSystem, id, errMsgNotFound)
}

// visibleMessageID is visibleMessage answering ERR_MESSAGE_ID_NOT_FOUND:
// the answer of pins, saves, interactions and flags.
func (st *state) visibleMessageID(c *call, id string) (*MsgRec, error) {
	return st.messageFor(appSystem, id, errMessageIDNotFound)
}

// groupFor returns the group guid when uid may see it, or
// ERR_GUID_NOT_FOUND.
func (st *state) groupFor(uid, guid string) (*GroupRec, error) {
	guid = strings.ToLower(guid)
	g := st.groups[guid]
	if g == nil || !st.canSeeGroup(uid, g) {
		return nil, errGUIDNotFound(guid)
	}
	return g, nil
}

// checkGroupMember checks that uid may read, send to or type in the
// group guid: ERR_GUID_NOT_FOUND when they may not see it,
// ERR_GROUP_NOT_JOINED when they are not a member. The app may do so in
// any group.
func (st *state) checkGroupMember(uid, guid string) error {
	g, err := st.groupFor(uid, guid)
	if err != nil {
		return err
	}
	if !isApp(uid) && st.member(g, uid) == nil {
		return errGroupNotJoined(g.g.GUID, uid)
	}
	return nil
}

// ownConversation returns the conversation id, which uid must own:
// ERR_CONVERSATION_NOT_ACCESSIBLE when it is another's, whether or not it
// exists, and ERR_CONVERSATION_NOT_FOUND only when it would be uid's.
func (st *state) ownConversation(uid, id string) (*derivedConv, error) {
	cv := st.conv(id)
	if cv != nil && st.hasOwner(cv, uid) {
		return cv, nil
	}
	if cv == nil && st.wouldOwn(uid, id) {
		return nil, errConversationNotFound(id)
	}
	return nil, errConversationNotAccessible(id, uid)
}

// wouldOwn reports whether the conversation id, which has no message yet,
// would be uid's: a one-on-one conversation named after uid, or the
// conversation of a group uid is a member of.
func (st *state) wouldOwn(uid, id string) bool {
	if guid, ok := strings.CutPrefix(id, "group_"); ok {
		_, member := st.memberScope(guid, uid)
		return member
	}
	return strings.HasPrefix(id, uid+"_user_") || strings.HasSuffix(id, "_user_"+uid)
}

// groupOwner is the owner of a group created in c whose body named asked:
// the acting user, when there is one; else asked ("" for the app).
func groupOwner(c *call, asked string) string {
	if c.onBehalfOf != "" {
		return c.onBehalfOf
	}
	return asked
}

// privateMark is the private metadata's key as JSON encodes it: an answer
// without it has nothing to hide.
var privateMark = []byte(`"@private"`)

// hidePrivate returns out, a JSON answer or frame for viewer, without the
// private metadata of the users in it other than viewer. A user object is
// an object with a string "uid" and an object "metadata"; its metadata
// loses "@private", and goes when nothing else is in it. The free-form
// members (metadata, customData) are not searched for users. out is
// returned as it is when the app is the viewer, when nothing is hidden (a
// scan for "@private" finds that out at once for most answers) and when
// it is not one JSON value; otherwise the members hidden are cut out of a
// copy, everything else kept byte for byte.
func hidePrivate(viewer string, out []byte) []byte {
	if isApp(viewer) || !bytes.Contains(out, privateMark) {
		return out
	}
	s := privateScan{b: out, viewer: viewer}
	if end, ok := s.value(0); !ok || skipJSONSpace(out, end) != len(out) || len(s.cuts) == 0 {
		return out
	}
	slices.SortFunc(s.cuts, func(a, b span) int { return a.from - b.from })
	hidden := make([]byte, 0, len(out))
	at := 0
	for _, c := range s.cuts {
		hidden = append(hidden, out[at:c.from]...)
		at = c.to
	}
	return append(hidden, out[at:]...)
}

// cloneFor is clone (state.go) of v as the API shows it to viewer: without
// the private metadata hidePrivate hides from them.
func cloneFor[T any](viewer string, v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if err := json.Unmarshal(hidePrivate(viewer, b), &out); err != nil {
		return v
	}
	return out
}

// privateScan walks a JSON text for hidePrivate, noting what to cut out
// of it. It checks the text's structure (objects, arrays, strings), not
// its numbers and literals: encoding/json wrote it.
type privateScan struct {
	b       []byte
	viewer  string
	cuts    []span   // in no order, never overlapping
	members []member // the members of the objects being scanned, innermost last (object)
}

// span is the bytes [from, to) of the text.
type span struct{ from, to int }

// member is a member of a JSON object: its key as written (quoted), where
// the member starts (its key), where its value starts and where it ends.
type member struct {
	key          []byte
	from, at, to int
}

// value scans the value at b[i] and returns where it ends.
func (s *privateScan) value(i int) (int, bool) {
	i = skipJSONSpace(s.b, i)
	if i >= len(s.b) {
		return 0, false
	}
	switch s.b[i] {
	case '{':
		first, end, ok := s.object(i, func(key []byte, at int) (int, bool) {
			if freeForm(key) {
				return skipValue(s.b, at)
			}
			return s.value(at)
		})
		if ok {
			s.hideIn(s.members[first:])
			s.members = s.members[:first]
		}
		return end, ok
	case '[':
		i = skipJSONSpace(s.b, i+1)
		if i < len(s.b) && s.b[i] == ']' {
			return i + 1, true
		}
		for {
			end, ok := s.value(i)
			if !ok {
				return 0, false
			}
			i = skipJSONSpace(s.b, end)
			if i >= len(s.b) || s.b[i] != ',' && s.b[i] != ']' {
				return 0, false
			}
			if s.b[i] == ']' {
				return i + 1, true
			}
			i++
		}
	}
	return skipValue(s.b, i)
}

// freeForm reports whether a member named key holds free-form JSON, in
// which no user is looked for.
func freeForm(key []byte) bool {
	return string(key) == `"metadata"` || string(key) == `"customData"`
}

// hideIn notes the cuts that hide the private metadata of the object of
// members ms, when it is the user object of someone other than the
// viewer.
func (s *privateScan) hideIn(ms []member) {
	uid, meta := -1, -1
	for k, m := range ms {
		switch string(m.key) {
		case `"uid"`:
			uid = k
		case `"metadata"`:
			meta = k
		}
	}
	if uid < 0 || s.b[ms[uid].at] != '"' || meta < 0 || s.b[ms[meta].at] != '{' || s.isViewer(s.b[ms[uid].at:ms[uid].to]) {
		return
	}
	first, _, ok := s.object(ms[meta].at, func(_ []byte, at int) (int, bool) { return skipValue(s.b, at) })
	if !ok {
		return
	}
	inner := s.members[first:]
	defer func() { s.members = s.members[:first] }()
	private := func(m member) bool { return string(m.key) == `"@private"` }
	switch {
	case !slices.ContainsFunc(inner, private):
	case !slices.ContainsFunc(inner, func(m member) bool { return !private(m) }):
		s.cutMembers(ms, func(m member) bool { return m.from == ms[meta].from }) // nothing else: the metadata goes
	default:
		s.cutMembers(inner, private)
	}
}

// cutMembers notes the cuts that take the members drop reports out of an
// object of members ms, with the commas between them.
func (s *privateScan) cutMembers(ms []member, drop func(member) bool) {
	for a := 0; a < len(ms); a++ {
		if !drop(ms[a]) {
			continue
		}
		b := a
		for b+1 < len(ms) && drop(ms[b+1]) {
			b++
		}
		switch {
		case a > 0: // from the end of the member before
			s.cuts = append(s.cuts, span{ms[a-1].to, ms[b].to})
		case b+1 < len(ms): // up to the member after
			s.cuts = append(s.cuts, span{ms[a].from, ms[b+1].from})
		default: // every member
			s.cuts = append(s.cuts, span{ms[a].from, ms[b].to})
		}
		a = b
	}
}

// isViewer reports whether the JSON value v is a string that names the
// viewer.
func (s *privateScan) isViewer(v []byte) bool {
	if len(v) < 2 || v[0] != '"' {
		return false
	}
	if !bytes.ContainsRune(v, '\\') {
		return string(v[1:len(v)-1]) == s.viewer
	}
	var uid string
	return json.Unmarshal(v, &uid) == nil && uid == s.viewer
}

// object scans the object at b[i], calling value at each member's value
// to scan it, and returns where it ends. Its members are s.members[first:]
// (value scans and drops its own before returning); the caller drops
// them.
func (s *privateScan) object(i int, value func(key []byte, at int) (int, bool)) (first, end int, ok bool) {
	b := s.b
	first = len(s.members)
	fail := func() (int, int, bool) {
		s.members = s.members[:first]
		return first, 0, false
	}
	i = skipJSONSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return first, i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return fail()
		}
		keyEnd, ok := skipString(b, i)
		colon := skipJSONSpace(b, keyEnd)
		if !ok || colon >= len(b) || b[colon] != ':' {
			return fail()
		}
		at := skipJSONSpace(b, colon+1)
		to, ok := value(b[i:keyEnd], at)
		if !ok {
			return fail()
		}
		s.members = append(s.members, member{key: b[i:keyEnd], from: i, at: at, to: to})
		next := skipJSONSpace(b, to)
		switch {
		case next < len(b) && b[next] == '}':
			return first, next + 1, true
		case next < len(b) && b[next] == ',':
			i = skipJSONSpace(b, next+1)
		default:
			return fail()
		}
	}
}

// skipValue returns where the value at b[i] ends.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i // a number, true, false or null
	for j < len(b) && strings.IndexByte(",:]} \t\r\n", b[j]) < 0 {
		j++
	}
	return j, j > i
}

// skipString returns where the string at b[i] ends.
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipJSONSpace returns where the whitespace at b[i] ends.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// Revoked credentials close the websockets opened with them.
const (
	// statusRevoked closes a websocket whose credentials were revoked, or
	// that sent no valid auth frame in time: 1008, policy violation, with
	// a reason saying which.
	statusRevoked = statusPolicyViolation
	// defaultRTAuthTimeout is how long a websocket may stay open without a
	// valid auth frame (see WithRealtimeAuthTimeout).
	defaultRTAuthTimeout = 5 * time.Second
)

// awaitAuth closes c (1008) unless it authenticates within the server's
// auth timeout. Stop the returned timer when c ends.
func (st *state) awaitAuth(c *RTConn) *time.Timer {
	d := st.rtAuthTimeout
	if d <= 0 {
		d = defaultRTAuthTimeout
	}
	return time.AfterFunc(d, func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		if c.uid == "" {
			st.drop(c, statusRevoked, "chattest: no valid auth frame in time", false)
		}
	})
}

// closeRevoked closes, at once, the websockets of the users uids whose
// credentials no longer hold: the user was deleted or deactivated (a soft
// delete deactivates), or the auth token the connection logged in with
// was deleted. Nothing more is
// pushed to them, and their frames are no longer acted on. Every change
// that takes a user's credentials away calls it; it runs with st.mu held.
func (st *state) closeRevoked(uids ...string) {
	for _, uid := range uids {
		uid = strings.ToLower(uid)
		for c := range st.rtByUID[uid] {
			if why := st.revoked(c); why != "" {
				st.drop(c, statusRevoked, "chattest: "+why, false)
			}
		}
	}
}

// revoked says why c's credentials no longer hold, or "" when they do.
func (st *state) revoked(c *RTConn) string {
	u := st.users[c.uid]
	switch {
	case u == nil:
		return "the user was deleted"
	case u.deactivated: // or soft-deleted, which deactivates
		return "the user was deactivated"
	case !slices.ContainsFunc(u.tokens, func(t chat.AuthToken) bool { return tokenHash(string(t.AuthToken)) == c.tokenHash }):
		return "the auth token was deleted"
	}
	return ""
}
