package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// Moderation error codes.
const (
	codeRuleNotFound    = "ERR_RULE_NOT_FOUND"
	codeKeywordNotFound = "ERR_KEYWORD_NOT_FOUND"
	codeModAppNotFound  = "ERR_APP_NOT_FOUND"
)

// rulesState holds moderation rules, keyword lists and the blocked, flagged
// and reviewed messages.
//
// The app starts with the service's built-in rules
// (text-profanity-filter, image-moderation, video-moderation,
// custom-profanity-filter, contact_details_filter, email_filter), all
// disabled so that messages flow unmoderated until a test enables one or
// creates its own, and the built-in keyword list profanity-list, whose
// placeholder terms are "badword" and "swearword" (the text profanity
// filter refers to it).
type rulesState struct {
	rules           map[string]*ruleRec // by id
	ruleSeq         int64
	keywords        map[string]*keywordRec // by id
	kwSeq           int64
	defaultsStamped bool // the built-in rules and list are dated: stampModeration
	textRules       bool // some enabled rule has a text condition the fake evaluates: moderateMessage's gate

	blocked      []*BlockedRec          // awaiting review, in message id order
	reviewed     map[int64]*reviewedRec // by message id; the latest review of each message
	flagReviewed map[int64]bool         // messages whose flags were reviewed, by message id
}

func (r *rulesState) init() {
	r.rules = map[string]*ruleRec{}
	r.keywords = map[string]*keywordRec{}
	r.reviewed = map[int64]*reviewedRec{}
	r.flagReviewed = map[int64]bool{}
	r.seedDefaults()
}

// ruleCondWire is a rule condition as the service answers it: the
// response spelling isKeywordsReferencePresent, and value and message as
// arrays.
type ruleCondWire struct {
	ID           int      `json:"id"`
	KeywordsRef  bool     `json:"isKeywordsReferencePresent"`
	MediaPresent bool     `json:"isMediaPresent"`
	Entity       string   `json:"entity"`
	Operand      string   `json:"operand"`
	Category     string   `json:"category"`
	Operator     string   `json:"operator"`
	Value        []string `json:"value"`
	Message      []string `json:"message,omitempty"`
	Weight       int      `json:"weight,omitempty"`
}

// ruleFilterWire is a rule filter.
type ruleFilterWire struct {
	Type     string `json:"type"`
	Entity   string `json:"entity"`
	Operand  string `json:"operand"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
}

// ruleWire is one revision of a rule as the service answers it.
type ruleWire struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Enabled     bool             `json:"enabled"`
	Conditions  []ruleCondWire   `json:"conditions"`
	Filters     []ruleFilterWire `json:"filters,omitempty"`
	Action      []string         `json:"action"`
	Active      bool             `json:"active"`
	Default     bool             `json:"default,omitempty"`
	CreatedAt   chat.Timestamp   `json:"createdAt"`
	UpdatedAt   chat.Timestamp   `json:"updatedAt"`
	RevisionID  string           `json:"revisionId"`
}

// ruleRec is a stored rule: its revisions, oldest first (the last is the
// current one), and the current revision's conditions ready to match.
type ruleRec struct {
	seq       int64
	revisions []ruleWire
	conds     []compiledCond
}

func (r *ruleRec) current() *ruleWire { return &r.revisions[len(r.revisions)-1] }

// compiledCond is a condition of a rule's current revision with its
// literal patterns compiled.
type compiledCond struct {
	c        ruleCondWire
	patterns []modPattern // for a pattern condition with literal values
}

// modPattern is a compiled regular expression, as given and anchored (for
// the equals operator).
type modPattern struct{ contains, equals *regexp.Regexp }

func compileModPattern(p string) (modPattern, error) {
	c, err := regexp.Compile(p)
	if err != nil {
		return modPattern{}, err
	}
	e, err := regexp.Compile(`^(?:` + p + `)$`)
	if err != nil {
		return modPattern{}, err
	}
	return modPattern{c, e}, nil
}

// seedDefaults stores the built-in rules and keyword list.
func (r *rulesState) seedDefaults() {
	text := func(category string, ref bool, message string, values ...string) ruleCondWire {
		return ruleCondWire{ID: 1, KeywordsRef: ref, Entity: "message", Operand: "text", Category: category, Operator: "contains", Value: append([]string{}, values...), Message: []string{message}}
	}
	media := func(operand, message string) ruleCondWire {
		return ruleCondWire{ID: 1, MediaPresent: true, Entity: "message", Operand: operand, Category: "word", Operator: "contains", Value: []string{"AnyOf_greaterThan_30"}, Message: []string{message}}
	}
	custom := text("word", true, "Custom message contains profanity", "profanity-list")
	custom.Operand = "custom"
	for _, d := range []struct {
		id, name, description string
		cond                  ruleCondWire
	}{
		{"text-profanity-filter", "Profanity Filter", "Blocks text messages that contain words of the profanity list.",
			text("word", true, "Text message contains profanity", "profanity-list")},
		{"image-moderation", "Image Moderation", "Blocks images that AI moderation finds unsafe (not evaluatedCond by chattest).",
			media("image", "Image contains unsafe content")},
		{"video-moderation", "Video Moderation", "Blocks videos that AI moderation finds unsafe (not evaluatedCond by chattest).",
			media("video", "Video contains unsafe content")},
		{"custom-profanity-filter", "Custom Profanity Filter", "Blocks custom messages that contain words of the profanity list (not evaluated by chattest).",
			custom},
		{"contact_details_filter", "Contact Details Filter", "Blocks text messages that contain a phone number.",
			text("pattern", false, "Text message contains contact details", `\+?[0-9][0-9 ()-]{6,}[0-9]`)},
		{"email_filter", "Email Filter", "Blocks text messages that contain an email address.",
			text("pattern", false, "Text message contains an email address", `[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)},
	} {
		w := ruleWire{ID: d.id, Name: d.name, Description: d.description, Conditions: []ruleCondWire{d.cond},
			Action: []string{string(chat.ActionBlockMessage)}, Active: true, Default: true}
		rec := r.putRule(w)
		rec.conds, _ = compileConds(w.Conditions) // the built-in patterns compile
	}
	r.putKeyword(keywordWire{ID: "profanity-list", Name: "Profanity List",
		Category: string(chat.KeywordWord), SearchTerms: []string{"badword", "swearword"}, Active: true, Default: true})
}

