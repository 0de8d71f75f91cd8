package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestDataImportWire(t *testing.T) {
	ctx := context.Background()
	runWire(t, []wireCase{
		{
			name: "ImportUsers",
			call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportUsers(ctx, []chat.ImportUser{
					{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png", Link: "https://a.example", Role: "admin",
						CreatedAt: 1674104348, LastActiveAt: 1674224684, Metadata: map[string]any{"k": "v"}, Tags: []string{"vip"}},
					{UID: "bob", Name: "Bob", DeactivatedAt: 1674300000},
				})
			},
			response: `{"data":{
				"alice":{"success":true,"data":{"uid":"alice","name":"Alice","avatar":"https://a.example/a.png","metadata":{"k":"v"},
					"status":"offline","role":"admin","lastActiveAt":"1674224684","createdAt":1674104348}},
				"bob":{"success":false,"error":{"code":"ERR_IMPORT_INVALID_USER_FORMAT","message":"The name is invalid.",
					"devMessage":"dev","details":{"name":["The name may not be greater than 100 characters."]}}}}}`,
			method: http.MethodPost, path: "/v3/data_import/users",
			body: `{"users":{
				"alice":{"uid":"alice","name":"Alice","avatar":"https://a.example/a.png","link":"https://a.example","role":"admin",
					"createdAt":1674104348,"lastActiveAt":1674224684,"metadata":{"k":"v"},"tags":["vip"]},
				"bob":{"uid":"bob","name":"Bob","deactivatedAt":1674300000}}}`,
			want: []chat.BulkResult[chat.User]{
				{Index: 0, Key: "alice", Success: true, Data: &chat.User{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png",
					Metadata: map[string]any{"k": "v"}, Status: chat.UserOffline, Role: "admin", LastActiveAt: 1674224684, CreatedAt: 1674104348}},
				{Index: 1, Key: "bob", Err: &chat.ImportError{Code: "ERR_IMPORT_INVALID_USER_FORMAT", Message: "The name is invalid.",
					DevMessage: "dev", Details: map[string][]string{"name": {"The name may not be greater than 100 characters."}}}},
			},
		},
		{
			name: "ImportGroups",
			call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportGroups(ctx, []chat.ImportGroup{{
					GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, Icon: "https://a.example/h.png", Password: "pw",
					Owner: "alice", CreatedAt: 1674104348, Metadata: map[string]any{"k": "v"}, Tags: []string{"outdoor"},
					OwnerDetails: &chat.UserDetails{UID: "alice", Name: "Alice"},
				}})
			},
			response: `{"data":{"hikers":{"success":true,"data":{"guid":"hikers","name":"Hikers","type":"password",
				"conversationId":"group_hikers","createdAt":1674104348,"owner":"alice"}}}}`,
			method: http.MethodPost, path: "/v3/data_import/groups",
			body: `{"groups":{"hikers":{"guid":"hikers","name":"Hikers","type":"password","icon":"https://a.example/h.png","password":"pw",
				"owner":"alice","createdAt":1674104348,"metadata":{"k":"v"},"tags":["outdoor"],
				"groupOwnerDetails":{"uid":"alice","name":"Alice"}}}}`,
			want: []chat.BulkResult[chat.Group]{{Index: 0, Key: "hikers", Success: true, Data: &chat.Group{
				GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, ConversationID: "group_hikers", CreatedAt: 1674104348, Owner: "alice"}}},
		},
		{
			name: "ImportMembers keys each membership and sends its memberId",
			call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportMembers(ctx, []chat.ImportMember{
					{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: 1674200000,
						GroupDetails: &chat.GroupDetails{GUID: "hikers", Name: "Hikers", Type: chat.GroupPublic},
						UserDetails:  &chat.UserDetails{UID: "bob", Name: "Bob"}},
					{GUID: "hikers", UID: "carol", IsBanned: true},
				})
			},
			response: `{"data":{
				"hikers_member_bob":{"success":true,"data":{"guid":"hikers","uid":"bob","scope":"moderator","joinedAt":1674200000}},
				"hikers_member_carol":{"success":true,"data":{"guid":"hikers","uid":"carol","scope":"participant","joinedAt":"1674300000"}}}}`,
			method: http.MethodPost, path: "/v3/data_import/members",
			body: `{"members":{
				"hikers_member_bob":{"memberId":"hikers_member_bob","guid":"hikers","uid":"bob","scope":"moderator","joinedAt":1674200000,
					"groupDetails":{"guid":"hikers","name":"Hikers","type":"public"},"userDetails":{"uid":"bob","name":"Bob"}},
				"hikers_member_carol":{"memberId":"hikers_member_carol","guid":"hikers","uid":"carol","isBanned":true}}}`,
			want: []chat.BulkResult[chat.ImportedMember]{
				{Index: 0, Key: "hikers_member_bob", Success: true, Data: &chat.ImportedMember{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: 1674200000}},
				{Index: 1, Key: "hikers_member_carol", Success: true, Data: &chat.ImportedMember{GUID: "hikers", UID: "carol", Scope: chat.MemberParticipant, JoinedAt: 1674300000}},
			},
		},
		{
			name: "ImportMessages",
			call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportMessages(ctx, []chat.ImportMessage{{
					MUID: "3118", Sender: "s12", ReceiverType: chat.ReceiverUser, Receiver: "r123",
					Category: chat.CategoryMessage, Type: chat.MessageTypeImage, Tags: []string{"old"},
					Data: chat.ImportMessageData{Text: "Hi <@uid:bob>", Metadata: map[string]any{"key": "value"},
						Attachments: []chat.ImportAttachment{{URL: "https://a.example/hi.png", Name: "hi.png", MimeType: "image/png", Extension: "png", Size: "350.2"}}},
					SentAt: 1674104348, DeliveredAt: 1674224684, ReadAt: 1674224685,
					SenderUserDetails:    &chat.UserDetails{UID: "s12", Name: "user1", CreatedAt: 1674228536},
					ReceiverUserDetails:  &chat.UserDetails{UID: "r123", Name: "superhero"},
					MentionedUserDetails: map[string]chat.UserDetails{"bob": {UID: "bob", Name: "Bob"}},
				}})
			},
			response: `{"data":{"3118":{"success":true,"data":{"id":"7","muid":"3118","conversationId":"r123_user_s12","sender":"s12",
				"receiverType":"user","receiver":"r123","category":"message","type":"image","data":{"text":"Hi <@uid:bob>"},
				"sentAt":1674104348,"deliveredAt":1674224684,"readAt":1674224685,"updatedAt":1674104348,"tags":["old"]}}}}`,
			method: http.MethodPost, path: "/v3/data_import/messages",
			body: `{"messages":{"3118":{"muid":"3118","sender":"s12","receiverType":"user","receiver":"r123","category":"message","type":"image",
				"data":{"text":"Hi <@uid:bob>","metadata":{"key":"value"},
					"attachments":[{"url":"https://a.example/hi.png","name":"hi.png","mimeType":"image/png","extension":"png","size":"350.2"}]},
				"tags":["old"],"sentAt":1674104348,"deliveredAt":1674224684,"readAt":1674224685,
				"senderUserDetails":{"uid":"s12","name":"user1","createdAt":1674228536},
				"receiverUserDetails":{"uid":"r123","name":"superhero"},
				"mentionedUserDetails":{"bob":{"uid":"bob","name":"Bob"}}}}}`,
			want: []chat.BulkResult[chat.Message]{{Index: 0, Key: "3118", Success: true, Data: &chat.Message{
				ID: "7", MUID: "3118", ConversationID: "r123_user_s12", Sender: "s12", ReceiverType: chat.ReceiverUser, Receiver: "r123",
				Category: chat.CategoryMessage, Type: chat.MessageTypeImage, Data: chat.MessageData{Text: "Hi <@uid:bob>"},
				SentAt: 1674104348, DeliveredAt: 1674224684, ReadAt: 1674224685, UpdatedAt: 1674104348, Tags: []string{"old"}}}},
		},
		{
			name: "a message without SentAt still sends the required field",
			call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportMessages(ctx, []chat.ImportMessage{{MUID: "m", Sender: "a", ReceiverType: chat.ReceiverGroup, Receiver: "g"}})
			},
			response: `{"data":{"m":{"success":false,"error":{"code":"ERR_IMPORT_INVALID_MESSAGE_FORMAT","message":"sentAt is required"}}}}`,
			method:   http.MethodPost, path: "/v3/data_import/messages",
			body: `{"messages":{"m":{"muid":"m","sender":"a","receiverType":"group","receiver":"g","sentAt":0}}}`,
			want: []chat.BulkResult[chat.Message]{{Index: 0, Key: "m",
				Err: &chat.ImportError{Code: "ERR_IMPORT_INVALID_MESSAGE_FORMAT", Message: "sentAt is required"}}},
		},
	})
}

