package webhook

import (
	"encoding/json"
	"strings"

	"github.com/chatrest/chat"
)

// Event is a decoded delivery. Its dynamic type says what the payload
// holds; switch on it, or on Trigger when one type serves several
// triggers:
//
//	switch ev := ev.(type) {
//	case *webhook.MessageEvent:
//		// ev.Message is the message sent.
//	case *webhook.GroupEvent:
//		// ev.Trigger() says what happened to ev.Group.
//	case *webhook.UnknownEvent:
//		// A trigger this package does not know: ev.Envelope().Data.
//	}
//
// Every event type embeds [Base], so every event keeps the envelope it came
// in, raw data included. Events are pointers: *MessageEvent, not
// MessageEvent.
type Event interface {
	// Trigger returns the trigger that fired.
	Trigger() Trigger
	// Envelope returns the delivery the event came in: the app, region
	// and webhook it is for, and its data as sent.
	Envelope() *Envelope
}

// Base is embedded in every event type. It keeps the delivery's envelope
// and its data as sent, and gives the event its [Event] methods.
type Base struct {
	// Delivery is the envelope the event came in. [Decode] sets it; it is
	// nil in an event built by hand.
	Delivery *Envelope `json:"-"`
	// Raw is the event's data as sent (the envelope's data), members the
	// event type does not model included: read from it what the service
	// sends beyond the event's fields. [Decode] sets it; it is not
	// encoded.
	Raw json.RawMessage `json:"-"`
}

// Trigger returns the delivery's trigger, or "" when there is no
// delivery.
func (b *Base) Trigger() Trigger {
	if b.Delivery == nil {
		return ""
	}
	return Trigger(b.Delivery.Trigger)
}

// Envelope returns the delivery the event came in, nil in an event built
// by hand.
func (b *Base) Envelope() *Envelope { return b.Delivery }

func (b *Base) base() *Base { return b }

// MessageEvent is a message_sent delivery, and a user_mentioned one: the
// message, with its entities (sender and receiver) in Message.Data.Entities.
type MessageEvent struct {
	Base
	// Message is the message sent.
	Message chat.Message `json:"message"`
	// Mentions are the users the message mentions, by UID: the message's
	// Data.Mentions (the text shows them as <@uid:...>). Nil when it
	// mentions nobody.
	Mentions map[string]chat.User `json:"-"`
}

// BotMessageEvent is a bot's after_message delivery: a message sent to
// the bot, or in a group the bot is relayed. The envelope names the bot
// (Bot), the client the message came from (Origin) and the chat API's
// version (ChatAPIVersion).
type BotMessageEvent struct {
	Base
	// Message is the message, with its entities (sender and receiver) in
	// Message.Data.Entities.
	Message chat.Message
}

// MarshalJSON encodes the event as the service sends its data: the
// message itself.
func (e *BotMessageEvent) MarshalJSON() ([]byte, error) { return json.Marshal(e.Message) }

// MessageActionEvent is a message_edited or message_deleted delivery: an
// action message (category "action", type "message") whose data says what
// happened ("edited" or "deleted"), who did it and to which message.
type MessageActionEvent struct {
	Base
	// Message is the action message the service emitted.
	Message chat.Message `json:"message"`
	// Target is the message edited (with EditedAt and EditedBy) or deleted
	// (with DeletedAt and DeletedBy), decoded from the action's
	// data.entities.on; nil when the payload does not carry it.
	Target *chat.Message `json:"-"`
	// By is who edited or deleted it, decoded from data.entities.by; nil
	// when the payload does not carry it.
	By *chat.User `json:"-"`
}

// Action returns what happened to the message: "edited" or "deleted"
// ([chat.ActionEdited], [chat.ActionDeleted]).
func (e *MessageActionEvent) Action() string { return e.Message.Data.Action }

