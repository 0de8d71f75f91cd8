package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// submittedJSON is a submitted message as the service answers it (the
// reference's example, its entities shortened).
const submittedJSON = `{"id":"1","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-2","receiverType":"user",
	"receiver":"cometchat-uid-1","category":"message","type":"text",
	"data":{"text":"Hi new user","entities":{
		"sender":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","conversationId":"cometchat-uid-1_user_cometchat-uid-2"},"entityType":"user"},
		"receiver":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default"},"entityType":"user"}},
		"moderation":{"status":"disapproved","rule":{"id":"no-spam","name":"No spam"}}},
	"sentAt":1750335220,"updatedAt":1751644906}`

// checkSubmitted asserts what a user reads of submittedJSON.
func checkSubmitted(t *testing.T, m *chat.Message) {
	t.Helper()
	assert.Equal(t, "1", m.ID)
	assert.Equal(t, "cometchat-uid-1_user_cometchat-uid-2", m.ConversationID)
	assert.Equal(t, "cometchat-uid-2", m.Sender)
	assert.Equal(t, chat.ReceiverUser, m.ReceiverType)
	assert.Equal(t, "cometchat-uid-1", m.Receiver)
	assert.Equal(t, "Hi new user", m.Data.Text)
	assert.Equal(t, &chat.Moderation{Status: "disapproved", Rule: &chat.ModerationRuleRef{ID: "no-spam", Name: "No spam"}}, m.Data.Moderation)
	assert.Equal(t, chat.Timestamp(1750335220), m.SentAt)
	assert.Equal(t, chat.Timestamp(1751644906), m.UpdatedAt)
	sender, err := m.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, "George Alan", sender.Name)
}

func TestSubmittedMessagesWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "SubmitMessage",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
					MUID: "ext-77", Category: chat.CategoryMessage, Type: chat.MessageTypeText,
					Sender: "cometchat-uid-2", Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser,
					Data:              chat.MessageData{Text: "Hi new user", Metadata: map[string]any{"lang": "en"}},
					SenderUserDetails: &chat.UserDetails{UID: "cometchat-uid-2", Name: "George Alan"},
					ReceiverUserDetails: &chat.UserDetails{UID: "cometchat-uid-1", Name: "Andrew Joseph",
						Tags: []string{"vip"}},
					Tags: []string{"imported"}, SentAt: 1750335220,
				})
			},
			Reply:  `{"data":` + submittedJSON + `}`,
			Method: http.MethodPost, Path: "/v3/moderation/messages",
			Body: `{"muid":"ext-77","category":"message","type":"text","sender":"cometchat-uid-2","receiver":"cometchat-uid-1","receiverType":"user",
				"data":{"text":"Hi new user","metadata":{"lang":"en"}},
				"senderUserDetails":{"uid":"cometchat-uid-2","name":"George Alan"},
				"receiverUserDetails":{"uid":"cometchat-uid-1","name":"Andrew Joseph","tags":["vip"]},
				"tags":["imported"],"sentAt":1750335220}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) { checkSubmitted(t, got.(*chat.Message)) },
		},
		{
			Name: "SubmitMessage to a group, the service's defaults",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
					Sender: "ann", Receiver: "club", ReceiverType: chat.ReceiverGroup,
					ReceiverGroupDetails: &chat.GroupDetails{GUID: "club", Name: "Club", Type: chat.GroupPublic},
				})
			},
			Reply:  `{"data":` + submittedJSON + `}`,
			Method: http.MethodPost, Path: "/v3/moderation/messages",
			Body: `{"sender":"ann","receiver":"club","receiverType":"group","receiverGroupDetails":{"guid":"club","name":"Club","type":"public"}}`,
		},
		{
			Name: "ListSubmittedMessages",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ListSubmittedMessages(ctx, &chat.ListSubmittedMessagesOptions{
					CursorOptions: chat.CursorOptions{Direction: chat.DirectionAfter, ID: "1", Limit: 5},
					Sender:        "cometchat-uid-2", ReceiverUID: "cometchat-uid-1", ReceiverGUID: "club",
					Category: chat.CategoryCustom, Type: "poll", ModerationStatus: "pending",
				})
			},
			Reply:  `{"data":[` + submittedJSON + `],"meta":{"current":{"limit":5,"count":1},"next":{"affix":"append","sentAt":1750335220,"id":"1"}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/messages",
			Query: "affix=append&category=custom&id=1&limit=5&moderationStatus=pending&receiverGUID=club&receiverUID=cometchat-uid-1&sender=cometchat-uid-2&type=poll",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				page := got.(*chat.Page[chat.Message])
				require.Len(t, page.Data, 1)
				checkSubmitted(t, &page.Data[0])
				assert.Equal(t, &chat.PageCount{Limit: 5, Count: 1}, page.Meta.Current)
				assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, SentAt: 1750335220, ID: "1"}, page.Meta.Next)
			},
		},
		{
			Name:   "ListSubmittedMessages without options",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.ListSubmittedMessages(ctx, nil) },
			Reply:  `{"data":[],"meta":{"current":{"limit":100,"count":0}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/messages",
			Want: &chat.Page[chat.Message]{Data: []chat.Message{}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 0}}},
		},
		{
			Name:   "GetSubmittedMessage",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.GetSubmittedMessage(ctx, "4/2") },
			Reply:  `{"data":` + submittedJSON + `}`,
			Method: http.MethodGet, Path: "/v3/moderation/messages/4%2F2",
			Check: func(t *testing.T, _ wiretest.Request, got any) { checkSubmitted(t, got.(*chat.Message)) },
		},
		{
			Name: "UpdateSubmittedMessage",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.UpdateSubmittedMessage(ctx, "1", &chat.UpdateSubmittedMessageRequest{
					Data: chat.MessageData{Text: "This message has been updated.", Metadata: map[string]any{"edited": true}},
				})
			},
			Reply: `{"data":{"id":"1","sender":"cometchat-uid-2","receiverType":"user","receiver":"cometchat-uid-1","category":"message","type":"text",
				"data":{"text":"This message has been updated.","moderation":{"status":"approved"}},
				"sentAt":1750335220,"editedAt":1751645607,"editedBy":"app_system","updatedAt":1751645607}}`,
			Method: http.MethodPut, Path: "/v3/moderation/messages/1",
			Body: `{"data":{"text":"This message has been updated.","metadata":{"edited":true}}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				m := got.(*chat.Message)
				assert.Equal(t, "This message has been updated.", m.Data.Text)
				assert.Equal(t, "approved", m.Data.Moderation.Status)
				assert.Equal(t, chat.Timestamp(1751645607), m.EditedAt)
				assert.Equal(t, "app_system", m.EditedBy)
			},
		},
		{
			Name:   "DeleteSubmittedMessage",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.DeleteSubmittedMessage(ctx, "20011") },
			Reply:  `{"data":{"success":true,"message":"Message with id 20011 has been deleted successfully."}}`,
			Method: http.MethodDelete, Path: "/v3/moderation/messages/20011",
			Want: &chat.Result{Success: true, Message: "Message with id 20011 has been deleted successfully."},
		},
	})

	t.Run("not found", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MSG_NOT_FOUND","message":"The message with id 9 does not exist."}}`)
		_, err := client.Moderation.GetSubmittedMessage(ctx, "9")
		assert.Equal(t, "ERR_MSG_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
		assert.ErrorIs(t, err, chat.ErrNotFound)
	})
}

func TestAllSubmittedMessages(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("id", map[string]string{
		"":  `{"data":[{"id":"1"},{"id":"2"}],"meta":{"current":{"limit":2,"count":2},"next":{"affix":"append","sentAt":1750335220,"id":"2"}}}`,
		"2": `{"data":[{"id":"3"}],"meta":{"current":{"limit":2,"count":1}}}`,
	})
	var ids []string
	opts := &chat.ListSubmittedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 2}, ModerationStatus: "pending"}
	for msg, err := range client.Moderation.AllSubmittedMessages(t.Context(), opts) {
		require.NoError(t, err)
		ids = append(ids, msg.ID)
	}
	assert.Equal(t, []string{"1", "2", "3"}, ids)
	assert.Equal(t, []string{"limit=2&moderationStatus=pending", "affix=append&id=2&limit=2&moderationStatus=pending&sentAt=1750335220"}, m.Queries(),
		"the filter is kept on every page")
	assert.Equal(t, &chat.ListSubmittedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 2}, ModerationStatus: "pending"}, opts, "the caller's options are left alone")
}

