package chat_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

const keywordJSON = `{"id":"banned","name":"Banned words","description":"No","category":"word","isCSV":false,
	"searchTerms":["foo","bar"],"createdAt":1720003247,"updatedAt":1720003300,"revisionId":"myapp_banned_1","active":true,"default":false}`

var exampleKeywords = &chat.KeywordList{ID: "banned", Name: "Banned words", Description: "No", Category: chat.KeywordWord,
	SearchTerms: []string{"foo", "bar"}, CreatedAt: 1720003247, UpdatedAt: 1720003300, RevisionID: "myapp_banned_1", Active: true}

func TestModerationKeywordFormsWire(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		call   func(c *chat.Client) (*chat.KeywordList, error)
		method string
		path   string
		parts  []wiretest.FormPart
	}{
		{
			name: "CreateKeywordList with terms",
			call: func(c *chat.Client) (*chat.KeywordList, error) {
				return c.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "banned", Category: chat.KeywordWord,
					Name: "Banned words", Description: "No", SearchTerms: []string{"foo", "bar baz"}})
			},
			method: http.MethodPost, path: "/v3/moderation/keywords",
			parts: []wiretest.FormPart{{Name: "category", Value: "word"}, {Name: "id", Value: "banned"}, {Name: "name", Value: "Banned words"},
				{Name: "description", Value: "No"}, {Name: "searchTerms", Value: "foo,bar baz"}},
		},
		{
			name: "CreateKeywordList with sentences and a file",
			call: func(c *chat.Client) (*chat.KeywordList, error) {
				return c.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "scams", Category: chat.KeywordSentenceSimilarity,
					DisallowedSentences: []string{"send me money", "wire, then wait"},
					File:                &chat.KeywordFile{Name: `my "list".csv`, Content: strings.NewReader("a,b\nc\n")}})
			},
			method: http.MethodPost, path: "/v3/moderation/keywords",
			parts: []wiretest.FormPart{{Name: "category", Value: "sentence-similarity"}, {Name: "id", Value: "scams"},
				{Name: "disallowedSentences", Value: "send me money"}, {Name: "disallowedSentences", Value: "wire, then wait"},
				{Name: "file", Filename: `my "list".csv`, ContentType: "text/csv", Value: "a,b\nc\n"}},
		},
		{
			name: "UpdateKeywordList with a default file name",
			call: func(c *chat.Client) (*chat.KeywordList, error) {
				return c.Moderation.UpdateKeywordList(ctx, "a b", &chat.UpdateKeywordListRequest{Category: chat.KeywordPattern,
					Name: "Patterns", File: &chat.KeywordFile{Content: bytes.NewReader([]byte("^x+$"))}})
			},
			method: http.MethodPut, path: "/v3/moderation/keywords/a%20b",
			parts: []wiretest.FormPart{{Name: "category", Value: "pattern"}, {Name: "name", Value: "Patterns"},
				{Name: "file", Filename: "keywords.csv", ContentType: "text/csv", Value: "^x+$"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":`+keywordJSON+`}`)
			got, err := tt.call(client)
			require.NoError(t, err)
			assert.Equal(t, exampleKeywords, got)
			r := m.Only()
			wiretest.ChatWire.Sent(t, r, tt.method, tt.path)
			wiretest.NoOnBehalfOf(t, r)
			assert.Empty(t, r.RawQuery)
			assert.Equal(t, tt.parts, wiretest.Form(t, r))
		})
	}
}

func TestModerationKeywordsWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "ListKeywordLists with storage fields",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.ListKeywordLists(ctx, nil) },
			Reply:  `{"data":[{"_id":"66a1","appId":"myapp","__v":0,"id":"profanity-list","category":"word","isCSV":true,"searchTerms":["x"],"active":true,"default":true}],"meta":{"current":{"limit":100,"count":1}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/keywords",
			Want: &chat.Page[chat.KeywordList]{Data: []chat.KeywordList{{ID: "profanity-list", Category: chat.KeywordWord, IsCSV: true,
				SearchTerms: []string{"x"}, Active: true, Default: true, AppID: "myapp"}}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 1}}},
		},
		{
			Name:   "GetKeywordList",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.GetKeywordList(ctx, "banned") },
			Reply:  `{"data":` + keywordJSON + `}`,
			Method: http.MethodGet, Path: "/v3/moderation/keywords/banned", Want: exampleKeywords,
		},
		{
			Name:   "DeleteKeywordList",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.DeleteKeywordList(ctx, "banned") },
			Reply:  `{"data":{"success":true,"message":"deleted"}}`,
			Method: http.MethodDelete, Path: "/v3/moderation/keywords/banned",
			Want: &chat.Result{Success: true, Message: "deleted"},
		},
	})

	t.Run("AllKeywordLists", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{
			"":  `{"data":[{"id":"a"}],"meta":{"current":{"limit":1,"count":1},"next":{"affix":"append","id":"a"}}}`,
			"a": `{"data":[{"id":"b"}],"meta":{"current":{"limit":1,"count":1}}}`,
		})
		ids := collectKeys(t, client.Moderation.AllKeywordLists(ctx, &chat.ListKeywordListsOptions{CursorOptions: chat.CursorOptions{Limit: 1}}),
			func(k *chat.KeywordList) string { return k.ID })
		assert.Equal(t, []string{"a", "b"}, ids)
		assert.Equal(t, "affix=append&id=a&limit=1", m.Requests()[1].RawQuery)
	})

	t.Run("Form is what CreateKeywordList sends", func(t *testing.T) {
		req := &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, SearchTerms: []string{"a", "b"}}
		ct, body, err := req.Form()
		require.NoError(t, err)
		parts := wiretest.Form(t, wiretest.Request{Header: http.Header{"Content-Type": {ct}}, Body: body})
		assert.Equal(t, []wiretest.FormPart{{Name: "category", Value: "word"}, {Name: "id", Value: "k"}, {Name: "searchTerms", Value: "a,b"}}, parts)
	})
}

// failingReader fails every read.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestModerationKeywordsArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.ModerationService]{
		{Name: "CreateKeywordList nil", Call: func(s *chat.ModerationService) error { _, err := s.CreateKeywordList(ctx, nil); return err }, Arg: "req"},
		{Name: "CreateKeywordList without id", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{Category: chat.KeywordWord})
			return err
		}, Arg: "req.ID"},
		{Name: "CreateKeywordList without category", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k"})
			return err
		}, Arg: "req.Category"},
		{Name: "CreateKeywordList with a comma in a term", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, SearchTerms: []string{"a", "b,c"}})
			return err
		}, Arg: "req.SearchTerms[1]"},
		{Name: "CreateKeywordList with an empty term", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, SearchTerms: []string{" "}})
			return err
		}, Arg: "req.SearchTerms[0]"},
		{Name: "CreateKeywordList with a file without content", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, File: &chat.KeywordFile{}})
			return err
		}, Arg: "req.File.Content"},
		{Name: "CreateKeywordList with a file too large", Call: func(s *chat.ModerationService) error {
			big := io.LimitReader(zeros{}, chat.MaxKeywordFileBytes+1)
			_, err := s.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, File: &chat.KeywordFile{Content: big}})
			return err
		}, Arg: "req.File.Content"},
		{Name: "GetKeywordList empty", Call: func(s *chat.ModerationService) error { _, err := s.GetKeywordList(ctx, ""); return err }, Arg: "keywordID"},
		{Name: "UpdateKeywordList empty id", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateKeywordList(ctx, "", &chat.UpdateKeywordListRequest{Category: chat.KeywordWord})
			return err
		}, Arg: "keywordID"},
		{Name: "UpdateKeywordList nil", Call: func(s *chat.ModerationService) error { _, err := s.UpdateKeywordList(ctx, "k", nil); return err }, Arg: "req"},
		{Name: "UpdateKeywordList without category", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateKeywordList(ctx, "k", &chat.UpdateKeywordListRequest{Name: "n"})
			return err
		}, Arg: "req.Category"},
		{Name: "DeleteKeywordList dot", Call: func(s *chat.ModerationService) error { _, err := s.DeleteKeywordList(ctx, "."); return err }, Arg: "keywordID"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.ModerationService { return c.Moderation }, tests)

	t.Run("a failing file is reported and nothing is sent", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord,
			File: &chat.KeywordFile{Content: failingReader{}}})
		require.EqualError(t, err, "chat: reading the keyword file: disk on fire")
		assert.Zero(t, m.Calls())
	})
}

// zeros reads zero bytes forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestKeywordListsValidate holds the Validate of the keyword list requests to the checks
// their methods run before sending.
func TestKeywordListsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a list", Value: &chat.CreateKeywordListRequest{ID: "bad", Category: chat.KeywordWord, SearchTerms: []string{"x", "y"}}},
		{Name: "a list with a file", Value: &chat.CreateKeywordListRequest{ID: "bad", Category: chat.KeywordWord,
			File: &chat.KeywordFile{Content: strings.NewReader("x\n")}}},
		{Name: "a list without an id", Value: &chat.CreateKeywordListRequest{Category: chat.KeywordWord}, Field: "req.ID"},
		{Name: "a list without a category", Value: &chat.CreateKeywordListRequest{ID: "bad"}, Field: "req.Category"},
		{Name: "a term with a comma", Value: &chat.CreateKeywordListRequest{ID: "bad", Category: chat.KeywordWord, SearchTerms: []string{"x", "y,z"}}, Field: "req.SearchTerms[1]"},
		{Name: "a file without content", Value: &chat.CreateKeywordListRequest{ID: "bad", Category: chat.KeywordWord, File: &chat.KeywordFile{Name: "k.csv"}}, Field: "req.File.Content"},
		{Name: "an update", Value: &chat.UpdateKeywordListRequest{Category: chat.KeywordPattern, SearchTerms: []string{"a.*"}}},
		{Name: "an update without a category", Value: &chat.UpdateKeywordListRequest{SearchTerms: []string{"x"}}, Field: "req.Category"},
		{Name: "an update with a blank term", Value: &chat.UpdateKeywordListRequest{Category: chat.KeywordWord, SearchTerms: []string{" "}}, Field: "req.SearchTerms[0]"},
	})
}