// ReceiptEvent is a message_delivery_receipt or message_read_receipt
// delivery: a user's device received, or the user read, a message; or a
// message_delivered_to_all or message_read_by_all delivery: with that
// receipt, every recipient of the message has received, or read, it.
//
// Sender and MessageSender are UIDs.
type ReceiptEvent struct {
	Base
	// Receiver is the receipt's receiver: a UID or GUID.
	Receiver string `json:"receiver"`
	// ReceiverType says whether Receiver is a user or a group.
	ReceiverType chat.ReceiverType `json:"receiverType"`
	// Type is "receipts".
	Type string `json:"type"`
	// Sender is who sent the receipt: the user who received or read the
	// message (for the *_to_all and *_by_all triggers, the last of its
	// recipients to do so).
	Sender string `json:"sender"`
	// MessageSender is who sent the message the receipt is about.
	MessageSender string `json:"messageSender"`
	// Body is the receipt.
	Body Receipt `json:"body"`
}

// Receipt is the body of a [ReceiptEvent].
type Receipt struct {
	// Action is [ReceiptDelivered] or [ReceiptRead]; [ReceiptDeliveredToAll]
	// or [ReceiptReadByAll] for the *_to_all and *_by_all triggers.
	Action string `json:"action"`
	// MessageID is the id of the message delivered or read.
	MessageID string `json:"messageId"`
	// User is who received or read it (uid, name, status, hasBlockedMe,
	// deactivatedAt).
	User chat.User `json:"user"`
	// Timestamp is when.
	Timestamp chat.Timestamp `json:"timestamp"`
}

// Receipt actions, in [Receipt.Action].
const (
	ReceiptDelivered      = "delivered"
	ReceiptRead           = "read"
	ReceiptDeliveredToAll = "deliveredToAll"
	ReceiptReadByAll      = "readByAll"
)

// ReactionEvent is a message_reaction_added or message_reaction_removed
// delivery.
type ReactionEvent struct {
	Base
	// Reaction is the reaction added or removed, with who reacted.
	Reaction chat.Reaction `json:"reaction"`
}

// UserConnectionEvent is a user_connection_status_changed delivery: a user
// connected or disconnected. Its times are Unix milliseconds.
type UserConnectionEvent struct {
	Base
	// Timestamp is when the change happened (milliseconds).
	Timestamp Millis `json:"timestamp"`
	// User is the user (uid, name, status, role).
	User chat.User `json:"user"`
	// Status is the user's presence after the change.
	Status chat.UserStatus `json:"status"`
	// CurrentConnection is the connection that changed.
	CurrentConnection Connection `json:"currentConnection"`
	// UserPresenceChanged reports whether the user's presence changed: a
	// user with several connections stays online when one of them closes.
	UserPresenceChanged bool `json:"userPresenceChanged"`
}

// Connection is one of a user's connections, in a [UserConnectionEvent].
type Connection struct {
	// Action is what happened to it, e.g. "connected" or "disconnected".
	Action string `json:"action"`
	// Platform is the client's platform, as the service names it.
	Platform string `json:"platform"`
	// ConnectedAt is when the connection opened (milliseconds).
	ConnectedAt Millis `json:"connectedAt"`
	// AppInfo describes the client that connected.
	AppInfo AppInfo `json:"appInfo,omitzero"`
	// UserAgent is the client's user agent.
	UserAgent string `json:"userAgent,omitempty"`
}

// AppInfo is the client of a [Connection], as it described itself.
type AppInfo struct {
	// Version is the client SDK's version, e.g. "4.0.11".
	Version string `json:"version,omitempty"`
	// APIVersion is the chat API version the client uses, e.g. "3.0".
	APIVersion string `json:"apiVersion,omitempty"`
	// Origin is the web page's origin the client ran in, e.g.
	// "https://app.example.com".
	Origin string `json:"origin,omitempty"`
	// UTS is the client's clock when it connected (milliseconds).
	UTS Millis `json:"uts,omitempty"`
	// ClientIP is the client's IP address, as the service saw it.
	ClientIP string `json:"clientIp,omitempty"`
}

// BlockEvent is a user_blocked or user_unblocked delivery.
type BlockEvent struct {
	Base
	// Users are the users blocked or unblocked, by UID (uid, name).
	Users map[string]chat.User `json:"users"`
	// By is who blocked or unblocked them (uid, name).
	By chat.User `json:"by"`
}

