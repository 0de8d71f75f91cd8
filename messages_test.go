package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// Reference examples (chat-core §2.7), as the service sends them.
const (
	textMessageJSON = `{"id":"1","conversationId":"cometchat-uid-3_user_cometchat-uid-5","sender":"cometchat-uid-3",
 "receiverType":"user","receiver":"cometchat-uid-5","category":"message","type":"text",
 "data":{"text":"hello","metadata":{"key1":"val1"},
   "entities":{"sender":{"entity":{"uid":"cometchat-uid-3","name":"Nancy Grace","status":"offline","role":"default","createdAt":1638361550},"entityType":"user"},
               "receiver":{"entity":{"uid":"cometchat-uid-5","name":"John Paul","status":"offline","role":"default","createdAt":1638361550,"conversationId":"cometchat-uid-3_user_cometchat-uid-5"},"entityType":"user"}}},
 "sentAt":1638423490,"updatedAt":1638423490}`

	mediaMessageJSON = `{"id":"65","muid":"_5zytzmceo","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1",
 "receiverType":"user","receiver":"cometchat-uid-2","category":"message","type":"image",
 "data":{"metadata":{"file":[]},"resource":"web","url":"https://files.example/download.jpeg",
   "attachments":[{"name":"download.jpeg","extension":"jpeg","size":4761,"mimeType":"image/jpeg","url":"https://files.example/download.jpeg"}],
   "entities":{"sender":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default","createdAt":1596537299},"entityType":"user"},
               "receiver":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299},"entityType":"user"}},
   "moderation":{"status":"pending"}},
 "sentAt":1719993037,"updatedAt":1719993037}`

	memberAddedJSON = `{"id":"32","conversationId":"group_project-group","sender":"app_system","receiverType":"group","receiver":"project-group",
 "category":"action","type":"groupMember",
 "data":{"action":"added","entities":{
   "by":{"entity":{"uid":"app_system","name":"System","role":"default","status":"offline","createdAt":1596537299},"entityType":"user"},
   "on":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default","createdAt":1596537299},"entityType":"user"},
   "for":{"entity":{"guid":"project-group","name":"Project Group","type":"public","owner":"cometchat-uid-2","membersCount":2,"conversationId":"group_project-group","createdAt":1625460947},"entityType":"group"}}},
 "sentAt":1625460972,"updatedAt":1625460972}`

	messageEditedJSON = `{"id":"34","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1","receiverType":"user","receiver":"cometchat-uid-2",
 "category":"action","type":"message",
 "data":{"action":"edited","entities":{
   "by":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default","createdAt":1596537299},"entityType":"user"},
   "for":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299},"entityType":"user"},
   "on":{"entity":{"id":"33","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1","receiverType":"user","receiver":"cometchat-uid-2",
     "category":"message","type":"text","data":{"text":"hello, edited"},"sentAt":1625460900,"updatedAt":1625460972,
     "editedAt":1625460972,"editedBy":"cometchat-uid-1","tags":["edited"]},"entityType":"message"}}},
 "sentAt":1625460972,"updatedAt":1625460972}`
)

