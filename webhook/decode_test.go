package webhook_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// decodeCase is a delivery of one trigger, with the reference's payload
// as its data (payload), and what its event must hold.
type decodeCase struct {
	trigger webhook.Trigger
	check   func(t *testing.T, ev webhook.Event)
}

// as asserts that ev is a T and returns it.
func as[T webhook.Event](t *testing.T, ev webhook.Event) T {
	t.Helper()
	got, ok := ev.(T)
	require.Truef(t, ok, "event is a %T", ev)
	return got
}

func checkMessageAction(action string, target func(t *testing.T, m *chat.Message)) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.MessageActionEvent](t, ev)
		assert.Equal(t, action, e.Action())
		assert.Equal(t, chat.CategoryAction, e.Message.Category)
		assert.Equal(t, chat.MessageTypeMessage, e.Message.Type)
		require.NotNil(t, e.By)
		assert.Equal(t, "cometchat-uid-1", e.By.UID)
		assert.Equal(t, "Andrew Joseph", e.By.Name)
		require.NotNil(t, e.Target)
		assert.Equal(t, "2", e.Target.ID)
		target(t, e.Target)
	}
}

func checkReceipt(action string) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.ReceiptEvent](t, ev)
		assert.Equal(t, &webhook.ReceiptEvent{
			Base:     e.Base,
			Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser, Type: "receipts",
			Sender: "cometchat-uid-2", MessageSender: "cometchat-uid-1",
			Body: webhook.Receipt{
				Action: action, MessageID: "1", Timestamp: 1696935300,
				User: chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserAvailable},
			},
		}, e)
	}
}

func checkReaction(t *testing.T, ev webhook.Event) {
	e := as[*webhook.ReactionEvent](t, ev)
	assert.Equal(t, chat.Reaction{
		ID: "7", MessageID: "1", Reaction: "😀", UID: "cometchat-uid-2", ReactedAt: 1696935400,
		ReactedBy: &chat.User{UID: "cometchat-uid-2", Name: "George Alan"},
	}, e.Reaction)
}

func checkBlock(t *testing.T, ev webhook.Event) {
	e := as[*webhook.BlockEvent](t, ev)
	assert.Equal(t, map[string]chat.User{"cometchat-uid-2": {UID: "cometchat-uid-2", Name: "George Alan"}}, e.Users)
	assert.Equal(t, chat.User{UID: "cometchat-uid-1", Name: "Andrew Joseph"}, e.By)
}

var wantGroup = chat.Group{
	GUID: "cometchat-guid-1", Name: "Hiking Group", Type: chat.GroupPublic, MembersCount: 3,
	ConversationID: "group_cometchat-guid-1", CreatedAt: 1696930000, Owner: "cometchat-uid-1",
}

var wantBy = &chat.User{
	UID: "cometchat-uid-1", Name: "Andrew Joseph", Avatar: "https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-1.webp",
	Status: chat.UserAvailable, Role: "default", LastActiveAt: 1696934440,
}

func checkGroupUpdated(t *testing.T, ev webhook.Event) {
	e := as[*webhook.GroupEvent](t, ev)
	g := wantGroup
	g.UpdatedAt, g.UpdatedBy = 1696936000, "cometchat-uid-1"
	assert.Equal(t, webhook.Group{Group: g, OnlineMembersCount: 2}, e.Group)
	assert.Nil(t, e.Members)
	assert.Nil(t, e.By)
}

func checkMembersChanged(t *testing.T, ev webhook.Event) {
	e := as[*webhook.GroupEvent](t, ev)
	assert.Equal(t, webhook.Group{Group: wantGroup}, e.Group)
	assert.Equal(t, map[string]webhook.Member{"cometchat-uid-3": {GroupMember: chat.GroupMember{
		UID: "cometchat-uid-3", Name: "Nancy Grace", Avatar: "https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-3.webp", Status: chat.UserOffline,
		Role: "default", LastActiveAt: 1696930001, ConversationID: "cometchat-uid-1_user_cometchat-uid-3",
	}}}, e.Members)
	assert.Equal(t, wantBy, e.By)
}