// GroupEvent is the delivery of every group trigger: group_created,
// group_updated, group_deleted, group_owner_transferred and the
// group_member_* triggers. Trigger says which.
type GroupEvent struct {
	Base
	// Group is the group, as it is after the change.
	Group Group `json:"group"`
	// Members are the members concerned, by UID: the members at creation,
	// or those who joined, left, or were added, kicked, banned, unbanned or
	// given a new scope. Nil for group_updated, group_deleted and
	// group_owner_transferred.
	Members map[string]Member `json:"members"`
	// By is who added, kicked, banned, unbanned or changed the scope of the
	// members; nil for the other triggers.
	By *chat.User `json:"by"`
}

// Group is a group in a [GroupEvent]: a [chat.Group] with the fields only
// webhooks carry.
type Group struct {
	chat.Group
	// OnlineMembersCount is how many members are online (group_updated,
	// group_deleted, group_owner_transferred).
	OnlineMembersCount int `json:"onlineMembersCount,omitempty"`
	// OldOwner is the previous owner's UID (group_owner_transferred).
	OldOwner string `json:"oldOwner,omitempty"`
}

// Member is a member in a [GroupEvent]: a [chat.GroupMember] with its
// previous scope on group_member_scope_changed.
type Member struct {
	chat.GroupMember
	// OldScope is the member's scope before group_member_scope_changed;
	// Scope is the new one.
	OldScope chat.MemberScope `json:"oldScope,omitempty"`
}

// CallEvent is a call_initiated delivery: the call, which is a message of
// category "call" and type "audio" or "video" whose Data.Action is
// "initiated". Its envelope's Type is "call".
type CallEvent struct {
	Base
	// Call is the call message.
	Call chat.Message `json:"call"`
}

// SessionStartedEvent is a call_started or meeting_started delivery.
type SessionStartedEvent struct {
	Base
	// SessionID is the call's session.
	SessionID string `json:"sessionId"`
	// CreatedAt is when the session started.
	CreatedAt chat.Timestamp `json:"created_at"`
}

// ParticipantEvent is a call_participant_joined, call_participant_left,
// meeting_participant_joined or meeting_participant_left delivery.
type ParticipantEvent struct {
	Base
	// SessionID is the call's session.
	SessionID string `json:"sessionId"`
	// Occupant is who joined or left.
	Occupant Occupant `json:"occupant"`
	// InitialConfig is how the participant's client joined the call
	// (call_participant_joined); nil when the payload carries none.
	InitialConfig *CallConfig `json:"initial_config,omitempty"`
}

// CallConfig is the configuration a participant joined a call with. The
// service sends every member as a string.
type CallConfig struct {
	// IsAudioMuted says whether the participant joined muted.
	IsAudioMuted Flag `json:"is_audio_muted,omitempty"`
	// IsVideoMuted says whether the participant joined with the camera off.
	IsVideoMuted Flag `json:"is_video_muted,omitempty"`
	// IsAudioOnly says whether the participant joined audio only.
	IsAudioOnly Flag `json:"is_audio_only,omitempty"`
	// Mode is the call's layout mode, as the service names it.
	Mode string `json:"mode,omitempty"`
	// SDK is the calls SDK the participant's client uses.
	SDK string `json:"sdk,omitempty"`
	// Platform is the participant's platform.
	Platform string `json:"platform,omitempty"`
	// CallVersion is the version of the calls service the call runs on.
	CallVersion string `json:"call_version,omitempty"`
	// StartRecordingOnCallStart says whether the call is recorded from its
	// start.
	StartRecordingOnCallStart Flag `json:"start_recording_on_call_start,omitempty"`
}

// Flag is a yes-or-no value the service sends as a string: "true" or
// "false". Any value decodes; [Flag.Bool] reads it.
type Flag string

// Bool reports whether f is "true" or "1" (ignoring case and spaces).
func (f Flag) Bool() bool {
	switch strings.ToLower(strings.TrimSpace(string(f))) {
	case "true", "1":
		return true
	}
	return false
}

