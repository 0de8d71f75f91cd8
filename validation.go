package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chatrest/chat/internal/rest"
)

// Limits of the service that the client checks before it sends a create
// or update. A request that
// breaks one fails with an [*ArgumentError] naming the field (for example
// "req.UID", "req.Tags[3]" or "req.Metadata"), and nothing is sent.
//
// Characters are counted as Unicode code points. The service counts an
// emoji as two characters in some fields (UTF8mb4); the client takes the
// more lenient count, so that it never refuses what the service accepts,
// and the service may still refuse a text the client let through. Where a
// limit is stated two ways, the client checks the larger.
//
// Ids are checked where they are created (a user's UID, a group's GUID, a
// role's id). Ids that name something that already exists — in a path, a
// receiver, an owner, a member list — are not checked: they are escaped,
// so that whatever the service created can be addressed.
const (
	// MaxIDLength is the most characters of a UID, GUID or role id. Ids
	// hold letters a-z, digits, - and _; the service lower-cases them, so
	// the client accepts A-Z too.
	MaxIDLength = 100
	// MaxNameLength is the most characters of a user's, group's or role's
	// name.
	MaxNameLength = 100
	// MaxDescriptionLength is the most characters of a group's or role's
	// description.
	MaxDescriptionLength = 255
	// MaxGroupPasswordLength is the most characters of a group password.
	MaxGroupPasswordLength = 100
	// MaxURLLength is the most characters of an avatar, profile link or
	// group icon URL.
	MaxURLLength = 3000
	// MaxTags is the most tags of a user, group, message or conversation.
	MaxTags = 25
	// MaxTagLength is the most characters of one tag.
	MaxTagLength = 100
	// MaxMetadataBytes is the most bytes of a user's or group's metadata,
	// encoded as JSON. The service may refuse metadata from about 1,600
	// characters; the client checks the larger bound, 5 KiB.
	MaxMetadataBytes = 5 << 10
	// MaxMessageChars is the most characters of a message as JSON,
	// metadata included: the body of a send or an edit. The client checks
	// this limit only; the service may also hold a message's data object
	// to 10 KB.
	MaxMessageChars = 65536
)

// firstErr returns the first error that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkID checks an id being created: at most MaxIDLength characters of
// a-z, A-Z, 0-9, - and _. Emptiness is Required's business.
func checkID(name, id string) error {
	if len(id) > MaxIDLength {
		return newArgError(name, "must be at most "+strconv.Itoa(MaxIDLength)+" characters")
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return newArgError(name, "may hold only letters a-z, digits, - and _ (the service lower-cases A-Z)")
		}
	}
	return nil
}

// checkLen checks that s has at most maxChars characters.
func checkLen(name, s string, maxChars int) error {
	if len(s) > maxChars && utf8.RuneCountInString(s) > maxChars {
		return newArgError(name, "must be at most "+strconv.Itoa(maxChars)+" characters")
	}
	return nil
}

// checkTags checks a list of tags: at most MaxTags, each at most
// MaxTagLength characters.
func checkTags(name string, tags []string) error {
	if len(tags) > MaxTags {
		return newArgError(name, "must hold at most "+strconv.Itoa(MaxTags)+" tags, not "+strconv.Itoa(len(tags)))
	}
	for i, tag := range tags {
		if err := checkLen(name+"["+strconv.Itoa(i)+"]", tag, MaxTagLength); err != nil {
			return err
		}
	}
	return nil
}

// encodeJSON encodes v as compact JSON without escaping <, > and &, the
// shortest form the service reads the same.
func encodeJSON(v any) (b []byte, err error) {
	err = withJSON(v, func(enc []byte) error {
		b = bytes.Clone(enc)
		return nil
	})
	return b, err
}

