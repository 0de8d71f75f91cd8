package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// textMessage returns a message to a user whose JSON body, with the muid
// "m", is exactly chars characters long, its text made of fill.
func textMessage(t *testing.T, chars int, fill string) *chat.SendMessageRequest {
	t.Helper()
	req := &chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, MUID: "m"}
	b, err := json.Marshal(req)
	require.NoError(t, err)
	overhead := utf8.RuneCount(b) + len(`,"data":{"text":""}`)
	req.Data.Text = strings.Repeat(fill, chars-overhead)
	return req
}

// TestLimits checks each limit the client enforces before sending: one
// past it fails with an ArgumentError naming the field, and nothing is
// sent; the ids addressing existing things are left to the service.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	long := func(n int) string { return strings.Repeat("x", n) }
	tags := func(n, length int) []string { return slices.Repeat([]string{long(length)}, n) }
	bigMeta := map[string]any{"k": long(chat.MaxMetadataBytes - len(`{"k":""}`) + 1)}

	createUser := func(r chat.CreateUserRequest) func(c *chat.Client) error {
		if r.UID == "" {
			r.UID = "u1"
		}
		if r.Name == "" {
			r.Name = "U"
		}
		return func(c *chat.Client) error { _, err := c.Users.Create(ctx, &r); return err }
	}
	updateUser := func(r chat.UpdateUserRequest) func(c *chat.Client) error {
		return func(c *chat.Client) error { _, err := c.Users.Update(ctx, "u1", &r); return err }
	}
	createGroup := func(r chat.CreateGroupRequest) func(c *chat.Client) error {
		if r.GUID == "" {
			r.GUID = "g1"
		}
		if r.Name == "" {
			r.Name = "G"
		}
		return func(c *chat.Client) error { _, err := c.Groups.Create(ctx, &r); return err }
	}
	updateGroup := func(r chat.UpdateGroupRequest) func(c *chat.Client) error {
		return func(c *chat.Client) error { _, err := c.Groups.Update(ctx, "g1", &r); return err }
	}
	send := func(r *chat.SendMessageRequest) func(c *chat.Client) error {
		return func(c *chat.Client) error { _, err := c.Messages.Send(ctx, r); return err }
	}

	t.Run("refused", func(t *testing.T) {
		tests := []struct {
			name string
			call func(c *chat.Client) error
			want string
		}{
			{"uid of 101", createUser(chat.CreateUserRequest{UID: long(101)}), "req.UID"},
			{"uid with a space", createUser(chat.CreateUserRequest{UID: "a b"}), "req.UID"},
			{"uid with a slash", createUser(chat.CreateUserRequest{UID: "a/b"}), "req.UID"},
			{"uid with a dot", createUser(chat.CreateUserRequest{UID: "a.b"}), "req.UID"},
			{"uid with an accent", createUser(chat.CreateUserRequest{UID: "josé"}), "req.UID"},
			{"uid with a NUL", createUser(chat.CreateUserRequest{UID: "a\x00"}), "req.UID"},
			{"user name of 101", createUser(chat.CreateUserRequest{Name: long(101)}), "req.Name"},
			{"avatar of 3001", createUser(chat.CreateUserRequest{Avatar: long(3001)}), "req.Avatar"},
			{"link of 3001", createUser(chat.CreateUserRequest{Link: long(3001)}), "req.Link"},
			{"user metadata over 5 KiB", createUser(chat.CreateUserRequest{Metadata: bigMeta}), "req.Metadata"},
			{"user metadata that is not JSON", createUser(chat.CreateUserRequest{Metadata: map[string]any{"n": math.NaN()}}), "req.Metadata"},
			{"26 user tags", createUser(chat.CreateUserRequest{Tags: tags(26, 1)}), "req.Tags"},
			{"user tag of 101", createUser(chat.CreateUserRequest{Tags: []string{"a", "b", "c", long(101)}}), "req.Tags[3]"},
			{"update: user name of 101", updateUser(chat.UpdateUserRequest{Name: long(101)}), "req.Name"},
			{"update: user metadata", updateUser(chat.UpdateUserRequest{Metadata: bigMeta}), "req.Metadata"},
			{"update: user tag", updateUser(chat.UpdateUserRequest{Tags: []string{long(101)}}), "req.Tags[0]"},

			{"guid of 101", createGroup(chat.CreateGroupRequest{GUID: long(101)}), "req.GUID"},
			{"guid with a #", createGroup(chat.CreateGroupRequest{GUID: "a#b"}), "req.GUID"},
			{"group name of 101", createGroup(chat.CreateGroupRequest{Name: long(101)}), "req.Name"},
			{"group password of 101", createGroup(chat.CreateGroupRequest{Type: chat.GroupPassword, Password: chat.Secret(long(101))}), "req.Password"},
			{"group icon of 3001", createGroup(chat.CreateGroupRequest{Icon: long(3001)}), "req.Icon"},
			{"group description of 256", createGroup(chat.CreateGroupRequest{Description: long(256)}), "req.Description"},
			{"group metadata", createGroup(chat.CreateGroupRequest{Metadata: bigMeta}), "req.Metadata"},
			{"26 group tags", createGroup(chat.CreateGroupRequest{Tags: tags(26, 1)}), "req.Tags"},
			{"update: group description", updateGroup(chat.UpdateGroupRequest{Description: long(256)}), "req.Description"},
			{"update: group password", updateGroup(chat.UpdateGroupRequest{Password: chat.Secret(long(101))}), "req.Password"},
			{"update: group tag", updateGroup(chat.UpdateGroupRequest{Tags: []string{"ok", long(101)}}), "req.Tags[1]"},

			{"role id with a space", func(c *chat.Client) error {
				_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "team lead", Name: "Lead"})
				return err
			}, "req.Role"},
			{"role name of 101", func(c *chat.Client) error {
				_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "lead", Name: long(101)})
				return err
			}, "req.Name"},
			{"update: role description of 256", func(c *chat.Client) error {
				_, err := c.Roles.Update(ctx, "lead", &chat.UpdateRoleRequest{Description: long(256)})
				return err
			}, "req.Description"},

			{"26 conversation tags", func(c *chat.Client) error {
				_, err := c.Conversations.UpdateUser(ctx, "u2", "u1", &chat.UpdateConversationRequest{Tags: tags(26, 1)})
				return err
			}, "req.Tags"},
			{"conversation tag of 101", func(c *chat.Client) error {
				_, err := c.Conversations.UpdateGroup(ctx, "g1", "u1", &chat.UpdateConversationRequest{Tags: []string{long(101)}})
				return err
			}, "req.Tags[0]"},

			{"26 message tags", send(&chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, Tags: tags(26, 1)}), "req.Tags"},
			{"message tag of 101", send(&chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, Tags: []string{"a", long(101)}}), "req.Tags[1]"},
			{"message of 65,537 characters", send(textMessage(t, chat.MaxMessageChars+1, "x")), "req"},
			{"message of 65,537 characters, two-byte ones", send(textMessage(t, chat.MaxMessageChars+1, "é")), "req"},
			{"message metadata that is not JSON", send(&chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Metadata: map[string]any{"f": func() {}}}}), "req"},
			{"thread reply of 65,537 characters", func(c *chat.Client) error {
				_, err := c.Messages.SendThread(ctx, "42", "u1", textMessage(t, chat.MaxMessageChars+1, "x"))
				return err
			}, "req"},
			{"bot message tag", func(c *chat.Client) error {
				_, err := c.Messages.SendAsBot(ctx, "bot", &chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, Tags: []string{long(101)}})
				return err
			}, "req.Tags[0]"},
			{"edit to 65,537 characters", func(c *chat.Client) error {
				_, err := c.Messages.Update(ctx, "42", &chat.UpdateMessageRequest{Data: chat.MessageData{Text: long(chat.MaxMessageChars)}})
				return err
			}, "req"},
			{"edit with 26 tags", func(c *chat.Client) error {
				_, err := c.Messages.Update(ctx, "42", &chat.UpdateMessageRequest{Tags: tags(26, 1)})
				return err
			}, "req.Tags"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				client, m := wiretest.Chat(t)
				err := tt.call(client)
				ae := wiretest.RequireArgError(t, err, tt.want)
				assert.NotEmpty(t, ae.Problem)
				assert.Less(t, len(err.Error()), 200, "the error does not quote the value")
				assert.Zero(t, m.Calls(), "requests sent")
			})
		}
	})

	t.Run("accepted at the limit", func(t *testing.T) {
		atLimitMeta := map[string]any{"k": long(chat.MaxMetadataBytes - len(`{"k":""}`))}
		emoji := strings.Repeat("😀", chat.MaxNameLength) // 100 code points, 200 UTF-16 units
		tests := []struct {
			name string
			call func(c *chat.Client) error
		}{
			{"uid of 100 with every kind of character", createUser(chat.CreateUserRequest{UID: "Az09-_" + long(94)})},
			{"upper-case uid (the service lower-cases it)", createUser(chat.CreateUserRequest{UID: "ALICE"})},
			{"user name of 100 emoji", createUser(chat.CreateUserRequest{Name: emoji})},
			{"avatar and link of 3000", createUser(chat.CreateUserRequest{Avatar: long(3000), Link: long(3000)})},
			{"metadata of 5 KiB", createUser(chat.CreateUserRequest{Metadata: atLimitMeta})},
			{"metadata of 5 KiB once < > & are not escaped", createUser(chat.CreateUserRequest{
				Metadata: map[string]any{"k": strings.Repeat("<", chat.MaxMetadataBytes-len(`{"k":""}`))}})},
			{"25 tags of 100", createUser(chat.CreateUserRequest{Tags: tags(25, 100)})},
			{"group at every limit", createGroup(chat.CreateGroupRequest{GUID: long(100), Name: long(100), Type: chat.GroupPassword,
				Password: chat.Secret(long(100)), Icon: long(3000), Description: long(255), Metadata: atLimitMeta, Tags: tags(25, 100)})},
			{"group update at every limit", updateGroup(chat.UpdateGroupRequest{Name: long(100), Password: chat.Secret(long(100)), Icon: long(3000),
				Description: long(255), Metadata: atLimitMeta, Tags: tags(25, 100)})},
			{"message of 65,536 characters", send(textMessage(t, chat.MaxMessageChars, "x"))},
			{"message of 65,536 characters, emoji", send(textMessage(t, chat.MaxMessageChars, "😀"))},
			{"message of 65,536 characters once < > & are not escaped", send(textMessage(t, chat.MaxMessageChars, "<"))},
			{"message to a receiver the SDK does not check", send(&chat.SendMessageRequest{Receiver: "Not A UID/../", ReceiverType: chat.ReceiverUser, Tags: tags(25, 100)})},
			{"user update of an id the SDK does not check", func(c *chat.Client) error {
				_, err := c.Users.Update(ctx, "legacy.id@example", &chat.UpdateUserRequest{Name: long(100)})
				return err
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				client, m := wiretest.Chat(t)
				require.NoError(t, tt.call(client))
				r := m.Only()
				assert.True(t, json.Valid(r.Body), "a JSON body")
				if strings.Contains(tt.name, "65,536") {
					assert.Equal(t, chat.MaxMessageChars, utf8.RuneCount(r.Body), "characters sent")
				}
			})
		}
	})

	t.Run("< > & travel unescaped", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "u", ReceiverType: chat.ReceiverUser, MUID: "m",
			Data: chat.MessageData{Text: "a<b && c>d"}})
		require.NoError(t, err)
		r := m.Only()
		assert.Equal(t, `{"receiver":"u","receiverType":"user","data":{"text":"a<b && c>d"},"muid":"m"}`, string(r.Body))
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		assert.Equal(t, int64(len(r.Body)), r.ContentLength)
	})
}

