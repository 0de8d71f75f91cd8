package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatrest/chat"
)

// The data import endpoints' limits and error codes.
const (
	serviceImportLimit        = 60 // requests per minute and endpoint
	maxImportEntities         = chat.MaxImportEntities
	codeImportMUIDExists      = "ERR_IMPORT_MUID_ALREADY_EXISTS"
	codeImportInvalidUser     = "ERR_IMPORT_INVALID_USER_FORMAT"
	codeImportInvalidGroup    = "ERR_IMPORT_INVALID_GROUP_FORMAT"
	codeImportInvalidMember   = "ERR_IMPORT_INVALID_MEMBER_FORMAT"
	codeImportInvalidMessage  = "ERR_IMPORT_INVALID_MESSAGE_FORMAT"
	codeImportInvalidJoinedAt = "ERR_IMPORT_INVALID_JOINEDAT"
)

// importState paces the data import endpoints and remembers the muids
// imported.
type importState struct {
	importLimit   int              // requests per minute and endpoint
	importEnforce bool             // whether requests over the limit are refused
	importWindow  int64            // the minute counted: Unix seconds / 60
	importUsed    map[string]int   // requests counted in the window, by endpoint
	importedMUIDs map[string]int64 // message id by imported muid
}

// init applies [WithDataImportLimit]'s setting: 0 when not given, -1 for
// no limit.
func (i *importState) init(limit int) {
	i.importLimit, i.importEnforce = limit, true
	switch {
	case limit == 0:
		i.importLimit = serviceImportLimit
	case limit < 0:
		i.importLimit, i.importEnforce = serviceImportLimit, false
	}
	i.importUsed = map[string]int{}
	i.importedMUIDs = map[string]int64{}
}

func dataImportRoutes() []route {
	return []route{
		{pattern: "POST /v3/data_import/users", reach: appOnly, handle: (*state).importUsers},
		{pattern: "POST /v3/data_import/groups", reach: appOnly, handle: (*state).importGroups},
		{pattern: "POST /v3/data_import/members", reach: appOnly, handle: (*state).importMembers},
		{pattern: "POST /v3/data_import/messages", reach: appOnly, handle: (*state).importMessages},
	}
}

// admitImport counts one request to the import endpoint prop unless the
// endpoint's budget is used up; then the request is refused and not
// counted. Either way the answer reports the endpoint's budget. A replayed
// request is admitted, whatever the budget of the server replaying it.
func (st *state) admitImport(c *call, prop string) error {
	i := &st.importState
	if w := c.now.Unix() / 60; w != i.importWindow {
		i.importWindow = w
		clear(i.importUsed)
	}
	// A replayed request was admitted when it was made (a refused one is
	// not journaled): it is counted, not refused.
	if i.importEnforce && i.importUsed[prop] >= i.importLimit && !st.replaying {
		end := time.Unix((i.importWindow+1)*60, 0)
		wait := max(int((end.Sub(c.now)+time.Second-1)/time.Second), 1) // rounded up
		c.rate = &rateInfo{limit: i.importLimit, refused: true, reset: end, retryAfter: wait}
		return newAPIError(http.StatusTooManyRequests, codeTooManyRequests,
			fmt.Sprintf("Too many requests for data import API. %d per minute is the maximum request allowed.", i.importLimit),
			fmt.Sprintf("Please retry for seconds after %d.", wait))
	}
	i.importUsed[prop]++
	c.rate = &rateInfo{limit: i.importLimit, remaining: max(i.importLimit-i.importUsed[prop], 0)}
	return nil
}

// importEntities admits an import request and returns the entities of its
// body's property prop, by key. A body without that property as an object
// of 1 to 50 entities is refused whole: 400 with the endpoint's format
// code, or ERR_BAD_REQUEST for more than 50 entities (see CHOICES.md).
func (st *state) importEntities(c *call, prop, code string) (map[string]json.RawMessage, error) {
	if err := st.admitImport(c, prop); err != nil {
		return nil, err
	}
	var body map[string]json.RawMessage
	var entities map[string]json.RawMessage
	if json.Unmarshal(c.body, &body) != nil || json.Unmarshal(body[prop], &entities) != nil || len(entities) == 0 {
		msg := fmt.Sprintf("The value for %s property should be an object of %s keyed by their ids.", prop, prop)
		return nil, newAPIError(http.StatusBadRequest, code, msg, "").withDetail(prop, msg)
	}
	if len(entities) > maxImportEntities {
		return nil, validationError(map[string][]string{prop: {
			fmt.Sprintf("At most %d %s may be imported in one request.", maxImportEntities, prop)}})
	}
	return entities, nil
}