func TestSubmittedMessagesArguments(t *testing.T) {
	ctx := context.Background()
	valid := &chat.SubmitMessageRequest{Sender: "a", Receiver: "b", ReceiverType: chat.ReceiverUser}
	tests := []wiretest.ArgCase[*chat.ModerationService]{
		{Name: "SubmitMessage nil", Call: func(s *chat.ModerationService) error { _, err := s.SubmitMessage(ctx, nil); return err }, Arg: "req"},
		{Name: "SubmitMessage without sender", Call: func(s *chat.ModerationService) error {
			_, err := s.SubmitMessage(ctx, &chat.SubmitMessageRequest{Receiver: "b", ReceiverType: chat.ReceiverUser})
			return err
		}, Arg: "req.Sender"},
		{Name: "SubmitMessage with details of another sender", Call: func(s *chat.ModerationService) error {
			r := *valid
			r.SenderUserDetails = &chat.UserDetails{UID: "z", Name: "Z"}
			_, err := s.SubmitMessage(ctx, &r)
			return err
		}, Arg: "req.SenderUserDetails.uid"},
		{Name: "GetSubmittedMessage empty id", Call: func(s *chat.ModerationService) error { _, err := s.GetSubmittedMessage(ctx, ""); return err }, Arg: "id"},
		{Name: "GetSubmittedMessage dot-dot", Call: func(s *chat.ModerationService) error { _, err := s.GetSubmittedMessage(ctx, ".."); return err }, Arg: "id"},
		{Name: "UpdateSubmittedMessage empty id", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateSubmittedMessage(ctx, "", &chat.UpdateSubmittedMessageRequest{Data: chat.MessageData{Text: "x"}})
			return err
		}, Arg: "id"},
		{Name: "UpdateSubmittedMessage nil", Call: func(s *chat.ModerationService) error { _, err := s.UpdateSubmittedMessage(ctx, "1", nil); return err }, Arg: "req"},
		{Name: "DeleteSubmittedMessage empty id", Call: func(s *chat.ModerationService) error { _, err := s.DeleteSubmittedMessage(ctx, ""); return err }, Arg: "id"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.ModerationService { return c.Moderation }, tests)
}

// TestSubmitMessageRequestValidate holds Validate to the checks
// SubmitMessage runs before sending.
func TestSubmitMessageRequestValidate(t *testing.T) {
	req := func(f func(r *chat.SubmitMessageRequest)) *chat.SubmitMessageRequest {
		r := &chat.SubmitMessageRequest{Sender: "ann", Receiver: "bob", ReceiverType: chat.ReceiverUser}
		f(r)
		return r
	}
	toClub := func(d *chat.GroupDetails) *chat.SubmitMessageRequest {
		return req(func(r *chat.SubmitMessageRequest) {
			r.Receiver, r.ReceiverType, r.ReceiverGroupDetails = "club", chat.ReceiverGroup, d
		})
	}
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "to a user", Value: req(func(*chat.SubmitMessageRequest) {})},
		{Name: "with the users' details", Value: req(func(r *chat.SubmitMessageRequest) {
			r.SenderUserDetails = &chat.UserDetails{UID: "ANN", Name: "Ann"}
			r.ReceiverUserDetails = &chat.UserDetails{UID: "bob", Name: "Bob"}
		})},
		{Name: "to a group with its details", Value: toClub(&chat.GroupDetails{GUID: "club", Name: "Club", Type: chat.GroupPublic})},
		{Name: "without a sender", Value: req(func(r *chat.SubmitMessageRequest) { r.Sender = "" }), Field: "req.Sender"},
		{Name: "without a receiver", Value: req(func(r *chat.SubmitMessageRequest) { r.Receiver = "" }), Field: "req.Receiver"},
		{Name: "without a receiver type", Value: req(func(r *chat.SubmitMessageRequest) { r.ReceiverType = "" }), Field: "req.ReceiverType"},
		{Name: "to a receiver of an unknown type", Value: req(func(r *chat.SubmitMessageRequest) { r.ReceiverType = "channel" }), Field: "req.ReceiverType"},
		{Name: "with a tag too long", Value: req(func(r *chat.SubmitMessageRequest) {
			r.Tags = []string{"a", strings.Repeat("t", chat.MaxTagLength+1)}
		}), Field: "req.Tags[1]"},
		{Name: "with sender details without a name", Value: req(func(r *chat.SubmitMessageRequest) {
			r.SenderUserDetails = &chat.UserDetails{UID: "ann"}
		}), Field: "req.SenderUserDetails.name"},
		{Name: "with receiver details of another user", Value: req(func(r *chat.SubmitMessageRequest) {
			r.ReceiverUserDetails = &chat.UserDetails{UID: "carl", Name: "Carl"}
		}), Field: "req.ReceiverUserDetails.uid"},
		{Name: "with the details of a password group without its password", Value: toClub(&chat.GroupDetails{GUID: "club", Name: "Club", Type: chat.GroupPassword}),
			Field: "req.ReceiverGroupDetails.password"},
		{Name: "with the details of another group", Value: toClub(&chat.GroupDetails{GUID: "pub", Name: "Pub", Type: chat.GroupPublic}),
			Field: "req.ReceiverGroupDetails.guid"},
	})
}