// TestDataImportAnswers covers the shapes an entity's entry may take.
func TestDataImportAnswers(t *testing.T) {
	ctx := context.Background()
	users := []chat.ImportUser{{UID: "Alice", Name: "A"}, {UID: "bob", Name: "B"}, {UID: "carol", Name: "C"}, {UID: "dave", Name: "D"}}
	m := newMockAPI(t)
	// alice answered under the lower-cased uid; bob's error a bare code;
	// carol's a bare message; dave missing.
	m.Reply(http.StatusOK, `{"data":{"alice":{"success":true,"data":{"uid":"alice","name":"A"}},
		"bob":{"success":false,"error":"ERR_UID_ALREADY_EXISTS"},
		"carol":{"success":false,"error":"Something went wrong"}}}`)
	res, err := m.client.DataImport.ImportUsers(ctx, users)
	require.NoError(t, err, "entities that fail do not fail the call")
	require.Len(t, res, 4)

	assert.Equal(t, chat.BulkResult[chat.User]{Index: 0, Key: "Alice", Success: true, Data: &chat.User{UID: "alice", Name: "A"}}, res[0])

	var ie *chat.ImportError
	require.ErrorAs(t, res[1].Err, &ie)
	assert.Equal(t, "ERR_UID_ALREADY_EXISTS", ie.Code)
	assert.ErrorIs(t, res[1].Err, chat.ErrConflict)
	assert.False(t, res[1].Success)
	assert.Equal(t, "chat: not imported: ERR_UID_ALREADY_EXISTS", res[1].Err.Error())

	require.ErrorAs(t, res[2].Err, &ie)
	assert.Equal(t, &chat.ImportError{Message: "Something went wrong"}, ie)

	assert.ErrorIs(t, res[3].Err, chat.ErrNoImportResult)
	assert.Equal(t, "dave", res[3].Key)

	t.Run("error matching", func(t *testing.T) {
		for _, tc := range []struct {
			code string
			is   error
		}{
			{"ERR_IMPORT_MUID_ALREADY_EXISTS", chat.ErrConflict},
			{"ERR_ALREADY_JOINED", chat.ErrConflict},
			{"ERR_UID_NOT_FOUND", chat.ErrNotFound},
			{"ERR_IMPORT_INVALID_JOINEDAT", chat.ErrBadRequest},
			{"ERR_BAD_REQUEST", chat.ErrBadRequest},
		} {
			assert.ErrorIs(t, &chat.ImportError{Code: tc.code}, tc.is, tc.code)
		}
		assert.NotErrorIs(t, &chat.ImportError{Code: "ERR_UID_NOT_FOUND"}, chat.ErrConflict)
		assert.Equal(t, "chat: not imported (the service gave no reason)", (&chat.ImportError{}).Error())
		assert.Equal(t, "chat: not imported: ERR_X: bad; a: x, y",
			(&chat.ImportError{Code: "ERR_X", Message: "bad", Details: map[string][]string{"a": {"x", "y"}}}).Error())
	})

	t.Run("a failed request fails the call", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_IMPORT_INVALID_USER_FORMAT","message":"users must be an object"}}`)
		res, err := m.client.DataImport.ImportUsers(ctx, users[:1])
		assert.Nil(t, res)
		assert.Equal(t, "ERR_IMPORT_INVALID_USER_FORMAT", wiretest.RequireAPIError(t, err).Code)
	})
}