// withJSON calls f with v encoded as [encodeJSON] encodes it, in a buffer
// that is reused once f returns: f must not keep it.
func withJSON(v any, f func([]byte) error) error {
	e := jsonEncoders.Get().(*jsonEncoder)
	defer func() {
		if e.buf.Cap() <= 1<<20 {
			jsonEncoders.Put(e)
		}
	}()
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	return f(bytes.TrimSuffix(e.buf.Bytes(), []byte{'\n'}))
}

// jsonEncoder is a buffer with an encoder into it that escapes no HTML,
// kept in jsonEncoders between encodings.
type jsonEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var jsonEncoders = sync.Pool{New: func() any {
	e := new(jsonEncoder)
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// checkMetadata checks a user's or group's metadata: at most
// MaxMetadataBytes of JSON.
func checkMetadata(name string, m map[string]any) error {
	if len(m) == 0 {
		return nil
	}
	n := 0
	if err := withJSON(m, func(b []byte) error { n = len(b); return nil }); err != nil {
		return newArgError(name, "cannot be encoded as JSON: "+err.Error())
	}
	if n > MaxMetadataBytes {
		return newArgError(name, "must encode to at most "+strconv.Itoa(MaxMetadataBytes)+" bytes of JSON, not "+strconv.Itoa(n))
	}
	return nil
}

// messageBody encodes the body of a message send or edit once, checks it
// against MaxMessageChars, and returns it ready to send: every attempt of
// the call sends these same bytes.
func messageBody(v any) (*rest.RawBody, error) {
	b, err := encodeJSON(v)
	if err != nil {
		return nil, newArgError("req", "cannot be encoded as JSON: "+err.Error())
	}
	if len(b) > MaxMessageChars {
		if n := utf8.RuneCount(b); n > MaxMessageChars {
			return nil, newArgError("req", "encodes to "+strconv.Itoa(n)+" characters of JSON; a message may have at most "+strconv.Itoa(MaxMessageChars))
		}
	}
	return &rest.RawBody{ContentType: "application/json", Data: b}, nil
}

// Validate checks r as [UsersService.Create] does before sending: UID and
// Name set, the UID's characters, and the service's limits. It returns an
// [*ArgumentError] naming the field at fault (e.g. "req.Tags[3]"), or nil.
func (r *CreateUserRequest) Validate() error {
	return firstErr(required("req.UID", r.UID, "req.Name", r.Name),
		checkID("req.UID", r.UID), checkUser(r.Name, r.Avatar, r.Link, r.Metadata, r.Tags))
}

// Validate checks r against the service's limits as [UsersService.Update]
// does before sending. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (r *UpdateUserRequest) Validate() error {
	return checkUser(r.Name, r.Avatar, r.Link, r.Metadata, r.Tags)
}

// checkUser checks the fields a user's creation and update share.
func checkUser(name, avatar, link string, metadata map[string]any, tags []string) error {
	return firstErr(
		checkLen("req.Name", name, MaxNameLength),
		checkLen("req.Avatar", avatar, MaxURLLength),
		checkLen("req.Link", link, MaxURLLength),
		checkMetadata("req.Metadata", metadata),
		checkTags("req.Tags", tags),
	)
}

// Validate checks r as [GroupsService.Create] does before sending: GUID and
// Name set, the GUID's characters, the service's limits, and the members
// to add with the group. It returns an [*ArgumentError] naming the field
// at fault, or nil.
func (r *CreateGroupRequest) Validate() error {
	err := firstErr(required("req.GUID", r.GUID, "req.Name", r.Name),
		checkID("req.GUID", r.GUID), checkGroup(r.Name, r.Password, r.Icon, r.Description, r.Metadata, r.Tags))
	if err == nil && r.Members != nil {
		err = r.Members.check("req.Members.")
	}
	return err
}

// Validate checks r against the service's limits as [GroupsService.Update]
// does before sending. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (r *UpdateGroupRequest) Validate() error {
	return checkGroup(r.Name, r.Password, r.Icon, r.Description, r.Metadata, r.Tags)
}

