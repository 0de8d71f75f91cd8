package chat

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// CallsService lists calls and their transcriptions. Get it from
// [Client.Calls]; it is safe for concurrent use.
//
// Every method returns a [*github.com/chatrest/chat.Error] when the API
// answers with an error (unknown session: 404 ERR_CALL_SESSION_NOT_FOUND)
// and a [*github.com/chatrest/chat.ArgumentError] for a bad argument,
// before anything is sent.
type CallsService struct{ c *caller }

// ListCallsOptions filters and pages the list of calls. Every filter is
// optional; unset fields are not sent.
//
// The list answers with meta.pagination. Page and PerPage are sent as
// page and perPage, the names of the API's other page-numbered lists, when
// they are set, and not at all when they are zero.
type ListCallsOptions struct {
	// Type keeps audio or video calls.
	Type CallType `url:"type,omitempty"`
	// Mode keeps calls of one mode: call, meet or presenter.
	Mode CallMode `url:"mode,omitempty"`
	// ParticipantsCount keeps calls with exactly this many participants;
	// a pointer, so that 0 can be asked for.
	ParticipantsCount *int `url:"participantsCount,omitempty"`
	// StartedAt filters on the start time (Unix seconds).
	StartedAt Timestamp `url:"startedAt,omitempty"`
	// EndedAt filters on the end time (Unix seconds).
	EndedAt Timestamp `url:"endedAt,omitempty"`
	// Status keeps calls in one status: rejected, ongoing, ended or
	// unanswered.
	Status CallStatus `url:"status,omitempty"`
	// ReceiverType keeps calls made to users or to groups.
	ReceiverType ReceiverType `url:"receiverType,omitempty"`
	// HasRecording keeps recorded (true) or unrecorded (false) calls.
	HasRecording *bool `url:"hasRecording,omitempty"`
	// HasTranscription keeps transcribed (true) or untranscribed (false)
	// calls.
	HasTranscription *bool `url:"hasTranscription,omitempty"`
	// UID keeps the calls that user took part in.
	UID string `url:"uid,omitempty"`
	// PageOptions picks the page (see above).
	PageOptions
}

// List returns one page of the app's calls; with
// [OnBehalfOf], only the calls that user took part
// in.
//
// API: GET /v3/calls (onBehalfOf optional)
func (s *CallsService) List(ctx context.Context, opts *ListCallsOptions, reqOpts ...RequestOption) (*Page[Call], error) {
	return list[Call](ctx, s.c, &Request{Path: []string{"calls"}, Query: opts}, reqOpts)
}

// All iterates over every call opts selects, page after page from
// opts.Page (default 1). It stops after an empty or short page or the last
// page the meta names, at the first error, which it yields, and when ctx
// is done. opts is not modified.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/calls (onBehalfOf optional)
func (s *CallsService) All(ctx context.Context, opts *ListCallsOptions, reqOpts ...RequestOption) iter.Seq2[*Call, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListCallsOptions) (*Page[Call], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// Get returns the call sessionID with its participants, recordings and
// latest transcriptions. With [OnBehalfOf], the
// call must be one that user took part in.
//
// API: GET /v3/calls/{sessionId} (onBehalfOf optional)
func (s *CallsService) Get(ctx context.Context, sessionID string, opts ...RequestOption) (*Call, error) {
	if err := required("sessionID", sessionID); err != nil {
		return nil, err
	}
	return do[Call](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"calls", sessionID}}, opts)
}

// ListTranscriptionsOptions pages the transcriptions of a call.
type ListTranscriptionsOptions struct {
	PageOptions
}

// ListTranscriptions returns one page of the transcriptions of the call
// sessionID, newest first. The list is empty until the transcripts are
// generated, asynchronously after the call ends.
//
// API: GET /v3/calls/{sessionId}/transcriptions (onBehalfOf optional)
func (s *CallsService) ListTranscriptions(ctx context.Context, sessionID string, opts *ListTranscriptionsOptions, reqOpts ...RequestOption) (*Page[CallTranscription], error) {
	if err := required("sessionID", sessionID); err != nil {
		return nil, err
	}
	return list[CallTranscription](ctx, s.c, &Request{Path: []string{"calls", sessionID, "transcriptions"}, Query: opts}, reqOpts)
}

// AllTranscriptions iterates over every transcription of the call
// sessionID, newest first, page after page from opts.Page (default 1), as
// [CallsService.All] does.
//
// API: GET /v3/calls/{sessionId}/transcriptions (onBehalfOf optional)
func (s *CallsService) AllTranscriptions(ctx context.Context, sessionID string, opts *ListTranscriptionsOptions, reqOpts ...RequestOption) iter.Seq2[*CallTranscription, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListTranscriptionsOptions) (*Page[CallTranscription], error) {
		return s.ListTranscriptions(ctx, sessionID, o, reqOpts...)
	})
}

