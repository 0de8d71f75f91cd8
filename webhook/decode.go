package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// Decode decodes the body of a delivery into its typed event, for a
// receiver that checks requests itself (otherwise use [Verifier.Verify] or
// [NewHandler], which call it).
//
// Numbers sent as strings and strings sent as numbers decode either way
// (the service sends a recording's duration as "21.433000", and audio_call
// as "true"). A trigger this package does not know decodes to an
// [UnknownEvent], not an error. The errors match [ErrInvalidPayload]: a
// body that is not a JSON object, an envelope without a trigger, or a
// known trigger whose data does not fit its event type (a [*PayloadError]
// that names the trigger).
func Decode(body []byte) (Event, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, fmt.Errorf("%w: the body is not a JSON object", ErrInvalidPayload)
	}
	env := new(Envelope)
	if err := rest.Unmarshal(body, env); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	env.Raw = append(json.RawMessage(nil), body...)
	return DecodeEnvelope(env)
}

// DecodeEnvelope decodes env's data into the typed event of its trigger,
// like [Decode]. The event keeps env (not a copy): its Envelope method
// returns it, and its Raw is env.Data. Use it with [NewEnvelope] to build
// a typed event in a test.
func DecodeEnvelope(env *Envelope) (Event, error) {
	if env == nil {
		return nil, fmt.Errorf("%w: no envelope", ErrInvalidPayload)
	}
	if env.Trigger == "" {
		return nil, fmt.Errorf("%w: the envelope has no trigger", ErrInvalidPayload)
	}
	ev := newEvent(Trigger(env.Trigger))
	if ev == nil {
		ev = &UnknownEvent{}
	} else if err := decodeData(env.Data, ev); err != nil {
		return nil, &PayloadError{Trigger: Trigger(env.Trigger), Err: err}
	}
	b := ev.base()
	b.Delivery, b.Raw = env, env.Data
	return ev, nil
}

// PayloadError reports a delivery of a known trigger whose data does not
// fit its event type. It matches [ErrInvalidPayload] with errors.Is.
type PayloadError struct {
	// Trigger is the delivery's trigger.
	Trigger Trigger
	// Err is the decoding error.
	Err error
}

// Error says which trigger's data could not be decoded, and why.
func (e *PayloadError) Error() string {
	return fmt.Sprintf("webhook: the data of %s does not decode: %v", e.Trigger, e.Err)
}

// Unwrap returns ErrInvalidPayload and the decoding error.
func (e *PayloadError) Unwrap() []error { return []error{ErrInvalidPayload, e.Err} }

// event is what every event type is: an Event with its Base.
type event interface {
	Event
	base() *Base
}

// newEvent returns a new, empty event of t's type, or nil for a trigger
// this package does not know.
func newEvent(t Trigger) event {
	switch t {
	case TriggerMessageSent, TriggerUserMentioned:
		return &MessageEvent{}
	case TriggerMessageEdited, TriggerMessageDeleted:
		return &MessageActionEvent{}
	case TriggerMessageReactionAdded, TriggerMessageReactionRemoved:
		return &ReactionEvent{}
	case TriggerMessageDeliveryReceipt, TriggerMessageReadReceipt,
		TriggerMessageDeliveredToAll, TriggerMessageReadByAll:
		return &ReceiptEvent{}
	case TriggerAfterMessage:
		return &BotMessageEvent{}
	case TriggerUserBlocked, TriggerUserUnblocked:
		return &BlockEvent{}
	case TriggerUserConnectionStatusChanged:
		return &UserConnectionEvent{}
	case TriggerGroupCreated, TriggerGroupUpdated, TriggerGroupDeleted,
		TriggerGroupMemberJoined, TriggerGroupMemberLeft, TriggerGroupMemberAdded,
		TriggerGroupMemberKicked, TriggerGroupMemberBanned, TriggerGroupMemberUnbanned,
		TriggerGroupMemberScopeChanged, TriggerGroupOwnerTransferred:
		return &GroupEvent{}
	case TriggerCallInitiated:
		return &CallEvent{}
	case TriggerCallStarted, TriggerMeetingStarted:
		return &SessionStartedEvent{}
	case TriggerCallParticipantJoined, TriggerCallParticipantLeft,
		TriggerMeetingParticipantJoined, TriggerMeetingParticipantLeft:
		return &ParticipantEvent{}
	case TriggerCallEnded, TriggerMeetingEnded:
		return &SessionEndedEvent{}
	case TriggerRecordingGenerated:
		return &RecordingEvent{}
	case TriggerTranscriptionGenerated:
		return &TranscriptionEvent{}
	case TriggerModerationEngineApproved, TriggerModerationEngineBlocked, TriggerModerationManualApproved:
		return &ModerationEvent{}
	case TriggerModerationEngineFailed:
		return &ModerationFailedEvent{}
	case TriggerAfterCampaignCompleted, TriggerAfterCampaignFailed:
		return &CampaignEvent{}
	case TriggerAfterNotificationCreated:
		return &NotificationCreatedEvent{}
	case TriggerAfterFeedItemSent, TriggerAfterFeedItemDelivered,
		TriggerAfterFeedItemRead, TriggerAfterFeedItemInteracted:
		return &FeedItemEvent{}
	case TriggerAfterPushNotificationSent, TriggerAfterPushNotificationDelivered,
		TriggerAfterPushNotificationClicked:
		return &PushNotificationEvent{}
	}
	return nil
}

// decodeData decodes a delivery's data into ev, then the parts of it that
// are decoded on demand elsewhere in the SDK. Missing or null data leaves
// ev empty.
func decodeData(data json.RawMessage, ev event) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	if data[0] != '{' {
		return errors.New("data is not a JSON object")
	}
	if bot, ok := ev.(*BotMessageEvent); ok {
		return rest.Unmarshal(data, &bot.Message)
	}
	if err := rest.Unmarshal(data, ev); err != nil {
		return err
	}
	switch ev := ev.(type) {
	case *MessageEvent:
		for uid, u := range ev.Message.Data.Mentions {
			if ev.Mentions == nil {
				ev.Mentions = make(map[string]chat.User, len(ev.Message.Data.Mentions))
			}
			if u != nil {
				ev.Mentions[uid] = *u
			}
		}
	case *MessageActionEvent:
		if e := ev.Message.Data.Entities; e != nil {
			var err error
			if e.On != nil && e.On.EntityType == chat.EntityMessage && len(e.On.Entity) > 0 {
				if ev.Target, err = e.On.Message(); err != nil {
					return fmt.Errorf("data.message.data.entities.on: %w", err)
				}
			}
			if e.By != nil && e.By.EntityType == chat.EntityUser && len(e.By.Entity) > 0 {
				if ev.By, err = e.By.User(); err != nil {
					return fmt.Errorf("data.message.data.entities.by: %w", err)
				}
			}
		}
	}
	return nil
}

// decodeObject decodes b into v, the plain form of a type (one without its
// UnmarshalJSON method), leniently, when b is a JSON object; any other
// value, or an object that does not fit, leaves v zero.
func decodeObject[T any](b []byte, v *T) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return
	}
	var out T
	if rest.Unmarshal(b, &out) == nil {
		*v = out
	}
}