func TestDataImportArguments(t *testing.T) {
	ctx := context.Background()
	user := func(uid string) chat.ImportUser { return chat.ImportUser{UID: uid, Name: uid} }
	many := make([]chat.ImportUser, chat.MaxImportEntities+1)
	for i := range many {
		many[i] = user(fmt.Sprint("u", i))
	}
	tests := []struct {
		name     string
		call     func(s *chat.DataImportService) error
		wantName string
	}{
		{"no users", func(s *chat.DataImportService) error { _, err := s.ImportUsers(ctx, nil); return err }, "users"},
		{"51 users", func(s *chat.DataImportService) error { _, err := s.ImportUsers(ctx, many); return err }, "users"},
		{"a user without uid", func(s *chat.DataImportService) error {
			_, err := s.ImportUsers(ctx, []chat.ImportUser{user("a"), {Name: "x"}})
			return err
		}, "users[1].uid"},
		{"a repeated uid, in another case", func(s *chat.DataImportService) error {
			_, err := s.ImportUsers(ctx, []chat.ImportUser{user("a"), user("b"), user("B")})
			return err
		}, "users[2].uid"},
		{"no groups", func(s *chat.DataImportService) error { _, err := s.ImportGroups(ctx, []chat.ImportGroup{}); return err }, "groups"},
		{"a group without guid", func(s *chat.DataImportService) error {
			_, err := s.ImportGroups(ctx, []chat.ImportGroup{{Name: "n"}})
			return err
		}, "groups[0].guid"},
		{"a repeated guid", func(s *chat.DataImportService) error {
			_, err := s.ImportGroups(ctx, []chat.ImportGroup{{GUID: "g"}, {GUID: "g"}})
			return err
		}, "groups[1].guid"},
		{"a member without guid", func(s *chat.DataImportService) error {
			_, err := s.ImportMembers(ctx, []chat.ImportMember{{UID: "u"}})
			return err
		}, "members[0].guid"},
		{"a member without uid", func(s *chat.DataImportService) error {
			_, err := s.ImportMembers(ctx, []chat.ImportMember{{GUID: "g", UID: "u"}, {GUID: "g"}})
			return err
		}, "members[1].uid"},
		{"a repeated membership", func(s *chat.DataImportService) error {
			_, err := s.ImportMembers(ctx, []chat.ImportMember{{GUID: "g", UID: "u"}, {GUID: "G", UID: "U"}})
			return err
		}, "members[1]"},
		{"a message without muid", func(s *chat.DataImportService) error {
			_, err := s.ImportMessages(ctx, []chat.ImportMessage{{Sender: "a"}})
			return err
		}, "messages[0].muid"},
		{"a repeated muid", func(s *chat.DataImportService) error {
			_, err := s.ImportMessages(ctx, []chat.ImportMessage{{MUID: "m1"}, {MUID: "M1"}, {MUID: "m1"}})
			return err
		}, "messages[2].muid"},
		{"a batch size over the limit", func(s *chat.DataImportService) error {
			_, err := s.BulkImportUsers(ctx, many, &chat.BulkOptions{BatchSize: 51})
			return err
		}, "opts.BatchSize"},
		{"a negative batch size", func(s *chat.DataImportService) error {
			_, err := s.BulkImportGroups(ctx, nil, &chat.BulkOptions{BatchSize: -1})
			return err
		}, "opts.BatchSize"},
		{"a negative pace", func(s *chat.DataImportService) error {
			_, err := s.BulkImportMessages(ctx, nil, &chat.BulkOptions{RequestsPerMinute: -1})
			return err
		}, "opts.RequestsPerMinute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t)
			ae := wiretest.RequireArgError(t, tt.call(m.client.DataImport), tt.wantName)
			assert.Zero(t, m.Calls())
			if strings.Contains(tt.name, "repeated") {
				assert.Contains(t, ae.Problem, "[")
			}
		})
	}
}