func checkMembersJoined(t *testing.T, ev webhook.Event) {
	e := as[*webhook.GroupEvent](t, ev)
	assert.Equal(t, webhook.Group{Group: wantGroup}, e.Group)
	assert.Equal(t, map[string]webhook.Member{"cometchat-uid-3": {GroupMember: chat.GroupMember{
		UID: "cometchat-uid-3", Name: "Nancy Grace", Status: chat.UserAvailable, Role: "default", LastActiveAt: 1696930001,
	}}}, e.Members)
	assert.Nil(t, e.By)
}

func checkSessionStarted(t *testing.T, ev webhook.Event) {
	e := as[*webhook.SessionStartedEvent](t, ev)
	assert.Equal(t, "v1.us.sess-1", e.SessionID)
	assert.Equal(t, chat.Timestamp(1696934692), e.CreatedAt)
}

func checkJoined(t *testing.T, ev webhook.Event) {
	e := as[*webhook.ParticipantEvent](t, ev)
	assert.Equal(t, "v1.us.sess-1", e.SessionID)
	assert.Equal(t, webhook.Occupant{Name: "Andrew Joseph", JoinedAt: 1696934692, AudioCall: false}, e.Occupant)
}

func checkLeft(t *testing.T, ev webhook.Event) {
	e := as[*webhook.ParticipantEvent](t, ev)
	assert.Equal(t, "v1.us.sess-1", e.SessionID)
	assert.Equal(t, webhook.Occupant{Name: "Andrew Joseph", JoinedAt: 1696934692, LeftAt: 1696934792, AudioCall: true}, e.Occupant)
}

func checkSessionEnded(t *testing.T, ev webhook.Event) {
	e := as[*webhook.SessionEndedEvent](t, ev)
	assert.Equal(t, "v1.us.sess-1", e.SessionID)
	assert.Equal(t, chat.Timestamp(1696934690), e.CreatedAt)
	assert.Equal(t, chat.Timestamp(1696934800), e.DestroyedAt)
	assert.Equal(t, []webhook.Occupant{
		{Name: "Andrew Joseph", JoinedAt: 1696934692, LeftAt: 1696934792},
		{Name: "George Alan", JoinedAt: 1696934700, LeftAt: 1696934790, AudioCall: true},
	}, e.AllOccupants)
}

func checkModeration(status string) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.ModerationEvent](t, ev)
		assert.Equal(t, status, e.Status())
		assert.Equal(t, "8", e.Message.ID)
		assert.Equal(t, "buy now", e.Message.Data.Text)
		assert.Nil(t, e.Moderation)
		assert.False(t, e.Reviewed)
	}
}

func checkCampaign(status string) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.CampaignEvent](t, ev)
		assert.Equal(t, &webhook.CampaignEvent{
			Base:       e.Base,
			CampaignID: "camp-1", AppID: "app-1", Name: "Welcome Campaign", Status: status, TemplateID: "tpl-1", TemplateVersion: 1,
			TotalTargets: 100, SentCount: 98, FailedCount: 2, Tag: "onboarding",
			ScheduledAt: unix(1696930000), SentAt: unix(1696932000), CompletedAt: unix(1696932060),
			CreatedAt: unix(1696929000), UpdatedAt: unix(1696932060),
		}, e)
	}
}

func checkFeedItem(status string) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.FeedItemEvent](t, ev)
		assert.Equal(t, "f-1", e.ID)
		assert.Equal(t, "n-1", e.NotificationID)
		assert.Equal(t, "camp-1", e.CampaignID)
		assert.Equal(t, "cometchat-uid-2", e.Receiver)
		assert.Equal(t, 1, e.TemplateVersion)
		assert.Equal(t, "in_app", e.ChannelType)
		assert.Equal(t, "cat-1", e.CategoryID)
		assert.Equal(t, "promo", e.TemplateCategory)
		assert.Equal(t, []string{"a"}, e.Tags)
		assert.Equal(t, "New offer", e.AlternativeText)
		assert.Equal(t, status, e.Status)
		assert.Equal(t, unix(1696932000), e.SentAt)
		assert.Equal(t, unix(1696932001), e.DeliveredAt)
		assert.True(t, e.ReadAt.IsZero(), "null readAt")
		assert.True(t, e.InteractedAt.IsZero())
		assert.JSONEq(t, `{"name":"George"}`, string(e.Variables))
		assert.JSONEq(t, `{"k":1}`, string(e.Metadata))
		assert.JSONEq(t, `[]`, string(e.RealtimeFanout))
		assert.JSONEq(t, `{"title":"Hi"}`, string(e.Content))
	}
}

