package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestDataImportWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "ImportUsers",
			Call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportUsers(ctx, []chat.ImportUser{
					{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png", Link: "https://a.example", Role: "admin",
						CreatedAt: 1674104348, LastActiveAt: 1674224684, Metadata: map[string]any{"k": "v"}, Tags: []string{"vip"}},
					{UID: "bob", Name: "Bob", DeactivatedAt: 1674300000},
				})
			},
			Reply: `{"data":{
				"alice":{"success":true,"data":{"uid":"alice","name":"Alice","avatar":"https://a.example/a.png","metadata":{"k":"v"},
					"status":"offline","role":"admin","lastActiveAt":"1674224684","createdAt":1674104348}},
				"bob":{"success":false,"error":{"code":"ERR_IMPORT_INVALID_USER_FORMAT","message":"The name is invalid.",
					"devMessage":"dev","details":{"name":["The name may not be greater than 100 characters."]}}}}}`,
			Method: http.MethodPost, Path: "/v3/data_import/users",
			Body: `{"users":{
				"alice":{"uid":"alice","name":"Alice","avatar":"https://a.example/a.png","link":"https://a.example","role":"admin",
					"createdAt":1674104348,"lastActiveAt":1674224684,"metadata":{"k":"v"},"tags":["vip"]},
				"bob":{"uid":"bob","name":"Bob","deactivatedAt":1674300000}}}`,
			Want: []chat.BulkResult[chat.User]{
				{Index: 0, Key: "alice", Success: true, Data: &chat.User{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png",
					Metadata: map[string]any{"k": "v"}, Status: chat.UserOffline, Role: "admin", LastActiveAt: 1674224684, CreatedAt: 1674104348}},
				{Index: 1, Key: "bob", Err: &chat.ImportError{Code: "ERR_IMPORT_INVALID_USER_FORMAT", Message: "The name is invalid.",
					DevMessage: "dev", Details: map[string][]string{"name": {"The name may not be greater than 100 characters."}}}},
			},
		},
		{
			Name: "ImportGroups",
			Call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportGroups(ctx, []chat.ImportGroup{{
					GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, Icon: "https://a.example/h.png", Password: "pw",
					Owner: "alice", CreatedAt: 1674104348, Metadata: map[string]any{"k": "v"}, Tags: []string{"outdoor"},
					OwnerDetails: &chat.UserDetails{UID: "alice", Name: "Alice"},
				}})
			},
			Reply: `{"data":{"hikers":{"success":true,"data":{"guid":"hikers","name":"Hikers","type":"password",
				"conversationId":"group_hikers","createdAt":1674104348,"owner":"alice"}}}}`,
			Method: http.MethodPost, Path: "/v3/data_import/groups",
			Body: `{"groups":{"hikers":{"guid":"hikers","name":"Hikers","type":"password","icon":"https://a.example/h.png","password":"pw",
				"owner":"alice","createdAt":1674104348,"metadata":{"k":"v"},"tags":["outdoor"],
				"groupOwnerDetails":{"uid":"alice","name":"Alice"}}}}`,
			Want: []chat.BulkResult[chat.Group]{{Index: 0, Key: "hikers", Success: true, Data: &chat.Group{
				GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, ConversationID: "group_hikers", CreatedAt: 1674104348, Owner: "alice"}}},
		},
		{
			Name: "ImportMembers keys each membership and sends its memberId",
			Call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportMembers(ctx, []chat.ImportMember{
					{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: 1674200000,
						GroupDetails: &chat.GroupDetails{GUID: "hikers", Name: "Hikers", Type: chat.GroupPublic},
						UserDetails:  &chat.UserDetails{UID: "bob", Name: "Bob"}},
					{GUID: "hikers", UID: "carol", IsBanned: true},
				})
			},
			Reply: `{"data":{
				"hikers_member_bob":{"success":true,"data":{"guid":"hikers","uid":"bob","scope":"moderator","joinedAt":1674200000}},
				"hikers_member_carol":{"success":true,"data":{"guid":"hikers","uid":"carol","scope":"participant","joinedAt":"1674300000"}}}}`,
			Method: http.MethodPost, Path: "/v3/data_import/members",
			Body: `{"members":{
				"hikers_member_bob":{"memberId":"hikers_member_bob","guid":"hikers","uid":"bob","scope":"moderator","joinedAt":1674200000,
					"groupDetails":{"guid":"hikers","name":"Hikers","type":"public"},"userDetails":{"uid":"bob","name":"Bob"}},
				"hikers_member_carol":{"memberId":"hikers_member_carol","guid":"hikers","uid":"carol","isBanned":true}}}`,
			Want: []chat.BulkResult[chat.ImportedMember]{
				{Index: 0, Key: "hikers_member_bob", Success: true, Data: &chat.ImportedMember{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: 1674200000}},
				{Index: 1, Key: "hikers_member_carol", Success: true, Data: &chat.ImportedMember{GUID: "hikers", UID: "carol", Scope: chat.MemberParticipant, JoinedAt: 1674300000}},
			},
		},
		{
			Name: "ImportMessages",
			Call: func(c *chat.Client) (any, error) {
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
			Reply: `{"data":{"3118":{"success":true,"data":{"id":"7","muid":"3118","conversationId":"r123_user_s12","sender":"s12",
				"receiverType":"user","receiver":"r123","category":"message","type":"image","data":{"text":"Hi <@uid:bob>"},
				"sentAt":1674104348,"deliveredAt":1674224684,"readAt":1674224685,"updatedAt":1674104348,"tags":["old"]}}}}`,
			Method: http.MethodPost, Path: "/v3/data_import/messages",
			Body: `{"messages":{"3118":{"muid":"3118","sender":"s12","receiverType":"user","receiver":"r123","category":"message","type":"image",
				"data":{"text":"Hi <@uid:bob>","metadata":{"key":"value"},
					"attachments":[{"url":"https://a.example/hi.png","name":"hi.png","mimeType":"image/png","extension":"png","size":"350.2"}]},
				"tags":["old"],"sentAt":1674104348,"deliveredAt":1674224684,"readAt":1674224685,
				"senderUserDetails":{"uid":"s12","name":"user1","createdAt":1674228536},
				"receiverUserDetails":{"uid":"r123","name":"superhero"},
				"mentionedUserDetails":{"bob":{"uid":"bob","name":"Bob"}}}}}`,
			Want: []chat.BulkResult[chat.Message]{{Index: 0, Key: "3118", Success: true, Data: &chat.Message{
				ID: "7", MUID: "3118", ConversationID: "r123_user_s12", Sender: "s12", ReceiverType: chat.ReceiverUser, Receiver: "r123",
				Category: chat.CategoryMessage, Type: chat.MessageTypeImage, Data: chat.MessageData{Text: "Hi <@uid:bob>"},
				SentAt: 1674104348, DeliveredAt: 1674224684, ReadAt: 1674224685, UpdatedAt: 1674104348, Tags: []string{"old"}}}},
		},
		{
			Name: "a message without SentAt still sends the required field",
			Call: func(c *chat.Client) (any, error) {
				return c.DataImport.ImportMessages(ctx, []chat.ImportMessage{{MUID: "m", Sender: "a", ReceiverType: chat.ReceiverGroup, Receiver: "g"}})
			},
			Reply:  `{"data":{"m":{"success":false,"error":{"code":"ERR_IMPORT_INVALID_MESSAGE_FORMAT","message":"sentAt is required"}}}}`,
			Method: http.MethodPost, Path: "/v3/data_import/messages",
			Body: `{"messages":{"m":{"muid":"m","sender":"a","receiverType":"group","receiver":"g","sentAt":0}}}`,
			Want: []chat.BulkResult[chat.Message]{{Index: 0, Key: "m",
				Err: &chat.ImportError{Code: "ERR_IMPORT_INVALID_MESSAGE_FORMAT", Message: "sentAt is required"}}},
		},
	})
}

