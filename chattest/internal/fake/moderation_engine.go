package fake

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chatrest/chat"
)

// Message moderation statuses.
const (
	ModPending     = "pending"
	ModApproved    = "approved"
	ModDisapproved = "disapproved"
)

// moderateMessage applies the app's moderation rules to a message just
// stored. It runs with st.mu held, for every new message, so it returns at
// once unless some enabled rule has a text condition the fake evaluates.
//
// The fake evaluates the conditions on a text message's text (operand
// "text") of category word (a term matches as whole words, ignoring case;
// with "equals", the whole text), pattern (a Go regular expression found
// in the text; with "equals", matching all of it) and sentence-similarity
// (approximated: the text contains the sentence, ignoring case; with
// "equals", is it). Values are the terms themselves, or with the keyword
// reference flag the ids of keyword lists, whose terms match by the
// list's own category (an unknown id matches nothing). Media and custom
// conditions, and the formulas of AI rules, are not evaluated. A rule
// applies when all its filters hold (see filterHolds) and matches when any
// of its conditions does; rules are tried in creation order and the first
// match decides.
//
// A message no rule matches gets data.moderation.status "approved" and
// fires moderation_engine_approved. One a rule with the action
// blockMessage matches is kept for review: its
// status is "pending" (with data.moderation.rule) until a moderator
// reviews it, and it is listed by the blocked-messages list. A match of a
// rule without blockMessage (e.g. dropMessage) leaves the message
// "disapproved", with nothing to review. Both fire
// moderation_engine_blocked, whose message has the status "disapproved"
// (the engine's verdict). The fake still stores and
// answers blocked messages as any other; it does not hide them from the
// receiver.
func (st *state) moderateMessage(m *MsgRec, now chat.Timestamp) {
	if !st.textRules || m.m.Category != chat.CategoryMessage || m.m.Type != chat.MessageTypeText {
		return
	}
	rule, cond := st.firstMatch(m)
	if rule == nil {
		m.m.Data.Moderation = &chat.Moderation{Status: ModApproved}
		st.touchMsg(m)
		st.record(MessageModerated{M: m, Verdict: ModApproved})
		return
	}
	w := rule.current()
	ref := &chat.ModerationRuleRef{ID: w.ID, Name: w.Name}
	status := ModDisapproved
	if slices.Contains(w.Action, string(chat.ActionBlockMessage)) {
		status = ModPending
		st.blocked = append(st.blocked, &BlockedRec{msg: m, ruleID: w.ID, ruleName: w.Name,
			revisionID: st.revisionID(w.ID, len(rule.revisions)), cond: cond, action: slices.Clone(w.Action), createdAt: now, updatedAt: now})
		touchField(st, &st.blocked)
	}
	m.m.Data.Moderation = &chat.Moderation{Status: status, Rule: ref}
	st.touchMsg(m)
	st.record(MessageModerated{M: m, Verdict: ModDisapproved})
}

// EngineVerdict is the data of moderation_engine_approved and
// moderation_engine_blocked: the message, with data.moderation.status the
// engine's verdict. The webhooks render it (internal/webhooks).
func (st *state) EngineVerdict(m *MsgRec, verdict string) map[string]any {
	v := clone(m.view("", true))
	mod := chat.Moderation{Status: verdict}
	if m.m.Data.Moderation != nil {
		mod.Rule = m.m.Data.Moderation.Rule
	}
	v.Data.Moderation = &mod
	return map[string]any{"message": v}
}

// firstMatch returns the first rule, in creation order, that applies to m
// and has a condition matching it, with that condition.
func (st *state) firstMatch(m *MsgRec) (*ruleRec, ruleCondWire) {
	var best *ruleRec
	var bestCond ruleCondWire
	text := m.m.Data.Text
	lower := strings.ToLower(text)
	for _, r := range st.rules {
		w := r.current()
		if !w.Enabled || best != nil && r.seq > best.seq || !st.filtersHold(w.Filters, m) {
			continue
		}
		for i := range r.conds {
			if st.condMatches(&r.conds[i], text, lower) {
				best, bestCond = r, r.conds[i].c
				break
			}
		}
	}
	return best, bestCond
}

// condMatches reports whether the condition matches a message's text
// (lower is the text in lower case).
func (st *state) condMatches(cc *compiledCond, text, lower string) bool {
	c := &cc.c
	if !evaluatedCond(*c) {
		return false
	}
	equals := c.Operator == string(chat.ConditionEquals)
	if c.KeywordsRef {
		for _, id := range c.Value {
			if k := st.keywords[id]; k != nil && termsMatch(k.k.Category, k.k.SearchTerms, k.k.DisallowedSentences, k.patterns, text, lower, equals) {
				return true
			}
		}
		return false
	}
	return termsMatch(c.Category, c.Value, c.Value, cc.patterns, text, lower, equals)
}