func checkPush(status string) func(*testing.T, webhook.Event) {
	return func(t *testing.T, ev webhook.Event) {
		e := as[*webhook.PushNotificationEvent](t, ev)
		assert.Equal(t, "p-1", e.PushNotificationID)
		assert.Equal(t, "n-1", e.NotificationID)
		assert.Equal(t, "cometchat-uid-2", e.Receiver)
		assert.Equal(t, "push", e.ChannelType)
		assert.Equal(t, "ch-2", e.ChannelID)
		assert.Equal(t, "promo", e.Category)
		assert.Equal(t, "onboarding", e.Tag)
		assert.Equal(t, status, e.Status)
		assert.Equal(t, unix(1696932000), e.SentAt)
		assert.Equal(t, time.UnixMilli(1696932000500), e.DeliveredAt.Time, "13 digits read as milliseconds")
		assert.True(t, e.ClickedAt.IsZero())
		assert.True(t, e.FailedAt.IsZero())
		assert.JSONEq(t, `{"name":"George"}`, string(e.Variables))
		assert.JSONEq(t, `{}`, string(e.Metadata))
	}
}

func unix(sec int64) webhook.Time { return webhook.Time{Time: time.Unix(sec, 0)} }

func decodeCases() []decodeCase {
	return []decodeCase{
		{webhook.TriggerMessageSent, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.MessageEvent](t, ev)
			m := e.Message
			assert.Equal(t, "1", m.ID)
			assert.Equal(t, "cometchat-uid-1_user_cometchat-uid-2", m.ConversationID)
			assert.Equal(t, "cometchat-uid-1", m.Sender)
			assert.Equal(t, chat.ReceiverUser, m.ReceiverType)
			assert.Equal(t, "cometchat-uid-2", m.Receiver)
			assert.Equal(t, chat.CategoryMessage, m.Category)
			assert.Equal(t, chat.MessageTypeText, m.Type)
			assert.Equal(t, "hi", m.Data.Text)
			assert.Equal(t, map[string]any{"k": "v"}, m.Data.Metadata)
			assert.Equal(t, chat.Timestamp(1696934912), m.SentAt)
			assert.Equal(t, chat.Timestamp(1696934912), m.UpdatedAt)
			sender, err := m.Actor()
			require.NoError(t, err)
			assert.Equal(t, "Andrew Joseph", sender.Name)
			receiver, err := m.Data.Entities.Receiver.User()
			require.NoError(t, err)
			assert.Equal(t, "George Alan", receiver.Name)
			assert.Nil(t, e.Mentions)
		}},
		{webhook.TriggerMessageEdited, checkMessageAction(chat.ActionEdited, func(t *testing.T, m *chat.Message) {
			assert.Equal(t, "hello, edited", m.Data.Text)
			assert.Equal(t, chat.Timestamp(1696935100), m.EditedAt)
			assert.Equal(t, "cometchat-uid-1", m.EditedBy)
		})},
		{webhook.TriggerMessageDeleted, checkMessageAction(chat.ActionDeleted, func(t *testing.T, m *chat.Message) {
			assert.Equal(t, "cometchat-uid-1_user_cometchat-uid-2", m.ConversationID)
			assert.Equal(t, chat.Timestamp(1696935200), m.DeletedAt)
			assert.Equal(t, "cometchat-uid-1", m.DeletedBy)
		})},
		{webhook.TriggerMessageReactionAdded, checkReaction},
		{webhook.TriggerMessageReactionRemoved, checkReaction},
		{webhook.TriggerMessageDeliveryReceipt, checkReceipt(webhook.ReceiptDelivered)},
		{webhook.TriggerMessageReadReceipt, checkReceipt(webhook.ReceiptRead)},
		{webhook.TriggerMessageDeliveredToAll, checkReceipt(webhook.ReceiptDeliveredToAll)},
		{webhook.TriggerMessageReadByAll, checkReceipt(webhook.ReceiptReadByAll)},
		{webhook.TriggerAfterMessage, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.BotMessageEvent](t, ev)
			assert.Equal(t, "712", e.Message.ID)
			assert.Equal(t, "hi", e.Message.Data.Text)
			assert.Equal(t, chat.Timestamp(1680125130), e.Message.SentAt)
			sender, err := e.Message.Actor()
			require.NoError(t, err)
			assert.Equal(t, "Andrew Joseph", sender.Name)
		}},

		{webhook.TriggerUserBlocked, checkBlock},
		{webhook.TriggerUserUnblocked, checkBlock},
		{webhook.TriggerUserConnectionStatusChanged, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.UserConnectionEvent](t, ev)
			assert.Equal(t, webhook.Millis(1696935500123), e.Timestamp)
			assert.Equal(t, time.UnixMilli(1696935500123), e.Timestamp.Time())
			assert.Equal(t, chat.User{UID: "cometchat-uid-1", Name: "Andrew Joseph", Status: chat.UserOffline, Role: "default"}, e.User)
			assert.Equal(t, chat.UserOffline, e.Status)
			assert.Equal(t, webhook.Connection{Action: "disconnected", Platform: "javascript", ConnectedAt: 1696935000456}, e.CurrentConnection)
			assert.True(t, e.UserPresenceChanged)
		}},
		{webhook.TriggerUserMentioned, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.MessageEvent](t, ev)
			assert.Equal(t, "hi <@uid:cometchat-uid-2>", e.Message.Data.Text)
			assert.Equal(t, chat.ReceiverGroup, e.Message.ReceiverType)
			assert.Equal(t, map[string]chat.User{"cometchat-uid-2": {UID: "cometchat-uid-2", Name: "George Alan"}}, e.Mentions)
		}},

		{webhook.TriggerGroupCreated, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.GroupEvent](t, ev)
			g := wantGroup
			g.Scope, g.JoinedAt, g.HasJoined = chat.MemberAdmin, 1696930000, true
			assert.Equal(t, webhook.Group{Group: g}, e.Group)
			assert.Equal(t, map[string]webhook.Member{"cometchat-uid-1": {GroupMember: chat.GroupMember{
				UID: "cometchat-uid-1", Name: "Andrew Joseph", Status: chat.UserAvailable, Role: "default", LastActiveAt: 1696934440,
			}}}, e.Members)
			assert.Nil(t, e.By)
		}},
		{webhook.TriggerGroupUpdated, checkGroupUpdated},
		{webhook.TriggerGroupDeleted, checkGroupUpdated},
		{webhook.TriggerGroupOwnerTransferred, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.GroupEvent](t, ev)
			assert.Equal(t, "cometchat-uid-9", e.Group.OldOwner)
			assert.Equal(t, "cometchat-uid-1", e.Group.Owner)
			assert.Equal(t, 2, e.Group.OnlineMembersCount)
		}},
		{webhook.TriggerGroupMemberJoined, checkMembersJoined},
		{webhook.TriggerGroupMemberLeft, checkMembersJoined},
		{webhook.TriggerGroupMemberAdded, checkMembersChanged},
		{webhook.TriggerGroupMemberKicked, checkMembersChanged},
		{webhook.TriggerGroupMemberBanned, checkMembersChanged},
		{webhook.TriggerGroupMemberUnbanned, checkMembersChanged},
		{webhook.TriggerGroupMemberScopeChanged, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.GroupEvent](t, ev)
			m := e.Members["cometchat-uid-3"]
			assert.Equal(t, chat.MemberModerator, m.Scope)
			assert.Equal(t, chat.MemberParticipant, m.OldScope)
			assert.Equal(t, wantBy, e.By)
		}},

		{webhook.TriggerCallInitiated, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.CallEvent](t, ev)
			assert.Equal(t, "52", e.Call.ID)
			assert.Equal(t, chat.CategoryCall, e.Call.Category)
			assert.Equal(t, chat.MessageTypeAudio, e.Call.Type)
			assert.Equal(t, "initiated", e.Call.Data.Action)
			assert.Equal(t, "cometchat-uid-5", e.Call.Receiver)
			assert.Equal(t, chat.Timestamp(1696934692), e.Call.SentAt)
			assert.Equal(t, "cometchat-uid-1", e.Call.Sender, "the caller")
			assert.Nil(t, e.Call.Data.Entities, "platform.md §14.4 lists no entities: data is the action only")
		}},
		{webhook.TriggerCallStarted, checkSessionStarted},
		{webhook.TriggerCallParticipantJoined, checkJoined},
		{webhook.TriggerCallParticipantLeft, checkLeft},
		{webhook.TriggerCallEnded, checkSessionEnded},
		{webhook.TriggerMeetingStarted, checkSessionStarted},
		{webhook.TriggerMeetingParticipantJoined, checkJoined},
		{webhook.TriggerMeetingParticipantLeft, checkLeft},
		{webhook.TriggerMeetingEnded, checkSessionEnded},
		{webhook.TriggerRecordingGenerated, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.RecordingEvent](t, ev)
			assert.Equal(t, &webhook.RecordingEvent{
				Base:      e.Base,
				SessionID: "v1.us.sess-1", RecordingURL: "https://example.com/rec.mp4", RecordingDate: "2023-10-10",
				Duration: 21.433, StartTime: 1696934692,
			}, e)
			assert.Equal(t, 21433*time.Millisecond, e.Duration.Duration())
		}},
		{webhook.TriggerTranscriptionGenerated, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.TranscriptionEvent](t, ev)
			assert.Equal(t, &webhook.TranscriptionEvent{
				Base:      e.Base,
				SessionID: "v1.us.sess-1", TID: "t-1", TranscriptURL: "https://example.com/t.txt",
				TranscriptDate: "2023-10-10T10:44:52Z", StartTime: 1696934692, EndTime: 1696934800,
			}, e)
		}},

		{webhook.TriggerModerationEngineApproved, checkModeration("approved")},
		{webhook.TriggerModerationEngineBlocked, checkModeration("disapproved")},
		{webhook.TriggerModerationManualApproved, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ModerationEvent](t, ev)
			assert.Equal(t, "approved", e.Status())
			assert.True(t, e.Reviewed)
			require.Len(t, e.Moderation, 1)
			c, r := e.Moderation[0].Condition, e.Moderation[0].Rule
			assert.Equal(t, "c1", c.ID)
			assert.Equal(t, "65a1", c.ObjectID)
			assert.True(t, c.IsKeywordsReferencePresent)
			assert.Equal(t, "contains", c.Operator)
			assert.JSONEq(t, `["buy"]`, string(c.Value))
			assert.Equal(t, "spam", c.Message)
			assert.JSONEq(t, `0.8`, string(c.SimilarityValue))
			assert.Equal(t, webhook.ModerationRule{ID: "rule-1", Name: "No spam", RevisionID: "rev-2", Action: []string{"blockMessage"}, BlockedAt: 1696937001}, r)
		}},
		{webhook.TriggerModerationEngineFailed, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ModerationFailedEvent](t, ev)
			assert.Equal(t, "9", e.Resource.ID)
			assert.Equal(t, chat.ReceiverGroup, e.Resource.ReceiverType)
			assert.Equal(t, chat.Timestamp(1696937100), e.Resource.SentAt)
			assert.Equal(t, "text", e.ContentType)
			assert.Equal(t, "approved", e.Outcome)
			assert.Equal(t, unix(1696937105), e.CompletedAt)
			require.Len(t, e.Failures, 1)
			assert.Equal(t, webhook.ModerationFailure{
				Category: "http_5xx", HTTPStatus: 502, ErrorMessage: "bad gateway", ResponseBody: "<html>", ResponseBodyTruncated: true,
				TimeoutMs: 5000, FailedAt: webhook.Time{Time: time.Date(2023, 10, 10, 11, 25, 5, 0, time.UTC)},
				Context: webhook.FailureContext{
					Engine: "custom_api", Setting: "approve-message",
					Rule: webhook.ModerationRule{ID: "rule-2", Name: "Custom check", RevisionID: "rev-1"},
					Condition: webhook.FailedCondition{Entity: "message", Operand: "text", Category: "custom", Operator: "matches",
						Message: "blocked", ListID: "list-1", Threshold: &webhook.Threshold{Comparison: "gte", Percent: 80}},
					Request: webhook.EngineRequest{URL: "https://moderation.example.com/check", Method: "POST", BodyBytes: 512, BasicAuthSent: true},
				},
			}, e.Failures[0])
		}},

		{webhook.TriggerAfterCampaignCompleted, checkCampaign("completed")},
		{webhook.TriggerAfterCampaignFailed, checkCampaign("failed")},
		{webhook.TriggerAfterNotificationCreated, func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.NotificationCreatedEvent](t, ev)
			assert.Equal(t, &webhook.NotificationCreatedEvent{
				Base:           e.Base,
				NotificationID: "n-1", AppID: "app-1", TemplateID: "tpl-1", TemplateVersion: 2, Category: "promo", Label: "Promo",
				Tags: []string{"a", "b"}, SendMode: "batch", CampaignID: "camp-1", Priority: "high", Channels: []string{"in_app", "push"},
				DataType: "template", Status: "dispatching", TotalTargets: 100,
				CreatedAt: webhook.Time{Time: time.Date(2024, 1, 15, 9, 30, 0, 0, time.UTC)},
			}, e)
		}},
		{webhook.TriggerAfterFeedItemSent, checkFeedItem("sent")},
		{webhook.TriggerAfterFeedItemDelivered, checkFeedItem("delivered")},
		{webhook.TriggerAfterFeedItemRead, checkFeedItem("read")},
		{webhook.TriggerAfterFeedItemInteracted, checkFeedItem("interacted")},
		{webhook.TriggerAfterPushNotificationSent, checkPush("sent")},
		{webhook.TriggerAfterPushNotificationDelivered, checkPush("delivered")},
		{webhook.TriggerAfterPushNotificationClicked, checkPush("clicked")},
	}
}