func TestMessagesSend(t *testing.T) {
	req := &chat.SendMessageRequest{
		Receiver:     "cometchat-uid-5",
		ReceiverType: chat.ReceiverUser,
		Category:     chat.CategoryMessage,
		Type:         chat.MessageTypeText,
		Data:         chat.MessageData{Text: "hello", Metadata: map[string]any{"key1": "val1"}},
		MUID:         "muid-1",
		Tags:         []string{"tag1"},
	}
	const wantBody = `{"receiver":"cometchat-uid-5","receiverType":"user","category":"message","type":"text",
		"data":{"text":"hello","metadata":{"key1":"val1"}},"muid":"muid-1","tags":["tag1"]}`

	tests := []struct {
		name       string
		opts       []chat.RequestOption
		onBehalfOf string // "" means the header must be absent
	}{
		{name: "without onBehalfOf"},
		{name: "with OnBehalfOf option", opts: []chat.RequestOption{chat.OnBehalfOf("cometchat-uid-3")}, onBehalfOf: "cometchat-uid-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":`+textMessageJSON+`}`)

			msg, err := client.Messages.Send(context.Background(), req, tt.opts...)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodPost, "/v3/messages")
			assert.Empty(t, r.RawQuery)
			wiretest.JSONBody(t, r, wantBody)
			if tt.onBehalfOf == "" {
				wiretest.NoOnBehalfOf(t, r)
			} else {
				assert.Equal(t, tt.onBehalfOf, r.Header.Get("onBehalfOf"))
			}
			assert.Equal(t, "1", msg.ID)
			assert.Equal(t, "cometchat-uid-3", msg.Sender)
			assert.Equal(t, "hello", msg.Data.Text)
			assert.Equal(t, chat.Timestamp(1638423490), msg.SentAt)
		})
	}

	t.Run("nil request", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.Messages.Send(context.Background(), nil)
		wiretest.RequireArgError(t, err, "req")
		assert.Zero(t, m.Calls(), "requests sent")
	})
}

// messageID is the key of a message for collect.
func messageID(m *chat.Message) string { return m.ID }

// TestMessageDecoding decodes messages as the SDK receives them: through a
// call, with the service's type inconsistencies (chat-core §15.1).
func TestMessageDecoding(t *testing.T) {
	tests := []struct {
		name  string
		wire  string
		check func(t *testing.T, m *chat.Message)
	}{
		{
			name: "text message (§2.7)",
			wire: textMessageJSON,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, "1", m.ID)
				assert.Equal(t, "cometchat-uid-3_user_cometchat-uid-5", m.ConversationID)
				assert.Equal(t, chat.ReceiverUser, m.ReceiverType)
				assert.Equal(t, chat.CategoryMessage, m.Category)
				assert.Equal(t, chat.MessageTypeText, m.Type)
				assert.Equal(t, "hello", m.Data.Text)
				assert.Equal(t, map[string]any{"key1": "val1"}, m.Data.Metadata)
				assert.Equal(t, int64(1638423490), m.SentAt.Time().Unix())
				require.NotNil(t, m.Data.Entities)
				sender, err := m.Data.Entities.Sender.User()
				require.NoError(t, err)
				assert.Equal(t, "Nancy Grace", sender.Name)
				receiver, err := m.Data.Entities.Receiver.User()
				require.NoError(t, err)
				assert.Equal(t, "cometchat-uid-3_user_cometchat-uid-5", receiver.ConversationID)
				_, err = m.Data.Entities.Sender.Group()
				assert.EqualError(t, err, `chat: entity is a "user", not a "group"`, "a user entity decoded as a group")
			},
		},
		{
			name: "media message with size as a number (§2.7)",
			wire: mediaMessageJSON,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, "_5zytzmceo", m.MUID)
				assert.Equal(t, chat.MessageTypeImage, m.Type)
				assert.Equal(t, "https://files.example/download.jpeg", m.Data.URL)
				assert.Equal(t, "web", m.Data.Resource)
				require.Len(t, m.Data.Attachments, 1)
				assert.Equal(t, chat.Attachment{Name: "download.jpeg", Extension: "jpeg", Size: 4761, MimeType: "image/jpeg",
					URL: "https://files.example/download.jpeg"}, m.Data.Attachments[0])
				require.NotNil(t, m.Data.Moderation)
				assert.Equal(t, "pending", m.Data.Moderation.Status)
				assert.Equal(t, map[string]any{"file": []any{}}, m.Data.Metadata)
			},
		},
		{
			name: "action: group member added (§2.7)",
			wire: memberAddedJSON,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, chat.CategoryAction, m.Category)
				assert.Equal(t, chat.MessageTypeGroupMember, m.Type)
				assert.Equal(t, "added", m.Data.Action)
				assert.Equal(t, chat.ReceiverGroup, m.ReceiverType)
				e := m.Data.Entities
				require.NotNil(t, e)
				assert.Nil(t, e.Sender)
				by, err := e.By.User()
				require.NoError(t, err)
				assert.Equal(t, "app_system", by.UID)
				on, err := e.On.User()
				require.NoError(t, err)
				assert.Equal(t, "cometchat-uid-1", on.UID)
				assert.Equal(t, chat.EntityGroup, e.For.EntityType)
				group, err := e.For.Group()
				require.NoError(t, err)
				assert.Equal(t, "project-group", group.GUID)
				assert.Equal(t, chat.GroupPublic, group.Type)
				assert.Equal(t, "cometchat-uid-2", group.Owner)
				assert.Equal(t, 2, group.MembersCount)
				assert.Equal(t, chat.Timestamp(1625460947), group.CreatedAt)
			},
		},
		{
			name: "action: message edited, entity is the message (§2.7)",
			wire: messageEditedJSON,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, chat.CategoryAction, m.Category)
				assert.Equal(t, chat.MessageTypeMessage, m.Type)
				assert.Equal(t, "edited", m.Data.Action)
				assert.Equal(t, chat.EntityMessage, m.Data.Entities.On.EntityType)
				edited, err := m.Data.Entities.On.Message()
				require.NoError(t, err)
				assert.Equal(t, "33", edited.ID)
				assert.Equal(t, "hello, edited", edited.Data.Text)
				assert.Equal(t, chat.Timestamp(1625460972), edited.EditedAt)
				assert.Equal(t, "cometchat-uid-1", edited.EditedBy)
				assert.Equal(t, []string{"edited"}, edited.Tags)
				forUser, err := m.Data.Entities.For.User()
				require.NoError(t, err)
				assert.Equal(t, "cometchat-uid-2", forUser.UID)
				_, err = m.Data.Entities.On.User()
				assert.EqualError(t, err, `chat: entity is a "message", not a "user"`, "a message entity decoded as a user")
			},
		},
		{
			name: "id and parentId as numbers",
			wire: `{"id":65,"parentId":64,"sentAt":1719993037}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, "65", m.ID)
				assert.Equal(t, "64", m.ParentID)
				assert.Equal(t, chat.Timestamp(1719993037), m.SentAt)
			},
		},
		{
			name: "editedBy as a number",
			wire: `{"id":"1","editedBy":7,"editedAt":1719993037}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, "7", m.EditedBy)
				assert.Equal(t, chat.Timestamp(1719993037), m.EditedAt)
			},
		},
		{
			name: "editedBy empty and timestamps null (thread examples)",
			wire: `{"id":"1","editedBy":"","editedAt":null,"deliveredAt":null,"readAt":null,"deletedAt":null}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Empty(t, m.EditedBy)
				assert.True(t, m.EditedAt.IsZero())
				assert.True(t, m.EditedAt.Time().IsZero())
				assert.Zero(t, m.DeliveredAt)
				assert.Zero(t, m.ReadAt)
				assert.Zero(t, m.DeletedAt)
			},
		},
		{
			name: `counts as strings ("0", "3")`,
			wire: `{"id":"1","replyCount":"3","data":{"reactions":[{"reaction":"👍","count":"0"}]},
				"lastReply":{"id":2,"replyCount":"0","parentId":1}}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, 3, m.ReplyCount)
				require.Len(t, m.Data.Reactions, 1)
				assert.Equal(t, chat.ReactionCount{Reaction: "👍", Count: 0}, m.Data.Reactions[0])
				require.NotNil(t, m.LastReply)
				assert.Equal(t, "2", m.LastReply.ID)
				assert.Equal(t, "1", m.LastReply.ParentID)
			},
		},
		{
			name: "attachment size as a string",
			wire: `{"id":"1","type":"file","data":{"attachments":[{"name":"a.pdf","size":"4761"}]}}`,
			check: func(t *testing.T, m *chat.Message) {
				require.Len(t, m.Data.Attachments, 1)
				assert.Equal(t, int64(4761), m.Data.Attachments[0].Size)
			},
		},
		{
			name: "timestamps as numeric strings",
			wire: `{"id":"1","sentAt":"1638423490","updatedAt":"1638423491"}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, chat.Timestamp(1638423490), m.SentAt)
				assert.Equal(t, chat.Timestamp(1638423491), m.UpdatedAt)
			},
		},
		{
			name: "group entity with numeric updatedBy, description and conversationId",
			wire: `{"id":"1","data":{"entities":{"for":{"entityType":"group","entity":
				{"guid":"g","updatedBy":5,"description":12,"conversationId":3,"membersCount":"4","createdAt":"1625460947"}}}}}`,
			check: func(t *testing.T, m *chat.Message) {
				g, err := m.Data.Entities.For.Group()
				require.NoError(t, err)
				assert.Equal(t, "5", g.UpdatedBy)
				assert.Equal(t, "12", g.Description)
				assert.Equal(t, "3", g.ConversationID)
				assert.Equal(t, 4, g.MembersCount)
				assert.Equal(t, chat.Timestamp(1625460947), g.CreatedAt)
			},
		},
		{
			name: "call entity is kept as JSON",
			wire: `{"id":"1","category":"call","type":"audio","data":{"action":"initiated","entities":{"on":{"entityType":"call",
				"entity":{"sessionid":"v1.us.1","status":"initiated","initiatedAt":1625460900}}}}}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, chat.CategoryCall, m.Category)
				on := m.Data.Entities.On
				assert.Equal(t, chat.EntityCall, on.EntityType)
				assert.JSONEq(t, `{"sessionid":"v1.us.1","status":"initiated","initiatedAt":1625460900}`, string(on.Entity))
			},
		},
		{
			name: "unknown category and type decode as they are",
			wire: `{"id":"1","category":"poll","type":"multiple-choice"}`,
			check: func(t *testing.T, m *chat.Message) {
				assert.Equal(t, chat.Category("poll"), m.Category)
				assert.Equal(t, chat.MessageType("multiple-choice"), m.Type)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":`+tt.wire+`}`)
			msg, err := client.Messages.Send(context.Background(), &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			require.NoError(t, err)
			tt.check(t, msg)
		})
	}
}