// CallType is the media of a call.
type CallType string

// Call types.
const (
	CallTypeAudio CallType = "audio"
	CallTypeVideo CallType = "video"
)

// CallMode is how a call is held: a ringing call, a meeting users join, or a
// presentation.
type CallMode string

// Call modes.
const (
	CallModeCall      CallMode = "call"      // a ringing one-on-one or group call
	CallModeMeet      CallMode = "meet"      // a meeting users join without ringing
	CallModePresenter CallMode = "presenter" // a presentation: presenters and viewers
)

// CallStatus is where a call is in its life.
type CallStatus string

// Call statuses. The list filter takes rejected, ongoing, ended and
// unanswered; the others decode, and are sent as given.
const (
	CallStatusInitiated  CallStatus = "initiated"
	CallStatusOngoing    CallStatus = "ongoing"
	CallStatusEnded      CallStatus = "ended"
	CallStatusUnanswered CallStatus = "unanswered"
	CallStatusRejected   CallStatus = "rejected"
	CallStatusCanceled   CallStatus = "canceled"
)

// ParticipantState is where a participant is in a call.
type ParticipantState string

// Participant states.
const (
	ParticipantOngoing    ParticipantState = "ongoing"
	ParticipantEnded      ParticipantState = "ended"
	ParticipantUnanswered ParticipantState = "unanswered"
	ParticipantRejected   ParticipantState = "rejected"
)

// Call is one call or meeting session: who made it to whom, when, for how
// long, who took part, and its recordings and transcriptions.
//
// Minutes are fractional, such as 0.3166. TotalDuration is a timer string
// such as "00:00:19" (a number decodes as its text); [Call.Duration] reads
// it.
type Call struct {
	// SessionID identifies the call, e.g. "v1.us.31780434a95d45.1692368168aefb...".
	SessionID string `json:"sessionId"`
	// Type is audio or video.
	Type CallType `json:"type,omitempty"`
	// Mode is call, meet or presenter.
	Mode CallMode `json:"mode,omitempty"`
	// Status is where the call is: initiated, ongoing, ended, unanswered,
	// rejected or canceled.
	Status CallStatus `json:"status,omitempty"`
	// ReceiverType says whether Receiver is a user or a group.
	ReceiverType ReceiverType `json:"receiverType,omitempty"`
	// Receiver is the uid or guid the call was made to.
	Receiver string `json:"receiver,omitempty"`
	// Initiator is the uid of the user who made the call.
	Initiator string `json:"initiator,omitempty"`
	// InitiatedAt is when the call was made.
	InitiatedAt Timestamp `json:"initiatedAt,omitempty"`
	// StartedAt is when the first participant joined; zero if nobody did.
	StartedAt Timestamp `json:"startedAt,omitempty"`
	// EndedAt is when the call ended; zero while it goes on.
	EndedAt Timestamp `json:"endedAt,omitempty"`
	// TotalAudioMinutes is the audio minutes of all participants.
	TotalAudioMinutes float64 `json:"totalAudioMinutes"`
	// TotalVideoMinutes is the video minutes of all participants.
	TotalVideoMinutes float64 `json:"totalVideoMinutes"`
	// TotalDurationInMinutes is the call's audio and video minutes.
	TotalDurationInMinutes float64 `json:"totalDurationInMinutes"`
	// TotalDuration is the call's length as a timer, e.g. "00:00:19".
	TotalDuration string `json:"totalDuration,omitempty"`
	// TotalParticipants counts the participants who joined; a user who
	// joined from several devices counts once per device.
	TotalParticipants int `json:"totalParticipants"`
	// HasRecording reports whether the call was recorded.
	HasRecording bool `json:"hasRecording"`
	// HasTranscription reports whether the call was transcribed.
	HasTranscription bool `json:"hasTranscription"`
	// MID is the meeting id (a UUID).
	MID string `json:"mid,omitempty"`
	// Participants lists everyone the call involved, those who never
	// answered included (they carry only UID, minutes, IsJoined and State).
	Participants []CallParticipant `json:"participants,omitempty"`
	// Recordings lists the call's recordings.
	Recordings []CallRecording `json:"recordings,omitempty"`
	// Transcriptions holds at most the 5 most recent transcriptions, and
	// only when HasTranscription is set; list them all with
	// [CallsService.ListTranscriptions].
	Transcriptions []CallTranscription `json:"transcriptions,omitempty"`
	// MetaData is the call's metadata, kept as sent ([CallsService.Get]
	// answers with an array).
	MetaData json.RawMessage `json:"metaData,omitempty"`
	// Tags are the call's tags ([CallsService.Get] answers with them, an
	// empty list included).
	Tags []string `json:"tags,omitzero"`
}

// InitiatedTime is InitiatedAt as a time.Time (zero when unset).
func (c *Call) InitiatedTime() time.Time { return c.InitiatedAt.Time() }