// TestDecodeEveryTrigger decodes a delivery of each trigger into its
// typed event, and checks that the event keeps its envelope.
func TestDecodeEveryTrigger(t *testing.T) {
	cases := decodeCases()
	seen := map[webhook.Trigger]bool{}
	for _, tc := range cases {
		t.Run(string(tc.trigger), func(t *testing.T) {
			seen[tc.trigger] = true
			assert.True(t, tc.trigger.Known())
			data := payload(t, tc.trigger)
			body := envelope(tc.trigger, data)
			ev, err := webhook.Decode([]byte(body))
			require.NoError(t, err)
			assert.Equal(t, tc.trigger, ev.Trigger())
			env := ev.Envelope()
			require.NotNil(t, env)
			assert.Equal(t, string(tc.trigger), env.Trigger)
			assert.Equal(t, "app-1", env.AppID)
			assert.Equal(t, "us", env.Region)
			assert.Equal(t, "hook-1", env.Webhook)
			assert.JSONEq(t, data, string(env.Data), "the data as sent")
			tc.check(t, ev)
		})
	}
	// The table covers the 48 subscribable triggers, user_mentioned and
	// a bot's after_message.
	assert.Len(t, webhook.Triggers(), 48)
	for _, tr := range webhook.Triggers() {
		assert.Truef(t, seen[tr], "no case for %s", tr)
	}
	assert.Len(t, seen, 50)
	assert.NotContains(t, webhook.Triggers(), webhook.TriggerUserMentioned)
	assert.NotContains(t, webhook.Triggers(), webhook.TriggerAfterMessage)
}

