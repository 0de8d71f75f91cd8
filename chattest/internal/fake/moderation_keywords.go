package fake

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"slices"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// keywordWire is a keyword list as the service answers it.
type keywordWire struct {
	ID                  string         `json:"id"`
	Name                string         `json:"name"`
	Description         string         `json:"description,omitempty"`
	Category            string         `json:"category"`
	IsCSV               bool           `json:"isCSV"`
	SearchTerms         []string       `json:"searchTerms"`
	DisallowedSentences []string       `json:"disallowedSentences,omitempty"`
	CreatedAt           chat.Timestamp `json:"createdAt"`
	UpdatedAt           chat.Timestamp `json:"updatedAt"`
	RevisionID          string         `json:"revisionId"`
	Active              bool           `json:"active"`
	Default             bool           `json:"default,omitempty"` // only the built-in list shows it
}

// keywordItem is a keyword list as lists answer it: with the service's
// storage fields.
type keywordItem struct {
	StorageID string `json:"_id"`
	AppID     string `json:"appId"`
	keywordWire
	Version int `json:"__v"`
}

// keywordRec is a stored keyword list: rev counts its revisions (from 1),
// and patterns are its terms compiled, for a pattern list.
type keywordRec struct {
	k        keywordWire
	seq      int64
	rev      int
	patterns []modPattern
}

// putKeyword stores a new keyword list, revision 1.
func (r *rulesState) putKeyword(k keywordWire) *keywordRec {
	r.kwSeq++
	rec := &keywordRec{k: k, seq: r.kwSeq, rev: 1}
	rec.patterns, _ = compileTerms(k) // the caller checked them
	r.keywords[k.ID] = rec
	return rec
}

// compileTerms compiles the terms of a pattern list; it reports the index
// of the first term that does not compile, or -1.
func compileTerms(k keywordWire) ([]modPattern, int) {
	if k.Category != string(chat.KeywordPattern) {
		return nil, -1
	}
	out := make([]modPattern, 0, len(k.SearchTerms))
	for i, t := range k.SearchTerms {
		p, err := compileModPattern(t)
		if err != nil {
			return nil, i
		}
		out = append(out, p)
	}
	return out, -1
}

// keywordView is k as answered.
func (st *state) keywordView(k *keywordRec) keywordWire {
	w := k.k
	w.RevisionID = st.revisionID(w.ID, k.rev)
	return w
}

// pathKeyword returns the keyword list named by the path's {keywordId}.
func (st *state) pathKeyword(c *call) (*keywordRec, error) {
	id := c.r.PathValue("keywordId")
	if k := st.keywords[id]; k != nil {
		return k, nil
	}
	return nil, errKeywordNotFound(id)
}

// keywordForm reads a keyword list's multipart/form-data body: category,
// id, name, description, searchTerms (comma-separated; repeated fields
// add up), disallowedSentences (one field per sentence; a single field
// holding a JSON array of strings is read as that array; the name
// disallowedSentences[] is accepted too) and the CSV part file, whose
// every non-empty cell is a term (or a sentence, for a
// sentence-similarity list). It validates:
// category word, pattern or sentence-similarity; terms (from searchTerms
// or the file) required for word and pattern lists, at most 100
// characters each, and patterns must compile (Go's regexp syntax);
// sentences required for sentence-similarity lists. id is read but not
// checked.
func keywordForm(c *call) (keywordWire, error) {
	var k keywordWire
	bad := func(msg string) error { return validationError(map[string][]string{"body": {msg}}) }
	mt, params, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return k, bad("The request body must be multipart/form-data.")
	}
	form, err := multipart.NewReader(bytes.NewReader(c.body), params["boundary"]).ReadForm(maxBodyBytes)
	if err != nil {
		return k, bad("The multipart/form-data body could not be read.")
	}
	defer form.RemoveAll()
	first := func(name string) string {
		if vs := form.Value[name]; len(vs) > 0 {
			return vs[0]
		}
		return ""
	}
	k.ID, k.Name, k.Description, k.Category = first("id"), first("name"), first("description"), first("category")
	for _, raw := range form.Value["searchTerms"] {
		for t := range strings.SplitSeq(raw, ",") {
			if t = strings.TrimSpace(t); t != "" {
				k.SearchTerms = append(k.SearchTerms, t)
			}
		}
	}
	sentences := append(slices.Clone(form.Value["disallowedSentences"]), form.Value["disallowedSentences[]"]...)
	if len(sentences) == 1 && strings.HasPrefix(strings.TrimSpace(sentences[0]), "[") {
		var list []string
		if json.Unmarshal([]byte(sentences[0]), &list) == nil {
			sentences = list
		}
	}
	for _, s := range sentences {
		if s = strings.TrimSpace(s); s != "" {
			k.DisallowedSentences = append(k.DisallowedSentences, s)
		}
	}
	if fhs := form.File["file"]; len(fhs) > 0 {
		cells, err := csvCells(fhs[0])
		if err != nil {
			return k, validationError(map[string][]string{"file": {"The file must be a CSV file."}})
		}
		k.IsCSV = true
		if k.Category == string(chat.KeywordSentenceSimilarity) {
			k.DisallowedSentences = append(k.DisallowedSentences, cells...)
		} else {
			k.SearchTerms = append(k.SearchTerms, cells...)
		}
	}
	if k.SearchTerms == nil {
		k.SearchTerms = []string{}
	}

	var v validator
	checkModEnum(&v, "category", k.Category, condCategories)
	checkText(&v, "name", k.Name, false, 100)
	switch k.Category {
	case string(chat.KeywordWord), string(chat.KeywordPattern):
		if len(k.SearchTerms) == 0 {
			v.add("searchTerms", "The searchTerms field is required when category is %s (or upload a file).", k.Category)
		}
		for i, t := range k.SearchTerms {
			if charLen(t) > 100 {
				v.add(fmt.Sprintf("searchTerms.%d", i), "Each search term may not be greater than 100 characters.")
			}
		}
		if _, i := compileTerms(k); i >= 0 {
			v.add(fmt.Sprintf("searchTerms.%d", i), "The pattern %q is not a valid regular expression.", k.SearchTerms[i])
		}
	case string(chat.KeywordSentenceSimilarity):
		if len(k.DisallowedSentences) == 0 {
			v.add("disallowedSentences", "The disallowedSentences field is required when category is sentence-similarity (or upload a file).")
		}
	}
	return k, v.err()
}

