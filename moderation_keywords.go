package chat

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/chatrest/chat/internal/rest"
)

// MaxKeywordFileBytes bounds the CSV file of a keyword list the SDK reads
// into memory to send (it keeps the body so that a retry can send it
// again). The bound is the SDK's own.
const MaxKeywordFileBytes = 32 << 20

// KeywordList is a list of words, patterns or sentences that moderation
// rules refer to by id (see [RuleCondition.KeywordReference]).
type KeywordList struct {
	// ID is the list's id, chosen at creation.
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Category says what the terms are.
	Category KeywordCategory `json:"category,omitempty"`
	// IsCSV reports that the terms came from an uploaded CSV file.
	IsCSV bool `json:"isCSV"`
	// SearchTerms are the words or patterns of a word or pattern list.
	SearchTerms []string `json:"searchTerms,omitempty"`
	// DisallowedSentences are the sentences of a sentence-similarity list,
	// when the service sends them.
	DisallowedSentences []string `json:"disallowedSentences,omitempty"`
	// RevisionID names this revision of the list.
	RevisionID string `json:"revisionId,omitempty"`
	// Active reports whether this is the list's current revision.
	Active bool `json:"active"`
	// Default reports a built-in list, such as "profanity-list".
	Default bool `json:"default,omitempty"`
	// AppID is the app's id, sent in lists. (List items also carry the
	// service's storage fields _id and __v, which are not kept.)
	AppID     string    `json:"appId,omitempty"`
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
}

// KeywordFile is a CSV file of terms uploaded with a keyword list.
type KeywordFile struct {
	// Name is the file name sent; empty sends "keywords.csv".
	Name string
	// Content is the CSV. It is read to its end when the call is made, at
	// most [MaxKeywordFileBytes]; use bytes.NewReader or strings.NewReader
	// for content in memory.
	Content io.Reader
}

// CreateKeywordListRequest is the form of [ModerationService.CreateKeywordList],
// sent as multipart/form-data (see [CreateKeywordListRequest.Form]).
type CreateKeywordListRequest struct {
	// ID is the list's id (required, checked before anything is sent).
	ID string
	// Category is required.
	Category    KeywordCategory
	Name        string
	Description string
	// SearchTerms are the words or patterns, required (or File) for word
	// and pattern lists. They are sent comma-separated in one field, so a
	// term may not contain a comma.
	SearchTerms []string
	// DisallowedSentences are the sentences of a sentence-similarity list,
	// which requires them (or File).
	DisallowedSentences []string
	// File is an optional CSV of terms.
	File *KeywordFile
}

// Validate checks r as [ModerationService.CreateKeywordList] does before
// reading the file: ID and Category set, each search term not blank and
// without a comma, and the file's Content set. The file's size
// ([MaxKeywordFileBytes]) is checked as [CreateKeywordListRequest.Form]
// reads it. It returns an [*ArgumentError] naming the field at fault, or
// nil.
func (r *CreateKeywordListRequest) Validate() error {
	if r.ID == "" {
		return newArgError("req.ID", "must not be empty")
	}
	return checkKeywordList(r.Category, r.SearchTerms, r.File)
}

// Form encodes r as the multipart/form-data body
// [ModerationService.CreateKeywordList] sends, returning its Content-Type
// and bytes; the deprecated management variant sends the same. The fields
// are category, id, name, description (each when set), searchTerms (the
// terms joined with commas), one disallowedSentences field per sentence
// (repeated fields, OpenAPI's default encoding of an array in a form),
// and the part "file" (Content-Type text/csv).
// It checks r as CreateKeywordList does: [CreateKeywordListRequest.Validate],
// and the size of the file as it reads it.
func (r *CreateKeywordListRequest) Form() (contentType string, body []byte, err error) {
	if err := r.Validate(); err != nil {
		return "", nil, err
	}
	b, err := keywordForm(r.ID, r.Category, r.Name, r.Description, r.SearchTerms, r.DisallowedSentences, r.File)
	if err != nil {
		return "", nil, err
	}
	return b.ContentType, b.Data, nil
}

// CreateKeywordList creates a keyword list and returns it. Rules use it
// through a condition with KeywordReference set and the list's id among
// its Values.
//
// API: POST /v3/moderation/keywords (onBehalfOf not supported)
func (s *ModerationService) CreateKeywordList(ctx context.Context, req *CreateKeywordListRequest, opts ...RequestOption) (*KeywordList, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[KeywordList](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"moderation", "keywords"}, Body: &rest.RawBody{ContentType: ct, Data: body}}, opts)
}

// ListKeywordListsOptions positions a list of keyword lists; the cursor
// fields are sent when set.
type ListKeywordListsOptions struct {
	CursorOptions
}

// ListKeywordLists returns one page of the app's keyword lists, built-in
// ones included (Default set).
//
// API: GET /v3/moderation/keywords (onBehalfOf not supported)
func (s *ModerationService) ListKeywordLists(ctx context.Context, opts *ListKeywordListsOptions, reqOpts ...RequestOption) (*Page[KeywordList], error) {
	return list[KeywordList](ctx, s.c, &Request{Path: []string{"moderation", "keywords"}, Query: opts}, reqOpts)
}