// echoImport answers every entity of an import request with success and
// the entity itself as data, and records the keys of each request.
type echoImport struct {
	prop string
	keys [][]string
}

func (e *echoImport) answer(raw []byte) (*http.Response, error) {
	var body map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	out := map[string]any{}
	var keys []string
	for k, v := range body[e.prop] {
		keys = append(keys, k)
		out[k] = map[string]any{"success": true, "data": v}
	}
	sort.Strings(keys)
	e.keys = append(e.keys, keys)
	b, err := json.Marshal(map[string]any{"data": out})
	if err != nil {
		return nil, err
	}
	return wiretest.JSONResponse(http.StatusOK, string(b)), nil
}

// serveImport makes m answer import requests through e, except those
// refuse answers (by request number, from 1) with a response of its own.
func serveImport(m *mockAPI, e *echoImport, refuse func(n int) *http.Response) {
	m.Serve(func(n int, _ *http.Request) (*http.Response, error) {
		if refuse != nil {
			if resp := refuse(n); resp != nil {
				return resp, nil
			}
		}
		return e.answer(m.Requests()[n-1].Body)
	})
}

// fast paces a bulk import so that tests do not wait.
var fast = &chat.BulkOptions{RequestsPerMinute: 6_000_000}

func numberedUsers(n int) []chat.ImportUser {
	users := make([]chat.ImportUser, n)
	for i := range users {
		users[i] = chat.ImportUser{UID: fmt.Sprintf("u%03d", i), Name: fmt.Sprint("User ", i)}
	}
	return users
}

