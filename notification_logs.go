package chat

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
)

// NotificationChannel is how a notification is delivered. Unknown values
// decode as they are.
type NotificationChannel string

// Notification channels.
const (
	ChannelPush  NotificationChannel = "push"
	ChannelEmail NotificationChannel = "email"
	ChannelSMS   NotificationChannel = "sms"
)

// NotificationProviderType is the kind of provider that delivered a
// notification. Unknown values decode as they are.
type NotificationProviderType string

// Notification provider types.
const (
	ProviderFCM      NotificationProviderType = "fcm"
	ProviderAPNs     NotificationProviderType = "apns"
	ProviderSendGrid NotificationProviderType = "sendgrid"
	ProviderTwilio   NotificationProviderType = "twilio"
	ProviderCustom   NotificationProviderType = "custom"
)

// NotificationTrigger is the event a notification is for. Unknown values
// decode as they are.
type NotificationTrigger string

// Notification triggers: messages and replies, message actions, calls and
// group events.
const (
	TriggerAfterMessage           NotificationTrigger = "after_message"
	TriggerMessageDeleted         NotificationTrigger = "message_deleted"
	TriggerMessageEdited          NotificationTrigger = "message_edited"
	TriggerMessageReactionAdded   NotificationTrigger = "message_reaction_added"
	TriggerCallInitiated          NotificationTrigger = "initiated"
	TriggerCallRejected           NotificationTrigger = "rejected"
	TriggerCallCancelled          NotificationTrigger = "cancelled"
	TriggerCallUnanswered         NotificationTrigger = "unanswered"
	TriggerGroupJoined            NotificationTrigger = "after_group_joined"
	TriggerGroupLeft              NotificationTrigger = "after_group_left"
	TriggerGroupMembersAdded      NotificationTrigger = "after_group_members_added"
	TriggerGroupMembersKicked     NotificationTrigger = "after_group_members_kicked"
	TriggerGroupMembersBanned     NotificationTrigger = "after_group_members_banned"
	TriggerGroupMembersUnbanned   NotificationTrigger = "after_group_members_unbanned"
	TriggerGroupMemberScopeChange NotificationTrigger = "after_scope_changed"
)

// NotificationReason says why a notification was not sent (or failed).
// Unknown values decode as they are.
type NotificationReason string

// Notification reasons.
const (
	ReasonMessagesPreference       NotificationReason = "MESSAGES_PREFERENCE"
	ReasonRepliesPreference        NotificationReason = "REPLIES_PREFERENCE"
	ReasonQuotedRepliesPreference  NotificationReason = "QUOTED_REPLIES_PREFERENCE"
	ReasonMessageActionsPreference NotificationReason = "MESSAGE_ACTIONS_PREFERENCE"
	ReasonReactionsPreference      NotificationReason = "REACTIONS_PREFERENCE"
	ReasonGroupActionsPreference   NotificationReason = "GROUP_ACTIONS_PREFERENCE"
	ReasonDNDPreference            NotificationReason = "DND_PREFERENCE"
	ReasonMutePreference           NotificationReason = "MUTE_PREFERENCE"
	ReasonSchedulePreference       NotificationReason = "SCHEDULE_PREFERENCE"
	ReasonCallPreference           NotificationReason = "CALL_PREFERENCE"
	ReasonQuotaPreference          NotificationReason = "QUOTA_PREFERENCE"
	ReasonMissingEmail             NotificationReason = "MISSING_EMAIL"
	ReasonMissingPhoneNumber       NotificationReason = "MISSING_PHNO"
	ReasonInvalidPushProviderID    NotificationReason = "INVALID_PUSH_PROVIDER_ID"
	ReasonTimedOut                 NotificationReason = "TIMED_OUT"
	ReasonNotFound                 NotificationReason = "NOT_FOUND"
	ReasonTwilioCreateError        NotificationReason = "TWILIO_CREATE_ERROR"
)

