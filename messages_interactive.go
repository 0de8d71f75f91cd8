package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"

	"github.com/chatrest/chat/internal/rest"
)

// InteractionGoalType says which interactions complete an interactive
// message.
type InteractionGoalType string

// Interaction goals.
const (
	GoalAnyOf InteractionGoalType = "anyOf" // any of the goal's elements
	GoalAllOf InteractionGoalType = "allOf" // every one of the goal's elements
	GoalOneOf InteractionGoalType = "oneOf" // exactly one of the goal's elements
	GoalNone  InteractionGoalType = "none"  // the message has no goal
)

// InteractionGoal says when an interactive message counts as completed.
type InteractionGoal struct {
	// Type is the kind of goal.
	Type InteractionGoalType `json:"type,omitempty"`
	// ElementIDs are the elements the goal is about.
	ElementIDs []string `json:"elementIds,omitempty"`
}

// InteractiveData is the content of an interactive message
// (Data.InteractiveData): a form (Title, Text, FormFields, SubmitElement),
// a card (ImageURL, Text, CardActions), a scheduler or a custom interactive
// message.
//
// The typed fields cover forms and cards. Raw keeps the object as the
// service sent it, so that schedulers and custom interactive content (of
// any shape) lose nothing: decode Raw into your own
// type. When encoding, the typed fields are written and every other member
// of Raw is kept beside them; to send custom content, set Raw and leave the
// typed fields empty. Content that does not fit the typed fields leaves
// them zero and is found in Raw only.
type InteractiveData struct {
	// Title is the form's title.
	Title string `json:"title,omitempty"`
	// Text is the card's or form's text.
	Text string `json:"text,omitempty"`
	// ImageURL is the card's image.
	ImageURL string `json:"imageUrl,omitempty"`
	// FormFields are the form's elements, in order.
	FormFields []InteractiveElement `json:"formFields,omitempty"`
	// SubmitElement is the form's submit button.
	SubmitElement *InteractiveElement `json:"submitElement,omitempty"`
	// CardActions are the card's buttons.
	CardActions []InteractiveElement `json:"cardActions,omitempty"`
	// Raw is the interactive data as JSON: as received when decoded, and
	// the members written beside the typed fields when encoded.
	Raw json.RawMessage `json:"-"`
}

// plainInteractiveData is InteractiveData without its JSON methods.
type plainInteractiveData InteractiveData

// interactiveFields are the JSON names of InteractiveData's typed fields.
var interactiveFields = func() []string {
	var names []string
	t := reflect.TypeFor[InteractiveData]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "-" {
			names = append(names, name)
		}
	}
	return names
}()

func isInteractiveField(key string) bool {
	for _, name := range interactiveFields {
		if strings.EqualFold(name, key) { // as encoding/json matches keys
			return true
		}
	}
	return false
}

// UnmarshalJSON keeps b in Raw and decodes the typed fields as leniently as
// the client decodes everything else. A member that does not fit its typed
// field leaves that field zero and is found in Raw only; it is not an
// error, since custom interactive content may take any shape.
func (d *InteractiveData) UnmarshalJSON(b []byte) error {
	var p plainInteractiveData
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' && rest.Unmarshal(t, &p) != nil {
		// Keep what fits, member by member.
		p = plainInteractiveData{}
		var members map[string]json.RawMessage
		if json.Unmarshal(t, &members) == nil {
			for k, v := range members {
				if one, ok := fitMember(k, v); ok {
					mergeInteractive(&p, &one)
				}
			}
		}
	}
	p.Raw = append(json.RawMessage(nil), b...)
	*d = InteractiveData(p)
	return nil
}

// fitMember decodes the one member k: v into the typed fields, and reports
// whether it fits them.
func fitMember(k string, v json.RawMessage) (plainInteractiveData, bool) {
	var one plainInteractiveData
	b, err := json.Marshal(map[string]json.RawMessage{k: v})
	if err != nil {
		return one, false
	}
	return one, rest.Unmarshal(b, &one) == nil
}

// mergeInteractive copies the non-zero typed fields of src into dst.
func mergeInteractive(dst, src *plainInteractiveData) {
	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range sv.NumField() {
		if f := sv.Field(i); !f.IsZero() {
			dv.Field(i).Set(f)
		}
	}
}