// Occupant is a participant of a call session.
type Occupant struct {
	// Name is the participant's name.
	Name string `json:"name"`
	// JoinedAt is when they joined.
	JoinedAt chat.Timestamp `json:"joined_at"`
	// LeftAt is when they left; zero while they are in the call.
	LeftAt chat.Timestamp `json:"left_at,omitempty"`
	// AudioCall reports whether they joined audio-only. The service sends
	// it as a string, "true" or "false".
	AudioCall bool `json:"audio_call"`
}

// SessionEndedEvent is a call_ended or meeting_ended delivery.
type SessionEndedEvent struct {
	Base
	// SessionID is the call's session.
	SessionID string `json:"sessionId"`
	// AllOccupants are everyone who took part.
	AllOccupants []Occupant `json:"all_occupants"`
	// CreatedAt is when the session started.
	CreatedAt chat.Timestamp `json:"created_at"`
	// DestroyedAt is when it ended.
	DestroyedAt chat.Timestamp `json:"destroyed_at"`
}

// RecordingEvent is a recording_generated delivery: a call's recording is
// ready. The service sends its numbers as strings; they decode here.
type RecordingEvent struct {
	Base
	// SessionID is the call's session.
	SessionID string `json:"sessionId"`
	// RecordingURL is where to download the recording.
	RecordingURL string `json:"recording_url"`
	// RecordingDate is the recording's day, "YYYY-MM-DD".
	RecordingDate string `json:"recordingDate"`
	// Duration is the recording's length (sent as e.g. "21.433000").
	Duration Seconds `json:"duration"`
	// StartTime is when the recording started (sent as a string of Unix
	// seconds).
	StartTime chat.Timestamp `json:"startTime"`
}

// TranscriptionEvent is a transcription_generated delivery: a call's
// transcript is ready.
type TranscriptionEvent struct {
	Base
	// SessionID is the call's session.
	SessionID string `json:"sessionId"`
	// TID is the transcript's id.
	TID string `json:"tid"`
	// TranscriptURL is where to download the transcript.
	TranscriptURL string `json:"transcript_url"`
	// TranscriptDate is the transcript's date as sent (the calls API
	// sends an ISO-8601 string).
	TranscriptDate string `json:"transcriptDate"`
	// StartTime is when the transcribed part of the call starts, an
	// integer kept as sent.
	StartTime int64 `json:"startTime"`
	// EndTime is when it ends, in the unit of StartTime.
	EndTime int64 `json:"endTime"`
}

// ModerationEvent is a moderation_engine_approved,
// moderation_engine_blocked or moderation_manual_approved delivery: the
// message judged, with its verdict in Message.Data.Moderation.
type ModerationEvent struct {
	Base
	// Message is the message, its moderation status in
	// Data.Moderation.Status ("approved" or "disapproved").
	Message chat.Message `json:"message"`
	// Moderation are the rules that matched, each by the condition or the
	// filter that did (moderation_engine_approved,
	// moderation_manual_approved).
	Moderation []ModerationMatch `json:"moderation,omitempty"`
	// Reviewed reports whether a moderator reviewed the message, on
	// moderation_manual_approved.
	Reviewed bool `json:"reviewed,omitempty"`
}

// Status returns the message's moderation status ("approved",
// "disapproved"), or "" when the payload carries none.
func (e *ModerationEvent) Status() string {
	if e.Message.Data.Moderation == nil {
		return ""
	}
	return e.Message.Data.Moderation.Status
}

// ModerationMatch is a rule that matched a message, in a
// [ModerationEvent]: by one of its conditions, or by one of its filters.
type ModerationMatch struct {
	// Condition is the condition that matched; zero when a filter did.
	Condition ModerationCondition `json:"condition,omitzero"`
	// Filter is the filter that matched; nil when a condition did.
	Filter *ModerationFilter `json:"filter,omitempty"`
	// Rule is the rule it belongs to.
	Rule ModerationRule `json:"rule"`
}