func TestBulkImportChunks(t *testing.T) {
	ctx := context.Background()

	t.Run("120 users in requests of 50, 50 and 20", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, nil)
		users := numberedUsers(120)
		var progress []chat.BulkProgress
		opts := *fast
		opts.Progress = func(p chat.BulkProgress) { progress = append(progress, p) }

		res, err := m.client.DataImport.BulkImportUsers(ctx, users, &opts)
		require.NoError(t, err)
		require.Len(t, res, 120)
		for i, r := range res {
			assert.Equal(t, i, r.Index)
			assert.Equal(t, users[i].UID, r.Key)
			assert.True(t, r.Success)
			require.NoError(t, r.Err)
			assert.Equal(t, users[i].Name, r.Data.Name)
		}
		reqs := m.Requests()
		require.Len(t, reqs, 3)
		for _, r := range reqs {
			assertWire(t, r, http.MethodPost, "/v3/data_import/users")
		}
		require.Len(t, e.keys, 3)
		assert.Len(t, e.keys[0], 50)
		assert.Len(t, e.keys[1], 50)
		assert.Len(t, e.keys[2], 20)
		assert.Equal(t, "u000", e.keys[0][0], "in the order given")
		assert.Equal(t, "u050", e.keys[1][0])
		assert.Equal(t, "u119", e.keys[2][19])
		assert.Equal(t, []chat.BulkProgress{
			{Total: 120, Done: 50, Succeeded: 50, Requests: 1},
			{Total: 120, Done: 100, Succeeded: 100, Requests: 2},
			{Total: 120, Done: 120, Succeeded: 120, Requests: 3},
		}, progress)
	})

	t.Run("a smaller batch size", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "members"}
		serveImport(m, e, nil)
		members := []chat.ImportMember{{GUID: "g", UID: "a"}, {GUID: "g", UID: "b"}, {GUID: "h", UID: "a"}}
		res, err := m.client.DataImport.BulkImportMembers(ctx, members, &chat.BulkOptions{BatchSize: 2, RequestsPerMinute: 6_000_000})
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"g_member_a", "g_member_b"}, {"h_member_a"}}, e.keys)
		assert.Equal(t, "h_member_a", res[2].Key)
		assert.Equal(t, &chat.ImportedMember{GUID: "h", UID: "a"}, res[2].Data)
	})

	t.Run("entities the SDK refuses are not sent, the others are", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "messages"}
		serveImport(m, e, nil)
		msgs := []chat.ImportMessage{{MUID: "a", SentAt: 1}, {SentAt: 2}, {MUID: "b", SentAt: 3}, {MUID: "a", SentAt: 4}}
		res, err := m.client.DataImport.BulkImportMessages(ctx, msgs, fast)
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"a", "b"}}, e.keys)
		assert.True(t, res[0].Success)
		wiretest.RequireArgError(t, res[1].Err, "messages[1].muid")
		assert.True(t, res[2].Success)
		wiretest.RequireArgError(t, res[3].Err, "messages[3].muid")
		assert.Equal(t, chat.Timestamp(3), res[2].Data.SentAt)
	})

	t.Run("nothing to import sends nothing", func(t *testing.T) {
		m := newMockAPI(t)
		res, err := m.client.DataImport.BulkImportGroups(ctx, nil, nil)
		require.NoError(t, err)
		assert.Empty(t, res)
		assert.Zero(t, m.Calls())
	})
}