// csvCells returns the non-empty cells of a CSV file, trimmed.
func csvCells(fh *multipart.FileHeader) ([]string, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, maxBodyBytes))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var cells []string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return cells, nil
		}
		if err != nil {
			return nil, err
		}
		for _, cell := range rec {
			if cell = strings.TrimSpace(cell); cell != "" {
				cells = append(cells, cell)
			}
		}
	}
}

// POST /v3/moderation/keywords (and the management variant)
//
// A multipart/form-data body (see keywordForm); id is required, as for
// rules (an id in use is a 400). The answer is revision 1.
func (st *state) createKeywordList(c *call) (any, error) {
	k, err := keywordForm(c)
	var v validator
	checkModerationID(&v, k.ID)
	if err := mergeValidation(err, v.err()); err != nil {
		return nil, err
	}
	if st.keywords[k.ID] != nil {
		return nil, errTaken("id")
	}
	k.Active = true
	k.CreatedAt, k.UpdatedAt = c.timestamp(), c.timestamp()
	return data(st.keywordView(st.putKeyword(k))), nil
}

// mergeValidation joins the details of two validation errors; any other
// error is returned as it is.
func mergeValidation(a, b error) error {
	var ea, eb *apiError
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case !errors.As(a, &ea) || !errors.As(b, &eb) || ea.Details == nil || eb.Details == nil:
		return a
	}
	details := map[string][]string{}
	for _, e := range []*apiError{ea, eb} {
		for f, msgs := range e.Details {
			details[f] = append(details[f], msgs...)
		}
	}
	return validationError(details)
}

// GET /v3/moderation/keywords (and the management variant)
//
// Lists in creation order, the built-in one first, paginated as the rules
// are; items carry _id, appId and __v (the revision count less one).
func (st *state) listKeywordLists(c *call) (any, error) {
	recs := make([]*keywordRec, 0, len(st.keywords))
	for _, k := range st.keywords {
		recs = append(recs, k)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
	return modPage(c, recs, func(k *keywordRec) string { return k.k.ID }, func(k *keywordRec) keywordItem {
		return keywordItem{StorageID: st.hexID("keyword-list", k.seq)[:24], AppID: st.appID, keywordWire: st.keywordView(k), Version: k.rev - 1}
	})
}

// GET /v3/moderation/keywords/{keywordId} (and the management variant)
func (st *state) getKeywordList(c *call) (any, error) {
	k, err := st.pathKeyword(c)
	if err != nil {
		return nil, err
	}
	return data(st.keywordView(k)), nil
}

// PUT /v3/moderation/keywords/{keywordId} (and the management variant)
//
// The body is the create's form (an id in it is ignored) and replaces the
// list's name, description, category and terms, as its next revision;
// createdAt stays.
func (st *state) updateKeywordList(c *call) (any, error) {
	k, err := st.pathKeyword(c)
	if err != nil {
		return nil, err
	}
	nk, err := keywordForm(c)
	if err != nil {
		return nil, err
	}
	nk.ID, nk.Active, nk.Default = k.k.ID, true, k.k.Default
	nk.CreatedAt, nk.UpdatedAt = k.k.CreatedAt, c.timestamp()
	k.k, k.rev = nk, k.rev+1
	k.patterns, _ = compileTerms(nk)
	return data(st.keywordView(k)), nil
}

// DELETE /v3/moderation/keywords/{keywordId} (and the management variant)
//
// Rules that refer to the list stay; their references match nothing until
// a list with that id exists again.
func (st *state) deleteKeywordList(c *call) (any, error) {
	k, err := st.pathKeyword(c)
	if err != nil {
		return nil, err
	}
	delete(st.keywords, k.k.ID)
	touchField(st, &st.keywords)
	return data(chat.Result{Success: true, Message: "Keyword list with id " + k.k.ID + " has been deleted successfully."}), nil
}