func TestMessageDecodingFailure(t *testing.T) {
	tests := []struct {
		name  string
		wire  string
		check func(t *testing.T, cause error) // the decoding error is kept
	}{
		{"timestamp that is not a number", `{"id":"1","sentAt":"yesterday"}`, func(t *testing.T, cause error) {
			var typeErr *json.UnmarshalTypeError
			require.ErrorAs(t, cause, &typeErr)
			assert.Equal(t, `timestamp "\"yesterday\""`, typeErr.Value)
			assert.Equal(t, reflect.TypeFor[chat.Timestamp](), typeErr.Type)
		}},
		{"id as an object", `{"id":{"n":1}}`, func(t *testing.T, cause error) {
			var typeErr *json.UnmarshalTypeError
			require.ErrorAs(t, cause, &typeErr)
			assert.Equal(t, "object", typeErr.Value)
			assert.Equal(t, "data.id", typeErr.Field)
		}},
		{"truncated JSON", `{"id":"1",`, func(t *testing.T, cause error) {
			var syntaxErr *json.SyntaxError
			require.ErrorAs(t, cause, &syntaxErr)
			assert.Equal(t, "invalid character '}' looking for beginning of object key string", syntaxErr.Error())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":`+tt.wire+`}`)
			msg, err := client.Messages.Send(context.Background(), &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			assert.Nil(t, msg)
			ce := wiretest.RequireAPIError(t, err)
			assert.Equal(t, http.StatusOK, ce.StatusCode)
			assert.Contains(t, ce.Message, "decoding response")
			tt.check(t, ce.Unwrap())
		})
	}
}

// TestMessageJSONRoundTrip decodes wire JSON with encoding/json and encodes
// it again: nothing is lost or added.
func TestMessageJSONRoundTrip(t *testing.T) {
	requests := []struct {
		name string
		wire string
	}{
		{"custom message (§2.7 request example)", `{"receiver":"cometchat-uid-2","receiverType":"user","category":"custom","type":"text",
			"data":{"customData":{"text":"Hello there!"}},"tags":["tag1"]}`},
		{"text with metadata, muid, quote and several receivers", `{"receiver":"project-group","receiverType":"group","category":"message",
			"type":"text","data":{"text":"hi","metadata":{"key1":"val1","n":2}},"muid":"m-1","quotedMessageId":"40",
			"multipleReceivers":{"uids":["cometchat-uid-1"],"guids":["g1","g2"]},"tags":["a","b"]}`},
		{"media with attachments", `{"receiver":"cometchat-uid-2","receiverType":"user","category":"message","type":"image",
			"data":{"text":"caption","attachments":[{"url":"https://files.example/a.png","name":"a.png","mimeType":"image/png","extension":"png","size":1024}]}}`},
		{"interactive form", `{"receiver":"cometchat-uid-2","receiverType":"user","category":"interactive","type":"form",
			"data":{"interactionGoal":{"type":"anyOf","elementIds":["submit"]},"allowSenderInteraction":false,
			"interactiveData":{"title":"Survey","formFields":[{"elementType":"textInput","elementId":"name","label":"Name"}],
			"submitElement":{"elementType":"button","elementId":"submit","buttonText":"Send","action":{"actionType":"urlNavigation","url":"https://example.com"}}}}}`},
	}
	for _, tt := range requests {
		t.Run("SendMessageRequest/"+tt.name, func(t *testing.T) {
			var req chat.SendMessageRequest
			require.NoError(t, json.Unmarshal([]byte(tt.wire), &req))
			out, err := json.Marshal(&req)
			require.NoError(t, err)
			assert.JSONEq(t, tt.wire, string(out))
		})
	}

	messages := []struct {
		name string
		wire string
	}{
		{"text (§2.7)", textMessageJSON},
		{"media (§2.7)", mediaMessageJSON},
		{"group member added (§2.7)", memberAddedJSON},
		{"message edited (§2.7)", messageEditedJSON},
		{"thread parent with reply count, last reply and receipts", `{"id":"42","sender":"cometchat-uid-1","category":"message","type":"text",
			"data":{"text":"parent","reactions":[{"reaction":"👍","count":2,"reactedByMe":true}]},"replyCount":3,
			"lastReply":{"id":"45","parentId":"42","data":{"text":"latest"},"sentAt":1638423499},
			"receipts":{"data":[[]]},"sentAt":1638423490,"updatedAt":1638423499}`},
		{"quoted, pinned and saved", `{"id":"50","quotedMessage":{"id":"40","data":{"text":"quoted"}},"pinnedBy":"app_system",
			"pinnedAt":1719993037,"savedAt":1719993038,"deliveredAt":1719993039,"readAt":1719993040,"tags":["t"],
			"data":{"text":"x","moderation":{"status":"disapproved","rule":{"id":"r1","name":"profanity"}}}}`},
		{"call entity", `{"id":"51","category":"call","type":"video","data":{"action":"ongoing","entities":{"on":{"entityType":"call",
			"entity":{"sessionid":"v1.us.1","status":"ongoing","wsChannel":{"identity":"i","service":"s"}}}}}}`},
	}
	for _, tt := range messages {
		t.Run("Message/"+tt.name, func(t *testing.T) {
			var m chat.Message
			require.NoError(t, json.Unmarshal([]byte(tt.wire), &m))
			out, err := json.Marshal(&m)
			require.NoError(t, err)
			assert.JSONEq(t, tt.wire, string(out))
		})
	}
}

func asMessage(t *testing.T, got any) *chat.Message {
	t.Helper()
	msg, ok := got.(*chat.Message)
	require.True(t, ok, "got %T", got)
	require.NotNil(t, msg)
	return msg
}

func asMessagePage(t *testing.T, got any) *chat.Page[chat.Message] {
	t.Helper()
	p, ok := got.(*chat.Page[chat.Message])
	require.True(t, ok, "got %T", got)
	require.NotNil(t, p)
	return p
}

const messageDeletedJSON = `{"id":"35","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"app_system","receiverType":"user","receiver":"cometchat-uid-2",
 "category":"action","type":"message",
 "data":{"action":"deleted","entities":{
   "by":{"entity":{"uid":"app_system","name":"System","role":"default","status":"offline"},"entityType":"user"},
   "for":{"entity":{"uid":"cometchat-uid-2","name":"George Alan"},"entityType":"user"},
   "on":{"entity":{"id":"33","sender":"cometchat-uid-1","category":"message","type":"text","data":{"text":"hello"},
     "sentAt":1625460900,"deletedAt":1625461000},"entityType":"message"}}},
 "sentAt":1625461000,"updatedAt":1625461000}`

func TestMessagesGetUpdateDelete(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "Get",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.Get(ctx, "1") },
			Method: http.MethodGet, Path: "/v3/messages/1",
			Reply: `{"data":` + textMessageJSON + `}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.Equal(t, "1", msg.ID)
				assert.Equal(t, "hello", msg.Data.Text)
			},
		},
		{
			Name: "Get on behalf of a user, id escaped",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Get(ctx, "1/2?#", chat.OnBehalfOf("cometchat-uid-5"))
			},
			Method: http.MethodGet, Path: "/v3/messages/1%2F2%3F%23", OnBehalfOf: "cometchat-uid-5",
			Reply: `{"data":{"id":"1","savedAt":1719993038}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, chat.Timestamp(1719993038), asMessage(t, got).SavedAt)
			},
		},
		{
			Name: "Update answers with the edited action",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Update(ctx, "33", &chat.UpdateMessageRequest{
					Data: chat.MessageData{Text: "hello, edited", Metadata: map[string]any{"k": "v"}},
					Tags: []string{"edited"},
				}, chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodPut, Path: "/v3/messages/33", OnBehalfOf: "cometchat-uid-1",
			Body:  `{"data":{"text":"hello, edited","metadata":{"k":"v"}},"tags":["edited"]}`,
			Reply: `{"data":` + messageEditedJSON + `}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.True(t, msg.IsAction())
				assert.Equal(t, chat.ActionEdited, msg.Data.Action)
				edited, err := msg.Target()
				require.NoError(t, err)
				assert.Equal(t, "33", edited.ID)
				assert.Equal(t, "hello, edited", edited.Data.Text)
				assert.Equal(t, "cometchat-uid-1", edited.EditedBy)
				assert.Equal(t, chat.Timestamp(1625460972), edited.EditedAt)
				by, err := msg.Actor()
				require.NoError(t, err)
				assert.Equal(t, "cometchat-uid-1", by.UID)
			},
		},
		{
			Name: "Update with tags only",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Update(ctx, "33", &chat.UpdateMessageRequest{Tags: []string{"a"}})
			},
			Method: http.MethodPut, Path: "/v3/messages/33",
			Body:  `{"tags":["a"]}`,
			Reply: `{"data":{"id":"33","editedAt":1625460972,"editedBy":"app_system","tags":["a"]}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				self, err := msg.Target()
				require.NoError(t, err)
				assert.Same(t, msg, self, "a plain message is its own target")
				assert.Equal(t, "app_system", msg.EditedBy)
			},
		},
		{
			Name:   "Delete with a nil request is a soft delete",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.Delete(ctx, "33", nil) },
			Method: http.MethodDelete, Path: "/v3/messages/33",
			Body:  `{"permanent":false}`,
			Reply: `{"data":` + messageDeletedJSON + `}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.Equal(t, chat.ActionDeleted, msg.Data.Action)
				deleted, err := msg.Target()
				require.NoError(t, err)
				assert.Equal(t, chat.Timestamp(1625461000), deleted.DeletedAt)
				by, err := msg.Actor()
				require.NoError(t, err)
				assert.Equal(t, "app_system", by.UID)
			},
		},
		{
			Name: "Delete permanently on behalf of a user",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Delete(ctx, "33", &chat.DeleteMessageRequest{Permanent: true}, chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodDelete, Path: "/v3/messages/33", OnBehalfOf: "cometchat-uid-1",
			Body:  `{"permanent":true}`,
			Reply: `{"data":` + messageDeletedJSON + `}`,
		},
	})

	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "Get empty id", Call: func(c *chat.Client) error { _, err := c.Messages.Get(ctx, ""); return err }, Arg: "id"},
		{Name: "Get dot-dot id", Call: func(c *chat.Client) error { _, err := c.Messages.Get(ctx, ".."); return err }, Arg: "id"},
		{Name: "Update empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.Update(ctx, "", &chat.UpdateMessageRequest{})
			return err
		}, Arg: "id"},
		{Name: "Update nil request", Call: func(c *chat.Client) error {
			_, err := c.Messages.Update(ctx, "1", nil)
			return err
		}, Arg: "req"},
		{Name: "Delete empty id", Call: func(c *chat.Client) error { _, err := c.Messages.Delete(ctx, "", nil); return err }, Arg: "id"},
	})
}

func TestMessageTargetAndActor(t *testing.T) {
	var added chat.Message
	require.NoError(t, json.Unmarshal([]byte(memberAddedJSON), &added))
	_, err := added.Target()
	assert.ErrorContains(t, err, "groupMember", "a member action is not about a message")
	by, err := added.Actor()
	require.NoError(t, err)
	assert.Equal(t, "app_system", by.UID)

	var text chat.Message
	require.NoError(t, json.Unmarshal([]byte(textMessageJSON), &text))
	assert.False(t, text.IsAction())
	sender, err := text.Actor()
	require.NoError(t, err)
	assert.Equal(t, "cometchat-uid-3", sender.UID)

	bare := chat.Message{Category: chat.CategoryAction, Type: chat.MessageTypeMessage}
	_, err = bare.Target()
	assert.EqualError(t, err, `chat: a "message" action is not about a message`, "no entities")
	_, err = bare.Actor()
	assert.EqualError(t, err, "chat: message has no entities", "no entities")
}

func TestMessagesList(t *testing.T) {
	ctx := context.Background()
	const page = `{"data":[` + textMessageJSON + `],"meta":{"current":{"limit":25,"count":1},"next":{"affix":"append","sentAt":1638423490,"id":"1"}}}`
	check := func(t *testing.T, _ wiretest.Request, got any) {
		p := asMessagePage(t, got)
		require.Len(t, p.Data, 1)
		assert.Equal(t, "1", p.Data[0].ID)
		assert.Equal(t, &chat.PageCount{Limit: 25, Count: 1}, p.Meta.Current)
		assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, SentAt: 1638423490, ID: "1"}, p.Meta.Next)
	}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "nil options",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.List(ctx, nil) },
			Method: http.MethodGet, Path: "/v3/messages", Reply: page, Check: check,
		},
		{
			Name: "every filter",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.List(ctx, &chat.ListMessagesOptions{
					CursorOptions:                chat.CursorOptions{Direction: chat.DirectionBefore, ID: "40", SentAt: 1738368000, Limit: 25},
					SearchKey:                    "hello world",
					HideMessagesFromBlockedUsers: true,
					HasAttachments:               true,
					AttachmentTypes:              chat.AttachmentImage,
					HasMentions:                  true,
					HasLinks:                     true,
					MentionedUIDs:                []string{"u1", "u2"},
					HasReactions:                 true,
					ReceiverType:                 chat.ReceiverGroup,
					Category:                     chat.CategoryMessage,
					Categories:                   []chat.Category{chat.CategoryMessage, chat.CategoryCustom},
					Type:                         chat.MessageTypeText,
					Types:                        []chat.MessageType{chat.MessageTypeImage, "poll"},
					Sender:                       "u1",
					Senders:                      []string{"u1", "u3"},
					ConversationID:               "group_g1",
					MentionsWithBlockedInfo:      true,
					MentionsWithTagInfo:          true,
					HideDeleted:                  true,
					OnlyDeleted:                  true,
					HideReplies:                  true,
					Count:                        true,
					Unread:                       true,
					WithTags:                     true,
					Tags:                         []string{"t1", "t2"},
					FromTimestamp:                1738368001,
					ToTimestamp:                  1738368002,
					SentFrom:                     1738368003,
					SentTo:                       1738368004,
					UpdatedFrom:                  1738368005,
					UpdatedTo:                    1738368006,
					EditedFrom:                   1738368007,
					EditedTo:                     1738368008,
					HideQuotedMessages:           true,
				}, chat.OnBehalfOf("u1"))
			},
			Method: http.MethodGet, Path: "/v3/messages", OnBehalfOf: "u1",
			Query: "affix=prepend&attachmentTypes=image&categories=message,custom&category=message" +
				"&conversationId=group_g1&count=true&editedAt%5Bfrom%5D=1738368007" +
				"&editedAt%5Bto%5D=1738368008&fromTimestamp=1738368001&hasAttachments=true&hasLinks=true" +
				"&hasMentions=true&hasReactions=true&hideDeleted=true&hideMessagesFromBlockedUsers=true" +
				"&hideQuotedMessages=true&hideReplies=true&id=40&limit=25&mentionedUids=u1,u2" +
				"&mentionsWithBlockedInfo=true&mentionsWithTagInfo=true&onlyDeleted=true&receiverType=group" +
				"&searchKey=hello+world&sender=u1&senders=u1,u3&sentAt=1738368000" +
				"&sentAt%5Bfrom%5D=1738368003&sentAt%5Bto%5D=1738368004&tags=t1,t2&toTimestamp=1738368002" +
				"&type=text&types=image,poll&unread=true&updatedAt%5Bfrom%5D=1738368005" +
				"&updatedAt%5Bto%5D=1738368006&withTags=true",
			Reply: page, Check: check,
		},
		{
			Name: "bracketed names are literal, escaped brackets",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.List(ctx, &chat.ListMessagesOptions{SentFrom: 1, EditedTo: 2})
			},
			Method: http.MethodGet, Path: "/v3/messages",
			Query: "editedAt%5Bto%5D=2&sentAt%5Bfrom%5D=1",
			Reply: page,
		},
	})
}

func msgPage(meta string, ids ...string) string {
	var data []string
	for _, id := range ids {
		data = append(data, fmt.Sprintf(`{"id":%q}`, id))
	}
	return `{"data":[` + strings.Join(data, ",") + `],"meta":` + meta + `}`
}

func TestMessagesAllLists(t *testing.T) {
	nextMeta := func(id string) string {
		return fmt.Sprintf(`{"current":{"limit":2,"count":2},"next":{"affix":"append","id":%q,"sentAt":1638423490}}`, id)
	}
	t.Run("All follows meta.next", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{"": msgPage(nextMeta("2"), "1", "2"), "2": msgPage(nextMeta("3"), "3"), "3": msgPage(`{}`)})
		opts := &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 2}, Category: chat.CategoryMessage}
		ids, errs := collect(client.Messages.All(context.Background(), opts, chat.OnBehalfOf("u1")), messageID)
		assert.Empty(t, errs)
		assert.Equal(t, []string{"1", "2", "3"}, ids)
		reqs := m.Requests()
		require.Len(t, reqs, 2, "the short second page ends the walk")
		for _, r := range reqs {
			assert.Equal(t, "/v3/messages", r.Path)
			assert.Equal(t, "message", r.Query.Get("category"), "filters kept on every page")
			assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
		}
		assert.Equal(t, "1638423490", reqs[1].Query.Get("sentAt"))
		assert.Equal(t, chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 2}, Category: chat.CategoryMessage}, *opts, "opts modified")
	})

	t.Run("AllGroupMessages follows meta.next and stalls on a repeat", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{"": msgPage(nextMeta("2"), "1", "2"), "2": msgPage(nextMeta("2"), "3", "4")})
		ids, errs := collect(client.Messages.AllGroupMessages(context.Background(), "g/1", nil), messageID)
		assert.Equal(t, []string{"1", "2", "3", "4"}, ids)
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], chat.ErrPaginationStalled)
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/groups/g%2F1/messages", r.Path)
		}
	})

	t.Run("AllUserMessages follows meta.cursor with a numeric id", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		pagination := `"pagination":{"total":0,"count":2,"per_page":100,"current_page":1,"total_pages":1}`
		m.ServePages("id", map[string]string{
			"":     msgPage(`{`+pagination+`,"cursor":{"id":1786,"affix":"prepend"}}`, "1788", "1787"),
			"1786": msgPage(`{"current":{"limit":2,"count":2},"next":{"affix":"prepend","id":"1784"}}`, "1786", "1785"),
			"1784": msgPage(`{"cursor":{"id":1783,"affix":"prepend"}}`),
		})
		ids, errs := collect(client.Messages.AllUserMessages(context.Background(), "u2", &chat.ListUserMessagesOptions{PerPage: 2}, chat.OnBehalfOf("u1")), messageID)
		assert.Empty(t, errs)
		assert.Equal(t, []string{"1788", "1787", "1786", "1785"}, ids)
		var cursors []string
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/users/u2/messages", r.Path)
			assert.Equal(t, "2", r.Query.Get("perPage"))
			cursors = append(cursors, r.Query.Get("affix")+":"+r.Query.Get("id"))
		}
		assert.Equal(t, []string{":", "prepend:1786", "prepend:1784"}, cursors)
	})

	t.Run("AllUserMessages follows a cursor beside meta", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{
			"":  `{"data":[{"id":"5"}],"meta":{},"cursor":{"id":4,"affix":"prepend"}}`,
			"4": `{"data":[{"id":"4"}],"meta":{}}`,
		})
		ids, errs := collect(client.Messages.AllUserMessages(context.Background(), "u2", nil), messageID)
		assert.Empty(t, errs)
		assert.Equal(t, []string{"5", "4"}, ids)
	})

	t.Run("empty ids", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, errs := collect(client.Messages.AllUserMessages(context.Background(), "", nil), messageID)
		require.Len(t, errs, 1)
		wiretest.RequireArgError(t, errs[0], "uid")
		_, errs = collect(client.Messages.AllGroupMessages(context.Background(), "", nil), messageID)
		require.Len(t, errs, 1)
		wiretest.RequireArgError(t, errs[0], "guid")
		assert.Zero(t, m.Calls())
	})
}

func TestMessagesConversationLists(t *testing.T) {
	ctx := context.Background()
	userPage := `{"data":[{"id":"1786"}],"meta":{"pagination":{"total":0,"count":1,"per_page":100,"current_page":1,"total_pages":1},"cursor":{"id":1786,"affix":"prepend"}}}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "ListUserMessages with every filter",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListUserMessages(ctx, "cometchat-uid-2", &chat.ListUserMessagesOptions{
					CursorOptions: chat.CursorOptions{Direction: chat.DirectionAfter, ID: "10", Limit: 5},
					PerPage:       50,
					ConversationFilters: chat.ConversationFilters{
						SearchKey:               "k",
						HasAttachments:          true,
						AttachmentTypes:         chat.AttachmentFile,
						HasMentions:             true,
						HasLinks:                true,
						MentionedUIDs:           []string{"a", "b"},
						MyMentionsOnly:          true,
						HasReactions:            true,
						Unread:                  true,
						Undelivered:             true,
						Count:                   true,
						HideReplies:             true,
						Category:                chat.CategoryCustom,
						Categories:              []chat.Category{chat.CategoryCall, chat.CategoryAction},
						Type:                    "poll",
						Types:                   []chat.MessageType{chat.MessageTypeAudio, chat.MessageTypeVideo},
						Sender:                  "a",
						MentionsWithBlockedInfo: true,
						MentionsWithTagInfo:     true,
						FromTimestamp:           100,
						ToTimestamp:             200,
						WithTags:                true,
						Tags:                    []string{"x", "y"},
						HideQuotedMessages:      true,
					},
				}, chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodGet, Path: "/v3/users/cometchat-uid-2/messages", OnBehalfOf: "cometchat-uid-1",
			Query: "affix=append&attachmentTypes=file&categories=call,action&category=custom&count=true" +
				"&fromTimestamp=100&hasAttachments=true&hasLinks=true&hasMentions=true&hasReactions=true" +
				"&hideQuotedMessages=true&hideReplies=true&id=10&limit=5&mentionedUids=a,b" +
				"&mentionsWithBlockedInfo=true&mentionsWithTagInfo=true&myMentionsOnly=true&perPage=50" +
				"&searchKey=k&sender=a&tags=x,y&toTimestamp=200&type=poll&types=audio,video" +
				"&undelivered=true&unread=true&withTags=true",
			Reply: userPage,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				p := asMessagePage(t, got)
				assert.Equal(t, &chat.Cursor{ID: "1786", Direction: chat.DirectionBefore}, p.Meta.Cursor, "a numeric cursor id decodes")
				assert.Equal(t, 1, p.Meta.Pagination.Count)
			},
		},
		{
			Name: "ListUserMessages uid escaped",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListUserMessages(ctx, "a b/c", nil)
			},
			Method: http.MethodGet, Path: "/v3/users/a%20b%2Fc/messages", Reply: userPage,
		},
		{
			Name: "ListGroupMessages with every filter",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListGroupMessages(ctx, "project-group", &chat.ListGroupMessagesOptions{
					CursorOptions:                chat.CursorOptions{Direction: chat.DirectionBefore, SentAt: 1638423490, Limit: 3},
					HideMessagesFromBlockedUsers: true,
					ConversationFilters: chat.ConversationFilters{
						SearchKey:               "k",
						HasAttachments:          true,
						AttachmentTypes:         chat.AttachmentVideo,
						HasMentions:             true,
						HasLinks:                true,
						MentionedUIDs:           []string{"a"},
						MyMentionsOnly:          true,
						HasReactions:            true,
						Unread:                  true,
						Undelivered:             true,
						Count:                   true,
						HideReplies:             true,
						Category:                chat.CategoryMessage,
						Categories:              []chat.Category{chat.CategoryMessage},
						Type:                    chat.MessageTypeText,
						Types:                   []chat.MessageType{chat.MessageTypeText},
						Sender:                  "a",
						MentionsWithBlockedInfo: true,
						MentionsWithTagInfo:     true,
						FromTimestamp:           100,
						ToTimestamp:             200,
						WithTags:                true,
						Tags:                    []string{"x"},
						HideQuotedMessages:      true,
					},
				})
			},
			Method: http.MethodGet, Path: "/v3/groups/project-group/messages",
			Query: "affix=prepend&attachmentTypes=video&categories=message&category=message&count=true" +
				"&fromTimestamp=100&hasAttachments=true&hasLinks=true&hasMentions=true&hasReactions=true" +
				"&hideMessagesFromBlockedUsers=true&hideQuotedMessages=true&hideReplies=true&limit=3" +
				"&mentionedUids=a&mentionsWithBlockedInfo=true&mentionsWithTagInfo=true&myMentionsOnly=true" +
				"&searchKey=k&sender=a&sentAt=1638423490&tags=x&toTimestamp=200&type=text&types=text" +
				"&undelivered=true&unread=true&withTags=true",
			Reply: `{"data":[],"meta":{"current":{"limit":3,"count":0}}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				p := asMessagePage(t, got)
				assert.Empty(t, p.Data)
				assert.Nil(t, p.Meta.Next)
			},
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "ListUserMessages empty uid", Call: func(c *chat.Client) error {
			_, err := c.Messages.ListUserMessages(ctx, "", nil)
			return err
		}, Arg: "uid"},
		{Name: "ListGroupMessages dot guid", Call: func(c *chat.Client) error {
			_, err := c.Messages.ListGroupMessages(ctx, ".", nil)
			return err
		}, Arg: "guid"},
	})
}

func TestMessagesSendAsBotAndFlag(t *testing.T) {
	ctx := context.Background()
	const botForm = `{"receiver":"cometchat-uid-1","receiverType":"user","category":"interactive","type":"form","muid":"form-1",
		"data":{"interactionGoal":{"type":"allOf","elementIds":["name","submit"]},
		"interactiveData":{"title":"Sign up","formFields":[{"elementType":"textInput","elementId":"name","label":"Name"}],
		"submitElement":{"elementType":"button","elementId":"submit","buttonText":"Go","action":{"actionType":"apiAction","url":"https://example.com/hook","method":"POST"}}}}}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "SendAsBot",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.SendAsBot(ctx, "bot-1", &chat.SendMessageRequest{
					Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser, MUID: "form-1",
					Category: chat.CategoryInteractive, Type: chat.MessageTypeForm,
					Data: chat.MessageData{
						InteractionGoal: &chat.InteractionGoal{Type: chat.GoalAllOf, ElementIDs: []string{"name", "submit"}},
						InteractiveData: &chat.InteractiveData{
							Title:      "Sign up",
							FormFields: []chat.InteractiveElement{{ElementType: chat.ElementTextInput, ElementID: "name", Label: "Name"}},
							SubmitElement: &chat.InteractiveElement{ElementType: chat.ElementButton, ElementID: "submit", ButtonText: "Go",
								Action: &chat.ButtonAction{ActionType: chat.ActionTypeAPI, URL: "https://example.com/hook", Method: "POST"}},
						},
					},
				}, chat.OnBehalfOf("ignored-here"))
			},
			// The option is the caller's: the SDK passes it on, though
			// the reference declares no onBehalfOf for bot messages.
			Method: http.MethodPost, Path: "/v3/bots/bot-1/messages", OnBehalfOf: "ignored-here",
			Body:  botForm,
			Reply: `{"data":{"id":"7","sender":"bot-1","category":"interactive","type":"form"}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.Equal(t, "bot-1", msg.Sender)
				assert.Equal(t, chat.MessageTypeForm, msg.Type)
			},
		},
		{
			Name: "SendAsBot without options sends no onBehalfOf",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.SendAsBot(ctx, "bot/1", &chat.SendMessageRequest{Receiver: "g", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "hi"}, MUID: "m1"})
			},
			Method: http.MethodPost, Path: "/v3/bots/bot%2F1/messages",
			Body:  `{"receiver":"g","receiverType":"group","data":{"text":"hi"},"muid":"m1"}`,
			Reply: `{"data":{"id":"8"}}`,
		},
		{
			Name: "Flag with the documented empty answer",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Flag(ctx, "42", "cometchat-uid-1", &chat.FlagMessageRequest{ReasonID: "spam", Remark: "ads"})
			},
			Method: http.MethodPost, Path: "/v3/messages/42/flagged", OnBehalfOf: "cometchat-uid-1",
			Body:  `{"reasonId":"spam","remark":"ads"}`,
			Reply: `{"data":{}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				res := got.(*chat.FlagResult)
				assert.False(t, res.Success)
				assert.JSONEq(t, `{}`, string(res.Raw))
			},
		},
		{
			Name: "Flag with a fuller answer",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Flag(ctx, "42", "cometchat-uid-1", &chat.FlagMessageRequest{ReasonID: "spam"}, chat.OnBehalfOf("other"))
			},
			Method: http.MethodPost, Path: "/v3/messages/42/flagged", OnBehalfOf: "cometchat-uid-1",
			Body:  `{"reasonId":"spam"}`,
			Reply: `{"data":{"success":"true","message":"Flagged.","reasonId":"spam"}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				res := got.(*chat.FlagResult)
				assert.True(t, res.Success, "a string boolean decodes")
				assert.Equal(t, "Flagged.", res.Message)
				assert.JSONEq(t, `{"success":"true","message":"Flagged.","reasonId":"spam"}`, string(res.Raw))
			},
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "SendAsBot empty bot", Call: func(c *chat.Client) error {
			_, err := c.Messages.SendAsBot(ctx, "", &chat.SendMessageRequest{})
			return err
		}, Arg: "botUID"},
		{Name: "SendAsBot nil request", Call: func(c *chat.Client) error {
			_, err := c.Messages.SendAsBot(ctx, "bot", nil)
			return err
		}, Arg: "req"},
		{Name: "Flag empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.Flag(ctx, "", "u", &chat.FlagMessageRequest{ReasonID: "r"})
			return err
		}, Arg: "id"},
		{Name: "Flag empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.Flag(ctx, "1", "", &chat.FlagMessageRequest{ReasonID: "r"})
			return err
		}, Arg: "onBehalfOf"},
		{Name: "Flag nil request", Call: func(c *chat.Client) error {
			_, err := c.Messages.Flag(ctx, "1", "u", nil)
			return err
		}, Arg: "req"},
		{Name: "Flag without a reason", Call: func(c *chat.Client) error {
			_, err := c.Messages.Flag(ctx, "1", "u", &chat.FlagMessageRequest{Remark: "x"})
			return err
		}, Arg: "req.ReasonID"},
	})
}

// TestMessagesSendMUID checks the muid of the three send methods: one the
// SDK picks when the caller set none, the same in every attempt of a call
// (here a 429 answered, then a 200), different from call to call, returned
// with the message, and never written into the caller's request.
func TestMessagesSendMUID(t *testing.T) {
	sends := []struct {
		name string
		path string
		send func(c *chat.Client, req *chat.SendMessageRequest) (*chat.Message, error)
	}{
		{"Send", "/v3/messages", func(c *chat.Client, req *chat.SendMessageRequest) (*chat.Message, error) {
			return c.Messages.Send(context.Background(), req, chat.OnBehalfOf("cometchat-uid-1"))
		}},
		{"SendThread", "/v3/messages/42/thread", func(c *chat.Client, req *chat.SendMessageRequest) (*chat.Message, error) {
			return c.Messages.SendThread(context.Background(), "42", "cometchat-uid-1", req)
		}},
		{"SendAsBot", "/v3/bots/bot-1/messages", func(c *chat.Client, req *chat.SendMessageRequest) (*chat.Message, error) {
			return c.Messages.SendAsBot(context.Background(), "bot-1", req)
		}},
	}
	sentMUID := func(t *testing.T, r wiretest.Request) string {
		t.Helper()
		var body struct {
			MUID string `json:"muid"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &body))
		return body.MUID
	}
	// rateLimitedOnce answers the first attempt 429 and the next ones
	// with reply.
	rateLimitedOnce := func(reply string) func(int, *http.Request) (*http.Response, error) {
		return func(attempt int, _ *http.Request) (*http.Response, error) {
			if attempt == 1 {
				return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0"), nil
			}
			return wiretest.JSONResponse(http.StatusOK, reply), nil
		}
	}

	for _, s := range sends {
		t.Run(s.name+"/the SDK's muid, kept across a retry", func(t *testing.T) {
			client, m := wiretest.Chat(t, fastRetries)
			m.Serve(rateLimitedOnce(`{"data":{"id":"7"}}`))
			req := &chat.SendMessageRequest{Receiver: "cometchat-uid-2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}

			msg, err := s.send(client, req)
			require.NoError(t, err)

			reqs := m.Requests()
			require.Len(t, reqs, 2, "attempts")
			first, second := sentMUID(t, reqs[0]), sentMUID(t, reqs[1])
			assert.Len(t, first, 26, "a crypto/rand text of 130 bits")
			assert.Equal(t, first, second, "the retry carries the muid of the first attempt")
			assert.Equal(t, string(reqs[0].Body), string(reqs[1].Body), "and the same bytes")
			assert.Equal(t, s.path, reqs[1].Path)
			assert.Equal(t, first, msg.MUID, "the answer has none: the muid sent is returned")
			assert.Empty(t, req.MUID, "the caller's request is not changed")

			// The next call is another message.
			m.Reply(http.StatusOK, `{"data":{"id":"8"}}`)
			msg2, err := s.send(client, req)
			require.NoError(t, err)
			third := sentMUID(t, m.Requests()[2])
			assert.NotEqual(t, first, third, "a new call, a new muid")
			assert.Equal(t, third, msg2.MUID)
		})

		t.Run(s.name+"/the caller's muid", func(t *testing.T) {
			client, m := wiretest.Chat(t, fastRetries)
			m.Serve(rateLimitedOnce(`{"data":{"id":"7","muid":"order-1234"}}`))
			req := &chat.SendMessageRequest{Receiver: "cometchat-uid-2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}, MUID: "order-1234"}

			msg, err := s.send(client, req)
			require.NoError(t, err)
			reqs := m.Requests()
			require.Len(t, reqs, 2, "attempts")
			for i, r := range reqs {
				assert.Equal(t, "order-1234", sentMUID(t, r), "attempt %d", i+1)
			}
			assert.Equal(t, "order-1234", msg.MUID)
		})
	}

	t.Run("the muid the service answers with wins", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"id":"7","muid":"from-the-service"}}`)
		msg, err := client.Messages.Send(context.Background(), &chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser})
		require.NoError(t, err)
		assert.Equal(t, "from-the-service", msg.MUID)
		assert.NotEqual(t, "from-the-service", sentMUID(t, m.Only()))
	})

	t.Run("one request shared by concurrent sends", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		req := &chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}
		const n = 8
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				_, err := client.Messages.Send(context.Background(), req)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		seen := map[string]bool{}
		for _, r := range m.Requests() {
			seen[sentMUID(t, r)] = true
		}
		assert.Len(t, seen, n, "every call its own muid")
		assert.Empty(t, req.MUID)
	})
}

// TestSendChecksTheReceiver refuses, before sending, a message without a
// receiver or whose receiver type is missing or unknown; a message to
// multiple receivers alone needs neither.
func TestSendChecksTheReceiver(t *testing.T) {
	ctx := context.Background()
	client, m := wiretest.Chat(t)
	for _, tt := range []struct {
		name string
		req  *chat.SendMessageRequest
		arg  string
	}{
		{"no receiver", &chat.SendMessageRequest{ReceiverType: chat.ReceiverUser}, "req.Receiver"},
		{"no receiver type", &chat.SendMessageRequest{Receiver: "bob"}, "req.ReceiverType"},
		{"an unknown receiver type", &chat.SendMessageRequest{Receiver: "bob", ReceiverType: "room"}, "req.ReceiverType"},
		{"a dot receiver", &chat.SendMessageRequest{Receiver: "..", ReceiverType: chat.ReceiverUser}, "req.Receiver"},
	} {
		_, err := client.Messages.Send(ctx, tt.req)
		wiretest.RequireArgError(t, err, tt.arg)
		_, err = client.Messages.SendThread(ctx, "42", "alice", tt.req)
		wiretest.RequireArgError(t, err, tt.arg)
	}
	assert.Zero(t, m.Calls(), "nothing sent")
	_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{MultipleReceivers: &chat.MultipleReceivers{UIDs: []string{"a", "b"}},
		Data: chat.MessageData{Text: "hi"}})
	require.NoError(t, err)
	assert.Equal(t, 1, m.Calls())
}

// TestMessageReadsMentionsAndDeletedBy serves a message whose data carries
// the users it mentions, as the service sends it, and a deleted message
// with who deleted it.
func TestMessageReadsMentionsAndDeletedBy(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, serviceBody(t, "get-message-mentions"))
	msg, err := client.Messages.Get(context.Background(), "5")
	require.NoError(t, err)
	assert.Equal(t, "Lunch, <@uid:cometchat-uid-2>?", msg.Data.Text)
	assert.Equal(t, map[string]*chat.User{"cometchat-uid-2": {
		UID: "cometchat-uid-2", Name: "George Alan", Avatar: "https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-2.webp",
		Status: chat.UserOffline, Role: "default", LastActiveAt: 1696935000,
	}}, msg.Data.Mentions)

	m.Reply(http.StatusOK, `{"data":{"id":"2","deletedAt":1696935200,"deletedBy":"cometchat-uid-1"}}`)
	msg, err = client.Messages.Get(context.Background(), "2")
	require.NoError(t, err)
	assert.Equal(t, chat.Timestamp(1696935200), msg.DeletedAt)
	assert.Equal(t, "cometchat-uid-1", msg.DeletedBy)
}

// End to end, against chattest.

func TestMessagesAllWhileSending(t *testing.T) {
	srv, client := faketest.Start(t)
	ctx := t.Context()
	faketest.Seed(srv, "alice", "bob")
	for i := range 12 {
		faketest.Send(t, client, "alice", faketest.ToUser("bob", fmt.Sprint("text ", i)))
		faketest.Send(t, client, "bob", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryCustom,
			Type: "ping", Data: chat.MessageData{CustomData: map[string]any{"i": i}}})
	}
	opts := &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 5}, Category: chat.CategoryMessage}
	var got []string
	added := 0
	for m, err := range client.Messages.All(ctx, opts, chat.OnBehalfOf("bob")) {
		require.NoError(t, err)
		assert.Equal(t, chat.CategoryMessage, m.Category)
		got = append(got, m.ID)
		// Messages sent before the last page is fetched are in the walk.
		if len(got)%4 == 0 && added < 2 {
			faketest.Send(t, client, "alice", faketest.ToUser("bob", "late"))
			faketest.Send(t, client, "bob", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryCustom, Type: "ping"})
			added++
		}
	}
	var want []string
	for _, m := range srv.Messages() {
		if m.Category == chat.CategoryMessage {
			want = append(want, m.ID)
		}
	}
	require.Len(t, want, 14)
	assert.Equal(t, want, got, "every text message once, in id order, late ones included")

	var back []string
	for m, err := range client.Messages.All(ctx, &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 4, Direction: chat.DirectionBefore}, Category: chat.CategoryMessage}) {
		require.NoError(t, err)
		back = append(back, m.ID)
	}
	slices.Reverse(want)
	assert.Equal(t, want, back, "prepend walks back from the newest")
}

// TestFlagMessageValidate holds the Validate of the flag request to the checks
// their methods run before sending.
func TestFlagMessageValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a flag", Value: &chat.FlagMessageRequest{ReasonID: "spam"}},
		{Name: "a flag without a reason", Value: &chat.FlagMessageRequest{Remark: "rude"}, Field: "req.ReasonID"},
	})
}
