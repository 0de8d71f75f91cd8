package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatrest/chat"
)

// importKind is what the import of one kind of entity needs: how to read a
// record, check it, key it, and send a batch of them through the Data
// Import API.
type importKind struct {
	// name is the kind's argument and the endpoint's last path segment,
	// e.g. "users"; entity names one record, e.g. "user".
	name, entity string
	// formatCode is the API's code for a record it cannot import, which
	// the records refused before sending carry too.
	formatCode string
	// present are the codes the API refuses a record with when its entity
	// already exists: the record of a batch sent again after its answer
	// was lost, or of an entity imported before.
	present []string
	// concurrency is how many requests may be in flight by default.
	concurrency int
	// decode reads one record from JSON, refusing unknown fields.
	decode func(raw []byte) (any, error)
	// check returns the record's problems, field by field.
	check func(rec any) problems
	// key returns the record's id as the service compares it (uids and
	// guids lower-cased): a batch holds no two records with the same.
	key func(rec any) string
	// send imports a batch of at most chat.MaxImportEntities records.
	send func(ctx context.Context, di *chat.DataImportService, recs []any, opts ...chat.RequestOption) ([]outcome, error)
	// timestamps are the fields holding Unix seconds, and the others the
	// fields whose CSV cells are read as booleans, JSON or lists.
	timestamps, bools, jsonFields, lists []string
}

// outcome is what the service did with one record of a batch.
type outcome struct {
	ok  bool
	err error // why not, when !ok: an *chat.ImportError, or chat.ErrNoImportResult
}

// problems are a record's invalid fields with what is wrong with each.
type problems []problem

type problem struct{ field, msg string }

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, problem{field, fmt.Sprintf(format, args...)})
}

// kindSpec builds an importKind for records of type T imported as Out.
func kindSpec[T, Out any](k importKind, check func(*T, *problems), key func(*T) string,
	send func(*chat.DataImportService, context.Context, []T, ...chat.RequestOption) ([]chat.BulkResult[Out], error)) *importKind {
	k.decode = func(raw []byte) (any, error) {
		rec := new(T)
		return rec, decodeStrict(raw, rec)
	}
	k.check = func(rec any) problems {
		var p problems
		check(rec.(*T), &p)
		return p
	}
	k.key = func(rec any) string { return key(rec.(*T)) }
	k.send = func(ctx context.Context, di *chat.DataImportService, recs []any, opts ...chat.RequestOption) ([]outcome, error) {
		batch := make([]T, len(recs))
		for i, r := range recs {
			batch[i] = *r.(*T)
		}
		results, err := send(di, ctx, batch, opts...)
		if err != nil {
			return nil, err
		}
		out := make([]outcome, len(recs))
		for _, r := range results {
			if r.Index >= 0 && r.Index < len(out) {
				out[r.Index] = outcome{ok: r.Success && r.Err == nil, err: r.Err}
			}
		}
		for i := range out {
			if !out[i].ok && out[i].err == nil {
				out[i].err = chat.ErrNoImportResult
			}
		}
		return out, nil
	}
	return &k
}

// importKinds are the kinds of entity the import command takes, in the
// order to import them.
var importKinds = []*importKind{
	kindSpec(importKind{
		name: "users", entity: "user", formatCode: "ERR_IMPORT_INVALID_USER_FORMAT",
		present: []string{"ERR_UID_ALREADY_EXISTS"}, concurrency: 4,
		timestamps: []string{"createdAt", "lastActiveAt", "deactivatedAt"}, jsonFields: []string{"metadata"}, lists: []string{"tags"},
	}, func(u *chat.ImportUser, p *problems) { checkUser(p, "", u) },
		func(u *chat.ImportUser) string { return strings.ToLower(u.UID) },
		(*chat.DataImportService).ImportUsers),
	kindSpec(importKind{
		name: "groups", entity: "group", formatCode: "ERR_IMPORT_INVALID_GROUP_FORMAT",
		present: []string{"ERR_GUID_ALREADY_EXISTS"}, concurrency: 4,
		timestamps: []string{"createdAt", "groupOwnerDetails.createdAt", "groupOwnerDetails.lastActiveAt", "groupOwnerDetails.deactivatedAt"},
		jsonFields: []string{"metadata", "groupOwnerDetails.metadata"}, lists: []string{"tags", "groupOwnerDetails.tags"},
	}, checkGroup,
		func(g *chat.ImportGroup) string { return strings.ToLower(g.GUID) },
		(*chat.DataImportService).ImportGroups),
	kindSpec(importKind{
		name: "members", entity: "member", formatCode: "ERR_IMPORT_INVALID_MEMBER_FORMAT",
		present: []string{"ERR_ALREADY_JOINED", "ERR_ALREADY_BANNED"}, concurrency: 4,
		timestamps: []string{"joinedAt", "groupDetails.createdAt", "userDetails.createdAt", "userDetails.lastActiveAt", "userDetails.deactivatedAt"},
		bools:      []string{"isBanned"},
		jsonFields: []string{"groupDetails.metadata", "userDetails.metadata"}, lists: []string{"groupDetails.tags", "userDetails.tags"},
	}, checkMember,
		func(m *importMember) string { return strings.ToLower(m.GUID + "_member_" + m.UID) },
		func(di *chat.DataImportService, ctx context.Context, ms []importMember, opts ...chat.RequestOption) ([]chat.BulkResult[chat.ImportedMember], error) {
			plain := make([]chat.ImportMember, len(ms))
			for i := range ms {
				plain[i] = ms[i].ImportMember
			}
			return di.ImportMembers(ctx, plain, opts...)
		}),
	kindSpec(importKind{
		name: "messages", entity: "message", formatCode: "ERR_IMPORT_INVALID_MESSAGE_FORMAT",
		present: []string{"ERR_IMPORT_MUID_ALREADY_EXISTS"}, concurrency: 1,
		timestamps: []string{"sentAt", "deliveredAt", "readAt"},
		jsonFields: []string{"data.customData", "data.metadata", "data.attachments", "senderUserDetails", "receiverUserDetails",
			"receiverGroupDetails", "receiverGroupOwnerDetails", "mentionedUserDetails"},
		lists: []string{"tags"},
	}, checkMessage,
		func(m *chat.ImportMessage) string { return m.MUID },
		(*chat.DataImportService).ImportMessages),
}