// ModerationFilter is a moderation rule's filter as a webhook reports it:
// the rule applies to messages whose sender or receiver matches (see
// [chat.RuleFilter]). Value is kept as JSON.
type ModerationFilter struct {
	// ObjectID is the filter's storage id ("_id").
	ObjectID string `json:"_id,omitempty"`
	// Type is the party the filter looks at: "sender" or "receiver".
	Type chat.RuleFilterType `json:"type,omitempty"`
	// Entity is "user" or "group".
	Entity chat.RuleFilterEntity `json:"entity,omitempty"`
	// Operand is the property compared, e.g. "uid" or "role".
	Operand string `json:"operand,omitempty"`
	// Operator is the comparison, e.g. "equals".
	Operator chat.RuleFilterOperator `json:"operator,omitempty"`
	// Value is what the operand is compared with, as sent.
	Value json.RawMessage `json:"value,omitempty"`
}

// ModerationCondition is a moderation rule's condition as a webhook
// reports it. Value, SimilarityValue, DisallowedSentences, Prompts and
// Weight are kept as JSON.
type ModerationCondition struct {
	// ID is the condition's id.
	ID string `json:"id,omitempty"`
	// ObjectID is the condition's storage id ("_id").
	ObjectID string `json:"_id,omitempty"`
	// Entity is what the condition looks at, e.g. "message".
	Entity string `json:"entity,omitempty"`
	// Operand is the part of it, e.g. "text".
	Operand string `json:"operand,omitempty"`
	// Category is the kind of check, e.g. "keyword".
	Category string `json:"category,omitempty"`
	// Operator is how Value is compared, e.g. "contains".
	Operator string `json:"operator,omitempty"`
	// Value is what the operand is compared with (a JSON array).
	Value json.RawMessage `json:"value,omitempty"`
	// Message is the condition's message.
	Message string `json:"message,omitempty"`
	// IsKeywordsReferencePresent reports whether the condition refers to
	// a keyword list.
	IsKeywordsReferencePresent bool `json:"isKeywordsReferencePresent,omitempty"`
	// IsMediaPresent reports whether the condition checks media.
	IsMediaPresent bool `json:"isMediaPresent,omitempty"`
	// SimilarityValue is the similarity threshold of similarity checks.
	SimilarityValue json.RawMessage `json:"similarityValue,omitempty"`
	// DisallowedSentences are the sentences of similarity checks (a JSON
	// array).
	DisallowedSentences json.RawMessage `json:"disallowedSentences,omitempty"`
	// BasicAuthEnabled reports whether a custom API check sends Basic auth.
	BasicAuthEnabled bool `json:"basicAuthEnabled,omitempty"`
	// Prompts are the prompts of AI checks (a JSON array).
	Prompts json.RawMessage `json:"prompts,omitempty"`
	// Weight is the condition's weight.
	Weight json.RawMessage `json:"weight,omitempty"`
}

// ModerationRule names the rule of a [ModerationMatch].
type ModerationRule struct {
	// ID is the rule's id.
	ID string `json:"id,omitempty"`
	// Name is the rule's name.
	Name string `json:"name,omitempty"`
	// RevisionID is the rule revision that matched.
	RevisionID string `json:"revisionId,omitempty"`
	// Action are the rule's actions, e.g. "blockMessage".
	Action []string `json:"action,omitempty"`
	// BlockedAt is when the rule blocked the message.
	BlockedAt chat.Timestamp `json:"blockedAt,omitempty"`
}

// ModerationFailedEvent is a moderation_engine_failed delivery: a
// moderation engine, such as a custom moderation API, could not judge a
// message, and the rule's setting decided its fate.
type ModerationFailedEvent struct {
	Base
	// Resource is the message concerned (id, conversationId, sender,
	// receiverType, receiver, category, type, sentAt).
	Resource chat.Message `json:"resource"`
	// ContentType is the kind of content judged, as the service names it.
	ContentType string `json:"contentType"`
	// Outcome is what happened to the message, as the service names it.
	Outcome string `json:"outcome"`
	// CompletedAt is when moderation gave up.
	CompletedAt Time `json:"completedAt"`
	// Failures are the engine calls that failed.
	Failures []ModerationFailure `json:"failures"`
}