// checkGroup checks the fields a group's creation and update share.
func checkGroup(name string, password Secret, icon, description string, metadata map[string]any, tags []string) error {
	return firstErr(
		checkLen("req.Name", name, MaxNameLength),
		checkLen("req.Password", string(password), MaxGroupPasswordLength),
		checkLen("req.Icon", icon, MaxURLLength),
		checkLen("req.Description", description, MaxDescriptionLength),
		checkMetadata("req.Metadata", metadata),
		checkTags("req.Tags", tags),
	)
}

// Validate checks r as [MembersService.Add] does before sending: at least
// one user, none empty, at most [MaxMembersPerCall] distinct users. It
// returns an [*ArgumentError] naming the field at fault, or nil.
func (r *AddMembersRequest) Validate() error { return r.check("req.") }

// Validate checks r as [RolesService.Create] does before sending: Role and
// Name set, the id's characters, and the service's limits. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *CreateRoleRequest) Validate() error {
	return firstErr(
		required("req.Role", r.Role, "req.Name", r.Name),
		checkID("req.Role", r.Role),
		checkLen("req.Name", r.Name, MaxNameLength),
		checkLen("req.Description", r.Description, MaxDescriptionLength),
	)
}

// Validate checks r against the service's limits as [RolesService.Update]
// does before sending. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (r *UpdateRoleRequest) Validate() error {
	return firstErr(
		checkLen("req.Name", r.Name, MaxNameLength),
		checkLen("req.Description", r.Description, MaxDescriptionLength),
	)
}

// Validate checks r's tags as the conversation updates do before sending.
// It returns an [*ArgumentError] naming the field at fault, or nil.
func (r *UpdateConversationRequest) Validate() error { return checkTags("req.Tags", r.Tags) }

// Validate checks r as [MessagesService.Send] and its variants do before
// sending: the receiver and its type (unless the message goes to multiple
// receivers alone), the tags, and the size of the body ([MaxMessageChars]).
// It returns an [*ArgumentError] naming the field at fault, or nil.
func (r *SendMessageRequest) Validate() error {
	if err := r.checkFields(); err != nil {
		return err
	}
	_, err := messageBody(r)
	return err
}

// checkFields is Validate but for the size, which messageBody checks as
// it encodes the body to send.
func (r *SendMessageRequest) checkFields() error {
	return firstErr(checkReceiver(r.Receiver, r.ReceiverType, r.MultipleReceivers != nil), checkTags("req.Tags", r.Tags))
}

// Validate checks r as [MessagesService.Update] does before sending: the
// tags and the size of the body ([MaxMessageChars]). It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *UpdateMessageRequest) Validate() error {
	if err := r.checkFields(); err != nil {
		return err
	}
	_, err := messageBody(r)
	return err
}

// checkFields is Validate but for the size, which messageBody checks as
// it encodes the body to send.
func (r *UpdateMessageRequest) checkFields() error { return checkTags("req.Tags", r.Tags) }

// checkReceiver checks a message's receiver: a UID or GUID, and whether it
// is a user or a group. A message to multiple receivers alone needs
// neither.
func checkReceiver(receiver string, t ReceiverType, multiple bool) error {
	if receiver == "" && t == "" && multiple {
		return nil
	}
	if err := required("req.Receiver", receiver); err != nil {
		return err
	}
	if t != ReceiverUser && t != ReceiverGroup {
		return newArgError("req.ReceiverType", `must be "user" or "group"`)
	}
	return nil
}

// The import entities name their fields as the Data Import API does (e.g.
// "uid", "groupOwnerDetails.tags[2]"); the Import and BulkImport methods
// put the entity's place before it (e.g. "users[3].uid").

// Validate checks u as the Import methods do before sending: UID and Name
// set, the UID's characters, and the service's limits. It returns an
// [*ArgumentError] naming the field at fault (e.g. "uid"), or nil.
func (u *ImportUser) Validate() error { return u.validate("") }