// StartedTime is StartedAt as a time.Time (zero when unset).
func (c *Call) StartedTime() time.Time { return c.StartedAt.Time() }

// EndedTime is EndedAt as a time.Time (zero when unset).
func (c *Call) EndedTime() time.Time { return c.EndedAt.Time() }

// Duration is the call's length: TotalDuration read as a timer ("hh:mm:ss"
// or "mm:ss"), or else the time from StartedAt to EndedAt, or zero.
func (c *Call) Duration() time.Duration {
	if d, ok := parseTimer(c.TotalDuration); ok {
		return d
	}
	if c.StartedAt != 0 && c.EndedAt > c.StartedAt {
		return time.Duration(c.EndedAt-c.StartedAt) * time.Second
	}
	return 0
}

// parseTimer reads "hh:mm:ss" or "mm:ss".
func parseTimer(s string) (time.Duration, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var d time.Duration
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, false
		}
		d = d*60 + time.Duration(n)
	}
	return d * time.Second, true
}

// CallParticipant is one user's part in a call, per device.
//
// Unlike [Call.TotalDuration], TotalDuration is a number here: minutes.
type CallParticipant struct {
	// UID is the user.
	UID string `json:"uid"`
	// TotalAudioMinutes is the user's audio minutes.
	TotalAudioMinutes float64 `json:"totalAudioMinutes"`
	// TotalVideoMinutes is the user's video minutes.
	TotalVideoMinutes float64 `json:"totalVideoMinutes"`
	// TotalDuration is the user's time in the call in minutes.
	TotalDuration float64 `json:"totalDuration"`
	// IsJoined reports whether the user joined.
	IsJoined bool `json:"isJoined"`
	// State is ongoing, ended, unanswered or rejected.
	State ParticipantState `json:"state,omitempty"`
	// DeviceID names the device the user joined from (a number decodes
	// as its text).
	DeviceID string `json:"deviceId,omitempty"`
	// JoinedAt is when the user joined.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// LeftAt is when the user left.
	LeftAt Timestamp `json:"leftAt,omitempty"`
	// MID is the meeting id.
	MID string `json:"mid,omitempty"`
}

// JoinedTime is JoinedAt as a time.Time (zero when unset).
func (p *CallParticipant) JoinedTime() time.Time { return p.JoinedAt.Time() }

// LeftTime is LeftAt as a time.Time (zero when unset).
func (p *CallParticipant) LeftTime() time.Time { return p.LeftAt.Time() }

// CallRecording is one recording of a call.
type CallRecording struct {
	// RID identifies the recording.
	RID string `json:"rid"`
	// Duration is the recording's length in minutes.
	Duration float64 `json:"duration"`
	// StartTime is when the recording started.
	StartTime Timestamp `json:"startTime,omitempty"`
	// EndTime is when the recording ended.
	EndTime Timestamp `json:"endTime,omitempty"`
	// RecordingURL is where to download the recording.
	RecordingURL string `json:"recording_url,omitempty"`
}

// StartedTime is StartTime as a time.Time (zero when unset).
func (r *CallRecording) StartedTime() time.Time { return r.StartTime.Time() }

// EndedTime is EndTime as a time.Time (zero when unset).
func (r *CallRecording) EndedTime() time.Time { return r.EndTime.Time() }

// CallTranscription is the transcript of a call, or of one meeting within it.
// Transcripts are generated asynchronously after the call ends; empty
// fields are left out on the wire.
type CallTranscription struct {
	// RoomName is the call's room.
	RoomName string `json:"roomName,omitempty"`
	// MID is the meeting the transcript covers; empty when it covers the
	// whole session.
	MID string `json:"mid,omitempty"`
	// TID identifies the transcript.
	TID string `json:"tid,omitempty"`
	// StartTime is when the transcribed part started.
	StartTime Timestamp `json:"startTime,omitempty"`
	// EndTime is when the transcribed part ended.
	EndTime Timestamp `json:"endTime,omitempty"`
	// TranscriptDate is when the transcript was made, as an ISO-8601
	// string (the API sends it so); [Transcription.Date] parses it.
	TranscriptDate string `json:"transcriptDate,omitempty"`
	// TranscriptURL is where to download the transcript.
	TranscriptURL string `json:"transcriptUrl,omitempty"`
}

// StartedTime is StartTime as a time.Time (zero when unset).
func (t *CallTranscription) StartedTime() time.Time { return t.StartTime.Time() }

// EndedTime is EndTime as a time.Time (zero when unset).
func (t *CallTranscription) EndedTime() time.Time { return t.EndTime.Time() }

// Date is TranscriptDate parsed as RFC 3339 (ISO-8601), or the zero time
// when it is empty or not in that form.
func (t *CallTranscription) Date() time.Time {
	d, err := time.Parse(time.RFC3339Nano, t.TranscriptDate)
	if err != nil {
		return time.Time{}
	}
	return d
}