// termsMatch matches text against the terms of a category: words,
// compiled patterns or sentences.
func termsMatch(category string, words, sentences []string, patterns []modPattern, text, lower string, equals bool) bool {
	switch category {
	case string(chat.KeywordWord):
		return slices.ContainsFunc(words, func(w string) bool {
			if equals {
				return strings.EqualFold(strings.TrimSpace(text), w)
			}
			return containsWord(lower, strings.ToLower(w))
		})
	case string(chat.KeywordPattern):
		return slices.ContainsFunc(patterns, func(p modPattern) bool {
			if equals {
				return p.equals.MatchString(text)
			}
			return p.contains.MatchString(text)
		})
	case string(chat.KeywordSentenceSimilarity):
		return slices.ContainsFunc(sentences, func(s string) bool {
			if equals {
				return strings.EqualFold(strings.TrimSpace(text), s)
			}
			return strings.Contains(lower, strings.ToLower(s))
		})
	}
	return false
}

// containsWord reports whether text contains term as whole words: not
// preceded or followed by a letter or digit.
func containsWord(text, term string) bool {
	if term == "" {
		return false
	}
	for i := 0; i <= len(text)-len(term); {
		j := strings.Index(text[i:], term)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(term)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[start:])
		i = start + size
	}
	return false
}

// wordRune reports whether r is part of a word; utf8.RuneError (no rune,
// at either end of the text) is not.
func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// filtersHold reports whether every filter holds for m.
//
// A sender filter looks at the sending user (a group sender filter never
// holds); a receiver filter at the receiving user or group, and does not
// hold when the message goes to the other kind. The operand is the user's
// uid, name, role, tags or createdAt, or the group's guid, name, type,
// tags or createdAt; for tags, the filter holds when it holds for any tag.
// Comparisons ignore case; "in" and "notIn" take comma-separated values;
// "lessThan" and "greaterThan" compare numbers (createdAt).
func (st *state) filtersHold(filters []ruleFilterWire, m *MsgRec) bool {
	for _, f := range filters {
		if !st.filterHolds(f, m) {
			return false
		}
	}
	return true
}

func (st *state) filterHolds(f ruleFilterWire, m *MsgRec) bool {
	var vals []string
	switch {
	case f.Entity == "user" && (f.Type == "sender" || m.m.ReceiverType == chat.ReceiverUser):
		uid := m.m.Sender
		if f.Type == "receiver" {
			uid = m.m.Receiver
		}
		u := st.UserEntity(uid)
		switch f.Operand {
		case "uid":
			vals = []string{u.UID}
		case "name":
			vals = []string{u.Name}
		case "role":
			vals = []string{u.Role}
		case "tags":
			if r := st.users[uid]; r != nil {
				vals = r.u.Tags
			}
		case "createdAt":
			vals = []string{strconv.FormatInt(int64(u.CreatedAt), 10)}
		}
	case f.Entity == "group" && f.Type == "receiver" && m.m.ReceiverType == chat.ReceiverGroup:
		g := st.groups[m.m.Receiver]
		if g == nil {
			return false
		}
		switch f.Operand {
		case "guid":
			vals = []string{g.g.GUID}
		case "name":
			vals = []string{g.g.Name}
		case "type":
			vals = []string{string(g.g.Type)}
		case "tags":
			vals = g.g.Tags
		case "createdAt":
			vals = []string{strconv.FormatInt(int64(g.g.CreatedAt), 10)}
		}
	default:
		return false
	}
	return compareFilter(f.Operator, vals, f.Value)
}

// compareFilter applies a filter operator to the operand's values.
func compareFilter(op string, vals []string, value string) bool {
	anyVal := func(pred func(string) bool) bool { return slices.ContainsFunc(vals, pred) }
	inList := func(v string) bool {
		for item := range strings.SplitSeq(value, ",") {
			if strings.EqualFold(strings.TrimSpace(item), v) {
				return true
			}
		}
		return false
	}
	number := func(s string) (int64, bool) {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		return n, err == nil
	}
	switch op {
	case "equals":
		return anyVal(func(v string) bool { return strings.EqualFold(v, value) })
	case "notEquals":
		return !anyVal(func(v string) bool { return strings.EqualFold(v, value) })
	case "in":
		return anyVal(inList)
	case "notIn":
		return !anyVal(inList)
	case "startsWith":
		return anyVal(func(v string) bool { return strings.HasPrefix(strings.ToLower(v), strings.ToLower(value)) })
	case "endsWith":
		return anyVal(func(v string) bool { return strings.HasSuffix(strings.ToLower(v), strings.ToLower(value)) })
	case "lessThan", "greaterThan":
		want, ok := number(value)
		return ok && anyVal(func(v string) bool {
			n, ok := number(v)
			return ok && (op == "lessThan" && n < want || op == "greaterThan" && n > want)
		})
	}
	return false
}