// TestLimitsAgainstAnError checks that a limit does not hide the API's own
// error: a request within the limits reaches the service, whose refusal
// comes back as an *chat.Error.
func TestLimitsAgainstAnError(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":"The name may not be greater than 100 characters.","details":{"name":["too long"]}}}`)
	_, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "u1", Name: strings.Repeat("😀", 100)})
	ce := wiretest.RequireAPIError(t, err)
	assert.Equal(t, []string{"too long"}, ce.Details["name"])
	assert.NotErrorIs(t, err, chat.ErrInvalidArgument)
}

// A caller that retries a send on its own, across calls, sets the muid:
// the fake (chattest) then answers the second send with the message the
// first one stored. The SDK does not count on the real service doing the
// same.
func ExampleSendMessageRequest_muid() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	req := &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Your order has shipped"},
		MUID: "order-1234-shipped",
	}
	first, err := client.Messages.Send(ctx, req, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	again, err := client.Messages.Send(ctx, req, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(first.MUID, first.ID == again.ID, len(srv.Messages()))
	// Output: order-1234-shipped true 1
}

// The client checks the service's limits before sending, and names the
// field that breaks one.
func ExampleArgumentError_limits() {
	srv, client := newExampleServer()
	defer srv.Close()
	_, err := client.Groups.Create(context.Background(), &chat.CreateGroupRequest{
		GUID: "book-club", Name: "Book club",
		Tags: []string{"reading", strings.Repeat("long", 26)},
	})
	var ae *chat.ArgumentError
	if errors.As(err, &ae) {
		fmt.Println(ae.Name, "-", ae.Problem)
	}
	fmt.Println(errors.Is(err, chat.ErrInvalidArgument))
	// Output:
	// req.Tags[1] - must be at most 100 characters
	// true
}

// TestValidate holds each request type's Validate to the checks its
// method runs before sending: the field at fault is named, and a valid
// value passes.
func TestValidate(t *testing.T) {
	user := chat.ImportUser{UID: "ann", Name: "Ann"}
	group := chat.ImportGroup{GUID: "club", Name: "Club", Type: chat.GroupPublic}
	message := chat.ImportMessage{MUID: "m1", Sender: "ann", ReceiverType: chat.ReceiverGroup, Receiver: "club"}
	with := func(m chat.ImportMessage, f func(*chat.ImportMessage)) *chat.ImportMessage { f(&m); return &m }
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a user to create", Value: &chat.CreateUserRequest{UID: "ann", Name: "Ann"}},
		{Name: "a user to create without a name", Value: &chat.CreateUserRequest{UID: "ann"}, Field: "req.Name"},
		{Name: "a user to create with a space in its uid", Value: &chat.CreateUserRequest{UID: "a b", Name: "A"}, Field: "req.UID"},
		{Name: "a user update with 26 tags", Value: &chat.UpdateUserRequest{Tags: make([]string, 26)}, Field: "req.Tags"},
		{Name: "a group to create with a long password", Value: &chat.CreateGroupRequest{GUID: "g", Name: "G", Password: chat.Secret(strings.Repeat("p", 101))}, Field: "req.Password"},
		{Name: "a group update", Value: &chat.UpdateGroupRequest{Name: "G"}},
		{Name: "a role to create without an id", Value: &chat.CreateRoleRequest{Name: "R"}, Field: "req.Role"},
		{Name: "a role update with a long description", Value: &chat.UpdateRoleRequest{Description: strings.Repeat("d", 256)}, Field: "req.Description"},
		{Name: "a conversation update with a long tag", Value: &chat.UpdateConversationRequest{Tags: []string{strings.Repeat("t", 101)}}, Field: "req.Tags[0]"},
		{Name: "a message without a receiver type", Value: &chat.SendMessageRequest{Receiver: "ben"}, Field: "req.ReceiverType"},
		{Name: "a message too large", Value: textMessage(t, chat.MaxMessageChars+1, "x"), Field: "req"},
		{Name: "a message edit with 26 tags", Value: &chat.UpdateMessageRequest{Tags: make([]string, 26)}, Field: "req.Tags"},
		{Name: "members to add: none", Value: &chat.AddMembersRequest{}, Field: "req"},
		{Name: "a user to import", Value: &user},
		{Name: "a user to import without a name", Value: &chat.ImportUser{UID: "ann"}, Field: "name"},
		{Name: "a user to import with metadata too large", Value: &chat.ImportUser{UID: "ann", Name: "Ann", Metadata: map[string]any{"k": strings.Repeat("v", chat.MaxMetadataBytes)}}, Field: "metadata"},
		{Name: "a group to import", Value: &group},
		{Name: "a password group without a password", Value: &chat.ImportGroup{GUID: "g", Name: "G", Type: chat.GroupPassword}, Field: "password"},
		{Name: "a group of an unknown type", Value: &chat.GroupDetails{GUID: "g", Name: "G", Type: "secret"}, Field: "type"},
		{Name: "a group whose owner's details name another user", Value: &chat.ImportGroup{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "ann",
			OwnerDetails: &chat.UserDetails{UID: "ben", Name: "Ben"}}, Field: "groupOwnerDetails.uid"},
		{Name: "a member with an unknown scope", Value: &chat.ImportMember{GUID: "g", UID: "u", Scope: "owner"}, Field: "scope"},
		{Name: "a member whose group's details lack a name", Value: &chat.ImportMember{GUID: "g", UID: "u", GroupDetails: &chat.GroupDetails{GUID: "g", Type: chat.GroupPublic}}, Field: "groupDetails.name"},
		{Name: "a message to import", Value: &message},
		{Name: "a message to a channel", Value: with(message, func(m *chat.ImportMessage) { m.ReceiverType = "channel" }), Field: "receiverType"},
		{Name: "a custom message without a type", Value: with(message, func(m *chat.ImportMessage) { m.Category = chat.CategoryCustom }), Field: "type"},
		{Name: "an attachment without a url", Value: with(message, func(m *chat.ImportMessage) {
			m.Data.Attachments = []chat.ImportAttachment{{Name: "a.png", MimeType: "image/png", Extension: "png"}}
		}), Field: "data.attachments[0].url"},
		{Name: "a sender's details naming another", Value: with(message, func(m *chat.ImportMessage) {
			m.SenderUserDetails = &chat.UserDetails{UID: "ben", Name: "Ben"}
		}), Field: "senderUserDetails.uid"},
		{Name: "a receiving group's details without a name", Value: with(message, func(m *chat.ImportMessage) {
			m.ReceiverGroupDetails = &chat.GroupDetails{GUID: "club", Type: chat.GroupPublic}
		}), Field: "receiverGroupDetails.name"},
		{Name: "a mentioned user's details naming another", Value: with(message, func(m *chat.ImportMessage) {
			m.MentionedUserDetails = map[string]chat.UserDetails{"ann": {UID: "ben", Name: "Ben"}}
		}), Field: "mentionedUserDetails.ann.uid"},
	})
}