// stampModeration dates the built-in rules and list with the time of the
// first moderation request, as init has no clock.
func (st *state) stampModeration(now chat.Timestamp) {
	if st.defaultsStamped {
		return
	}
	st.defaultsStamped = true
	st.lazy |= lazyModeration
	touchField(st, &st.rules)
	touchField(st, &st.keywords)
	for _, r := range st.rules {
		if r.current().Default {
			for i := range r.revisions {
				r.revisions[i].CreatedAt, r.revisions[i].UpdatedAt = now, now
			}
		}
	}
	for _, k := range st.keywords {
		if k.k.Default {
			k.k.CreatedAt, k.k.UpdatedAt = now, now
		}
	}
}

// putRule stores a new rule whose first revision is w.
func (r *rulesState) putRule(w ruleWire) *ruleRec {
	r.ruleSeq++
	rec := &ruleRec{seq: r.ruleSeq, revisions: []ruleWire{w}}
	r.rules[w.ID] = rec
	return rec
}

// revisionID names revision n (from 1) of the rule or keyword list id.
func (st *state) revisionID(id string, n int) string {
	return st.appID + "_" + id + "_" + strconv.Itoa(n)
}

// ruleView is revision i of r as answered.
func (st *state) ruleView(r *ruleRec, i int) ruleWire {
	w := r.revisions[i]
	w.Active = i == len(r.revisions)-1
	w.RevisionID = st.revisionID(w.ID, i+1)
	return w
}

// refreshTextRules recomputes whether any enabled rule has a text
// condition the fake evaluates, after rules changed.
func (st *state) refreshTextRules() {
	st.textRules = false
	for _, r := range st.rules {
		if w := r.current(); w.Enabled && slices.ContainsFunc(w.Conditions, evaluatedCond) {
			st.textRules = true
			return
		}
	}
}

// evaluatedCond reports whether the fake evaluates c: a message-text condition
// of category word, pattern or sentence-similarity.
func evaluatedCond(c ruleCondWire) bool {
	return c.Operand == string(chat.ConditionText) && (c.Category == string(chat.KeywordWord) ||
		c.Category == string(chat.KeywordPattern) || c.Category == string(chat.KeywordSentenceSimilarity))
}