// NotificationLog is one notification the service processed: for whom,
// through which channel and provider, and whether it was sent.
//
// Its times are Unix milliseconds (not seconds, unlike most of the API):
// use time.UnixMilli. PushToken is a secret: printing a NotificationLog
// shows it as REDACTED; JSON encoding keeps it.
type NotificationLog struct {
	// ID is the log entry's id; [ListLogsOptions.LogID] continues a list
	// from it.
	ID string `json:"_id"`
	// ProcessingStartedAtMS and ProcessingEndedAtMS bound the processing,
	// in Unix milliseconds; TotalProcessingTimeInMS is its length in
	// milliseconds.
	ProcessingStartedAtMS   int64 `json:"processingStartedAtMS,omitempty"`
	ProcessingEndedAtMS     int64 `json:"processingEndedAtMS,omitempty"`
	TotalProcessingTimeInMS int64 `json:"totalProcessingTimeInMS,omitempty"`
	// Component is the service component that wrote the entry.
	Component string                   `json:"component,omitempty"`
	Channel   NotificationChannel      `json:"channel,omitempty"`
	Provider  NotificationProviderType `json:"provider,omitempty"`
	// MessageID and ReactionID are the message (or reply) and the reaction
	// the notification is about.
	MessageID  int64               `json:"messageId,omitempty"`
	ReactionID int64               `json:"reactionId,omitempty"`
	Trigger    NotificationTrigger `json:"trigger,omitempty"`
	// MessageSentAtMS is when the message was sent, in Unix milliseconds.
	MessageSentAtMS int64  `json:"messageSentAtMS,omitempty"`
	Sender          string `json:"sender,omitempty"`
	ReactionSender  string `json:"reactionSender,omitempty"`
	// Receiver is the message's receiver: a uid, or a guid when
	// ReceiverType is group.
	Receiver         string       `json:"receiver,omitempty"`
	ReactionReceiver string       `json:"reactionReceiver,omitempty"`
	ReceiverType     ReceiverType `json:"receiverType,omitempty"`
	// Member is the group member notified, for group messages.
	Member string `json:"member,omitempty"`
	// TokenType is the platform of the push token notified.
	TokenType  PushPlatform `json:"tokenType,omitempty"`
	PushToken  Secret       `json:"pushToken,omitempty"`
	ProviderID string       `json:"providerId,omitempty"`
	// Payload is what was sent to the provider, as JSON.
	Payload json.RawMessage `json:"payload,omitempty"`
	// NotificationTriggered reports whether a notification was sent;
	// Reason says why not.
	NotificationTriggered bool               `json:"notificationTriggered"`
	Reason                NotificationReason `json:"reason,omitempty"`
}

// ListLogsOptions filters and positions the list of notification logs.
// Every filter is optional; times are Unix milliseconds (not seconds).
type ListLogsOptions struct {
	// MessageID and ReactionID select the logs of a message (or reply)
	// and of a reaction.
	MessageID  int64 `url:"messageId,omitempty"`
	ReactionID int64 `url:"reactionId,omitempty"`
	// From and To select messages sent from and to these times, in Unix
	// milliseconds: time.Now().UnixMilli().
	From int64 `url:"from,omitempty"`
	To   int64 `url:"to,omitempty"`
	// MessageCategory is message or interactive; MessageType a type of
	// that category.
	MessageCategory Category            `url:"messageCategory,omitempty"`
	MessageType     MessageType         `url:"messageType,omitempty"`
	Trigger         NotificationTrigger `url:"trigger,omitempty"`
	// Sender, ReactionSender, Receiver (a uid or a guid), ReactionReceiver
	// and Member (the group member notified) select by user.
	Sender           string       `url:"sender,omitempty"`
	ReactionSender   string       `url:"reactionSender,omitempty"`
	Receiver         string       `url:"receiver,omitempty"`
	ReceiverType     ReceiverType `url:"receiverType,omitempty"`
	ReactionReceiver string       `url:"reactionReceiver,omitempty"`
	Member           string       `url:"member,omitempty"`

	Channel  NotificationChannel      `url:"channel,omitempty"`
	Provider NotificationProviderType `url:"provider,omitempty"`
	// NotificationTriggered selects sent (true) or unsent (false)
	// notifications; nil selects both.
	NotificationTriggered *bool              `url:"notificationTriggered,omitempty"`
	Reason                NotificationReason `url:"reason,omitempty"`
	// Success selects successful (true) or failed (false) deliveries; nil
	// selects both.
	Success *bool `url:"success,omitempty"`

	// Direction and LogID position the list: the logs after (append) or
	// before (prepend) the log entry LogID.
	Direction Direction `url:"affix,omitempty"`
	LogID     string    `url:"logId,omitempty"`
	// Limit is the page size, sent when set; the answer's
	// meta.current.limit echoes it.
	Limit int `url:"limit,omitempty"`
}