// importEntry is one entity's entry in an import's answer. A failure
// carries the API's error object ({"code", "message", ...}).
type importEntry struct {
	Success bool      `json:"success"`
	Data    any       `json:"data,omitempty"`
	Error   *apiError `json:"error,omitempty"`
}

func importFailure(err *apiError) importEntry { return importEntry{Error: err} }

// decodeEntity decodes one entity; a value that does not fit v is a format
// error naming the field.
func decodeEntity(raw json.RawMessage, v any, code, what string) *apiError {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return formatError(code, what, map[string][]string{te.Field: {fmt.Sprintf("The %s field must be %s.", te.Field, jsonKind(te.Type))}})
	}
	return formatError(code, what, map[string][]string{what: {"The " + what + " must be a JSON object."}})
}

// formatError is an entity's validation failure: the endpoint's format
// code with the problems per field.
func formatError(code, what string, details map[string][]string) *apiError {
	fields := make([]string, 0, len(details))
	for f := range details {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	e := newAPIError(http.StatusBadRequest, code, "The "+what+" could not be imported: its data is not valid.", details[fields[0]][0])
	e.Details = details
	return e
}

// validated returns v's problems as a format error, or nil.
func validated(v *validator, code, what string) *apiError {
	if len(v.details) == 0 {
		return nil
	}
	return formatError(code, what, v.details)
}

// checkImportUser validates a user to import, or the details of one under
// prefix (e.g. "senderUserDetails."). Its role must exist.
func (st *state) checkImportUser(v *validator, prefix string, u *chat.ImportUser) {
	checkID(v, prefix+"uid", strings.ToLower(u.UID))
	checkText(v, prefix+"name", u.Name, true, 100)
	checkText(v, prefix+"avatar", u.Avatar, false, 3000)
	checkText(v, prefix+"link", u.Link, false, 3000)
	checkTags(v, prefix+"tags", u.Tags)
	if role := strings.ToLower(u.Role); role != "" && st.roles[role] == nil {
		v.add(prefix+"role", "The role %s does not exist.", role)
	}
}

// checkImportGroup validates a group to import, or the details of one
// under prefix.
func checkImportGroup(v *validator, prefix string, g *chat.GroupDetails) {
	checkID(v, prefix+"guid", strings.ToLower(g.GUID))
	checkText(v, prefix+"name", g.Name, true, 100)
	switch g.Type {
	case chat.GroupPublic, chat.GroupPrivate:
	case chat.GroupPassword:
		if g.Password == "" {
			v.add(prefix+"password", "The %spassword field is required for a password group.", prefix)
		}
	case "":
		v.add(prefix+"type", "The %stype field is required.", prefix)
	default:
		v.add(prefix+"type", `The %stype must be "public", "password" or "private".`, prefix)
	}
	checkText(v, prefix+"password", string(g.Password), false, 100)
	checkText(v, prefix+"icon", g.Icon, false, 3000)
	checkTags(v, prefix+"tags", g.Tags)
	if g.Metadata != nil {
		if b, err := json.Marshal(g.Metadata); err == nil && len(b) > maxMetadataBytes {
			v.add(prefix+"metadata", "The %smetadata may not be greater than %d bytes.", prefix, maxMetadataBytes)
		}
	}
	if owner := strings.ToLower(g.Owner); owner != "" {
		checkID(v, prefix+"owner", owner)
	}
}

// checkSameID adds a problem when a details object names another entity
// than the field it describes.
func checkSameID(v *validator, field, got, want string) {
	if got != "" && !strings.EqualFold(got, want) {
		v.add(field, "The %s must be %s.", field, want)
	}
}

// importTx is what importing one entity creates besides it: the users and
// groups its details describe that do not exist yet. Nothing is stored
// until commit, so that an entity that fails changes nothing.
type importTx struct {
	st     *state
	now    chat.Timestamp
	users  map[string]chat.ImportUser
	groups []chat.GroupDetails
	order  []string // uids in the order first needed
}

func (st *state) newImportTx(c *call) *importTx {
	return &importTx{st: st, now: c.timestamp(), users: map[string]chat.ImportUser{}}
}

// user makes sure the user uid exists, or is created from d: it fails
// with ERR_UID_NOT_FOUND when neither. A deactivated user's uid stays
// taken.
func (x *importTx) user(uid string, d *chat.UserDetails) *apiError {
	uid = strings.ToLower(uid)
	if _, ok := x.users[uid]; ok {
		return nil
	}
	if x.st.users[uid] != nil {
		return nil
	}
	if d == nil {
		return errUIDNotFound(uid)
	}
	x.users[uid] = *d
	x.order = append(x.order, uid)
	return nil
}

// group makes sure the group guid exists, or is created from d (its owner
// must exist or be created from ownerDetails); it returns the stored group
// or nil when it is to be created.
func (x *importTx) group(guid string, d *chat.GroupDetails, ownerDetails *chat.UserDetails) (*GroupRec, *apiError) {
	guid = strings.ToLower(guid)
	if g := x.st.groups[guid]; g != nil {
		return g, nil
	}
	if d == nil {
		return nil, errGUIDNotFound(guid)
	}
	if d.Owner != "" {
		if err := x.user(d.Owner, ownerDetails); err != nil {
			return nil, err
		}
	}
	x.groups = append(x.groups, *d)
	return nil, nil
}

// commit stores what the entity needs, users first.
func (x *importTx) commit() {
	for _, uid := range x.order {
		x.st.storeImportedUser(x.users[uid], x.now)
	}
	for _, g := range x.groups {
		x.st.storeImportedGroup(g, x.now)
	}
}

// storeImportedUser stores u: created at its createdAt (default now),
// deactivated when it has a deactivatedAt.
func (st *state) storeImportedUser(u chat.ImportUser, now chat.Timestamp) *UserRec {
	uid, role := strings.ToLower(u.UID), strings.ToLower(u.Role)
	if role == "" {
		role = chat.DefaultRole
	}
	created := u.CreatedAt
	if created == 0 {
		created = now
	}
	rec := &UserRec{u: chat.User{
		UID: uid, Name: u.Name, Avatar: u.Avatar, Link: u.Link, Metadata: u.Metadata, Status: chat.UserOffline,
		Role: role, Tags: u.Tags, CreatedAt: created, UpdatedAt: created, LastActiveAt: u.LastActiveAt,
	}, deactivated: u.DeactivatedAt != 0}
	st.putUser(rec)
	return rec
}

// storeImportedGroup stores g, created at its createdAt (default now). A
// user owner joins as an admin at that time, as with create-group; a
// group without owner belongs to app_system.
func (st *state) storeImportedGroup(g chat.GroupDetails, now chat.Timestamp) *GroupRec {
	guid, owner := strings.ToLower(g.GUID), strings.ToLower(g.Owner)
	created := g.CreatedAt
	if created == 0 {
		created = now
	}
	rec := &GroupRec{g: chat.Group{
		GUID: guid, Name: g.Name, Icon: g.Icon, Type: g.Type, ConversationID: "group_" + guid,
		Owner: owner, Tags: g.Tags, Metadata: g.Metadata, CreatedAt: created, UpdatedAt: created,
	}, members: map[string]*memberRec{}, banned: map[string]*banRec{}}
	if g.Type == chat.GroupPassword {
		rec.password = string(g.Password)
	}
	if owner == "" {
		rec.g.Owner = appSystem
	} else {
		st.join(rec, owner, chat.MemberAdmin, created)
	}
	st.putGroup(rec)
	return rec
}

// sortedKeys returns the keys of m in order: entities are processed so.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// POST /v3/data_import/users
//
// Each user is created with its own createdAt (default now), lastActiveAt
// and tags, deactivated when deactivatedAt is set. The uid must equal the
// key; a uid already taken (by a deactivated user too) fails with
// ERR_UID_ALREADY_EXISTS: an import never updates a user (see
// CHOICES.md); invalid fields, and a role that does not exist, with
// ERR_IMPORT_INVALID_USER_FORMAT. The entry's data has the fields uid,
// name, avatar, metadata, status, role, lastActiveAt and createdAt.
// Imports emit no webhook events.
func (st *state) importUsers(c *call) (any, error) {
	entities, err := st.importEntities(c, "users", codeImportInvalidUser)
	if err != nil {
		return nil, err
	}
	out := make(map[string]importEntry, len(entities))
	for _, key := range sortedKeys(entities) {
		var u chat.ImportUser
		if err := decodeEntity(entities[key], &u, codeImportInvalidUser, "user"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		var v validator
		st.checkImportUser(&v, "", &u)
		if u.UID != key {
			v.add("uid", "The uid must be the same as the user's key.")
		}
		if err := validated(&v, codeImportInvalidUser, "user"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		uid := strings.ToLower(u.UID)
		if st.users[uid] != nil {
			out[key] = importFailure(errUIDExists(uid))
			continue
		}
		r := st.storeImportedUser(u, c.timestamp()).u
		out[key] = importEntry{Success: true, Data: chat.User{UID: r.UID, Name: r.Name, Avatar: r.Avatar, Metadata: r.Metadata,
			Status: r.Status, Role: r.Role, LastActiveAt: r.LastActiveAt, CreatedAt: r.CreatedAt}}
	}
	return data(out), nil
}

// POST /v3/data_import/groups
//
// Each group is created with its own createdAt (default now); a user
// owner must exist or be described by groupOwnerDetails, and joins as an
// admin at createdAt (as with create-group; importing that owner as a
// member then sets their scope and joinedAt). The guid must equal the key;
// a guid in use fails with ERR_GUID_ALREADY_EXISTS; invalid fields with
// ERR_IMPORT_INVALID_GROUP_FORMAT. The entry's data is guid, name, type,
// conversationId, createdAt and owner.
func (st *state) importGroups(c *call) (any, error) {
	entities, err := st.importEntities(c, "groups", codeImportInvalidGroup)
	if err != nil {
		return nil, err
	}
	out := make(map[string]importEntry, len(entities))
	for _, key := range sortedKeys(entities) {
		var g chat.ImportGroup
		if err := decodeEntity(entities[key], &g, codeImportInvalidGroup, "group"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		d := chat.GroupDetails{GUID: g.GUID, Name: g.Name, Type: g.Type, Icon: g.Icon, Password: g.Password,
			Owner: g.Owner, CreatedAt: g.CreatedAt, Metadata: g.Metadata, Tags: g.Tags}
		var v validator
		checkImportGroup(&v, "", &d)
		if g.GUID != key {
			v.add("guid", "The guid must be the same as the group's key.")
		}
		if g.OwnerDetails != nil {
			st.checkImportUser(&v, "groupOwnerDetails.", g.OwnerDetails)
			checkSameID(&v, "groupOwnerDetails.uid", g.OwnerDetails.UID, g.Owner)
		}
		if err := validated(&v, codeImportInvalidGroup, "group"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		guid := strings.ToLower(g.GUID)
		if st.groups[guid] != nil {
			out[key] = importFailure(errGUIDExists(guid))
			continue
		}
		x := st.newImportTx(c)
		if _, err := x.group(guid, &d, g.OwnerDetails); err != nil {
			out[key] = importFailure(err)
			continue
		}
		x.commit()
		r := st.groups[guid].g
		out[key] = importEntry{Success: true, Data: chat.Group{GUID: r.GUID, Name: r.Name, Type: r.Type,
			ConversationID: r.ConversationID, CreatedAt: r.CreatedAt, Owner: r.Owner}}
	}
	return data(out), nil
}

// memberWire is a member as the import body holds it.
type memberWire struct {
	MemberID string `json:"memberId"`
	chat.ImportMember
}

// POST /v3/data_import/members
//
// memberId must equal the key, and both "<guid>_member_<uid>" (compared
// case-insensitively, as ids are lower-cased). The group and the user must
// exist or be described by groupDetails and userDetails. A member joins
// with its scope (default participant) at its joinedAt (default now),
// which must be after the group's createdAt and before now
// (ERR_IMPORT_INVALID_JOINEDAT); isBanned bans the user instead, at
// joinedAt. No action messages are emitted: the import restores history.
// A user who is already a member fails with ERR_ALREADY_JOINED, except the
// owner, who joined with the group: their scope and joinedAt are set. A
// banned user fails with ERR_BANNED_GROUPMEMBER (ERR_ALREADY_BANNED for
// isBanned); the owner cannot be banned. The entry's data is guid, uid,
// scope and joinedAt.
func (st *state) importMembers(c *call) (any, error) {
	entities, err := st.importEntities(c, "members", codeImportInvalidMember)
	if err != nil {
		return nil, err
	}
	out := make(map[string]importEntry, len(entities))
	for _, key := range sortedKeys(entities) {
		var m memberWire
		if err := decodeEntity(entities[key], &m, codeImportInvalidMember, "member"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		entry, err := st.importMember(c, key, &m)
		if err != nil {
			entry = importFailure(err)
		}
		out[key] = entry
	}
	return data(out), nil
}

func (st *state) importMember(c *call, key string, m *memberWire) (importEntry, *apiError) {
	guid, uid := strings.ToLower(m.GUID), strings.ToLower(m.UID)
	var v validator
	checkID(&v, "guid", guid)
	checkID(&v, "uid", uid)
	switch {
	case m.MemberID == "":
		v.add("memberId", "The memberId field is required.")
	case m.MemberID != key:
		v.add("memberId", "The memberId must be the same as the member's key.")
	case !strings.EqualFold(key, m.GUID+"_member_"+m.UID):
		v.add("memberId", "The memberId must be <guid>_member_<uid>.")
	}
	if m.Scope != "" && scopeRank(m.Scope) == rankNone {
		v.add("scope", `The scope must be "admin", "moderator" or "participant".`)
	}
	if m.GroupDetails != nil {
		checkImportGroup(&v, "groupDetails.", m.GroupDetails)
		checkSameID(&v, "groupDetails.guid", m.GroupDetails.GUID, guid)
	}
	if m.UserDetails != nil {
		st.checkImportUser(&v, "userDetails.", m.UserDetails)
		checkSameID(&v, "userDetails.uid", m.UserDetails.UID, uid)
	}
	if err := validated(&v, codeImportInvalidMember, "member"); err != nil {
		return importEntry{}, err
	}

	x := st.newImportTx(c)
	if err := x.user(uid, m.UserDetails); err != nil {
		return importEntry{}, err
	}
	g, err := x.group(guid, m.GroupDetails, nil)
	if err != nil {
		return importEntry{}, err
	}
	createdAt, owner := x.now, ""
	if g != nil {
		createdAt, owner = g.g.CreatedAt, g.g.Owner
	} else {
		if m.GroupDetails.CreatedAt != 0 {
			createdAt = m.GroupDetails.CreatedAt
		}
		owner = strings.ToLower(m.GroupDetails.Owner)
	}
	joinedAt := m.JoinedAt
	if joinedAt != 0 && (joinedAt <= createdAt || joinedAt >= x.now) {
		return importEntry{}, newAPIError(http.StatusBadRequest, codeImportInvalidJoinedAt,
			"The value for joinedAt should be greater than createdAt and less than the current timestamp.", "").
			withDetail("joinedAt", fmt.Sprintf("The joinedAt must be between %d and %d.", createdAt, x.now))
	}
	if joinedAt == 0 {
		joinedAt = x.now
	}
	scope := m.Scope
	if scope == "" {
		scope = chat.MemberParticipant
	}
	if g != nil {
		switch {
		case g.banned[uid] != nil && m.IsBanned:
			return importEntry{}, errAlreadyBanned(guid, uid)
		case g.banned[uid] != nil:
			return importEntry{}, errBannedGroupMember(guid, uid)
		case g.members[uid] != nil && (uid != owner || m.IsBanned):
			return importEntry{}, errAlreadyJoined(guid, uid)
		}
	}
	if m.IsBanned && uid == owner {
		return importEntry{}, formatError(codeImportInvalidMember, "member", map[string][]string{"isBanned": {"The group's owner cannot be banned."}})
	}

	x.commit()
	g = st.groups[guid]
	if m.IsBanned {
		st.groupSeq++
		g.banned[uid] = &banRec{bannedAt: joinedAt, seq: st.groupSeq}
		st.touchGroup(g)
	} else if rec := g.members[uid]; rec != nil {
		rec.scope, rec.joinedAt = scope, joinedAt // the owner
	} else {
		st.join(g, uid, scope, joinedAt)
	}
	return importEntry{Success: true, Data: chat.ImportedMember{GUID: guid, UID: uid, Scope: scope, JoinedAt: joinedAt}}, nil
}

// importableTypes are the types of the "message" category an import
// accepts; custom messages take any type.
var importableTypes = []chat.MessageType{chat.MessageTypeText, chat.MessageTypeImage, chat.MessageTypeFile, chat.MessageTypeAudio, chat.MessageTypeVideo}

// POST /v3/data_import/messages
//
// Messages are stored in the order of their sentAt (then muid), each with
// the next message id, keeping its muid, sentAt (also its updatedAt),
// deliveredAt and readAt; they are not moderated and emit no events. The
// muid must equal the key and not have been imported before
// (ERR_IMPORT_MUID_ALREADY_EXISTS; muids of messages sent through the API
// do not count). The sender and receiver must exist or be described by
// senderUserDetails, receiverUserDetails or receiverGroupDetails (whose
// owner must exist or be described by receiverGroupOwnerDetails); users in
// mentionedUserDetails are created when missing. A group sender need not
// be a member: the history may predate their leaving. The category is
// message (text, image, file, audio or video; default text) or custom (any
// type); sentAt is required. Other problems fail with
// ERR_IMPORT_INVALID_MESSAGE_FORMAT. The entry's data is the stored
// message.
func (st *state) importMessages(c *call) (any, error) {
	entities, err := st.importEntities(c, "messages", codeImportInvalidMessage)
	if err != nil {
		return nil, err
	}
	out := make(map[string]importEntry, len(entities))
	type pending struct {
		key string
		m   chat.ImportMessage
		raw json.RawMessage
	}
	var valid []pending
	for _, key := range sortedKeys(entities) {
		var m chat.ImportMessage
		if err := decodeEntity(entities[key], &m, codeImportInvalidMessage, "message"); err != nil {
			out[key] = importFailure(err)
			continue
		}
		if utf8.RuneCount(entities[key]) > maxMessageChars {
			out[key] = importFailure(formatError(codeImportInvalidMessage, "message", map[string][]string{
				"message": {fmt.Sprintf("The message may not be greater than %d characters.", maxMessageChars)}}))
			continue
		}
		valid = append(valid, pending{key, m, entities[key]})
	}
	sort.SliceStable(valid, func(i, j int) bool { return valid[i].m.SentAt < valid[j].m.SentAt })
	for _, p := range valid {
		entry, err := st.importMessage(c, p.key, &p.m, p.raw)
		if err != nil {
			entry = importFailure(err)
		}
		out[p.key] = entry
	}
	return data(out), nil
}

func (st *state) importMessage(c *call, key string, m *chat.ImportMessage, raw json.RawMessage) (importEntry, *apiError) {
	sender, receiver := strings.ToLower(m.Sender), strings.ToLower(m.Receiver)
	if m.Category == "" {
		m.Category = chat.CategoryMessage
	}
	if m.Type == "" && m.Category == chat.CategoryMessage {
		m.Type = chat.MessageTypeText
	}
	var v validator
	switch {
	case m.MUID == "":
		v.add("muid", "The muid field is required.")
	case m.MUID != key:
		v.add("muid", "The muid must be the same as the message's key.")
	}
	checkID(&v, "sender", sender)
	checkID(&v, "receiver", receiver)
	switch m.ReceiverType {
	case chat.ReceiverUser, chat.ReceiverGroup:
	default:
		v.add("receiverType", `The receiverType must be "user" or "group".`)
	}
	switch {
	case m.Category == chat.CategoryMessage && !slices.Contains(importableTypes, m.Type):
		v.add("type", "The type must be text, image, file, audio or video for the message category.")
	case m.Category == chat.CategoryCustom && m.Type == "":
		v.add("type", "The type field is required for custom messages.")
	case m.Category != chat.CategoryMessage && m.Category != chat.CategoryCustom:
		v.add("category", `The category must be "message" or "custom".`)
	}
	if m.SentAt <= 0 {
		v.add("sentAt", "The sentAt field is required.")
	}
	checkTags(&v, "tags", m.Tags)
	for i, a := range m.Data.Attachments {
		for _, f := range [][2]string{{"url", a.URL}, {"name", a.Name}, {"mimeType", a.MimeType}, {"extension", a.Extension}} {
			if f[1] == "" {
				field := fmt.Sprintf("data.attachments.%d.%s", i, f[0])
				v.add(field, "The %s field is required.", field)
			}
		}
	}
	if d := m.SenderUserDetails; d != nil {
		st.checkImportUser(&v, "senderUserDetails.", d)
		checkSameID(&v, "senderUserDetails.uid", d.UID, sender)
	}
	if d := m.ReceiverUserDetails; d != nil {
		st.checkImportUser(&v, "receiverUserDetails.", d)
		checkSameID(&v, "receiverUserDetails.uid", d.UID, receiver)
	}
	if d := m.ReceiverGroupDetails; d != nil {
		checkImportGroup(&v, "receiverGroupDetails.", d)
		checkSameID(&v, "receiverGroupDetails.guid", d.GUID, receiver)
	}
	if d := m.ReceiverGroupOwnerDetails; d != nil {
		st.checkImportUser(&v, "receiverGroupOwnerDetails.", d)
		if m.ReceiverGroupDetails != nil {
			checkSameID(&v, "receiverGroupOwnerDetails.uid", d.UID, strings.ToLower(m.ReceiverGroupDetails.Owner))
		}
	}
	for uid, d := range m.MentionedUserDetails {
		st.checkImportUser(&v, "mentionedUserDetails."+uid+".", &d)
		checkSameID(&v, "mentionedUserDetails."+uid+".uid", d.UID, strings.ToLower(uid))
	}
	if err := validated(&v, codeImportInvalidMessage, "message"); err != nil {
		return importEntry{}, err
	}
	if _, dup := st.importedMUIDs[m.MUID]; dup {
		return importEntry{}, newAPIError(http.StatusConflict, codeImportMUIDExists,
			"The message muid "+m.MUID+" has already been imported.", "The muid is expected to be unique.")
	}

	x := st.newImportTx(c)
	if err := x.user(sender, m.SenderUserDetails); err != nil {
		return importEntry{}, err
	}
	if m.ReceiverType == chat.ReceiverUser {
		if err := x.user(receiver, m.ReceiverUserDetails); err != nil {
			return importEntry{}, err
		}
	} else if _, err := x.group(receiver, m.ReceiverGroupDetails, m.ReceiverGroupOwnerDetails); err != nil {
		return importEntry{}, err
	}
	for _, uid := range sortedKeys(m.MentionedUserDetails) {
		d := m.MentionedUserDetails[uid]
		if err := x.user(uid, &d); err != nil {
			return importEntry{}, err
		}
	}
	x.commit()

	var attachments []chat.Attachment
	for _, a := range m.Data.Attachments {
		size, _ := strconv.ParseFloat(a.Size, 64)
		attachments = append(attachments, chat.Attachment{URL: a.URL, Name: a.Name, MimeType: a.MimeType, Extension: a.Extension, Size: int64(size)})
	}
	rec := st.addRec(chat.Message{
		MUID:           m.MUID,
		ConversationID: conversationID(sender, m.ReceiverType, receiver),
		Sender:         sender,
		ReceiverType:   m.ReceiverType,
		Receiver:       receiver,
		Category:       m.Category,
		Type:           m.Type,
		Data: chat.MessageData{
			Text: m.Data.Text, CustomData: m.Data.CustomData, Metadata: m.Data.Metadata, Attachments: attachments,
			Entities: &chat.Entities{Sender: Entity(chat.EntityUser, st.UserEntity(sender)), Receiver: st.receiverEntity(sender, m.ReceiverType, receiver)},
		},
		SentAt:      m.SentAt,
		UpdatedAt:   m.SentAt,
		DeliveredAt: m.DeliveredAt,
		ReadAt:      m.ReadAt,
		Tags:        m.Tags,
	}, nil)
	var sent struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(raw, &sent) // decoded before
	rec.sentData = keptData(sent.Data)
	st.touchMsg(rec)
	st.importedMUIDs[m.MUID] = rec.id
	touch(st, &st.importedMUIDs, m.MUID)
	return importEntry{Success: true, Data: rec.wire("", true)}, nil
}
