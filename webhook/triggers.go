package webhook

// Trigger is a trigger id: what happened, as named in a delivery's
// "trigger" and in a webhook's subscriptions. Unknown ids are valid values:
// [Decode] turns them into an [UnknownEvent].
type Trigger string

// Message triggers.
const (
	// TriggerMessageSent fires after a message is sent: [MessageEvent].
	TriggerMessageSent Trigger = "message_sent"
	// TriggerMessageEdited fires after a message is edited: [MessageActionEvent].
	TriggerMessageEdited Trigger = "message_edited"
	// TriggerMessageDeleted fires after a message is deleted: [MessageActionEvent].
	TriggerMessageDeleted Trigger = "message_deleted"
	// TriggerMessageReactionAdded fires when a user reacts to a message: [ReactionEvent].
	TriggerMessageReactionAdded Trigger = "message_reaction_added"
	// TriggerMessageReactionRemoved fires when a user takes a reaction back: [ReactionEvent].
	TriggerMessageReactionRemoved Trigger = "message_reaction_removed"
	// TriggerMessageDeliveryReceipt fires when a message is marked delivered: [ReceiptEvent].
	TriggerMessageDeliveryReceipt Trigger = "message_delivery_receipt"
	// TriggerMessageReadReceipt fires when a message is marked read: [ReceiptEvent].
	TriggerMessageReadReceipt Trigger = "message_read_receipt"
	// TriggerMessageDeliveredToAll fires when every recipient of a message
	// has received it: [ReceiptEvent], its Body.Action
	// [ReceiptDeliveredToAll].
	TriggerMessageDeliveredToAll Trigger = "message_delivered_to_all"
	// TriggerMessageReadByAll fires when every recipient of a message has
	// read it: [ReceiptEvent], its Body.Action [ReceiptReadByAll].
	TriggerMessageReadByAll Trigger = "message_read_by_all"
)

// TriggerAfterMessage is the trigger of a bot's deliveries: a message the
// bot receives, [BotMessageEvent]. It goes to the bot's callback URL, not
// to webhooks: it is not in [Triggers], but its deliveries decode.
const TriggerAfterMessage Trigger = "after_message"

// User triggers.
const (
	// TriggerUserBlocked fires when a user blocks others: [BlockEvent].
	TriggerUserBlocked Trigger = "user_blocked"
	// TriggerUserUnblocked fires when a user unblocks others: [BlockEvent].
	TriggerUserUnblocked Trigger = "user_unblocked"
	// TriggerUserConnectionStatusChanged fires when a user connects or
	// disconnects: [UserConnectionEvent].
	TriggerUserConnectionStatusChanged Trigger = "user_connection_status_changed"
	// TriggerUserMentioned fires when a message mentions users:
	// [MessageEvent]. A webhook cannot subscribe to it; it is not in
	// [Triggers], but its deliveries decode.
	TriggerUserMentioned Trigger = "user_mentioned"
)

// Group triggers. Each delivers a [GroupEvent].
const (
	TriggerGroupCreated            Trigger = "group_created"
	TriggerGroupUpdated            Trigger = "group_updated"
	TriggerGroupDeleted            Trigger = "group_deleted"
	TriggerGroupMemberJoined       Trigger = "group_member_joined"
	TriggerGroupMemberLeft         Trigger = "group_member_left"
	TriggerGroupMemberAdded        Trigger = "group_member_added"
	TriggerGroupMemberKicked       Trigger = "group_member_kicked"
	TriggerGroupMemberBanned       Trigger = "group_member_banned"
	TriggerGroupMemberUnbanned     Trigger = "group_member_unbanned"
	TriggerGroupMemberScopeChanged Trigger = "group_member_scope_changed"
	TriggerGroupOwnerTransferred   Trigger = "group_owner_transferred"
)

// Call and meeting triggers. Calls are the ringing flow; meetings are call
// sessions joined directly.
const (
	// TriggerCallInitiated fires when a user calls a user or group: [CallEvent].
	TriggerCallInitiated Trigger = "call_initiated"
	// TriggerCallStarted fires when a call's session starts: [SessionStartedEvent].
	TriggerCallStarted Trigger = "call_started"
	// TriggerCallParticipantJoined fires when someone joins a call: [ParticipantEvent].
	TriggerCallParticipantJoined Trigger = "call_participant_joined"
	// TriggerCallParticipantLeft fires when someone leaves a call: [ParticipantEvent].
	TriggerCallParticipantLeft Trigger = "call_participant_left"
	// TriggerCallEnded fires when a call's session ends: [SessionEndedEvent].
	TriggerCallEnded Trigger = "call_ended"
	// TriggerMeetingStarted fires when a call session starts: [SessionStartedEvent].
	TriggerMeetingStarted Trigger = "meeting_started"
	// TriggerMeetingParticipantJoined fires when someone joins a session: [ParticipantEvent].
	TriggerMeetingParticipantJoined Trigger = "meeting_participant_joined"
	// TriggerMeetingParticipantLeft fires when someone leaves a session: [ParticipantEvent].
	TriggerMeetingParticipantLeft Trigger = "meeting_participant_left"
	// TriggerMeetingEnded fires when a call session ends: [SessionEndedEvent].
	TriggerMeetingEnded Trigger = "meeting_ended"
	// TriggerRecordingGenerated fires when a call's recording is ready: [RecordingEvent].
	TriggerRecordingGenerated Trigger = "recording_generated"
	// TriggerTranscriptionGenerated fires when a call's transcript is ready: [TranscriptionEvent].
	TriggerTranscriptionGenerated Trigger = "transcription_generated"
)