// ModerationFailure is a failed call to a moderation engine.
type ModerationFailure struct {
	// Category is the kind of failure, e.g. "http_5xx".
	Category string `json:"category"`
	// HTTPStatus is the engine's HTTP status, when it answered.
	HTTPStatus int `json:"httpStatus"`
	// ErrorMessage describes the failure.
	ErrorMessage string `json:"errorMessage"`
	// ResponseBody is (the start of) the engine's answer.
	ResponseBody string `json:"responseBody"`
	// ResponseBodyTruncated reports whether ResponseBody was cut.
	ResponseBodyTruncated bool `json:"responseBodyTruncated"`
	// TimeoutMs is the call's timeout, in milliseconds.
	TimeoutMs int64 `json:"timeoutMs"`
	// FailedAt is when the call failed.
	FailedAt Time `json:"failedAt"`
	// Context says which engine, rule and condition were involved.
	Context FailureContext `json:"context"`
}

// FailureContext is the context of a [ModerationFailure].
type FailureContext struct {
	// Engine is the engine called, e.g. "custom_api".
	Engine string `json:"engine"`
	// Setting is what the rule does on failure: "approve-message" or
	// "drop-message".
	Setting string `json:"setting"`
	// Rule is the rule being applied.
	Rule ModerationRule `json:"rule"`
	// Condition is the condition being checked.
	Condition FailedCondition `json:"condition"`
	// Request is the call made to the engine.
	Request EngineRequest `json:"request"`
}

// FailedCondition is the condition checked when a moderation engine
// failed.
type FailedCondition struct {
	// Entity is what the condition looks at, e.g. "message".
	Entity string `json:"entity,omitempty"`
	// Operand is the part of it, e.g. "text".
	Operand string `json:"operand,omitempty"`
	// Category is the kind of check.
	Category string `json:"category,omitempty"`
	// Operator is how the operand is judged.
	Operator string `json:"operator,omitempty"`
	// Message is the condition's message.
	Message string `json:"message,omitempty"`
	// ListID is the keyword list the condition uses, if any.
	ListID string `json:"listId,omitempty"`
	// Threshold is the confidence needed for a match, if any.
	Threshold *Threshold `json:"threshold,omitempty"`
}

// Threshold is a condition's confidence threshold.
type Threshold struct {
	// Comparison is how the confidence is compared, as the service names it.
	Comparison string `json:"comparison"`
	// Percent is the threshold, in percent.
	Percent float64 `json:"percent"`
}

// EngineRequest is the call made to a moderation engine. The credentials
// are never included; BasicAuthSent says whether some were sent.
type EngineRequest struct {
	// URL is the engine's address.
	URL string `json:"url"`
	// Method is the HTTP method used.
	Method string `json:"method"`
	// BodyBytes is the size of the request body.
	BodyBytes int64 `json:"bodyBytes"`
	// BasicAuthSent reports whether Basic auth credentials were sent.
	BasicAuthSent bool `json:"basicAuthSent"`
}

// CampaignEvent is an after_campaign_completed or after_campaign_failed
// delivery.
type CampaignEvent struct {
	Base
	// CampaignID is the campaign's id.
	CampaignID string `json:"campaignId"`
	// AppID is the app's id.
	AppID string `json:"appId"`
	// Name is the campaign's name.
	Name string `json:"name"`
	// Status is the campaign's status, e.g. "completed" or "failed".
	Status string `json:"status"`
	// TemplateID is the template the campaign sends.
	TemplateID string `json:"templateId"`
	// TemplateVersion is the template's version.
	TemplateVersion int `json:"templateVersion"`
	// TotalTargets is how many users the campaign targets.
	TotalTargets int `json:"totalTargets"`
	// SentCount is how many it was sent to.
	SentCount int `json:"sentCount"`
	// FailedCount is how many sends failed.
	FailedCount int `json:"failedCount"`
	// Tag is the campaign's analytics tag.
	Tag string `json:"tag"`
	// ScheduledAt is when the campaign was scheduled for.
	ScheduledAt Time `json:"scheduledAt"`
	// SentAt is when it was sent.
	SentAt Time `json:"sentAt"`
	// CompletedAt is when it completed.
	CompletedAt Time `json:"completedAt"`
	// CreatedAt is when it was created.
	CreatedAt Time `json:"createdAt"`
	// UpdatedAt is when it last changed.
	UpdatedAt Time `json:"updatedAt"`
}