// logsPage is the answer of the logs list.
type logsPage struct {
	Data []NotificationLog `json:"data"`
	Meta struct {
		Current  *PageCount `json:"current"`
		Next     *logCursor `json:"next"`
		Previous *logCursor `json:"previous"`
	} `json:"meta"`
}

// logCursor is a cursor of the logs list: the log id (logId) the list is
// positioned by, or a messageId, which names no position the list accepts
// and is kept in [Cursor.MessageID] only (see CHOICES.md).
type logCursor struct {
	Direction Direction `json:"affix"`
	LogID     string    `json:"logId"`
	MessageID int64     `json:"messageId"`
}

func (c *logCursor) cursor() *Cursor {
	if c == nil {
		return nil
	}
	return &Cursor{Direction: c.Direction, ID: c.LogID, MessageID: c.MessageID}
}

// ListLogs returns one page of notification logs. Meta.Next and
// Meta.Previous carry the cursors the service sends: their ID is the log
// id (meta.next.logId) to pass as [ListLogsOptions.LogID]. A cursor
// that carries a messageId instead names no position the list accepts;
// its ID is then empty.
//
// API: GET /v3/notifications/v1/logs (onBehalfOf not supported)
func (s *NotificationsService) ListLogs(ctx context.Context, opts *ListLogsOptions, reqOpts ...RequestOption) (*Page[NotificationLog], error) {
	var out logsPage
	call := &Request{Method: http.MethodGet, Path: notificationsPath("v1", "logs"), Query: opts}
	if err := s.c.Send(ctx, call, &out, reqOpts); err != nil {
		return nil, err
	}
	page := &Page[NotificationLog]{Data: out.Data}
	page.Meta.Current = out.Meta.Current
	page.Meta.Next = out.Meta.Next.cursor()
	page.Meta.Previous = out.Meta.Previous.cursor()
	return page, nil
}

// AllLogs iterates over the notification logs opts selects, page after
// page. It continues from the log id of meta.next, or when the answer has
// none, from the last entry of a full page (as many entries as
// meta.current.limit) in the direction of opts.Affix. It stops at the
// first error, which it yields, and when ctx is done; each range starts
// afresh from opts, which it does not modify.
//
// Logs come in time order, in the direction opts names: oldest first with
// [DirectionAfter] (the default), newest first with [DirectionBefore].
//
// API: GET /v3/notifications/v1/logs (onBehalfOf not supported)
func (s *NotificationsService) AllLogs(ctx context.Context, opts *ListLogsOptions, reqOpts ...RequestOption) iter.Seq2[*NotificationLog, error] {
	start := *nonNil(opts)
	return cursorWalk(ctx, start, start.Limit, func(ctx context.Context, at ListLogsOptions) (*Page[NotificationLog], error) {
		return s.ListLogs(ctx, &at, reqOpts...)
	}, nextLogCursor, followLogCursor)
}

// nextLogCursor is the cursor after page: meta.next when it names a log,
// or else the last entry of a full page.
func nextLogCursor(page *Page[NotificationLog]) *Cursor {
	if n := page.Meta.Next; n != nil && n.ID != "" {
		return n
	}
	if cur := page.Meta.Current; cur != nil && cur.Limit > 0 && len(page.Data) >= cur.Limit {
		return &Cursor{ID: page.Data[len(page.Data)-1].ID}
	}
	return nil
}

// followLogCursor moves o to the log id of next.
func followLogCursor(o *ListLogsOptions, next *Cursor) bool {
	if next.ID == "" {
		return false
	}
	if next.Direction != "" {
		o.Direction = next.Direction
	}
	o.LogID = next.ID
	return true
}