// Moderation triggers.
const (
	// TriggerModerationEngineApproved fires when the moderation engine
	// approves a message: [ModerationEvent].
	TriggerModerationEngineApproved Trigger = "moderation_engine_approved"
	// TriggerModerationEngineBlocked fires when the moderation engine
	// blocks a message: [ModerationEvent].
	TriggerModerationEngineBlocked Trigger = "moderation_engine_blocked"
	// TriggerModerationManualApproved fires when a moderator approves a
	// blocked message: [ModerationEvent].
	TriggerModerationManualApproved Trigger = "moderation_manual_approved"
	// TriggerModerationEngineFailed fires when a moderation engine (such as
	// a custom API) could not judge a message: [ModerationFailedEvent].
	TriggerModerationEngineFailed Trigger = "moderation_engine_failed"
)

// Campaign and notification triggers.
const (
	// TriggerAfterCampaignCompleted fires when a campaign has been sent to
	// all its targets: [CampaignEvent].
	TriggerAfterCampaignCompleted Trigger = "after_campaign_completed"
	// TriggerAfterCampaignFailed fires when a campaign fails: [CampaignEvent].
	TriggerAfterCampaignFailed Trigger = "after_campaign_failed"
	// TriggerAfterNotificationCreated fires when a notification is created
	// and starts dispatching: [NotificationCreatedEvent].
	TriggerAfterNotificationCreated Trigger = "after_notification_created"
	// TriggerAfterFeedItemSent fires when an in-app feed item is sent: [FeedItemEvent].
	TriggerAfterFeedItemSent Trigger = "after_feed_item_sent"
	// TriggerAfterFeedItemDelivered fires when a feed item reaches the user's device: [FeedItemEvent].
	TriggerAfterFeedItemDelivered Trigger = "after_feed_item_delivered"
	// TriggerAfterFeedItemRead fires when the user reads a feed item: [FeedItemEvent].
	TriggerAfterFeedItemRead Trigger = "after_feed_item_read"
	// TriggerAfterFeedItemInteracted fires when the user interacts with a feed item: [FeedItemEvent].
	TriggerAfterFeedItemInteracted Trigger = "after_feed_item_interacted"
	// TriggerAfterPushNotificationSent fires when a push notification is sent: [PushNotificationEvent].
	TriggerAfterPushNotificationSent Trigger = "after_push_notification_sent"
	// TriggerAfterPushNotificationDelivered fires when a push notification reaches the device: [PushNotificationEvent].
	TriggerAfterPushNotificationDelivered Trigger = "after_push_notification_delivered"
	// TriggerAfterPushNotificationClicked fires when the user opens a push notification: [PushNotificationEvent].
	TriggerAfterPushNotificationClicked Trigger = "after_push_notification_clicked"
)

// Triggers returns the 48 trigger ids a webhook can subscribe to, by area
// (messages, users, groups, calls and meetings, moderation, campaigns and
// notifications). [TriggerUserMentioned] and [TriggerAfterMessage] are not
// among them. The slice is new on every call.
func Triggers() []Trigger {
	return []Trigger{
		TriggerMessageSent, TriggerMessageEdited, TriggerMessageDeleted,
		TriggerMessageReactionAdded, TriggerMessageReactionRemoved,
		TriggerMessageDeliveryReceipt, TriggerMessageReadReceipt,
		TriggerMessageDeliveredToAll, TriggerMessageReadByAll,

		TriggerUserBlocked, TriggerUserUnblocked, TriggerUserConnectionStatusChanged,

		TriggerGroupCreated, TriggerGroupUpdated, TriggerGroupDeleted,
		TriggerGroupMemberJoined, TriggerGroupMemberLeft, TriggerGroupMemberAdded,
		TriggerGroupMemberKicked, TriggerGroupMemberBanned, TriggerGroupMemberUnbanned,
		TriggerGroupMemberScopeChanged, TriggerGroupOwnerTransferred,

		TriggerCallInitiated, TriggerCallStarted, TriggerCallParticipantJoined,
		TriggerCallParticipantLeft, TriggerCallEnded, TriggerMeetingStarted,
		TriggerMeetingParticipantJoined, TriggerMeetingParticipantLeft, TriggerMeetingEnded,
		TriggerRecordingGenerated, TriggerTranscriptionGenerated,

		TriggerModerationEngineApproved, TriggerModerationEngineBlocked,
		TriggerModerationManualApproved, TriggerModerationEngineFailed,

		TriggerAfterCampaignCompleted, TriggerAfterCampaignFailed, TriggerAfterNotificationCreated,
		TriggerAfterFeedItemSent, TriggerAfterFeedItemDelivered, TriggerAfterFeedItemRead,
		TriggerAfterFeedItemInteracted, TriggerAfterPushNotificationSent,
		TriggerAfterPushNotificationDelivered, TriggerAfterPushNotificationClicked,
	}
}

// Known reports whether t is one of the triggers this package decodes into
// a typed event: the 48 of [Triggers], [TriggerUserMentioned] and
// [TriggerAfterMessage].
func (t Trigger) Known() bool { return newEvent(t) != nil }
