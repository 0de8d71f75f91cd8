package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/chatrest/chat"
)

// importKind is what the import of one kind of entity needs: how to read a
// record, check it, key it, and stream records through the SDK's import.
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
	// validate is the record's Validate: the SDK's checks before sending.
	validate func(rec any) error
	// key returns the record's id, for the errors file.
	key func(rec any) string
	// stream imports the records recs through the SDK's stream of the
	// kind, and yields one outcome per record, in order.
	stream func(ctx context.Context, di *chat.DataImportService, recs iter.Seq2[any, error], opts *chat.BulkOptions) iter.Seq2[outcome, error]
	// timestamps are the fields holding Unix seconds, and the others the
	// fields whose CSV cells are read as booleans, JSON or lists.
	timestamps, bools, jsonFields, lists []string
}

// outcome is what the import did with one record.
type outcome struct {
	// index is the record's place in this run's stream, and done how many
	// records of it are done for good (chat.StreamResult.Done).
	index, done int
	ok          bool
	err         error // why not, when !ok
}

// kindSpec builds an importKind for records of type T imported as Out.
// decode, when not nil, reads a record in place of a strict decoding
// into T.
func kindSpec[T, Out any](k importKind, decode func([]byte) (*T, error), validate func(*T) error, key func(*T) string,
	stream func(*chat.DataImportService, context.Context, iter.Seq2[T, error], *chat.BulkOptions, ...chat.RequestOption) iter.Seq2[chat.StreamResult[Out], error]) *importKind {
	if decode == nil {
		decode = func(raw []byte) (*T, error) {
			rec := new(T)
			return rec, decodeStrict(raw, rec)
		}
	}
	k.decode = func(raw []byte) (any, error) { return decode(raw) }
	k.validate = func(rec any) error { return validate(rec.(*T)) }
	k.key = func(rec any) string { return key(rec.(*T)) }
	k.stream = func(ctx context.Context, di *chat.DataImportService, recs iter.Seq2[any, error], opts *chat.BulkOptions) iter.Seq2[outcome, error] {
		in := func(yield func(T, error) bool) {
			for rec, err := range recs {
				var t T
				if err == nil {
					t = *rec.(*T)
				}
				if !yield(t, err) {
					return
				}
			}
		}
		return func(yield func(outcome, error) bool) {
			for r, err := range stream(di, ctx, in, opts) {
				if err != nil {
					yield(outcome{}, err)
					return
				}
				if !yield(outcome{index: r.Index, done: r.Done, ok: r.Success && r.Err == nil, err: r.Err}, nil) {
					return
				}
			}
		}
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
	}, nil, (*chat.ImportUser).Validate,
		func(u *chat.ImportUser) string { return u.UID },
		(*chat.DataImportService).StreamUsers),
	kindSpec(importKind{
		name: "groups", entity: "group", formatCode: "ERR_IMPORT_INVALID_GROUP_FORMAT",
		present: []string{"ERR_GUID_ALREADY_EXISTS"}, concurrency: 4,
		timestamps: []string{"createdAt", "groupOwnerDetails.createdAt", "groupOwnerDetails.lastActiveAt", "groupOwnerDetails.deactivatedAt"},
		jsonFields: []string{"metadata", "groupOwnerDetails.metadata"}, lists: []string{"tags", "groupOwnerDetails.tags"},
	}, nil, (*chat.ImportGroup).Validate,
		func(g *chat.ImportGroup) string { return g.GUID },
		(*chat.DataImportService).StreamGroups),
	kindSpec(importKind{
		name: "members", entity: "member", formatCode: "ERR_IMPORT_INVALID_MEMBER_FORMAT",
		present: []string{"ERR_ALREADY_JOINED", "ERR_ALREADY_BANNED"}, concurrency: 4,
		timestamps: []string{"joinedAt", "groupDetails.createdAt", "userDetails.createdAt", "userDetails.lastActiveAt", "userDetails.deactivatedAt"},
		bools:      []string{"isBanned"},
		jsonFields: []string{"groupDetails.metadata", "userDetails.metadata"}, lists: []string{"groupDetails.tags", "userDetails.tags"},
	}, decodeMember, (*chat.ImportMember).Validate,
		func(m *chat.ImportMember) string { return m.GUID + "_member_" + m.UID },
		(*chat.DataImportService).StreamMembers),
	kindSpec(importKind{
		name: "messages", entity: "message", formatCode: "ERR_IMPORT_INVALID_MESSAGE_FORMAT",
		present: []string{"ERR_IMPORT_MUID_ALREADY_EXISTS"}, concurrency: 1,
		timestamps: []string{"sentAt", "deliveredAt", "readAt"},
		jsonFields: []string{"data.customData", "data.metadata", "data.attachments", "senderUserDetails", "receiverUserDetails",
			"receiverGroupDetails", "receiverGroupOwnerDetails", "mentionedUserDetails"},
		lists: []string{"tags"},
	}, nil, (*chat.ImportMessage).Validate,
		func(m *chat.ImportMessage) string { return m.MUID },
		(*chat.DataImportService).StreamMessages),
}

func importKindNamed(name string) *importKind {
	for _, k := range importKinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

// decodeMember reads a member record: the API's member, which may carry
// its memberId as the API's body does; the SDK sends the one it makes.
func decodeMember(raw []byte) (*chat.ImportMember, error) {
	var m struct {
		MemberID string `json:"memberId,omitempty"`
		chat.ImportMember
	}
	if err := decodeStrict(raw, &m); err != nil {
		return nil, err
	}
	if m.MemberID != "" && m.GUID != "" && m.UID != "" && !strings.EqualFold(m.MemberID, m.GUID+"_member_"+m.UID) {
		return nil, fieldError{"memberId", "must be <guid>_member_<uid>"}
	}
	return &m.ImportMember, nil
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
