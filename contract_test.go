package chat_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// examplesDir holds the reference's example requests and answers, one file
// per operation, copied as they are (INDEX.md there gives the format).
const examplesDir = "testdata/reference/examples"

// contractCall calls the SDK method of one operation, the answer being
// served whatever is asked, and returns what the method returned. doc is
// the documented answer, for calls whose arguments must name what it holds
// (the imports' ids).
type contractCall func(ctx context.Context, c *chat.Client, doc any) (any, error)

// contractCase is how one operation's result is compared with its
// documented answer: see [wiretest.Contract] for part, view and repair.
type contractCase struct {
	call   contractCall
	part   string
	view   func(t *testing.T, result any) any
	repair func(t *testing.T, doc any) any
}

// contractExcused are the places where the SDK drops or rewrites on
// purpose what a documented answer holds, by operation; each is a line of
// CHOICES.md ("What the SDK does not keep of a documented answer"). A
// path covers what lies below it; "[*]" stands for any index, a leading
// "**." for any depth.
var contractExcused = map[string][]string{
	// Rule conditions are written with the request's spelling of the flag.
	"chat-api-create-rule":                      {"**.isKeywordsReferencePresent"},
	"chat-api-update-rule":                      {"**.isKeywordsReferencePresent"},
	"chat-api-list-rules":                       {"**.isKeywordsReferencePresent", "**.isListReferencePresent"},
	"chat-api-list-rule-revisions":              {"**.isKeywordsReferencePresent"},
	"chat-api-list-moderation-blocked-messages": {"**.isKeywordsReferencePresent"},
	// The example is a keyword list, not a rule.
	"chat-api-get-rule": {"category", "isCSV", "searchTerms"},
	// The store's own id and revision counter.
	"chat-api-list-rule-keywords": {"data[*]._id", "data[*].__v"},
	// A fractional attachment size; misspelt members of a message's data.
	"import-messages": {"3117.data.data.attachments[*].size", "3117.data.data.custodata", "3117.data.data.metad2ata"},
	// "Message" is read as "message".
	"mark-conversation-as-delivered": {"Message"},
	"mark-conversation-as-read":      {"Message"},
	// An empty provider list is read as success.
	"notifications-push-add-apns-provider": {"pushProviders"},
}

// contractPending are operations whose results another change reshapes
// after the live service's facts: compared once that lands.
var contractPending = map[string]string{}

// contractNoMethod are the operations of the examples the SDK has no
// method for, with the reason.
var contractNoMethod = map[string]string{}

// TestContractRoundTrip serves each operation's documented answer to the
// SDK method that calls it, encodes what the method returns again with
// encoding/json, and checks that every key and every value of the
// documented answer (of the part the method returns) is there, at every
// level. The management operations are checked in package management.
func TestContractRoundTrip(t *testing.T) {
	examples := wiretest.LoadExamples(t, examplesDir, "chat", "calls", "data-import")
	cases := chatContractCases()
	for name := range cases {
		_, ok := examples[name]
		assert.True(t, ok, "a case for %s, which has no example", name)
	}
	for name := range contractExcused {
		_, ok := cases[name]
		assert.True(t, ok, "excused places for %s, which has no case", name)
	}
	for _, name := range slices.Sorted(maps.Keys(examples)) {
		ex := examples[name]
		t.Run(name, func(t *testing.T) {
			if why, ok := contractNoMethod[name]; ok {
				_, has := cases[name]
				require.False(t, has, "%s is listed as without a method, yet has a case", name)
				t.Logf("%s %s: no SDK method: %s", ex.Method, ex.Path, why)
				return
			}
			cc, ok := cases[name]
			require.True(t, ok, "no case for %s %s (%s)", ex.Method, ex.Path, ex.File)
			wiretest.CheckContract(t, ex, wiretest.Contract{
				Call: func(t *testing.T, body []byte, doc any) (any, error) {
					return wiretest.ChatWire.Answer(t, ex, "/v3", body, func(c *chat.Client) (any, error) { return cc.call(t.Context(), c, doc) })
				},
				Part: cc.part, View: cc.view, Repair: cc.repair, Expand: typedEntities,
				Excused: contractExcused[name], Pending: contractPending[name],
			})
		})
	}
}