// TestDataImportAnswers covers the shapes an entity's entry may take.
func TestDataImportAnswers(t *testing.T) {
	ctx := context.Background()
	users := []chat.ImportUser{{UID: "Alice", Name: "A"}, {UID: "bob", Name: "B"}, {UID: "carol", Name: "C"}, {UID: "dave", Name: "D"}}
	client, m := wiretest.Chat(t)
	// alice answered under the lower-cased uid; bob's error a bare code;
	// carol's a bare message; dave missing.
	m.Reply(http.StatusOK, `{"data":{"alice":{"success":true,"data":{"uid":"alice","name":"A"}},
		"bob":{"success":false,"error":"ERR_UID_ALREADY_EXISTS"},
		"carol":{"success":false,"error":"Something went wrong"}}}`)
	res, err := client.DataImport.ImportUsers(ctx, users)
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
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_IMPORT_INVALID_USER_FORMAT","message":"users must be an object"}}`)
		res, err := client.DataImport.ImportUsers(ctx, users[:1])
		assert.Nil(t, res)
		assert.Equal(t, "ERR_IMPORT_INVALID_USER_FORMAT", wiretest.RequireAPIError(t, err).Code)
	})
}

func TestDataImportArguments(t *testing.T) {
	ctx := context.Background()
	user := func(uid string) chat.ImportUser { return chat.ImportUser{UID: uid, Name: uid} }
	message := func(muid string) chat.ImportMessage {
		return chat.ImportMessage{MUID: muid, Sender: "a", ReceiverType: chat.ReceiverUser, Receiver: "b"}
	}
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
			_, err := s.ImportGroups(ctx, []chat.ImportGroup{{GUID: "g", Name: "G", Type: chat.GroupPublic}, {GUID: "g", Name: "G", Type: chat.GroupPublic}})
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
			_, err := s.ImportMessages(ctx, []chat.ImportMessage{message("m1"), message("M1"), message("m1")})
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
			client, m := wiretest.Chat(t)
			ae := wiretest.RequireArgError(t, tt.call(client.DataImport), tt.wantName)
			assert.Zero(t, m.Calls())
			if strings.Contains(tt.name, "repeated") {
				assert.Contains(t, ae.Problem, "[")
			}
		})
	}
}
