package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
)

// MaxImportEntities is the most entities one data import request may
// carry. The Import methods refuse more before sending;
// the BulkImport methods split larger imports into requests of at most
// this many.
const MaxImportEntities = 50

// DataImportService imports users, groups, members and messages from
// another chat system, keeping their ids and timestamps. Get it from
// [Client.DataImport].
//
// Each endpoint takes at most [MaxImportEntities] entities per request and
// 60 requests per minute. The Import methods (ImportUsers, ...) send one
// request; the BulkImport methods take any number of entities, split them
// into requests, pace them and return one result per entity. Import users
// and groups before the members and messages that refer to them, or
// describe them inline (UserDetails, GroupDetails): the service creates
// the entities a member or message names when they do not exist yet.
type DataImportService struct {
	c *caller

	mu     sync.Mutex
	pacers map[string]*rate.Limiter // the default pace per endpoint, shared by bulk imports: dataimport_bulk.go
}

// ImportUser is a user to import, with the fields of the import-users
// body. UID and Name are required. Timestamps are Unix seconds, sent as
// integers.
type ImportUser struct {
	// UID is the user's id (required): at most 100 characters of a-z, 0-9,
	// - and _; the service lower-cases it. It keys the user in the request.
	UID string `json:"uid"`
	// Name is the display name (required).
	Name string `json:"name"`
	// Avatar is the URL of the user's picture.
	Avatar string `json:"avatar,omitempty"`
	// Link is the URL of the user's profile.
	Link string `json:"link,omitempty"`
	// Role is the user's role, which must already exist; empty means
	// "default".
	Role string `json:"role,omitempty"`
	// CreatedAt is when the user was created in the other system; zero
	// leaves it to the service (the time of the import).
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// LastActiveAt is when the user was last active.
	LastActiveAt Timestamp `json:"lastActiveAt,omitempty"`
	// Metadata is free-form JSON about the user.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tags are the user's tags.
	Tags []string `json:"tags,omitempty"`
	// DeactivatedAt, when set, imports the user as deactivated since then.
	DeactivatedAt Timestamp `json:"deactivatedAt,omitempty"`
}

// UserDetails describes a user inside another imported entity (a group's
// owner, a member, a message's sender, receiver or mentioned users), so
// that the service can create the user when it does not exist yet. It has
// the fields of [ImportUser]; UID and Name are required.
type UserDetails = ImportUser

// ImportGroup is a group to import, with the fields of the import-groups
// body. GUID, Name and Type are required.
//
// Printing an ImportGroup shows the password as REDACTED; JSON encoding
// keeps it.
type ImportGroup struct {
	// GUID is the group's id (required); the service lower-cases it. It
	// keys the group in the request.
	GUID string `json:"guid"`
	// Name is the display name (required).
	Name string `json:"name"`
	// Type is public, password or private (required).
	Type GroupType `json:"type"`
	// Icon is the URL of the group's picture.
	Icon string `json:"icon,omitempty"`
	// Password is the password of a GroupPassword group.
	Password Secret `json:"password,omitempty"`
	// Owner is the owner's UID.
	Owner string `json:"owner,omitempty"`
	// CreatedAt is when the group was created in the other system.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// Metadata is free-form JSON about the group.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tags are the group's tags.
	Tags []string `json:"tags,omitempty"`
	// OwnerDetails describes the owner, created when it does not exist
	// (the wire's groupOwnerDetails).
	OwnerDetails *UserDetails `json:"groupOwnerDetails,omitempty"`
}

// GroupDetails describes a group inside an imported member or message, so
// that the service can create the group when it does not exist yet. GUID,
// Name and Type are required.
//
// Printing a GroupDetails shows the password as REDACTED; JSON encoding
// keeps it.
type GroupDetails struct {
	// GUID is the group's id (required).
	GUID string `json:"guid"`
	// Name is the display name (required).
	Name string `json:"name"`
	// Type is public, password or private (required).
	Type GroupType `json:"type"`
	// Icon is the URL of the group's picture.
	Icon string `json:"icon,omitempty"`
	// Password is the password of a GroupPassword group.
	Password Secret `json:"password,omitempty"`
	// Owner is the owner's UID.
	Owner string `json:"owner,omitempty"`
	// CreatedAt is when the group was created in the other system.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// Metadata is free-form JSON about the group.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tags are the group's tags.
	Tags []string `json:"tags,omitempty"`
}