func (u *ImportUser) validate(prefix string) error {
	return firstErr(
		required(prefix+"uid", u.UID, prefix+"name", u.Name),
		checkID(prefix+"uid", u.UID),
		checkLen(prefix+"name", u.Name, MaxNameLength),
		checkLen(prefix+"avatar", u.Avatar, MaxURLLength),
		checkLen(prefix+"link", u.Link, MaxURLLength),
		checkMetadata(prefix+"metadata", u.Metadata),
		checkTags(prefix+"tags", u.Tags),
	)
}

// Validate checks g as the Import methods do before sending: GUID, Name
// and Type set, the GUID's characters, a password for a password group,
// the service's limits, and the owner's details, which must name the
// owner. It returns an [*ArgumentError] naming the field at fault, or nil.
func (g *ImportGroup) Validate() error {
	err := checkImportGroup("", g.GUID, g.Name, g.Type, g.Password, g.Icon, g.Metadata, g.Tags)
	if err == nil && g.OwnerDetails != nil {
		err = firstErr(g.OwnerDetails.validate("groupOwnerDetails."), sameID("groupOwnerDetails.uid", g.OwnerDetails.UID, g.Owner))
	}
	return err
}

// Validate checks g as [ImportGroup.Validate] does. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (g *GroupDetails) Validate() error { return g.validate("") }

func (g *GroupDetails) validate(prefix string) error {
	return checkImportGroup(prefix, g.GUID, g.Name, g.Type, g.Password, g.Icon, g.Metadata, g.Tags)
}

// checkImportGroup checks the fields an imported group and a group's
// details share.
func checkImportGroup(prefix, guid, name string, t GroupType, password Secret, icon string, metadata map[string]any, tags []string) error {
	err := firstErr(required(prefix+"guid", guid, prefix+"name", name, prefix+"type", string(t)), checkID(prefix+"guid", guid))
	if err != nil {
		return err
	}
	switch t {
	case GroupPublic, GroupPrivate:
	case GroupPassword:
		if password == "" {
			return newArgError(prefix+"password", "must not be empty for a password group")
		}
	default:
		return newArgError(prefix+"type", `must be "public", "password" or "private"`)
	}
	return firstErr(
		checkLen(prefix+"name", name, MaxNameLength),
		checkLen(prefix+"password", string(password), MaxGroupPasswordLength),
		checkLen(prefix+"icon", icon, MaxURLLength),
		checkMetadata(prefix+"metadata", metadata),
		checkTags(prefix+"tags", tags),
	)
}

// sameID refuses details (field) naming another entity than the record's
// id want; either may be empty.
func sameID(field, got, want string) error {
	if got != "" && want != "" && !strings.EqualFold(got, want) {
		return newArgError(field, "must name the same id as the entity it describes")
	}
	return nil
}

// Validate checks m as the Import methods do before sending: GUID and UID
// set, a known scope, and the group's and user's details, which must name
// the same group and user. It returns an [*ArgumentError] naming the field
// at fault, or nil.
func (m *ImportMember) Validate() error {
	if err := required("guid", m.GUID, "uid", m.UID); err != nil {
		return err
	}
	if err := checkScope("scope", m.Scope); err != nil {
		return err
	}
	if d := m.GroupDetails; d != nil {
		if err := firstErr(d.validate("groupDetails."), sameID("groupDetails.guid", d.GUID, m.GUID)); err != nil {
			return err
		}
	}
	if d := m.UserDetails; d != nil {
		return firstErr(d.validate("userDetails."), sameID("userDetails.uid", d.UID, m.UID))
	}
	return nil
}

// checkScope checks a member's scope: a known one, or empty for the
// service's default (participant).
func checkScope(name string, s MemberScope) error {
	switch s {
	case "", MemberAdmin, MemberModerator, MemberParticipant:
		return nil
	}
	return newArgError(name, `must be "admin", "moderator", "participant" or empty`)
}