func TestBulkImportRateLimited(t *testing.T) {
	ctx := context.Background()

	t.Run("a 429 is sent again once, and nothing is imported twice", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
			}
			return nil
		})
		res, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(120), fast)
		require.NoError(t, err)
		for _, r := range res {
			require.True(t, r.Success, r.Key)
		}
		assert.Equal(t, 4, m.Calls(), "the refused request went again")
		require.Len(t, e.keys, 3, "three requests were processed")
		seen := map[string]bool{}
		for _, keys := range e.keys {
			for _, k := range keys {
				assert.False(t, seen[k], "%s imported twice", k)
				seen[k] = true
			}
		}
		assert.Len(t, seen, 120)
	})

	t.Run("a wait beyond the context's deadline stops at once", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "3600")
			}
			return nil
		})
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		start := time.Now()
		res, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(120), fast)
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 3600*time.Second, wiretest.RequireAPIError(t, err).RetryAfter)
		assert.Equal(t, 2, m.Calls())
		assert.True(t, res[49].Success)
		assert.ErrorIs(t, res[50].Err, chat.ErrRateLimited, "refused, so not imported")
		assert.ErrorIs(t, res[100].Err, chat.ErrNotSent)
		assert.ErrorIs(t, res[100].Err, chat.ErrRateLimited, "ErrNotSent wraps the cause")
	})

	t.Run("a wait beyond the client's cap stops at once, without a deadline", func(t *testing.T) {
		for _, retryAfter := range []string{"3600", "99999999999999999999999", "soon", "-1"} {
			m := newMockAPI(t)
			m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", retryAfter)
			ctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(3), fast)
				done <- err
			}()
			select {
			case err := <-done:
				assert.ErrorIs(t, err, chat.ErrRateLimited, retryAfter)
				assert.Equal(t, 1, m.Calls(), "Retry-After %s: the refused request is not sent again", retryAfter)
			case <-time.After(10 * time.Second):
				t.Errorf("Retry-After %s: the import is still waiting", retryAfter)
			}
			cancel()
		}
	})

	t.Run("RateLimitRetries bounds the repeats", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
		_, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(3), &chat.BulkOptions{RequestsPerMinute: 6_000_000, RateLimitRetries: 2})
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 3, m.Calls())

		m = newMockAPI(t)
		m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
		_, err = m.client.DataImport.BulkImportUsers(ctx, numberedUsers(3), &chat.BulkOptions{RequestsPerMinute: 6_000_000, RateLimitRetries: -1})
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 1, m.Calls())
	})

	t.Run("another failure is not sent again and stops the import", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "groups"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusInternalServerError, `{"error":{"code":"ERR_MISSION_FAILED"}}`)
			}
			return nil
		})
		groups := make([]chat.ImportGroup, 5)
		for i := range groups {
			groups[i] = chat.ImportGroup{GUID: fmt.Sprint("g", i), Name: "G", Type: chat.GroupPublic}
		}
		var last chat.BulkProgress
		res, err := m.client.DataImport.BulkImportGroups(ctx, groups, &chat.BulkOptions{BatchSize: 2, RequestsPerMinute: 6_000_000,
			Progress: func(p chat.BulkProgress) { last = p }})
		assert.Equal(t, "ERR_MISSION_FAILED", wiretest.RequireAPIError(t, err).Code)
		assert.Equal(t, 2, m.Calls())
		assert.True(t, res[1].Success)
		assert.Equal(t, "ERR_MISSION_FAILED", wiretest.RequireAPIError(t, res[2].Err).Code, "the request's error: the outcome is unknown")
		assert.NotErrorIs(t, res[2].Err, chat.ErrNotSent)
		assert.ErrorIs(t, res[4].Err, chat.ErrNotSent)
		assert.Equal(t, chat.BulkProgress{Total: 5, Done: 4, Succeeded: 2, Failed: 2, Requests: 2}, last)
	})
}

