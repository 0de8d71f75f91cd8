package chattest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/chattest"
)

// Values the reference fixes, beside the shapes: the values an enumerated
// field takes (chat-core §2's object tables, and the enumerations of the
// operations' query parameters), and the defaults of the paging
// parameters, which every list answers in its meta.

// answerValuesDiff returns how the answer to op, sent with query, differs
// from the values the reference fixes, one line per difference.
func answerValuesDiff(op refOperation, query string, got any) []string {
	out := enumDiff(got)
	out = append(out, queryEnumDiff(op, got)...)
	return append(out, defaultsDiff(op, query, got)...)
}

// The enumerations of chat-core §2 (and platform.md where it says), by
// the kind of object the field is in.
var (
	userStatuses     = []string{"available", "offline"}
	scopesOfMembers  = []string{"admin", "moderator", "participant"}
	groupTypes       = []string{"public", "password", "private"}
	apiKeyScopes     = []string{"authOnly", "fullAccess"}
	receiverTypes    = []string{"user", "group"}
	categories       = []string{"message", "custom", "interactive", "action", "call"}
	entityTypes      = []string{"user", "group", "message", "call"}
	moderationStates = []string{"pending", "approved", "disapproved"}
	affixes          = []string{"append", "prepend"}
	roleAudiences    = []string{"all", "friendsOnly"}
)

// enumsOf returns the enumerated fields of the object o, by name: what
// they are depends on what o is (a user's status, a moderation's status).
// parent is the key o is the value of.
func enumsOf(parent string, o map[string]any) map[string][]string {
	has := func(k string) bool { _, ok := o[k]; return ok }
	out := map[string][]string{}
	switch {
	case parent == "moderation":
		out["status"] = moderationStates
	case parent == "settings" && (has("listUsers") || has("sendMessagesTo")):
		out["listUsers"], out["sendMessagesTo"] = roleAudiences, roleAudiences
	case has("apiKey") && has("scope"):
		out["scope"] = apiKeyScopes
	case has("category") && has("receiverType"): // a message
		out["category"], out["receiverType"] = categories, receiverTypes
	case has("guid") && !has("uid") && has("name"): // a group
		out["type"], out["scope"] = groupTypes, scopesOfMembers
	case has("uid") && has("name") && !has("guid"): // a user, or a member
		out["status"], out["scope"] = userStatuses, scopesOfMembers
	}
	if has("entityType") {
		out["entityType"] = entityTypes
	}
	if has("conversationType") {
		out["conversationType"] = receiverTypes
	}
	if has("affix") {
		out["affix"] = affixes
	}
	return out
}

// enumDiff returns the enumerated fields of v whose value is not one of
// the reference's, one line each.
func enumDiff(v any) []string {
	var out []string
	var walk func(path, parent string, v any)
	walk = func(path, parent string, v any) {
		switch x := v.(type) {
		case map[string]any:
			enums := enumsOf(parent, x)
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if s, ok := x[k].(string); ok {
					if allowed, ok := enums[k]; ok && !slices.Contains(allowed, s) {
						out = append(out, fmt.Sprintf("%s.%s: %q, not one of %q", path, k, s, allowed))
					}
				}
				if k == "metadata" || k == "customData" {
					continue // free JSON
				}
				walk(path+"."+k, k, x[k])
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), parent, e)
			}
		}
	}
	walk("$", "", v)
	return out
}

// queryEnumDiff returns the fields of the listed (or answered) items that
// share their name with an enumerated query parameter of op (a list's
// status, type, scope filters) and take a value outside the enumeration.
func queryEnumDiff(op refOperation, got any) []string {
	var out []string
	items := []any{dig(got, "data")}
	if list, ok := items[0].([]any); ok {
		items = list
	}
	for _, p := range op.Query {
		if len(p.Enum) == 0 || p.Type != "string" {
			continue
		}
		for i, it := range items {
			if s, ok := dig(it, p.Name).(string); ok && !slices.Contains(p.Enum, s) {
				out = append(out, fmt.Sprintf("$.data[%d].%s: %q, not one of the query parameter's %q", i, p.Name, s, p.Enum))
			}
		}
	}
	return out
}