func moderationRuleRoutes() []route {
	routes := []route{
		{pattern: "POST /v3/moderation/rules", reach: appOnly, handle: (*state).createRule},
		{pattern: "GET /v3/moderation/rules", reach: appOnly, handle: (*state).listRules},
		{pattern: "GET /v3/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).getRule},
		{pattern: "PUT /v3/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).updateRule},
		{pattern: "DELETE /v3/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).deleteRule},
		{pattern: "GET /v3/moderation/rules/{ruleId}/revisions", reach: appOnly, handle: (*state).listRuleRevisions},
		{pattern: "POST /v3/moderation/keywords", reach: appOnly, handle: (*state).createKeywordList},
		{pattern: "GET /v3/moderation/keywords", reach: appOnly, handle: (*state).listKeywordLists},
		{pattern: "GET /v3/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).getKeywordList},
		{pattern: "PUT /v3/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).updateKeywordList},
		{pattern: "DELETE /v3/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).deleteKeywordList},
		{pattern: "GET /v3/moderation/blocked-messages", reach: appOnly, handle: (*state).listBlockedMessages},
		{pattern: "PATCH /v3/moderation/blocked-messages/{id}", reach: appOnly, handle: (*state).reviewBlockedMessage},
		{pattern: "GET /v3/moderation/flagged-messages", reach: appOnly, handle: (*state).listFlaggedMessages},
		{pattern: "PATCH /v3/moderation/flagged-messages/{id}", reach: appOnly, handle: (*state).reviewFlaggedMessage},
		{pattern: "GET /v3/moderation/reviewed-messages", reach: appOnly, handle: (*state).listReviewedMessages},
	}
	for i := range routes {
		routes[i].handle = withModerationDefaults(routes[i].handle)
	}
	return routes
}

// mgmtModerationRoutes are the deprecated management variants
// (/apps/{appId}/moderation/...): the same handlers on the same state,
// for the fake's own app only (another app id is ERR_APP_NOT_FOUND).
func mgmtModerationRoutes() []route {
	routes := []route{
		{pattern: "POST /apps/{appId}/moderation/rules", reach: appOnly, handle: (*state).createRule},
		{pattern: "GET /apps/{appId}/moderation/rules", reach: appOnly, handle: (*state).listRules},
		{pattern: "GET /apps/{appId}/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).getRule},
		{pattern: "PUT /apps/{appId}/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).updateRule},
		{pattern: "DELETE /apps/{appId}/moderation/rules/{ruleId}", reach: appOnly, handle: (*state).deleteRule},
		{pattern: "GET /apps/{appId}/moderation/rules/{ruleId}/revisions", reach: appOnly, handle: (*state).listRuleRevisions},
		{pattern: "POST /apps/{appId}/moderation/keywords", reach: appOnly, handle: (*state).createKeywordList},
		{pattern: "GET /apps/{appId}/moderation/keywords", reach: appOnly, handle: (*state).listKeywordLists},
		{pattern: "GET /apps/{appId}/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).getKeywordList},
		{pattern: "PUT /apps/{appId}/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).updateKeywordList},
		{pattern: "DELETE /apps/{appId}/moderation/keywords/{keywordId}", reach: appOnly, handle: (*state).deleteKeywordList},
		{pattern: "GET /apps/{appId}/moderation/blocked-messages", reach: appOnly, handle: (*state).listBlockedMessages},
		{pattern: "PATCH /apps/{appId}/moderation/blocked-messages/{messageId}", reach: appOnly, handle: (*state).reviewBlockedMessage},
	}
	for i := range routes {
		h := withModerationDefaults(routes[i].handle)
		routes[i].handle = func(st *state, c *call) (any, error) {
			if id := c.r.PathValue("appId"); id != st.appID {
				return nil, errModAppNotFound(id)
			}
			return h(st, c)
		}
	}
	return routes
}

// withModerationDefaults runs h after dating the built-in rules and list.
func withModerationDefaults(h func(*state, *call) (any, error)) func(*state, *call) (any, error) {
	return func(st *state, c *call) (any, error) {
		st.stampModeration(c.timestamp())
		return h(st, c)
	}
}

func errRuleNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeRuleNotFound, "The moderation rule "+id+" does not exist.", "")
}

func errKeywordNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeKeywordNotFound, "The keyword list "+id+" does not exist.", "")
}

func errModAppNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeModAppNotFound, "The app "+id+" does not exist.", "")
}

// pathRule returns the rule named by the path's {ruleId}.
func (st *state) pathRule(c *call) (*ruleRec, error) {
	id := c.r.PathValue("ruleId")
	if r := st.rules[id]; r != nil {
		return r, nil
	}
	return nil, errRuleNotFound(id)
}

// ruleCondIn is a condition as a request may send it: either spelling of the
// keyword-reference flag, and value and message as a string or an array.
type ruleCondIn struct {
	ID           int             `json:"id"`
	Entity       string          `json:"entity"`
	Operand      string          `json:"operand"`
	Operator     string          `json:"operator"`
	Category     string          `json:"category"`
	KeywordRef   *bool           `json:"isKeywordReferencePresent"`
	KeywordsRef  *bool           `json:"isKeywordsReferencePresent"`
	ListRef      *bool           `json:"isListReferencePresent"`
	MediaPresent bool            `json:"isMediaPresent"`
	Value        json.RawMessage `json:"value"`
	Message      json.RawMessage `json:"message"`
	Weight       int             `json:"weight"`
}

// ruleBody is the body of create-rule and update-rule; absent fields stay
// nil.
type ruleBody struct {
	ID          string            `json:"id"`
	Name        *string           `json:"name"`
	Description *string           `json:"description"`
	Enabled     *bool             `json:"enabled"`
	Action      *[]string         `json:"action"`
	Filters     *[]ruleFilterWire `json:"filters"`
	Conditions  *[]ruleCondIn     `json:"conditions"`
}

// modStrings reads a JSON string (one item, none when empty) or array of
// strings; ok is false for anything else.
func modStrings(raw json.RawMessage) (list []string, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil, true
		}
		return []string{one}, true
	}
	return list, json.Unmarshal(raw, &list) == nil
}

// Enumerations of rule bodies.
var (
	filterOperands = map[string][]string{
		"user":  {"uid", "name", "role", "tags", "createdAt"},
		"group": {"guid", "name", "type", "tags", "createdAt"},
	}
	filterOperators = map[string][]string{
		"user":  {"equals", "notEquals", "in", "notIn", "startsWith"},
		"group": {"equals", "notEquals", "in", "notIn", "startsWith", "endsWith", "lessThan", "greaterThan"},
	}
	condOperands   = []string{"text", "image", "video", "custom"}
	condOperators  = []string{"contains", "equals"}
	condCategories = []string{"word", "pattern", "sentence-similarity"}
)

// checkModEnum adds a problem when s is not one of allowed.
func checkModEnum(v *validator, field, s string, allowed []string) {
	if !slices.Contains(allowed, s) {
		v.add(field, "The %s must be one of: %s.", field, strings.Join(allowed, ", "))
	}
}

// checkModerationID validates a rule or keyword list id: required, at most
// 100 letters, digits, dashes and underscores (the built-in ids use both).
func checkModerationID(v *validator, id string) {
	if id == "" {
		v.add("id", "The id field is required.")
		return
	}
	if len(id) > 100 {
		v.add("id", "The id may not be greater than 100 characters.")
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			v.add("id", "The id may only contain letters, numbers, dashes and underscores.")
			return
		}
	}
}

// checkFilters validates filters (every field required).
func checkFilters(v *validator, filters []ruleFilterWire) {
	for i, f := range filters {
		at := func(name string) string { return fmt.Sprintf("filters.%d.%s", i, name) }
		checkModEnum(v, at("type"), f.Type, []string{"sender", "receiver"})
		checkModEnum(v, at("entity"), f.Entity, []string{"user", "group"})
		if ops, ok := filterOperands[f.Entity]; ok {
			checkModEnum(v, at("operand"), f.Operand, ops)
			checkModEnum(v, at("operator"), f.Operator, filterOperators[f.Entity])
		}
		if f.Value == "" {
			v.add(at("value"), "The %s field is required.", at("value"))
		}
	}
}

// readConds validates conditions and returns them as answered: the entity
// defaults to "message", ids to their position from 1, and each needs at
// least one value; literal patterns must compile (Go's regexp syntax).
func readConds(v *validator, in []ruleCondIn) ([]ruleCondWire, []compiledCond) {
	out := make([]ruleCondWire, 0, len(in))
	for i, c := range in {
		at := func(name string) string { return fmt.Sprintf("conditions.%d.%s", i, name) }
		w := ruleCondWire{ID: c.ID, Entity: c.Entity, Operand: c.Operand, Operator: c.Operator, Category: c.Category,
			MediaPresent: c.MediaPresent, Weight: c.Weight}
		if w.ID == 0 {
			w.ID = i + 1
		}
		if w.Entity == "" {
			w.Entity = "message"
		}
		for _, f := range []*bool{c.KeywordRef, c.KeywordsRef, c.ListRef} {
			w.KeywordsRef = w.KeywordsRef || f != nil && *f
		}
		if w.Entity != "message" {
			v.add(at("entity"), `The %s must be "message".`, at("entity"))
		}
		checkModEnum(v, at("operand"), w.Operand, condOperands)
		checkModEnum(v, at("operator"), w.Operator, condOperators)
		checkModEnum(v, at("category"), w.Category, condCategories)
		var ok bool
		if w.Value, ok = modStrings(c.Value); !ok {
			v.add(at("value"), "The %s must be a string or an array of strings.", at("value"))
		} else if len(w.Value) == 0 {
			v.add(at("value"), "The %s field is required.", at("value"))
		}
		for j, s := range w.Value {
			if s == "" || charLen(s) > 100 {
				v.add(fmt.Sprintf("%s.%d", at("value"), j), "Each value must be between 1 and 100 characters.")
			}
		}
		if w.Message, ok = modStrings(c.Message); !ok {
			v.add(at("message"), "The %s must be a string or an array of strings.", at("message"))
		}
		out = append(out, w)
	}
	compiled, bad := compileConds(out)
	if bad != nil {
		v.add(fmt.Sprintf("conditions.%d.value", bad.cond), "The pattern %q is not a valid regular expression.", bad.pattern)
	}
	return out, compiled
}

// badPattern names a literal pattern that does not compile.
type badPattern struct {
	cond    int
	pattern string
}

// compileConds prepares conditions for matching: the literal values of
// pattern conditions compiled. It reports the first pattern that does not
// compile.
func compileConds(conds []ruleCondWire) ([]compiledCond, *badPattern) {
	out := make([]compiledCond, len(conds))
	for i, c := range conds {
		out[i].c = c
		if c.Category != string(chat.KeywordPattern) || c.KeywordsRef {
			continue
		}
		for _, p := range c.Value {
			cp, err := compileModPattern(p)
			if err != nil {
				return nil, &badPattern{i, p}
			}
			out[i].patterns = append(out[i].patterns, cp)
		}
	}
	return out, nil
}

// POST /v3/moderation/rules (and the management variant)
//
// id is required (an id in use is a 400, as for reasons); name is at most
// 100 characters; enabled defaults to true; action items are free strings
// (the fake acts on blockMessage and dropMessage); filters and conditions
// are checked against the enumerations of rule bodies. The answer is
// revision 1.
func (st *state) createRule(c *call) (any, error) {
	var b ruleBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkModerationID(&v, b.ID)
	w := ruleWire{ID: b.ID, Enabled: true, Action: []string{}, Conditions: []ruleCondWire{}}
	compiled := st.applyRuleBody(&v, &w, &b)
	if err := v.err(); err != nil {
		return nil, err
	}
	if st.rules[b.ID] != nil {
		return nil, errTaken("id")
	}
	w.CreatedAt, w.UpdatedAt = c.timestamp(), c.timestamp()
	r := st.putRule(w)
	r.conds = compiled
	st.refreshTextRules()
	return data(st.ruleView(r, 0)), nil
}

// applyRuleBody validates the fields b sends and sets them on w; it
// returns w's conditions compiled.
func (st *state) applyRuleBody(v *validator, w *ruleWire, b *ruleBody) []compiledCond {
	if b.Name != nil {
		checkText(v, "name", *b.Name, false, 100)
		w.Name = *b.Name
	}
	if b.Description != nil {
		w.Description = *b.Description
	}
	if b.Enabled != nil {
		w.Enabled = *b.Enabled
	}
	if b.Action != nil {
		for i, a := range *b.Action {
			if a == "" {
				v.add(fmt.Sprintf("action.%d", i), "The action.%d field must not be empty.", i)
			}
		}
		w.Action = slices.Clone(*b.Action)
	}
	if b.Filters != nil {
		checkFilters(v, *b.Filters)
		w.Filters = slices.Clone(*b.Filters)
	}
	if b.Conditions != nil {
		conds, compiled := readConds(v, *b.Conditions)
		w.Conditions = conds
		return compiled
	}
	compiled, _ := compileConds(w.Conditions) // stored conditions compiled before
	return compiled
}

// GET /v3/moderation/rules (and the management variant)
//
// Rules in creation order, the built-in ones first, cursor-paginated as
// the reasons are: limit (default 100, at most 1000) and id (continue
// after that rule); meta.next names the last rule returned while more
// follow.
func (st *state) listRules(c *call) (any, error) {
	recs := make([]*ruleRec, 0, len(st.rules))
	for _, r := range st.rules {
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
	return modPage(c, recs, func(r *ruleRec) string { return r.current().ID },
		func(r *ruleRec) ruleWire { return st.ruleView(r, len(r.revisions)-1) })
}

// modPage answers one page of items, which are in list order: limit
// (default 100, 1..1000) and id, the key of the item to continue after
// (an unknown id starts from the beginning). meta.next is {affix: append,
// id} while more follow.
func modPage[T, W any](c *call, items []T, key func(T) string, view func(T) W) (any, error) {
	p := c.params()
	limit := p.intRange("limit", 100, 1, 1000)
	after := p.str("id")
	if err := p.err(); err != nil {
		return nil, err
	}
	if after != "" {
		if i := slices.IndexFunc(items, func(t T) bool { return key(t) == after }); i >= 0 {
			items = items[i+1:]
		}
	}
	page := items[:min(limit, len(items))]
	out := make([]W, len(page))
	for i, t := range page {
		out[i] = view(t)
	}
	meta := chat.PageMeta{Current: &chat.PageCount{Limit: limit, Count: len(out)}}
	if len(items) > limit {
		meta.Next = &chat.Cursor{Direction: chat.DirectionAfter, ID: key(page[len(page)-1])}
	}
	return chat.Page[W]{Data: out, Meta: meta}, nil
}

// GET /v3/moderation/rules/{ruleId} (and the management variant)
func (st *state) getRule(c *call) (any, error) {
	r, err := st.pathRule(c)
	if err != nil {
		return nil, err
	}
	return data(st.ruleView(r, len(r.revisions)-1)), nil
}

// PUT /v3/moderation/rules/{ruleId} (and the management variant)
//
// The fields sent replace the rule's (an id in the body is ignored), as a
// new revision: revisionId <appId>_<ruleId>_<n>; the earlier revisions
// stay, no longer active. Built-in rules can be changed too.
func (st *state) updateRule(c *call) (any, error) {
	r, err := st.pathRule(c)
	if err != nil {
		return nil, err
	}
	var b ruleBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	w := *r.current()
	w.Conditions, w.Filters, w.Action = slices.Clone(w.Conditions), slices.Clone(w.Filters), slices.Clone(w.Action)
	compiled := st.applyRuleBody(&v, &w, &b)
	if err := v.err(); err != nil {
		return nil, err
	}
	w.UpdatedAt = c.timestamp()
	r.revisions = append(r.revisions, w)
	r.conds = compiled
	st.refreshTextRules()
	return data(st.ruleView(r, len(r.revisions)-1)), nil
}

// DELETE /v3/moderation/rules/{ruleId} (and the management variant)
//
// The rule goes with its revisions; built-in rules can be deleted too.
// Blocked messages it blocked stay listed.
func (st *state) deleteRule(c *call) (any, error) {
	r, err := st.pathRule(c)
	if err != nil {
		return nil, err
	}
	id := r.current().ID
	delete(st.rules, id)
	touchField(st, &st.rules)
	st.refreshTextRules()
	return data(chat.Result{Success: true, Message: "Rule with id " + id + " has been deleted successfully."}), nil
}

// GET /v3/moderation/rules/{ruleId}/revisions (and the management variant)
//
// The revisions oldest first, the current one last and alone active;
// paginated as the rules are, the id cursor being a revisionId.
func (st *state) listRuleRevisions(c *call) (any, error) {
	r, err := st.pathRule(c)
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(r.revisions))
	for i := range idx {
		idx[i] = i
	}
	return modPage(c, idx, func(i int) string { return st.revisionID(r.revisions[i].ID, i+1) },
		func(i int) ruleWire { return st.ruleView(r, i) })
}