// Format prints the group as fmt would, its Secret fields as REDACTED. (A type
// that holds a Secret and is held by pointer needs it: fmt prints a pointer
// field with %s, %q, %x or %d through a path that calls no method of the
// values under it.)
func (g GroupDetails) Format(f fmt.State, verb rune) {
	type plain GroupDetails
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(g))
}

// ImportMember is a group membership to import. GUID and UID are
// required. The SDK keys it in the request as "<guid>_member_<uid>" and
// sends that key as memberId, as the service requires.
type ImportMember struct {
	// GUID is the group (required).
	GUID string `json:"guid"`
	// UID is the user (required).
	UID string `json:"uid"`
	// Scope is the member's scope; empty leaves it to the service
	// (participant).
	Scope MemberScope `json:"scope,omitempty"`
	// IsBanned imports the user as banned from the group rather than as a
	// member.
	IsBanned bool `json:"isBanned,omitempty"`
	// JoinedAt is when the user joined. The service requires it to be
	// after the group's creation and before now
	// (ERR_IMPORT_INVALID_JOINEDAT).
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// GroupDetails describes the group, created when it does not exist.
	GroupDetails *GroupDetails `json:"groupDetails,omitempty"`
	// UserDetails describes the user, created when it does not exist.
	UserDetails *UserDetails `json:"userDetails,omitempty"`
}

// ImportedMember is a membership as the service reports it imported.
type ImportedMember struct {
	// GUID is the group.
	GUID string `json:"guid"`
	// UID is the user.
	UID string `json:"uid"`
	// Scope is the member's scope.
	Scope MemberScope `json:"scope,omitempty"`
	// JoinedAt is when the user joined.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
}

// ImportMessage is a message to import, with the fields of the
// import-messages body. MUID, Sender, ReceiverType, Receiver
// and SentAt are required. Import messages in chronological order.
type ImportMessage struct {
	// MUID is the message's id in the other system (required, unique: a
	// repeated one fails with ERR_IMPORT_MUID_ALREADY_EXISTS). It keys the
	// message in the request, and the imported message keeps it.
	MUID string `json:"muid"`
	// Sender is the sender's UID (required).
	Sender string `json:"sender"`
	// ReceiverType says whether Receiver is a user or a group (required).
	ReceiverType ReceiverType `json:"receiverType"`
	// Receiver is the receiving user's UID or group's GUID (required).
	Receiver string `json:"receiver"`
	// Category is message or custom; empty leaves it to the service
	// (message).
	Category Category `json:"category,omitempty"`
	// Type is text, image, file, audio or video for the message category,
	// or any type for custom messages; empty leaves it to the service
	// (text).
	Type MessageType `json:"type,omitempty"`
	// Data is the message's content.
	Data ImportMessageData `json:"data,omitzero"`
	// Tags are the message's tags.
	Tags []string `json:"tags,omitempty"`
	// SentAt is when the message was sent (required); the imported message
	// keeps it.
	SentAt Timestamp `json:"sentAt"`
	// DeliveredAt is when the message was delivered.
	DeliveredAt Timestamp `json:"deliveredAt,omitempty"`
	// ReadAt is when the message was read.
	ReadAt Timestamp `json:"readAt,omitempty"`
	// SenderUserDetails describes the sender, created when it does not
	// exist.
	SenderUserDetails *UserDetails `json:"senderUserDetails,omitempty"`
	// ReceiverUserDetails describes a user receiver, created when it does
	// not exist: needed when the users were not imported first.
	ReceiverUserDetails *UserDetails `json:"receiverUserDetails,omitempty"`
	// ReceiverGroupDetails describes a group receiver, created when it does
	// not exist.
	ReceiverGroupDetails *GroupDetails `json:"receiverGroupDetails,omitempty"`
	// ReceiverGroupOwnerDetails describes the owner of a group receiver,
	// created when it does not exist.
	ReceiverGroupOwnerDetails *UserDetails `json:"receiverGroupOwnerDetails,omitempty"`
	// MentionedUserDetails describes the users the text mentions (written
	// "<@uid:UID>" in it), by UID, created when they do not exist.
	MentionedUserDetails map[string]UserDetails `json:"mentionedUserDetails,omitempty"`
}