func TestBulkImportCancel(t *testing.T) {
	m := newMockAPI(t)
	e := &echoImport{prop: "users"}
	serveImport(m, e, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// One request a minute: only cancelling ends the wait for the second.
	opts := &chat.BulkOptions{RequestsPerMinute: 1, Progress: func(chat.BulkProgress) { cancel() }}
	start := time.Now()
	res, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(120), opts)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, m.Calls())
	require.Len(t, res, 120)
	assert.True(t, res[0].Success)
	assert.True(t, res[49].Success)
	assert.ErrorIs(t, res[50].Err, chat.ErrNotSent)
	assert.ErrorIs(t, res[50].Err, context.Canceled)
	assert.Equal(t, "u119", res[119].Key)

	t.Run("a context already done sends nothing", func(t *testing.T) {
		m := newMockAPI(t)
		_, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(1), fast)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, m.Calls())
	})

	t.Run("a deadline before the next request is due", func(t *testing.T) {
		m := newMockAPI(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		res, err := m.client.DataImport.BulkImportUsers(ctx, numberedUsers(60), &chat.BulkOptions{RequestsPerMinute: 1})
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 1, m.Calls())
		assert.True(t, res[0].Success)
		assert.True(t, errors.Is(res[59].Err, chat.ErrNotSent))
	})
}

// TestBulkImportSharedPace checks that bulk imports at the default pace
// share it: a second import right after a first waits for its turn.
func TestBulkImportSharedPace(t *testing.T) {
	m := newMockAPI(t)
	e := &echoImport{prop: "users"}
	serveImport(m, e, nil)
	_, err := m.client.DataImport.BulkImportUsers(context.Background(), numberedUsers(1), nil)
	require.NoError(t, err)
	// The next users request is due a second later: a deadline sooner
	// than that stops the second import before it sends anything.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err = m.client.DataImport.BulkImportUsers(ctx, numberedUsers(1), nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 1, m.Calls())

	// Another endpoint has a pace of its own.
	_, err = m.client.DataImport.BulkImportGroups(context.Background(), []chat.ImportGroup{{GUID: "g"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, m.Calls())
}