// defaultsDiff returns how the paging an answer shows differs from the
// defaults of op's paging parameters, where the query leaves them out:
// perPage (meta.pagination.per_page), page (meta.pagination.current_page)
// and limit (meta.current.limit).
func defaultsDiff(op refOperation, query string, got any) []string {
	sent, _ := url.ParseQuery(query)
	var out []string
	for _, p := range op.Query {
		if p.Default == nil || sent.Has(p.Name) {
			continue
		}
		var at string
		switch p.Name {
		case "perPage":
			at = "meta.pagination.per_page"
		case "page":
			at = "meta.pagination.current_page"
		case "limit":
			at = "meta.current.limit"
		default:
			continue // a filter's default: nothing in the answer shows it
		}
		want, err := strconv.ParseFloat(fmt.Sprint(p.Default), 64)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: default %v is not a number", p.Name, p.Default))
			continue
		}
		if v, ok := dig(got, at).(float64); !ok || v != want {
			if ok || at != "meta.current.limit" || dig(got, "meta.pagination") == nil {
				out = append(out, fmt.Sprintf("$.%s: %v, the default of %s is %v", at, dig(got, at), p.Name, p.Default))
			}
		}
	}
	return out
}

// The enumerations enumDiff holds the fake to agree with the reference's
// own examples: every documented answer takes the reference's values,
// except where listed (enumExceptions).
func TestEnumsAgreeWithTheReferenceExamples(t *testing.T) {
	for _, op := range loadReference(t) {
		for key, raw := range op.Responses {
			var v any
			require.NoError(t, json.Unmarshal(raw, &v))
			for _, d := range enumDiff(v) {
				if reason, ok := enumExceptions[op.name+" "+d]; ok {
					require.NotEmpty(t, reason)
					continue
				}
				t.Errorf("%s %s: %s", op.name, key, d)
			}
		}
	}
}

// enumExceptions are the values of the reference's examples outside its
// own enumerations, by operation and difference, each with its reason.
var enumExceptions = map[string]string{}

// Every value of an enumerated query parameter is one the fake takes: each
// list sent with it answers 200, and where its items carry the field the
// parameter is named for, they carry the value asked for.
func TestContractQueryEnums(t *testing.T) {
	ops := loadReference(t)
	for _, op := range ops {
		if op.Method != http.MethodGet {
			continue
		}
		for _, p := range op.Query {
			if len(p.Enum) == 0 || p.Type != "string" {
				continue
			}
			t.Run(op.name+"/"+p.Name, func(t *testing.T) {
				f, path, h, _ := prepareOperation(t, op, ops)
				for _, value := range p.Enum {
					u, err := url.Parse(path)
					require.NoError(t, err)
					q := u.Query()
					q.Set(p.Name, value)
					u.RawQuery = q.Encode()
					status, got, raw := f.send(op.api, op.Method, u.String(), nil, h)
					if status != http.StatusOK {
						t.Errorf("%s=%s: status %d: %s", p.Name, value, status, raw)
						continue
					}
					items, _ := dig(got, "data").([]any)
					for i, it := range items {
						if v, ok := dig(it, p.Name).(string); ok && v != value {
							t.Errorf("%s=%s: data[%d].%s is %q", p.Name, value, i, p.Name, v)
						}
					}
				}
			})
		}
	}
}