func importKindNamed(name string) *importKind {
	for _, k := range importKinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

// importMember is a member record: the API's member, which may carry its
// memberId as the API's body does.
type importMember struct {
	MemberID string `json:"memberId,omitempty"`
	chat.ImportMember
}

// decodeStrict decodes one JSON value into v, refusing fields v does not
// have and anything after the value.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field != "":
			return fieldError{te.Field, fmt.Sprintf("must be %s, not %s", jsonKind(te.Type.Kind().String()), te.Value)}
		case errors.As(err, &se):
			return fmt.Errorf("not valid JSON: %v", se)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return fieldError{name, "is not a field of the record"}
		}
		return fmt.Errorf("not a JSON object of the record's fields: %v", err)
	}
	if dec.More() {
		return errors.New("holds more than one JSON value")
	}
	return nil
}

// fieldError is a record's field that cannot be read.
type fieldError struct{ field, msg string }

func (e fieldError) Error() string { return e.field + ": " + e.msg }

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "an array"
	}
	return "a number"
}

// The checks below are the Data Import API's documented rules for each
// field, so that --dry-run finds what the service would refuse.

func checkID(p *problems, field, id string, required bool) {
	switch {
	case id == "" && required:
		p.add(field, "is required")
	case len(id) > chat.MaxIDLength:
		p.add(field, "may not be longer than %d characters", chat.MaxIDLength)
	default:
		for _, c := range id {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				p.add(field, "may only hold letters, digits, - and _")
				return
			}
		}
	}
}

func checkText(p *problems, field, s string, required bool, maxLen int) {
	switch {
	case s == "" && required:
		p.add(field, "is required")
	case utf8.RuneCountInString(s) > maxLen:
		p.add(field, "may not be longer than %d characters", maxLen)
	}
}

func checkTags(p *problems, field string, tags []string) {
	if len(tags) > chat.MaxTags {
		p.add(field, "may not hold more than %d tags", chat.MaxTags)
	}
	for i, t := range tags {
		if t == "" || utf8.RuneCountInString(t) > chat.MaxTagLength {
			p.add(fmt.Sprintf("%s.%d", field, i), "must be 1 to %d characters", chat.MaxTagLength)
		}
	}
}

func checkMetadata(p *problems, field string, m map[string]any) {
	if m == nil {
		return
	}
	if b, err := json.Marshal(m); err == nil && len(b) > chat.MaxMetadataBytes {
		p.add(field, "may not be larger than %d bytes", chat.MaxMetadataBytes)
	}
}

func checkUser(p *problems, prefix string, u *chat.ImportUser) {
	checkID(p, prefix+"uid", u.UID, true)
	checkText(p, prefix+"name", u.Name, true, chat.MaxNameLength)
	checkText(p, prefix+"avatar", u.Avatar, false, chat.MaxURLLength)
	checkText(p, prefix+"link", u.Link, false, chat.MaxURLLength)
	checkTags(p, prefix+"tags", u.Tags)
	checkMetadata(p, prefix+"metadata", u.Metadata)
}