// importableTypes are the types of the message category.
var importableTypes = []MessageType{MessageTypeText, MessageTypeImage, MessageTypeFile, MessageTypeAudio, MessageTypeVideo}

// Validate checks m as the Import methods do before sending: MUID,
// Sender, Receiver and ReceiverType set, a type the category
// takes, the tags, each attachment's required fields, and the details of
// the users and group, which must name the ids the message names. It
// returns an [*ArgumentError] naming the field at fault, or nil.
func (m *ImportMessage) Validate() error {
	if err := required("muid", m.MUID, "sender", m.Sender, "receiverType", string(m.ReceiverType), "receiver", m.Receiver); err != nil {
		return err
	}
	if m.ReceiverType != ReceiverUser && m.ReceiverType != ReceiverGroup {
		return newArgError("receiverType", `must be "user" or "group"`)
	}
	switch m.Category {
	case "", CategoryMessage:
		if m.Type != "" && !slices.Contains(importableTypes, m.Type) {
			return newArgError("type", `must be "text", "image", "file", "audio" or "video" for the message category`)
		}
	case CategoryCustom:
		if m.Type == "" {
			return newArgError("type", "must not be empty for a custom message")
		}
	default:
		return newArgError("category", `must be "message" or "custom"`)
	}
	if err := checkTags("tags", m.Tags); err != nil {
		return err
	}
	for i, a := range m.Data.Attachments {
		p := "data.attachments[" + strconv.Itoa(i) + "]."
		if err := required(p+"url", a.URL, p+"name", a.Name, p+"mimeType", a.MimeType, p+"extension", a.Extension); err != nil {
			return err
		}
	}
	details := partyFields{"senderUserDetails.", "receiverUserDetails.", "receiverGroupDetails."}
	if err := checkPartyDetails(details, m.Sender, m.Receiver, m.SenderUserDetails, m.ReceiverUserDetails, m.ReceiverGroupDetails); err != nil {
		return err
	}
	if d := m.ReceiverGroupOwnerDetails; d != nil {
		if err := d.validate("receiverGroupOwnerDetails."); err != nil {
			return err
		}
	}
	for _, uid := range slices.Sorted(maps.Keys(m.MentionedUserDetails)) {
		d := m.MentionedUserDetails[uid]
		p := "mentionedUserDetails." + uid + "."
		if err := firstErr(d.validate(p), sameID(p+"uid", d.UID, uid)); err != nil {
			return err
		}
	}
	return nil
}

// partyFields name the details of a message's sender, user receiver and
// group receiver in errors, each ending in a dot.
type partyFields struct{ sender, receiverUser, receiverGroup string }

// checkPartyDetails checks the details that describe a message's sender
// and receiver, to create them when they do not exist: each as an import
// checks it, and naming the sender or receiver the message names.
func checkPartyDetails(f partyFields, sender, receiver string, senderUser, receiverUser *UserDetails, receiverGroup *GroupDetails) error {
	if d := senderUser; d != nil {
		if err := firstErr(d.validate(f.sender), sameID(f.sender+"uid", d.UID, sender)); err != nil {
			return err
		}
	}
	if d := receiverUser; d != nil {
		if err := firstErr(d.validate(f.receiverUser), sameID(f.receiverUser+"uid", d.UID, receiver)); err != nil {
			return err
		}
	}
	if d := receiverGroup; d != nil {
		return firstErr(d.validate(f.receiverGroup), sameID(f.receiverGroup+"guid", d.GUID, receiver))
	}
	return nil
}

// withPrefix returns err with prefix before the name of the argument, when
// it is an [*ArgumentError].
func withPrefix(prefix string, err error) error {
	var ae *ArgumentError
	if errors.As(err, &ae) {
		return &ArgumentError{Name: prefix + ae.Name, Problem: ae.Problem}
	}
	return err
}