func TestAnswerValuesDiff(t *testing.T) {
	parse := func(s string) any {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		return v
	}
	list := refOperation{Query: []refParam{{Name: "status", Type: "string", Enum: []string{"available", "offline"}},
		{Name: "perPage", Type: "integer", Default: "100"}, {Name: "page", Type: "integer", Default: "1"}}}
	cases := []struct {
		name, query, answer string
		want                []string
	}{
		{"the reference's values", "", `{"data":[{"uid":"a","name":"A","status":"offline"}],"meta":{"pagination":{"per_page":100,"current_page":1}}}`, nil},
		{"a user's status outside its enumeration", "", `{"data":[{"uid":"a","name":"A","status":"online"}],"meta":{"pagination":{"per_page":100,"current_page":1}}}`,
			[]string{`$.data[0].status: "online", not one of ["available" "offline"]`,
				`$.data[0].status: "online", not one of the query parameter's ["available" "offline"]`}},
		{"a group's type, a message's category, an entity's type", "", `{"data":[{"guid":"g","name":"G","type":"secret"},
			{"id":"1","category":"note","receiverType":"user","data":{"entities":{"sender":{"entityType":"bot"}}}}],"meta":{"pagination":{"per_page":100,"current_page":1}}}`,
			[]string{`$.data[0].type: "secret", not one of ["public" "password" "private"]`, `$.data[1].category: "note", not one of ["message" "custom" "interactive" "action" "call"]`,
				`$.data[1].data.entities.sender.entityType: "bot", not one of ["user" "group" "message" "call"]`}},
		{"another page size than the default", "", `{"data":[],"meta":{"pagination":{"per_page":25,"current_page":1}}}`,
			[]string{"$.meta.pagination.per_page: 25, the default of perPage is 100"}},
		{"a page size asked for", "perPage=25&page=2", `{"data":[],"meta":{"pagination":{"per_page":25,"current_page":2}}}`, nil},
		{"free JSON is free", "", `{"data":[{"uid":"a","name":"A","status":"offline","metadata":{"status":"anything"}}],"meta":{"pagination":{"per_page":100,"current_page":1}}}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, answerValuesDiff(list, tc.query, parse(tc.answer)))
		})
	}
}

// bodyDefault is a request field the reference gives a default, and where
// the answer shows the value it took when the request leaves it out.
type bodyDefault struct {
	name         string // the operation, and the field left out
	where        string // the reference's words
	api, method  string
	path, body   string
	onBehalfOf   string
	answerPath   string // in the answer
	defaultValue any
}

// bodyDefaults are the defaults of request fields that the answer shows.
var bodyDefaults = []bodyDefault{
	{"create-user role", "chat-core §4.1: role, default `default`; §13.1: users without a role get default",
		"chat", "POST", "/users", `{"uid":"d1","name":"D"}`, "", "data.role", "default"},
	{"create-apikey scope", "chat-core §3.1: scope, default `authOnly`",
		"chat", "POST", "/apikeys", `{"name":"a key"}`, "", "data.scope", "authOnly"},
	{"create-group type", "chat-core §6.1, §15.2: type, default `public` (overview)",
		"chat", "POST", "/groups", `{"guid":"g1","name":"G"}`, "", "data.type", "public"},
	{"change-group-member-scope scope", "chat-core §7.3: scope, default `participant`",
		"chat", "PUT", "/groups/g0/members/d2", `{}`, "", "data.scope", "participant"},
	{"send-message category and type", "chat-core §9.1: category `message` (default), its type `text` (default)",
		"chat", "POST", "/messages", `{"receiver":"d2","receiverType":"user","data":{"text":"hi"}}`, "d0", "data.category", "message"},
	{"send-message type", "chat-core §9.1: category `message`, type `text` (default)",
		"chat", "POST", "/messages", `{"receiver":"d2","receiverType":"user","category":"message","data":{"text":"hi"}}`, "d0", "data.type", "text"},
	{"send-message interactive type", "chat-core §2.8, §9.1: interactive type `card` (default)",
		"chat", "POST", "/messages", `{"receiver":"d2","receiverType":"user","category":"interactive","data":{"interactiveData":{"text":"pick"},"interactionGoal":{"type":"none"}}}`, "d0", "data.type", "card"},
	{"send-thread-message category", "chat-core §9.14: category `message` default, type `text` default",
		"chat", "POST", "/messages/1/thread", `{"receiver":"d2","receiverType":"user","data":{"text":"re"}}`, "d0", "data.category", "message"},
	{"send-thread-message type", "chat-core §9.14: type `text` default",
		"chat", "POST", "/messages/1/thread", `{"receiver":"d2","receiverType":"user","category":"message","data":{"text":"re"}}`, "d0", "data.type", "text"},
}

// Every request field the reference gives a default takes it when the
// request leaves it out, as the answer shows.
func TestContractBodyDefaults(t *testing.T) {
	for _, d := range bodyDefaults {
		t.Run(d.name, func(t *testing.T) {
			srv, err := chattest.OpenServer(chattest.WithClock(func() time.Time { return contractTime }))
			require.NoError(t, err)
			defer srv.Close()
			f := &fixture{t: t, srv: srv, hc: srv.HTTPClient(), params: map[string]string{}}
			f.users("d0", "d2")
			f.text("d0", "d2", "user", "first") // message 1
			f.must("chat", "POST", "/groups", `{"guid":"g0","name":"G0","type":"public","owner":"d0"}`, "")
			f.must("chat", "POST", "/groups/g0/members", `{"moderators":["d2"]}`, "")
			h := http.Header{}
			if d.onBehalfOf != "" {
				h.Set("onBehalfOf", d.onBehalfOf)
			}
			status, got, raw := f.send(d.api, d.method, d.path, []byte(d.body), h)
			require.Equal(t, http.StatusOK, status, "%s leaves out a field with a default: %s", d.where, raw)
			require.Equal(t, d.defaultValue, dig(got, d.answerPath), "%s: %s", d.where, raw)
		})
	}
}