func checkGroupDetails(p *problems, prefix string, g *chat.GroupDetails) {
	checkID(p, prefix+"guid", g.GUID, true)
	checkText(p, prefix+"name", g.Name, true, chat.MaxNameLength)
	switch g.Type {
	case chat.GroupPublic, chat.GroupPrivate:
	case chat.GroupPassword:
		if g.Password == "" {
			p.add(prefix+"password", "is required for a password group")
		}
	case "":
		p.add(prefix+"type", "is required")
	default:
		p.add(prefix+"type", "must be public, password or private")
	}
	checkText(p, prefix+"password", string(g.Password), false, chat.MaxGroupPasswordLength)
	checkText(p, prefix+"icon", g.Icon, false, chat.MaxURLLength)
	checkID(p, prefix+"owner", g.Owner, false)
	checkTags(p, prefix+"tags", g.Tags)
	checkMetadata(p, prefix+"metadata", g.Metadata)
}

// sameID adds a problem when details name another entity than the record.
func sameID(p *problems, field, got, want string) {
	if got != "" && !strings.EqualFold(got, want) {
		p.add(field, "must be %s, the id the record names", want)
	}
}

func checkGroup(g *chat.ImportGroup, p *problems) {
	d := chat.GroupDetails{GUID: g.GUID, Name: g.Name, Type: g.Type, Icon: g.Icon, Password: g.Password,
		Owner: g.Owner, CreatedAt: g.CreatedAt, Metadata: g.Metadata, Tags: g.Tags}
	checkGroupDetails(p, "", &d)
	if o := g.OwnerDetails; o != nil {
		checkUser(p, "groupOwnerDetails.", o)
		sameID(p, "groupOwnerDetails.uid", o.UID, g.Owner)
	}
}

func checkMember(m *importMember, p *problems) {
	checkID(p, "guid", m.GUID, true)
	checkID(p, "uid", m.UID, true)
	if m.MemberID != "" && m.GUID != "" && m.UID != "" && !strings.EqualFold(m.MemberID, m.GUID+"_member_"+m.UID) {
		p.add("memberId", "must be <guid>_member_<uid>")
	}
	switch m.Scope {
	case "", chat.MemberAdmin, chat.MemberModerator, chat.MemberParticipant:
	default:
		p.add("scope", "must be admin, moderator or participant")
	}
	if d := m.GroupDetails; d != nil {
		checkGroupDetails(p, "groupDetails.", d)
		sameID(p, "groupDetails.guid", d.GUID, m.GUID)
	}
	if d := m.UserDetails; d != nil {
		checkUser(p, "userDetails.", d)
		sameID(p, "userDetails.uid", d.UID, m.UID)
	}
}

// importableTypes are the types of the message category.
var importableTypes = []chat.MessageType{chat.MessageTypeText, chat.MessageTypeImage, chat.MessageTypeFile, chat.MessageTypeAudio, chat.MessageTypeVideo}

func checkMessage(m *chat.ImportMessage, p *problems) {
	if m.MUID == "" {
		p.add("muid", "is required")
	}
	checkID(p, "sender", m.Sender, true)
	checkID(p, "receiver", m.Receiver, true)
	switch m.ReceiverType {
	case chat.ReceiverUser, chat.ReceiverGroup:
	case "":
		p.add("receiverType", "is required")
	default:
		p.add("receiverType", "must be user or group")
	}
	switch m.Category {
	case "", chat.CategoryMessage:
		if m.Type != "" && !slices.Contains(importableTypes, m.Type) {
			p.add("type", "must be text, image, file, audio or video for the message category")
		}
	case chat.CategoryCustom:
		if m.Type == "" {
			p.add("type", "is required for a custom message")
		}
	default:
		p.add("category", "must be message or custom")
	}
	if m.SentAt <= 0 {
		p.add("sentAt", "is required")
	}
	checkTags(p, "tags", m.Tags)
	for i, a := range m.Data.Attachments {
		for _, f := range [][2]string{{"url", a.URL}, {"name", a.Name}, {"mimeType", a.MimeType}, {"extension", a.Extension}} {
			if f[1] == "" {
				p.add(fmt.Sprintf("data.attachments.%d.%s", i, f[0]), "is required")
			}
		}
	}
	if d := m.SenderUserDetails; d != nil {
		checkUser(p, "senderUserDetails.", d)
		sameID(p, "senderUserDetails.uid", d.UID, m.Sender)
	}
	if d := m.ReceiverUserDetails; d != nil {
		checkUser(p, "receiverUserDetails.", d)
		sameID(p, "receiverUserDetails.uid", d.UID, m.Receiver)
	}
	if d := m.ReceiverGroupDetails; d != nil {
		checkGroupDetails(p, "receiverGroupDetails.", d)
		sameID(p, "receiverGroupDetails.guid", d.GUID, m.Receiver)
	}
	if d := m.ReceiverGroupOwnerDetails; d != nil {
		checkUser(p, "receiverGroupOwnerDetails.", d)
	}
	for _, uid := range slices.Sorted(maps.Keys(m.MentionedUserDetails)) {
		d := m.MentionedUserDetails[uid]
		checkUser(p, "mentionedUserDetails."+uid+".", &d)
		sameID(p, "mentionedUserDetails."+uid+".uid", d.UID, uid)
	}
}