// NotificationCreatedEvent is an after_notification_created delivery: a
// notification was created and starts dispatching.
type NotificationCreatedEvent struct {
	Base
	// NotificationID is the notification's id.
	NotificationID string `json:"notificationId"`
	// AppID is the app's id.
	AppID string `json:"appId"`
	// TemplateID is the template the notification uses.
	TemplateID string `json:"templateId"`
	// TemplateVersion is the template's version.
	TemplateVersion int `json:"templateVersion"`
	// Category is the notification's category.
	Category string `json:"category"`
	// Label is the notification's label.
	Label string `json:"label"`
	// Tags are the notification's tags.
	Tags []string `json:"tags"`
	// SendMode is how it is sent, as the service names it.
	SendMode string `json:"sendMode"`
	// CampaignID is the campaign the notification belongs to, if any.
	CampaignID string `json:"campaignId"`
	// Priority is the notification's priority, as the service names it.
	Priority string `json:"priority"`
	// Channels are the channels it goes out on, e.g. "in_app", "push".
	Channels []string `json:"channels"`
	// DataType is the kind of content, as the service names it.
	DataType string `json:"dataType"`
	// Status is the notification's status.
	Status string `json:"status"`
	// TotalTargets is how many users it targets.
	TotalTargets int `json:"totalTargets"`
	// SentCount is how many it was sent to so far.
	SentCount int `json:"sentCount"`
	// FailedCount is how many sends failed so far.
	FailedCount int `json:"failedCount"`
	// CreatedAt is when it was created.
	CreatedAt Time `json:"createdAt"`
}

// FeedItemEvent is an after_feed_item_sent, after_feed_item_delivered,
// after_feed_item_read or after_feed_item_interacted delivery: an in-app
// feed item's progress. Its times are zero until they happen. Variables,
// Metadata, RealtimeFanout and Content are kept as JSON, whatever their
// shape.
type FeedItemEvent struct {
	Base
	// ID is the feed item's id.
	ID string `json:"id"`
	// AppID is the app's id.
	AppID string `json:"appId"`
	// NotificationID is the notification the item delivers.
	NotificationID string `json:"notificationId"`
	// CampaignID is the campaign it belongs to, if any.
	CampaignID string `json:"campaignId"`
	// Receiver is the UID of the user the item is for.
	Receiver string `json:"receiver"`
	// TemplateID is the template the item uses.
	TemplateID string `json:"templateId"`
	// TemplateVersion is the template's version.
	TemplateVersion int `json:"templateVersion"`
	// ChannelType is "in_app".
	ChannelType string `json:"channelType"`
	// ChannelID is the channel's id.
	ChannelID string `json:"channelId"`
	// TemplateCategory is the template's category.
	TemplateCategory string `json:"templateCategory"`
	// CategoryID is the feed category's id.
	CategoryID string `json:"categoryId"`
	// Label is the item's label.
	Label string `json:"label"`
	// Tags are the item's tags.
	Tags []string `json:"tags"`
	// AlternativeText is the item's plain-text version.
	AlternativeText string `json:"alternativeText"`
	// DataType is the kind of content, as the service names it.
	DataType string `json:"dataType"`
	// Status is the item's status: sent, delivered, read or interacted.
	Status string `json:"status"`
	// SentAt is when the item was sent.
	SentAt Time `json:"sentAt"`
	// DeliveredAt is when it reached the user's device.
	DeliveredAt Time `json:"deliveredAt"`
	// ReadAt is when the user read it.
	ReadAt Time `json:"readAt"`
	// EngagedAt is when the user first engaged with it.
	EngagedAt Time `json:"engagedAt"`
	// InteractedAt is when the user interacted with it.
	InteractedAt Time `json:"interactedAt"`
	// Variables are the template's variables.
	Variables json.RawMessage `json:"variables,omitempty"`
	// Metadata is the item's metadata.
	Metadata json.RawMessage `json:"metadata,omitempty"`
	// RealtimeFanout says where the item was pushed in real time.
	RealtimeFanout json.RawMessage `json:"realtimeFanout,omitempty"`
	// Content is the item's content (on after_feed_item_sent).
	Content json.RawMessage `json:"content,omitempty"`
}