// typedEntities replaces, in an encoded result, the entities of messages
// (kept as JSON by [chat.Entity]) by what [chat.Entity.User],
// [chat.Entity.Group] and [chat.Entity.Message] decode from them, encoded
// again: what a user reads of them is held to the documented answer too.
func typedEntities(t *testing.T, tree any) any {
	switch v := tree.(type) {
	case []any:
		for i := range v {
			v[i] = typedEntities(t, v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = typedEntities(t, v[k])
		}
		kind, _ := v["entityType"].(string)
		raw, ok := v["entity"]
		if !ok {
			break
		}
		b, err := json.Marshal(raw)
		require.NoError(t, err)
		e := &chat.Entity{Entity: b, EntityType: chat.EntityType(kind)}
		var typed any
		switch e.EntityType {
		case chat.EntityUser:
			typed, err = e.User()
		case chat.EntityGroup:
			typed, err = e.Group()
		case chat.EntityMessage:
			typed, err = e.Message()
		default:
			return v
		}
		require.NoError(t, err, "decoding a %s entity", kind)
		v["entity"] = typedEntities(t, wiretest.Encode(t, typed))
	}
	return tree
}

// bulkView turns the per-entity results of an import into the object the
// documented answer keys by entity: {"<key>": {"success", "data"}}.
func bulkView[T any](t *testing.T, res any) any {
	rs, ok := res.([]chat.BulkResult[T])
	require.True(t, ok, "result %T", res)
	out := map[string]any{}
	for _, r := range rs {
		require.NoError(t, r.Err, r.Key)
		out[r.Key] = map[string]any{"success": r.Success, "data": r.Data}
	}
	return out
}

// docKeys returns the keys of the documented answer's data object, in
// order.
func docKeys(doc any) []string {
	m, _ := doc.(map[string]any)
	d, _ := m["data"].(map[string]any)
	return slices.Sorted(maps.Keys(d))
}

// docEntity returns a member of the documented entity of key: data.<key>.data.<name>.
func docEntity(doc any, key, name string) string {
	v, _ := doc.(map[string]any)["data"].(map[string]any)[key].(map[string]any)["data"].(map[string]any)[name].(string)
	return v
}

func chatContractCases() map[string]contractCase {
	obo := chat.OnBehalfOf("superhero1")
	page := "-"
	yes := true
	return map[string]contractCase{
		// API keys
		"list-apikeys": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.APIKeys.List(ctx, nil) }},
		"create-apikey": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "k", Scope: chat.ScopeFullAccess})
		}},
		"get-apikey": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.APIKeys.Get(ctx, "k1") }},
		"update-apikey": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.APIKeys.Update(ctx, "k1", &chat.UpdateAPIKeyRequest{Name: "k"})
		}},
		"delete-apikey": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.APIKeys.Delete(ctx, "k1") }},

		// Users
		"list-users": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Users.List(ctx, nil) }},
		"creates-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Users.Create(ctx, &chat.CreateUserRequest{UID: "superhero6", Name: "Barry Allen"})
		}},
		"get-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Users.Get(ctx, "superhero6") }},
		"update-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Users.Update(ctx, "superhero6", &chat.UpdateUserRequest{Name: "Barry Allen"})
		}},
		"delete-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Users.Delete(ctx, "superhero6", &chat.DeleteUserRequest{Permanent: true})
		}},
		"reactivate-users": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: []string{"superhero2", "superhero3"}})
		}},
		"deactivate-users": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"superhero2", "superhero3"}})
		}},

		// Auth tokens
		"list-authtokens": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.List(ctx, "superhero6", nil)
		}},
		"create-authtoken": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.Create(ctx, "superhero6", nil)
		}},
		"flush-authtokens": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.Flush(ctx, "superhero6")
		}},
		"get-authtoken": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.Get(ctx, "superhero6", "token")
		}},
		"update-authtoken": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.Update(ctx, "superhero6", "token", &chat.UpdateAuthTokenRequest{Platform: "web"})
		}},
		"delete-authtoken": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.AuthTokens.Delete(ctx, "superhero6", "token")
		}},

		// Blocked users, friends
		"noid-get-users-uid-blockedusers": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Blocked.List(ctx, "superhero1", nil)
		}},
		"noid-post-users-uid-blockedusers": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Blocked.Block(ctx, "superhero1", &chat.BlockUsersRequest{BlockedUIDs: []string{"superhero3"}})
		}},
		"noid-delete-users-uid-blockedusers": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Blocked.Unblock(ctx, "superhero1", &chat.UnblockUsersRequest{BlockedUIDs: []string{"superhero3"}})
		}},
		"list-all-friends": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Friends.List(ctx, "superhero1", nil)
		}},
		"add-friend": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Friends.Add(ctx, "superhero1", &chat.AddFriendsRequest{Accepted: []string{"superhero2", "superhero3"}})
		}},
		"remove-friend": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Friends.Remove(ctx, "superhero1", &chat.RemoveFriendsRequest{Friends: []string{"superhero2"}})
		}},

		// Groups, members, bans
		"list-groups": {part: page, repair: repairListGroups, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Groups.List(ctx, nil) }},
		"create-group": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g1", Name: "G"})
		}},
		"get-group": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Groups.Get(ctx, "g1") }},
		"update-group": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Groups.Update(ctx, "g1", &chat.UpdateGroupRequest{Name: "G"})
		}},
		"delete-group": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Groups.Delete(ctx, "g1") }},
		"list-group-members": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Members.List(ctx, "g1", nil)
		}},
		"add-group-members": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Members.Add(ctx, "g1", &chat.AddMembersRequest{Admins: []string{"superhero1"}})
		}},
		"change-group-member-scope": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Members.ChangeScope(ctx, "g1", "superhero2", &chat.ChangeScopeRequest{Scope: chat.MemberParticipant})
		}},
		"kick-group-member": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Members.Kick(ctx, "g1", "superhero2")
		}},
		"list-banned-group-users": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Bans.List(ctx, "g1", nil)
		}},
		"ban-group-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Bans.Ban(ctx, "g1", "superhero2")
		}},
		"unban-group-user": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Bans.Unban(ctx, "g1", "superhero2")
		}},

		// Conversations
		"list-all-conversations": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.List(ctx, nil)
		}},
		"get-conversation": {part: "data.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.Get(ctx, "superhero1_user_superhero2", "superhero1")
		}},
		"deletes-conversation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.Delete(ctx, "superhero1_user_superhero2", "superhero1")
		}},
		"get-user-conversations": {part: "data.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.GetUser(ctx, "superhero2", "superhero1")
		}},
		"get-group-conversations": {part: "data.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.GetGroup(ctx, "g1", "superhero1")
		}},
		"updates-user-conversation": {part: "data.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.UpdateUser(ctx, "superhero2", "superhero1", &chat.UpdateConversationRequest{Tags: []string{"t"}})
		}},
		"updates-group-conversation": {part: "data.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.UpdateGroup(ctx, "g1", "superhero1", &chat.UpdateConversationRequest{Tags: []string{"t"}})
		}},
		"resets-user-conversation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.ResetUser(ctx, "superhero2", "superhero1", nil)
		}},
		"resets-group-conversation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.ResetGroup(ctx, "g1", "superhero1", nil)
		}},
		"mark-conversation-as-delivered": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkUserDelivered(ctx, "superhero2", "superhero1", nil)
		}},
		"mark-conversation-as-read": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkUserRead(ctx, "superhero2", "superhero1", nil)
		}},
		"mark-conversation-as-unread": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkUserUnread(ctx, "superhero2", "superhero1", &chat.MarkUnreadRequest{MessageID: 340})
		}},
		"mark-group-conversation-as-delivered": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkGroupDelivered(ctx, "g1", "superhero1", nil)
		}},
		"mark-group-conversation-as-read": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkGroupRead(ctx, "g1", "superhero1", nil)
		}},
		"mark-group-conversation-as-unread": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Conversations.MarkGroupUnread(ctx, "g1", "superhero1", &chat.MarkUnreadRequest{MessageID: 340})
		}},

		// Messages
		"send-message": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "superhero2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}, obo)
		}},
		"sends-bot-message": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.SendAsBot(ctx, "bot", &chat.SendMessageRequest{Receiver: "superhero2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}})
		}},
		"send-thread-message": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.SendThread(ctx, "1", "superhero1", &chat.SendMessageRequest{Receiver: "superhero2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}})
		}},
		"list-all-messages": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Messages.List(ctx, nil) }},
		"user-list-user-messages": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.ListUserMessages(ctx, "superhero1", nil)
		}},
		"user-list-group-messages": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.ListGroupMessages(ctx, "g1", nil)
		}},
		"list-all-thread-messages": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.ListThreadMessages(ctx, "1", nil)
		}},
		"get-message-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Messages.Get(ctx, "1") }},
		"update-message": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.Update(ctx, "1", &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "edited"}})
		}},
		"deletes-message": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.Delete(ctx, "1", nil)
		}},
		"mark-message-as-interacted": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.MarkInteracted(ctx, "1", "superhero1", &chat.MarkInteractedRequest{Interactions: []string{"e1"}})
		}},
		"list-all-reactions": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.ListReactions(ctx, "1", nil)
		}},
		"get-message-reactions": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.ListReactionsFor(ctx, "1", "😅", nil)
		}},
		"add-message-reactions": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.AddReaction(ctx, "1", "😅", "superhero1")
		}},
		"remove-message-reactions": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Messages.RemoveReaction(ctx, "1", "😅", "superhero1")
		}},

		// Moderation
		"chat-api-list-moderation-blocked-messages": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ListBlockedMessages(ctx, nil)
		}},
		"chat-api-approve-moderation-blocked-messages": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ReviewBlockedMessage(ctx, "65", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
		}},
		"chat-api-list-rule-keywords": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ListKeywordLists(ctx, nil)
		}},
		"chat-api-create-rule-keyword": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "list", Category: chat.KeywordWord, Name: "List", SearchTerms: []string{"a"}})
		}},
		"chat-api-get-rule-keyword": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.GetKeywordList(ctx, "list")
		}},
		"chat-api-update-rule-keyword": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.UpdateKeywordList(ctx, "list", &chat.UpdateKeywordListRequest{Category: chat.KeywordWord, Name: "List", SearchTerms: []string{"a"}})
		}},
		"chat-api-delete-rule-keyword": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.DeleteKeywordList(ctx, "list")
		}},
		"chat-api-list-rules": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ListRules(ctx, nil)
		}},
		"chat-api-create-rule": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.CreateRule(ctx, &chat.CreateRuleRequest{ID: "rule", Name: "Rule", Enabled: &yes})
		}},
		"chat-api-get-rule": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.GetRule(ctx, "rule")
		}},
		"chat-api-update-rule": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.UpdateRule(ctx, "rule", &chat.UpdateRuleRequest{Name: "Rule"})
		}},
		"chat-api-delete-rule": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.DeleteRule(ctx, "rule")
		}},
		"chat-api-list-rule-revisions": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ListRuleRevisions(ctx, "rule", nil)
		}},
		"chat-api-send-message-moderation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{Sender: "cometchat-uid-2", Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser})
		}},
		"chat-api-list-message-moderation": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.ListSubmittedMessages(ctx, nil)
		}},
		"chat-api-get-message-moderation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.GetSubmittedMessage(ctx, "1")
		}},
		"chat-api-update-message-moderation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.UpdateSubmittedMessage(ctx, "1", &chat.UpdateSubmittedMessageRequest{Data: chat.MessageData{Text: "heyaya, I'm updated"}})
		}},
		"chat-api-delete-message-moderation": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Moderation.DeleteSubmittedMessage(ctx, "1")
		}},

		// Notifications: providers
		"notifications-push-list-fcm-providers": {part: "data.pushProviders", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ListFCMProviders(ctx)
		}},
		"notifications-push-add-fcm-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-provider-1"})
		}},
		"notifications-push-update-fcm-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-provider-1"})
		}},
		"notifications-push-default-fcm-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.SetDefaultFCMProvider(ctx, "fcm-provider-1")
		}},
		"notifications-push-delete-fcm-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteFCMProvider(ctx, "fcm-provider-1")
		}},
		"notifications-push-list-apns-providers": {part: "data.pushProviders", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ListAPNsProviders(ctx)
		}},
		"notifications-push-add-apns-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns-provider-1"})
		}},
		"notifications-push-update-apns-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns-provider-1"})
		}},
		"notifications-push-default-apns-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.SetDefaultAPNsProvider(ctx, "apns-provider-1")
		}},
		"notifications-push-delete-apns-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteAPNsProvider(ctx, "apns-provider-1")
		}},
		"notifications-list-push-custom-provider": {part: "data.pushProviders.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetCustomPushProvider(ctx)
		}},
		"notifications-save-push-custom-provider": {part: "data.pushProviders.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddCustomPushProvider(ctx, &chat.CustomPushProvider{WebhookURL: "https://example.com/push"})
		}},
		"notifications-update-push-custom-provider": {part: "data.pushProviders.0", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateCustomPushProvider(ctx, &chat.UpdateCustomProviderRequest{WebhookURL: "https://example.com/push"})
		}},
		"notifications-delete-push-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteCustomPushProvider(ctx)
		}},
		"notifications-sms-list-twilio-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetTwilioProvider(ctx)
		}},
		"notifications-sms-save-twilio-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "t", TwilioSenderPhoneNumber: "+15550100"})
		}},
		"notifications-sms-update-twilio-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "t", TwilioSenderPhoneNumber: "+15550100"})
		}},
		"notifications-sms-delete-twilio-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteTwilioProvider(ctx)
		}},
		"notifications-list-sms-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetCustomSMSProvider(ctx)
		}},
		"notifications-save-sms-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddCustomSMSProvider(ctx, &chat.CustomSMSProvider{WebhookURL: "https://example.com/sms"})
		}},
		"notifications-update-sms-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateCustomSMSProvider(ctx, &chat.UpdateCustomProviderRequest{WebhookURL: "https://example.com/sms"})
		}},
		"notifications-delete-sms-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteCustomSMSProvider(ctx)
		}},
		"notifications-email-list-sendgrid-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetSendGridProvider(ctx)
		}},
		"notifications-email-save-sendgrid-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddSendGridProvider(ctx, sendGrid())
		}},
		"notifications-email-update-sendgrid-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateSendGridProvider(ctx, sendGrid())
		}},
		"notifications-email-delete-sendgrid-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteSendGridProvider(ctx)
		}},
		"notifications-list-email-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetCustomEmailProvider(ctx)
		}},
		"notifications-save-email-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.AddCustomEmailProvider(ctx, &chat.CustomEmailProvider{WebhookURL: "https://example.com/email"})
		}},
		"notifications-update-email-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateCustomEmailProvider(ctx, &chat.UpdateCustomProviderRequest{WebhookURL: "https://example.com/email"})
		}},
		"notifications-delete-email-custom-provider": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteCustomEmailProvider(ctx)
		}},

		// Notifications: tokens, preferences, settings, logs
		"notifications-push-list-tokens": {part: "data.pushTokens", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: "superhero3_token"})
		}},
		"notifications-push-register-token": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, Token: "tok", AuthToken: "superhero3_token"})
		}},
		"notifications-push-unregister-tokens": {part: "data.pushTokens", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: "superhero3_token"})
		}},
		"notifications-push-delete-token": {part: "data.pushTokens", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeletePushToken(ctx, "tok", &chat.DeletePushTokenRequest{AuthToken: "superhero3_token"})
		}},
		"notifications-push-list-preferences": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetPreferences(ctx, "superhero1")
		}},
		"notifications-push-update-preferences": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdatePreferences(ctx, "superhero1", &chat.UpdatePreferencesRequest{UsePrivacyTemplate: &yes})
		}},
		"notifications-push-reset-preferences": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ResetPreferences(ctx, "superhero1")
		}},
		"notifications-push-list-muted": {part: "data.mutedConversations", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ListMuted(ctx, "superhero1")
		}},
		"notifications-push-mute-conversations": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.Mute(ctx, "superhero1", &chat.MuteRequest{Conversations: []chat.MutedConversation{{ID: "superhero2", Type: chat.MutedOneOnOne, Until: 4102444800000}}})
		}},
		"notifications-push-unmute-conversations": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.Unmute(ctx, "superhero1", &chat.UnmuteRequest{Conversations: []chat.MutedConversation{{ID: "superhero2", Type: chat.MutedOneOnOne}}})
		}},
		"notifications-get-timezone": {part: "data.timezone", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetTimezone(ctx, "superhero1")
		}},
		"notifications-update-timezone": {part: "data.timezone", call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateTimezone(ctx, "superhero1", &chat.UpdateTimezoneRequest{Timezone: "Asia/Kolkata"})
		}},
		"notifications-get-contact-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetContactDetails(ctx, "superhero1")
		}},
		"notifications-update-contact-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateContactDetails(ctx, "superhero1", &chat.UpdateContactDetailsRequest{Email: "a@example.com"})
		}},
		"notifications-delete-contact-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.DeleteContactDetails(ctx, "superhero1")
		}},
		"notifications-push-list-settings": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.GetSettings(ctx)
		}},
		"notifications-push-update-settings": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.UpdateSettings(ctx, &chat.NotificationSettings{})
		}},
		"notifications-push-reset-settings": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ResetSettings(ctx)
		}},
		"notifications-logs": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Notifications.ListLogs(ctx, nil)
		}},

		// Roles
		"list-roles": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Roles.List(ctx, nil) }},
		"create-role": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "manager", Name: "Manager"})
		}},
		"get-role": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Roles.Get(ctx, "manager") }},
		"update-role": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Roles.Update(ctx, "manager", &chat.UpdateRoleRequest{Name: "Manager"})
		}},
		"delete-role": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Roles.Delete(ctx, "manager") }},
		"get-restrictedfeatures": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Roles.ListRestrictedFeatures(ctx, "manager")
		}},
		"restrict-features": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Roles.RestrictFeatures(ctx, "manager", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"u.listUsers"}})
		}},
		"allow-features": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Roles.AllowFeatures(ctx, "manager", &chat.AllowFeaturesRequest{AllowAll: true})
		}},

		// Metrics
		"usage-metrics": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: 1630164253, ToDate: 1630250653})
		}},
		"message-receipt-metrics": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Metrics.Messages(ctx) }},

		// Calls
		"list-calls":            {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Calls.List(ctx, nil) }},
		"retrieve-call-details": {call: func(ctx context.Context, c *chat.Client, _ any) (any, error) { return c.Calls.Get(ctx, "session") }},
		"retrieve-call-transcriptions": {part: page, call: func(ctx context.Context, c *chat.Client, _ any) (any, error) {
			return c.Calls.ListTranscriptions(ctx, "session", nil)
		}},

		// Data import: the entities sent carry the ids the answer keys.
		"import-users": {view: bulkView[chat.User], call: func(ctx context.Context, c *chat.Client, doc any) (any, error) {
			var users []chat.ImportUser
			for _, k := range docKeys(doc) {
				users = append(users, chat.ImportUser{UID: k, Name: k})
			}
			return c.DataImport.ImportUsers(ctx, users)
		}},
		"import-groups": {view: bulkView[chat.Group], call: func(ctx context.Context, c *chat.Client, doc any) (any, error) {
			var groups []chat.ImportGroup
			for _, k := range docKeys(doc) {
				groups = append(groups, chat.ImportGroup{GUID: k, Name: k, Type: chat.GroupPublic})
			}
			return c.DataImport.ImportGroups(ctx, groups)
		}},
		"import-members": {view: bulkView[chat.ImportedMember], call: func(ctx context.Context, c *chat.Client, doc any) (any, error) {
			var members []chat.ImportMember
			for _, k := range docKeys(doc) {
				members = append(members, chat.ImportMember{GUID: docEntity(doc, k, "guid"), UID: docEntity(doc, k, "uid")})
			}
			return c.DataImport.ImportMembers(ctx, members)
		}},
		"import-messages": {view: bulkView[chat.Message], call: func(ctx context.Context, c *chat.Client, doc any) (any, error) {
			var messages []chat.ImportMessage
			for _, k := range docKeys(doc) {
				messages = append(messages, chat.ImportMessage{MUID: k, Sender: "s12", Receiver: "r123", ReceiverType: chat.ReceiverUser, Data: chat.ImportMessageData{Text: "Hi there,"}, SentAt: 1674104348})
			}
			return c.DataImport.ImportMessages(ctx, messages)
		}},
	}
}

// repairListGroups lists the groups of the list-groups example as an
// array, as its schema says: the example puts the first group under the
// key "0" of data, the second under the key "0" of the first, and meta
// inside data.
func repairListGroups(t *testing.T, doc any) any {
	data, ok := wiretest.Select(t, doc, "data").(map[string]any)
	require.True(t, ok)
	var groups []any
	for g, ok := data["0"].(map[string]any); ok; g, ok = g["0"].(map[string]any) {
		groups = append(groups, g)
	}
	for _, g := range groups {
		delete(g.(map[string]any), "0")
	}
	require.Len(t, groups, 2)
	return map[string]any{"data": groups, "meta": data["meta"]}
}

func sendGrid() *chat.SendGridProvider {
	return &chat.SendGridProvider{SendGridAPIKey: "sendgrid_key", SenderEmail: "a@example.com", SenderName: "A", SendGridTemplateID: "template_id", SendGridUnsubscribeGroupID: "12312"}
}