// AllKeywordLists iterates over every keyword list, following meta.next
// while the service sends one. It stops at the first error, which it
// yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/keywords (onBehalfOf not supported)
func (s *ModerationService) AllKeywordLists(ctx context.Context, opts *ListKeywordListsOptions, reqOpts ...RequestOption) iter.Seq2[*KeywordList, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListKeywordListsOptions) (*Page[KeywordList], error) {
		return s.ListKeywordLists(ctx, o, reqOpts...)
	})
}

// GetKeywordList returns the keyword list keywordID.
//
// API: GET /v3/moderation/keywords/{keywordId} (onBehalfOf not supported)
func (s *ModerationService) GetKeywordList(ctx context.Context, keywordID string, opts ...RequestOption) (*KeywordList, error) {
	if err := required("keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[KeywordList](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"moderation", "keywords", keywordID}}, opts)
}

// UpdateKeywordListRequest is the form of [ModerationService.UpdateKeywordList]:
// the same fields as [CreateKeywordListRequest] but the id, which is in the
// path. Category is required here too.
type UpdateKeywordListRequest struct {
	// Category is required.
	Category            KeywordCategory
	Name                string
	Description         string
	SearchTerms         []string
	DisallowedSentences []string
	File                *KeywordFile
}

// Validate checks r as [ModerationService.UpdateKeywordList] does before
// reading the file, as [CreateKeywordListRequest.Validate] does but for
// the id. It returns an [*ArgumentError] naming the field at fault, or
// nil.
func (r *UpdateKeywordListRequest) Validate() error {
	return checkKeywordList(r.Category, r.SearchTerms, r.File)
}

// Form encodes r as the multipart/form-data body
// [ModerationService.UpdateKeywordList] sends, as
// [CreateKeywordListRequest.Form] does, without an id field.
func (r *UpdateKeywordListRequest) Form() (contentType string, body []byte, err error) {
	if err := r.Validate(); err != nil {
		return "", nil, err
	}
	b, err := keywordForm("", r.Category, r.Name, r.Description, r.SearchTerms, r.DisallowedSentences, r.File)
	if err != nil {
		return "", nil, err
	}
	return b.ContentType, b.Data, nil
}

// UpdateKeywordList replaces the keyword list keywordID with req and
// returns it.
//
// API: PUT /v3/moderation/keywords/{keywordId} (onBehalfOf not supported)
func (s *ModerationService) UpdateKeywordList(ctx context.Context, keywordID string, req *UpdateKeywordListRequest, opts ...RequestOption) (*KeywordList, error) {
	if err := required("keywordID", keywordID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[KeywordList](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"moderation", "keywords", keywordID}, Body: &rest.RawBody{ContentType: ct, Data: body}}, opts)
}

// DeleteKeywordList deletes the keyword list keywordID. Rules that refer
// to it are not changed.
//
// API: DELETE /v3/moderation/keywords/{keywordId} (onBehalfOf not supported)
func (s *ModerationService) DeleteKeywordList(ctx context.Context, keywordID string, opts ...RequestOption) (*Result, error) {
	if err := required("keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"moderation", "keywords", keywordID}}, opts)
}

// checkKeywordList checks the fields a keyword list's creation and update
// share.
func checkKeywordList(category KeywordCategory, terms []string, file *KeywordFile) error {
	if category == "" {
		return newArgError("req.Category", "must not be empty")
	}
	for i, t := range terms {
		switch {
		case strings.TrimSpace(t) == "":
			return newArgError(fmt.Sprintf("req.SearchTerms[%d]", i), "must not be empty")
		case strings.Contains(t, ","):
			return newArgError(fmt.Sprintf("req.SearchTerms[%d]", i), "must not contain a comma (the terms are sent comma-separated)")
		}
	}
	if file != nil && file.Content == nil {
		return newArgError("req.File.Content", "must not be nil")
	}
	return nil
}

// keywordForm encodes the form of a checked keyword list, refusing a file
// larger than MaxKeywordFileBytes; id is sent when not empty.
func keywordForm(id string, category KeywordCategory, name, description string, terms, sentences []string, file *KeywordFile) (*rest.RawBody, error) {
	fields := make([]rest.FormField, 0, 5+len(sentences))
	add := func(name, value string) {
		if value != "" {
			fields = append(fields, rest.FormField{Name: name, Value: value})
		}
	}
	add("category", string(category))
	add("id", id)
	add("name", name)
	add("description", description)
	add("searchTerms", strings.Join(terms, ","))
	for _, s := range sentences {
		fields = append(fields, rest.FormField{Name: "disallowedSentences", Value: s})
	}
	var files []rest.FormFile
	if file != nil {
		content, err := io.ReadAll(io.LimitReader(file.Content, MaxKeywordFileBytes+1))
		if err != nil {
			return nil, fmt.Errorf("chat: reading the keyword file: %w", err)
		}
		if len(content) > MaxKeywordFileBytes {
			return nil, newArgError("req.File.Content", fmt.Sprintf("must not be larger than %d bytes", MaxKeywordFileBytes))
		}
		name := file.Name
		if name == "" {
			name = "keywords.csv"
		}
		files = append(files, rest.FormFile{Field: "file", Filename: name, ContentType: "text/csv", Content: content})
	}
	return rest.Multipart(fields, files...)
}