// MarshalJSON writes the typed fields, and the members of Raw beside them:
// those that are not typed fields, and those that name a typed field but
// do not fit it (custom content), so that decoding and encoding again
// loses nothing. A Raw member that fits a typed field is the field's old
// value and is not written: the typed field wins, even when cleared. When
// Raw is not a JSON object, it is written as it is if the typed fields are
// empty, and dropped otherwise.
func (d InteractiveData) MarshalJSON() ([]byte, error) {
	typed, err := json.Marshal(plainInteractiveData(d))
	if err != nil {
		return nil, err
	}
	raw := bytes.TrimSpace(d.Raw)
	if len(raw) == 0 || string(raw) == "null" {
		return typed, nil
	}
	if raw[0] != '{' {
		if string(typed) == "{}" {
			return raw, nil
		}
		return typed, nil
	}
	var extra map[string]json.RawMessage
	if err := json.Unmarshal(raw, &extra); err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(typed, &fields); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, fits := fitMember(k, v); !isInteractiveField(k) || !fits {
			if _, set := fields[k]; !set {
				fields[k] = v
			}
		}
	}
	return json.Marshal(fields)
}

// ElementType is the kind of an [InteractiveElement].
type ElementType string

// Element types.
const (
	ElementTextInput    ElementType = "textInput"
	ElementDropdown     ElementType = "dropdown"
	ElementCheckbox     ElementType = "checkbox"
	ElementSingleSelect ElementType = "singleSelect"
	ElementButton       ElementType = "button"
)

// InteractiveElement is a field or button of a form, or a button of a card.
type InteractiveElement struct {
	// ElementType is the kind of element.
	ElementType ElementType `json:"elementType,omitempty"`
	// ElementID identifies the element; interaction goals and
	// [MessagesService.MarkInteracted] name elements by it.
	ElementID string `json:"elementId,omitempty"`
	// Label is the field's label.
	Label string `json:"label,omitempty"`
	// Optional marks a form field that need not be filled.
	Optional bool `json:"optional,omitempty"`
	// MaxLines is the height of a text input.
	MaxLines int `json:"maxLines,omitempty"`
	// DefaultValue is a string, or a []string for multiple-choice fields
	// (decoded as []any).
	DefaultValue any `json:"defaultValue,omitempty"`
	// Placeholder is the hint shown in an empty text input.
	Placeholder *Placeholder `json:"placeholder,omitempty"`
	// Options are the choices of a dropdown, checkbox or single select.
	Options []ElementOption `json:"options,omitempty"`
	// ButtonText is a button's text.
	ButtonText string `json:"buttonText,omitempty"`
	// DisableAfterInteracted disables a button once used.
	DisableAfterInteracted bool `json:"disableAfterInteracted,omitempty"`
	// Action is what a button does.
	Action *ButtonAction `json:"action,omitempty"`
}

// Placeholder is the hint of a text input.
type Placeholder struct {
	Text string `json:"text,omitempty"`
}

// ElementOption is one choice of a dropdown, checkbox or single select.
type ElementOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// ActionType is what a button does.
type ActionType string

// Button action types.
const (
	ActionTypeAPI           ActionType = "apiAction"     // call an HTTP API
	ActionTypeURLNavigation ActionType = "urlNavigation" // open a URL
)

// ButtonAction is what a button does: call URL (apiAction) or open it
// (urlNavigation).
type ButtonAction struct {
	ActionType ActionType `json:"actionType,omitempty"`
	// URL is the API to call or the page to open.
	URL string `json:"url,omitempty"`
	// Method is the HTTP method of an API call.
	Method string `json:"method,omitempty"`
	// Payload is the JSON body of an API call.
	Payload map[string]any `json:"payload,omitempty"`
	// Headers are the headers of an API call.
	Headers map[string]string `json:"headers,omitempty"`
	// DataKey names the key the form's data is sent under.
	DataKey string `json:"dataKey,omitempty"`
}

// Interaction is an element of an interactive message a user interacted
// with.
type Interaction struct {
	ElementID    string    `json:"elementId"`
	InteractedAt Timestamp `json:"interactedAt,omitempty"`
}

// MarkInteractedRequest is the body of [MessagesService.MarkInteracted].
type MarkInteractedRequest struct {
	// Interactions are the ids of the elements interacted with; each must
	// be an element the message declares.
	Interactions []string `json:"interactions"`
}

// Validate checks r as [MessagesService.MarkInteracted] does before
// sending: at least one element; a nil r names none. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *MarkInteractedRequest) Validate() error {
	if r == nil || len(r.Interactions) == 0 {
		return newArgError("req.Interactions", "must not be empty")
	}
	return nil
}

// MarkInteracted records that onBehalfOf interacted with elements of the
// interactive message id. It is idempotent: an element marked before keeps
// its first interaction time. Only interactive messages accept it.
//
// API: PATCH /v3/messages/{id}/interacted (onBehalfOf required)
func (s *MessagesService) MarkInteracted(ctx context.Context, id, onBehalfOf string, req *MarkInteractedRequest, opts ...RequestOption) (*Result, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPatch, Path: []string{"messages", id, "interacted"}, Body: req, OnBehalfOf: onBehalfOf}, opts)
}