// TestSubmittedMessagesRequestsFollowTheReference holds the request types
// to the reference's request properties and examples: every property is a
// field, and each example decodes into the type and encodes back the same.
func TestSubmittedMessagesRequestsFollowTheReference(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		req     any
	}{
		{"chat-api-send-message-moderation", &chat.SubmitMessageRequest{}},
		{"chat-api-update-message-moderation", &chat.UpdateSubmittedMessageRequest{}},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(examplesDir, "chat", tt.fixture+".json"))
			require.NoError(t, err)
			var fx struct {
				RequestExample    map[string]json.RawMessage `json:"requestExample"`
				RequestProperties []struct{ Name string }    `json:"requestProperties"`
			}
			require.NoError(t, json.Unmarshal(b, &fx))

			fields := map[string]bool{}
			typ := reflect.TypeOf(tt.req).Elem()
			for i := range typ.NumField() {
				name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
				fields[name] = true
			}
			require.NotEmpty(t, fx.RequestProperties)
			for _, p := range fx.RequestProperties {
				assert.True(t, fields[p.Name], "the reference's property %q is not a field of %s", p.Name, typ)
			}

			require.Len(t, fx.RequestExample, 1)
			for _, ex := range fx.RequestExample {
				dec := json.NewDecoder(strings.NewReader(string(ex)))
				dec.DisallowUnknownFields()
				require.NoError(t, dec.Decode(tt.req))
				again, err := json.Marshal(tt.req)
				require.NoError(t, err)
				assert.JSONEq(t, string(ex), string(again))
			}
		})
	}
}