// PushNotificationEvent is an after_push_notification_sent,
// after_push_notification_delivered or after_push_notification_clicked
// delivery. Its times are zero until they happen. Variables and Metadata
// are kept as JSON, whatever their shape.
type PushNotificationEvent struct {
	Base
	// PushNotificationID is the push notification's id.
	PushNotificationID string `json:"pushNotificationId"`
	// AppID is the app's id.
	AppID string `json:"appId"`
	// NotificationID is the notification the push delivers.
	NotificationID string `json:"notificationId"`
	// CampaignID is the campaign it belongs to, if any.
	CampaignID string `json:"campaignId"`
	// Receiver is the UID of the user the notification is for.
	Receiver string `json:"receiver"`
	// TemplateID is the template the notification uses.
	TemplateID string `json:"templateId"`
	// TemplateVersion is the template's version.
	TemplateVersion int `json:"templateVersion"`
	// ChannelType is "push".
	ChannelType string `json:"channelType"`
	// ChannelID is the channel's id.
	ChannelID string `json:"channelId"`
	// Category is the notification's category.
	Category string `json:"category"`
	// Label is the notification's label.
	Label string `json:"label"`
	// Tags are the notification's tags.
	Tags []string `json:"tags"`
	// Tag is the campaign's analytics tag.
	Tag string `json:"tag"`
	// AlternativeText is the notification's plain-text version.
	AlternativeText string `json:"alternativeText"`
	// DataType is the kind of content, as the service names it.
	DataType string `json:"dataType"`
	// Status is the notification's status: sent, delivered, clicked or
	// failed.
	Status string `json:"status"`
	// SentAt is when the notification was sent.
	SentAt Time `json:"sentAt"`
	// DeliveredAt is when it reached the device.
	DeliveredAt Time `json:"deliveredAt"`
	// ClickedAt is when the user opened it.
	ClickedAt Time `json:"clickedAt"`
	// EngagedAt is when the user first engaged with it.
	EngagedAt Time `json:"engagedAt"`
	// FailedAt is when sending it failed.
	FailedAt Time `json:"failedAt"`
	// ErrorMessage says why sending failed.
	ErrorMessage string `json:"errorMessage"`
	// Variables are the template's variables.
	Variables json.RawMessage `json:"variables,omitempty"`
	// Metadata is the notification's metadata.
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// UnknownEvent is a delivery of a trigger this package does not know,
// such as one added to the service after this release. Its payload is in
// Envelope().Data, as sent.
type UnknownEvent struct {
	Base
}

// The members below are read on a best-effort basis: a value that is not
// an object, or does not fit, leaves them zero rather than costing the
// event, and stays readable in the event's Raw.

// UnmarshalJSON reads an object; any other value, or one that does not
// fit, leaves o zero.
func (o *Origin) UnmarshalJSON(b []byte) error {
	type plain Origin
	var v plain
	decodeObject(b, &v)
	*o = Origin(v)
	return nil
}

// UnmarshalJSON reads an object; any other value, or one that does not
// fit, leaves a zero.
func (a *AppInfo) UnmarshalJSON(b []byte) error {
	type plain AppInfo
	var v plain
	decodeObject(b, &v)
	*a = AppInfo(v)
	return nil
}

// UnmarshalJSON reads an object; any other value, or one that does not
// fit, leaves c zero.
func (c *CallConfig) UnmarshalJSON(b []byte) error {
	type plain CallConfig
	var v plain
	decodeObject(b, &v)
	*c = CallConfig(v)
	return nil
}

// UnmarshalJSON reads an object; any other value, or one that does not
// fit, leaves f zero.
func (f *ModerationFilter) UnmarshalJSON(b []byte) error {
	type plain ModerationFilter
	var v plain
	decodeObject(b, &v)
	*f = ModerationFilter(v)
	return nil
}