func TestDecodeCallType(t *testing.T) {
	for trigger, want := range map[webhook.Trigger]string{
		webhook.TriggerCallStarted:    "call",
		webhook.TriggerMeetingStarted: "meet",
	} {
		ev, err := webhook.Decode([]byte(envelope(trigger, payload(t, webhook.TriggerCallStarted))))
		require.NoError(t, err)
		assert.Equal(t, want, ev.Envelope().Type)
	}
}

func TestDecodeUnknownTrigger(t *testing.T) {
	const data = `{"anything":[1,2,{"x":"y"}]}`
	ev, err := webhook.Decode([]byte(envelope("poll_created", data)))
	require.NoError(t, err)
	u := as[*webhook.UnknownEvent](t, ev)
	assert.Equal(t, webhook.Trigger("poll_created"), u.Trigger())
	assert.False(t, u.Trigger().Known())
	assert.JSONEq(t, data, string(u.Envelope().Data))
	assert.Equal(t, "hook-1", u.Envelope().Webhook)

	// Not even data that is not an object makes an unknown trigger fail.
	ev, err = webhook.Decode([]byte(`{"trigger":"future_thing","data":"text"}`))
	require.NoError(t, err)
	assert.Equal(t, `"text"`, string(as[*webhook.UnknownEvent](t, ev).Envelope().Data))
}