// ImportMessageData is the content of an imported message.
type ImportMessageData struct {
	// Text is the text of a text message, or the caption of a media one.
	Text string `json:"text,omitempty"`
	// CustomData is the content of a custom message.
	CustomData map[string]any `json:"customData,omitempty"`
	// Attachments are the files of a media message.
	Attachments []ImportAttachment `json:"attachments,omitempty"`
	// Metadata is free-form JSON about the message.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// ImportAttachment is a file of an imported media message. URL, Name,
// MimeType and Extension are required.
type ImportAttachment struct {
	// URL is where the file can be downloaded (required).
	URL string `json:"url"`
	// Name is the file name (required).
	Name string `json:"name"`
	// MimeType is the file's media type, e.g. "image/png" (required).
	MimeType string `json:"mimeType"`
	// Extension is the file name's extension, e.g. "png" (required).
	Extension string `json:"extension"`
	// Size is the file's size as a string, such as "350.2".
	Size string `json:"size,omitempty"`
}

// ImportError is the service's reason for not importing one entity: the
// "error" of the entity's entry in the answer. The SDK reads the API's
// usual {"code", "message", "devMessage", "details"} object, or a bare
// string as the code (an upper-case identifier) or the message.
type ImportError struct {
	// Code is the error code, e.g. "ERR_IMPORT_MUID_ALREADY_EXISTS".
	Code string
	// Message is the service's description.
	Message string
	// DevMessage is the service's description for developers.
	DevMessage string
	// Details maps each invalid field to its problems, when the service
	// names them.
	Details map[string][]string
}

// Error names the code and the message.
func (e *ImportError) Error() string {
	var b strings.Builder
	b.WriteString("chat: not imported")
	if e.Code == "" && e.Message == "" {
		b.WriteString(" (the service gave no reason)")
	}
	if e.Code != "" {
		b.WriteString(": " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, k := range slices.Sorted(maps.Keys(e.Details)) {
		b.WriteString("; " + k + ": " + strings.Join(e.Details[k], ", "))
	}
	return b.String()
}

// Is reports whether e's code falls under target, one of the package's
// sentinel errors, as [Error.Is] does.
func (e *ImportError) Is(target error) bool { return target != nil && target == classOf(e.Code, 0) }

// ErrNoImportResult is the Err of an entity the service's answer has no
// entry for.
var ErrNoImportResult = errors.New("chat: the service's answer has no result for this entity")

// ImportUsers imports at most [MaxImportEntities] users in one request and
// returns one result per user, in the order given. A user the service
// refuses does not fail the call: its result carries an [*ImportError].
// ImportUsers refuses, before sending, an empty slice, more than
// MaxImportEntities users, a user whose UID is empty or repeats
// another's (case-insensitively: the service lower-cases uids), and a user
// that [ImportUser.Validate] refuses, with an [*ArgumentError] naming it,
// e.g. "users[3].uid". The request is not
// paced; see [DataImportService.BulkImportUsers].
//
// API: POST /v3/data_import/users (onBehalfOf not supported)
func (s *DataImportService) ImportUsers(ctx context.Context, users []ImportUser, opts ...RequestOption) ([]BulkResult[User], error) {
	return importOnce[ImportUser, User](ctx, s.c, &userImport, users, opts)
}

// ImportGroups imports at most [MaxImportEntities] groups in one request
// and returns one result per group, in the order given, as
// [DataImportService.ImportUsers] does for users. The GUIDs must be set
// and distinct (case-insensitively).
//
// API: POST /v3/data_import/groups (onBehalfOf not supported)
func (s *DataImportService) ImportGroups(ctx context.Context, groups []ImportGroup, opts ...RequestOption) ([]BulkResult[Group], error) {
	return importOnce[ImportGroup, Group](ctx, s.c, &groupImport, groups, opts)
}

// ImportMembers imports at most [MaxImportEntities] group memberships in
// one request and returns one result per membership, in the order given,
// as [DataImportService.ImportUsers] does for users. Each needs its GUID
// and UID, and no two may name the same pair (case-insensitively); the
// SDK keys each as "<guid>_member_<uid>" and sends that as its memberId.
//
// API: POST /v3/data_import/members (onBehalfOf not supported)
func (s *DataImportService) ImportMembers(ctx context.Context, members []ImportMember, opts ...RequestOption) ([]BulkResult[ImportedMember], error) {
	return importOnce[ImportMember, ImportedMember](ctx, s.c, &memberImport, members, opts)
}

// ImportMessages imports at most [MaxImportEntities] messages in one
// request and returns one result per message, in the order given, as
// [DataImportService.ImportUsers] does for users. The MUIDs must be set
// and distinct (exactly: muids are not lower-cased).
//
// API: POST /v3/data_import/messages (onBehalfOf not supported)
func (s *DataImportService) ImportMessages(ctx context.Context, messages []ImportMessage, opts ...RequestOption) ([]BulkResult[Message], error) {
	return importOnce[ImportMessage, Message](ctx, s.c, &messageImport, messages, opts)
}

// importSpec describes one import endpoint.
type importSpec[In any] struct {
	// prop is the body's property, the path's last segment and the
	// argument's name, e.g. "users".
	prop string
	// key returns the entity's key, or the name of the empty id field.
	key func(it *In) (key, missing string)
	// keyField names the field a repeated key is reported on; empty
	// reports the entity itself.
	keyField string
	// fold compares keys case-insensitively, as the service lower-cases
	// uids and guids.
	fold bool
	// wire returns what the body holds for the entity under key.
	wire func(it *In, key string) any
	// validate is the entity's Validate.
	validate func(it *In) error
}

var (
	userImport = importSpec[ImportUser]{
		prop: "users", keyField: "uid", fold: true,
		key:      func(u *ImportUser) (string, string) { return idKey(u.UID, "uid") },
		wire:     func(u *ImportUser, _ string) any { return u },
		validate: (*ImportUser).Validate,
	}
	groupImport = importSpec[ImportGroup]{
		prop: "groups", keyField: "guid", fold: true,
		key:      func(g *ImportGroup) (string, string) { return idKey(g.GUID, "guid") },
		wire:     func(g *ImportGroup, _ string) any { return g },
		validate: (*ImportGroup).Validate,
	}
	memberImport = importSpec[ImportMember]{
		prop: "members", fold: true,
		key: func(m *ImportMember) (string, string) {
			switch {
			case m.GUID == "":
				return "", "guid"
			case m.UID == "":
				return "", "uid"
			}
			return m.GUID + "_member_" + m.UID, ""
		},
		wire:     func(m *ImportMember, key string) any { return wireMember{MemberID: key, ImportMember: m} },
		validate: (*ImportMember).Validate,
	}
	messageImport = importSpec[ImportMessage]{
		prop: "messages", keyField: "muid",
		key:      func(m *ImportMessage) (string, string) { return idKey(m.MUID, "muid") },
		wire:     func(m *ImportMessage, _ string) any { return m },
		validate: (*ImportMessage).Validate,
	}
)

func idKey(id, field string) (string, string) {
	if id == "" {
		return "", field
	}
	return id, ""
}

// wireMember is a member as the body holds it: with its memberId.
type wireMember struct {
	MemberID string `json:"memberId"`
	*ImportMember
}

// keys returns each entity's key, and for each entity the SDK refuses an
// *ArgumentError naming its missing or repeated id, or the field its
// Validate finds at fault.
func (sp *importSpec[In]) keys(items []In) (keys []string, errs []error) {
	keys, errs = make([]string, len(items)), make([]error, len(items))
	first := make(map[string]int, len(items))
	for i := range items {
		key, missing := sp.key(&items[i])
		name := sp.prop + "[" + strconv.Itoa(i) + "]"
		if missing != "" {
			errs[i] = newArgError(name+"."+missing, "must not be empty")
			continue
		}
		keys[i] = key
		if err := sp.validate(&items[i]); err != nil {
			errs[i] = withPrefix(name+".", err)
			continue
		}
		norm := key
		if sp.fold {
			norm = strings.ToLower(key)
		}
		if j, dup := first[norm]; dup {
			if sp.keyField == "" {
				errs[i] = newArgError(name, "names the same guid and uid as "+sp.prop+"["+strconv.Itoa(j)+"]")
			} else {
				errs[i] = newArgError(name+"."+sp.keyField, "repeats "+sp.prop+"["+strconv.Itoa(j)+"]."+sp.keyField)
			}
			continue
		}
		first[norm] = i
	}
	return keys, errs
}

// importOnce checks items and sends them in one request.
func importOnce[In, Out any](ctx context.Context, c *caller, sp *importSpec[In], items []In, opts []RequestOption) ([]BulkResult[Out], error) {
	switch {
	case len(items) == 0:
		return nil, newArgError(sp.prop, "must not be empty")
	case len(items) > MaxImportEntities:
		return nil, newArgError(sp.prop, "holds "+strconv.Itoa(len(items))+" entities; a request takes at most "+
			strconv.Itoa(MaxImportEntities)+" (the BulkImport methods split larger imports)")
	}
	keys, errs := sp.keys(items)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var body importBody
	for i := range items {
		wire := sp.wire(&items[i], keys[i])
		entry, err := encodeEntry(keys[i], wire)
		if err != nil {
			return nil, newArgError(sp.prop+"["+strconv.Itoa(i)+"]", "cannot be encoded as JSON: "+err.Error())
		}
		body.add(keys[i], entry, wire)
	}
	if n := body.size(sp.prop); n > MaxImportRequestBytes {
		return nil, newArgError(sp.prop, "encodes to "+strconv.Itoa(n)+" bytes of JSON; a request takes at most "+
			strconv.Itoa(MaxImportRequestBytes)+" (the BulkImport methods split larger imports)")
	}
	return postImport[Out](ctx, c, sp.prop, &body, opts, engine.CallConfig{})
}

// importEntry is one entity's entry in the answer.
type importEntry[T any] struct {
	Success bool            `json:"success"`
	Data    *T              `json:"data"`
	Error   json.RawMessage `json:"error"`
}

// scrubbed returns e with scrub applied to every text the service filled:
// it may echo the credentials the request carried.
func (e *ImportError) scrubbed(scrub func(string) string) *ImportError {
	e.Code, e.Message, e.DevMessage = scrub(e.Code), scrub(e.Message), scrub(e.DevMessage)
	e.Details = redact.ScrubDetails(e.Details, scrub)
	return e
}

// parseImportError reads an entry's "error": the API's error object, or a
// bare string.
func parseImportError(raw json.RawMessage) *ImportError {
	e := &ImportError{}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if isErrorCode(s) {
			e.Code = s
		} else {
			e.Message = s
		}
		return e
	}
	var obj struct {
		Code       json.RawMessage            `json:"code"`
		Message    string                     `json:"message"`
		DevMessage string                     `json:"devMessage"`
		Details    map[string]json.RawMessage `json:"details"`
	}
	if rest.Unmarshal(raw, &obj) != nil {
		return e
	}
	if json.Unmarshal(obj.Code, &e.Code) != nil {
		e.Code = string(obj.Code) // a number
	}
	e.Message, e.DevMessage = obj.Message, obj.DevMessage
	for k, v := range obj.Details {
		var list []string
		if json.Unmarshal(v, &list) != nil {
			var one string
			if json.Unmarshal(v, &one) != nil {
				one = string(v)
			}
			list = []string{one}
		}
		if e.Details == nil {
			e.Details = map[string][]string{}
		}
		e.Details[k] = list
	}
	return e
}

// isErrorCode reports whether s looks like an error code: upper-case
// letters, digits and underscores.
func isErrorCode(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
