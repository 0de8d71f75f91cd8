package chat

import (
	"bytes"
	"encoding/json"
	"strconv"
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
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// checkMetadata checks a user's or group's metadata: at most
// MaxMetadataBytes of JSON.
func checkMetadata(name string, m map[string]any) error {
	if len(m) == 0 {
		return nil
	}
	b, err := encodeJSON(m)
	if err != nil {
		return newArgError(name, "cannot be encoded as JSON: "+err.Error())
	}
	if len(b) > MaxMetadataBytes {
		return newArgError(name, "must encode to at most "+strconv.Itoa(MaxMetadataBytes)+" bytes of JSON, not "+strconv.Itoa(len(b)))
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

func (r *CreateUserRequest) check() error {
	return firstErr(checkID("req.UID", r.UID), checkUser(r.Name, r.Avatar, r.Link, r.Metadata, r.Tags))
}

func (r *UpdateUserRequest) check() error {
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

func (r *CreateGroupRequest) check() error {
	return firstErr(checkID("req.GUID", r.GUID), checkGroup(r.Name, r.Password, r.Icon, r.Description, r.Metadata, r.Tags))
}

func (r *UpdateGroupRequest) check() error {
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

func (r *CreateRoleRequest) check() error {
	return firstErr(
		checkID("req.Role", r.Role),
		checkLen("req.Name", r.Name, MaxNameLength),
		checkLen("req.Description", r.Description, MaxDescriptionLength),
	)
}

func (r *UpdateRoleRequest) check() error {
	return firstErr(
		checkLen("req.Name", r.Name, MaxNameLength),
		checkLen("req.Description", r.Description, MaxDescriptionLength),
	)
}

func (r *UpdateConversationRequest) check() error { return checkTags("req.Tags", r.Tags) }

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