// TestSubmittedMessagesEndToEnd drives the five operations against
// chattest over HTTP: the verdicts of the app's rules, the users and group
// created from their details, the filters, the pager, an edit moderated
// again and a deletion.
func TestSubmittedMessagesEndToEnd(t *testing.T) {
	srv, client := faketest.Start(t)
	ctx := t.Context()
	faketest.Seed(srv, "ann")
	_, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "spam-words", Category: chat.KeywordWord, SearchTerms: []string{"casino"}})
	require.NoError(t, err)
	_, err = client.Moderation.CreateRule(ctx, spamRule) // blocks: "pending"
	require.NoError(t, err)
	_, err = client.Moderation.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-insults", Name: "No insults", Actions: []chat.RuleAction{chat.ActionDropMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord, Values: []string{"idiot"}}}})
	require.NoError(t, err)

	// A message to a user created from the receiver's details.
	hello, err := client.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
		MUID: "ext-1", Sender: "ann", Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data:                chat.MessageData{Text: "Hello Bob"},
		ReceiverUserDetails: &chat.UserDetails{UID: "bob", Name: "Bob"},
		Tags:                []string{"imported"},
	})
	require.NoError(t, err)
	assert.Equal(t, "1", hello.ID)
	assert.Equal(t, "ext-1", hello.MUID)
	assert.Equal(t, "ann_user_bob", hello.ConversationID)
	assert.Equal(t, "ann", hello.Sender)
	assert.Equal(t, "bob", hello.Receiver)
	assert.Equal(t, chat.ReceiverUser, hello.ReceiverType)
	assert.Equal(t, chat.CategoryMessage, hello.Category, "the service's default")
	assert.Equal(t, chat.MessageTypeText, hello.Type, "the service's default")
	assert.Equal(t, "Hello Bob", hello.Data.Text)
	assert.Equal(t, &chat.Moderation{Status: "approved"}, hello.Data.Moderation)
	assert.Equal(t, chat.Timestamp(faketest.T0.Unix()), hello.SentAt, "sent when submitted")
	sender, err := hello.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, "Ann", sender.Name)
	receiver, err := hello.Data.Entities.Receiver.User()
	require.NoError(t, err)
	assert.Equal(t, "Bob", receiver.Name)
	bob, err := client.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, "Bob", bob.Name, "the receiver was created from its details")

	// A message a blocking rule matches awaits the app's review.
	spam, err := client.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
		Sender: "ann", Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Win at the casino"}, SentAt: 1_600_000_000,
	})
	require.NoError(t, err)
	assert.Equal(t, &chat.Moderation{Status: "pending", Rule: &chat.ModerationRuleRef{ID: "no-spam", Name: "No spam"}}, spam.Data.Moderation)
	assert.Equal(t, chat.Timestamp(1_600_000_000), spam.SentAt)

	// A message to a group created from its details, which a dropping rule
	// matches.
	insult, err := client.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
		Sender: "ann", Receiver: "club", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "You idiot"},
		ReceiverGroupDetails: &chat.GroupDetails{GUID: "club", Name: "Club", Type: chat.GroupPublic, Owner: "ann"},
	})
	require.NoError(t, err)
	assert.Equal(t, "group_club", insult.ConversationID)
	assert.Equal(t, &chat.Moderation{Status: "disapproved", Rule: &chat.ModerationRuleRef{ID: "no-insults", Name: "No insults"}}, insult.Data.Moderation)
	club, ok := srv.Group("club")
	require.True(t, ok, "the group was created from its details")
	assert.Equal(t, "Club", club.Name)

	// A sender that does not exist, without details.
	_, err = client.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{Sender: "zed", Receiver: "bob", ReceiverType: chat.ReceiverUser})
	assert.ErrorIs(t, err, chat.ErrNotFound)

	// The messages are sent to no one.
	assert.Empty(t, srv.Messages(), "no message in the app's conversations")

	list := func(opts *chat.ListSubmittedMessagesOptions) []string {
		t.Helper()
		page, err := client.Moderation.ListSubmittedMessages(ctx, opts)
		require.NoError(t, err)
		return faketest.MessageIDs(page.Data)
	}
	assert.Equal(t, []string{"1", "2", "3"}, list(nil))
	assert.Equal(t, []string{"2"}, list(&chat.ListSubmittedMessagesOptions{ModerationStatus: "pending"}))
	assert.Equal(t, []string{"3"}, list(&chat.ListSubmittedMessagesOptions{ModerationStatus: "disapproved"}))
	assert.Equal(t, []string{"1", "2"}, list(&chat.ListSubmittedMessagesOptions{ReceiverUID: "bob"}))
	assert.Equal(t, []string{"3"}, list(&chat.ListSubmittedMessagesOptions{ReceiverGUID: "club"}))
	assert.Empty(t, list(&chat.ListSubmittedMessagesOptions{Sender: "bob"}))
	assert.Empty(t, list(&chat.ListSubmittedMessagesOptions{Category: chat.CategoryCustom}))

	before := srv.RequestCount("GET /v3/moderation/messages")
	var all []string
	for m, err := range client.Moderation.AllSubmittedMessages(ctx, &chat.ListSubmittedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1}, Sender: "ann"}) {
		require.NoError(t, err)
		all = append(all, m.ID+":"+m.Data.Moderation.Status)
	}
	assert.Equal(t, []string{"1:approved", "2:pending", "3:disapproved"}, all)
	assert.Equal(t, 4, srv.RequestCount("GET /v3/moderation/messages")-before, "one page a message, and the empty one after the last")

	got, err := client.Moderation.GetSubmittedMessage(ctx, "2")
	require.NoError(t, err)
	assert.Equal(t, "Win at the casino", got.Data.Text)
	assert.Equal(t, "pending", got.Data.Moderation.Status)

	// An edit is moderated again.
	edited, err := client.Moderation.UpdateSubmittedMessage(ctx, "2", &chat.UpdateSubmittedMessageRequest{Data: chat.MessageData{Text: "See you at lunch"}})
	require.NoError(t, err)
	assert.Equal(t, "See you at lunch", edited.Data.Text)
	assert.Equal(t, &chat.Moderation{Status: "approved"}, edited.Data.Moderation)
	assert.Equal(t, chat.Timestamp(faketest.T0.Unix()), edited.EditedAt)
	assert.Equal(t, "app_system", edited.EditedBy)
	assert.Empty(t, list(&chat.ListSubmittedMessagesOptions{ModerationStatus: "pending"}), "the edit leaves nothing pending")
	assert.Equal(t, []string{"2"}, list(&chat.ListSubmittedMessagesOptions{ReceiverUID: "bob", CursorOptions: chat.CursorOptions{ID: "1"}}), "after the cursor")

	res, err := client.Moderation.DeleteSubmittedMessage(ctx, "1")
	require.NoError(t, err)
	assert.Equal(t, &chat.Result{Success: true, Message: "Message with id 1 has been deleted successfully."}, res)
	_, err = client.Moderation.GetSubmittedMessage(ctx, "1")
	faketest.RequireServiceError(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	assert.Equal(t, []string{"2", "3"}, list(nil))
}