func TestDecodeInvalid(t *testing.T) {
	for name, body := range map[string]string{
		"empty":                     ``,
		"not JSON":                  `trigger=message_sent`,
		"an array":                  `[{"trigger":"message_sent"}]`,
		"truncated":                 `{"trigger":"message_sent","data":{"message":`,
		"no trigger":                `{"data":{}}`,
		"data not an object":        `{"trigger":"message_sent","data":[1]}`,
		"message not an object":     `{"trigger":"message_sent","data":{"message":"hi"}}`,
		"wrong type beyond lenient": `{"trigger":"group_created","data":{"members":["a","b"]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			ev, err := webhook.Decode([]byte(body))
			require.ErrorIs(t, err, webhook.ErrInvalidPayload)
			assert.Nil(t, ev)
			assert.Equal(t, 400, webhook.StatusCode(err))
		})
	}
	// A known trigger's bad data names the trigger.
	_, err := webhook.Decode([]byte(`{"trigger":"group_created","data":{"members":["a"]}}`))
	var pe *webhook.PayloadError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, webhook.TriggerGroupCreated, pe.Trigger)
	assert.Contains(t, err.Error(), "group_created")
}

func TestDecodeMissingData(t *testing.T) {
	// A known trigger without data decodes to its empty event.
	for _, body := range []string{`{"trigger":"call_started"}`, `{"trigger":"call_started","data":null}`} {
		ev, err := webhook.Decode([]byte(body))
		require.NoError(t, err)
		e := as[*webhook.SessionStartedEvent](t, ev)
		assert.Empty(t, e.SessionID)
	}
}

func TestDecodeLenientNumbers(t *testing.T) {
	// Numbers as strings and strings as numbers, both ways.
	body := envelope(webhook.TriggerRecordingGenerated,
		`{"recordingDate":"2023-10-10","duration":12.5,"startTime":1696934692,"sessionId":123}`)
	ev, err := webhook.Decode([]byte(body))
	require.NoError(t, err)
	e := as[*webhook.RecordingEvent](t, ev)
	assert.Equal(t, webhook.Seconds(12.5), e.Duration)
	assert.Equal(t, chat.Timestamp(1696934692), e.StartTime)
	assert.Equal(t, "123", e.SessionID)

	body = envelope(webhook.TriggerUserConnectionStatusChanged, `{"timestamp":"1696935500123","userPresenceChanged":"true","currentConnection":{"connectedAt":"1696935000456"}}`)
	ev, err = webhook.Decode([]byte(body))
	require.NoError(t, err)
	c := as[*webhook.UserConnectionEvent](t, ev)
	assert.Equal(t, webhook.Millis(1696935500123), c.Timestamp)
	assert.True(t, c.UserPresenceChanged)
	assert.Equal(t, webhook.Millis(1696935000456), c.CurrentConnection.ConnectedAt)
}

func TestTime(t *testing.T) {
	for in, want := range map[string]time.Time{
		`1696932000`:                 time.Unix(1696932000, 0),
		`"1696932000"`:               time.Unix(1696932000, 0),
		`1696932000500`:              time.UnixMilli(1696932000500),
		`1696932000.9`:               time.Unix(1696932000, 0),
		`"2024-01-15T09:30:00.250Z"`: time.Date(2024, 1, 15, 9, 30, 0, 250e6, time.UTC),
		`null`:                       {},
		`""`:                         {},
		`"next tuesday"`:             {},
		`true`:                       {},
	} {
		var got webhook.Time
		require.NoError(t, json.Unmarshal([]byte(in), &got), in)
		assert.Truef(t, want.Equal(got.Time), "%s: got %v, want %v", in, got.Time, want)
	}
	// Encoding reads back the same.
	for _, tm := range []time.Time{time.Unix(1696932000, 0), time.UnixMilli(1696932000500), {}} {
		b, err := json.Marshal(webhook.Time{Time: tm})
		require.NoError(t, err)
		var back webhook.Time
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Truef(t, tm.Equal(back.Time), "%s", b)
	}
	b, _ := json.Marshal(webhook.Time{})
	assert.Equal(t, "null", string(b))
	assert.True(t, webhook.Millis(0).Time().IsZero())
}
