package calls

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// Type is the media of a call.
type Type string

// Call types.
const (
	TypeAudio Type = "audio"
	TypeVideo Type = "video"
)

// Mode is how a call is held: a ringing call, a meeting users join, or a
// presentation.
type Mode string

// Call modes.
const (
	ModeCall      Mode = "call"      // a ringing one-on-one or group call
	ModeMeet      Mode = "meet"      // a meeting users join without ringing
	ModePresenter Mode = "presenter" // a presentation: presenters and viewers
)

// Status is where a call is in its life.
type Status string

// Call statuses, as the reference's overview lists them. The list
// operation's schema names only rejected, ongoing and ended as filter
// values (its description adds unanswered); the others decode and are
// sent as given.
const (
	StatusInitiated  Status = "initiated"
	StatusOngoing    Status = "ongoing"
	StatusEnded      Status = "ended"
	StatusUnanswered Status = "unanswered"
	StatusRejected   Status = "rejected"
	StatusCanceled   Status = "canceled"
)

// ReceiverType says whether a call was made to a user or to a group.
type ReceiverType string

// Receiver types.
const (
	ReceiverUser  ReceiverType = "user"
	ReceiverGroup ReceiverType = "group"
)

// State is where a participant is in a call.
type State string

// Participant states.
const (
	StateOngoing    State = "ongoing"
	StateEnded      State = "ended"
	StateUnanswered State = "unanswered"
	StateRejected   State = "rejected"
)

// Timestamp is a point in time as the Calls API sends it: Unix seconds.
// Zero means unset. It is the calls package's counterpart of
// [github.com/chatrest/chat.Timestamp] and decodes as leniently: a number,
// a numeric string, or null (which leaves it zero).
type Timestamp int64

// Time returns t as a time.Time, or the zero time.Time when t is zero.
func (t Timestamp) Time() time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(int64(t), 0)
}

// IsZero reports whether t is unset.
func (t Timestamp) IsZero() bool { return t == 0 }

// TimestampOf returns t as a Timestamp (Unix seconds), or zero for the zero
// time.
func TimestampOf(t time.Time) Timestamp {
	if t.IsZero() {
		return 0
	}
	return Timestamp(t.Unix())
}

// UnmarshalJSON accepts a number, a numeric string, "" or null. A value
// beyond the year 9999 (or before -9999) saturates to that bound; NaN and
// other text are an error.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	n, ok, valid := rest.ParseUnix(b, rest.MaxUnix)
	if !valid {
		return &json.UnmarshalTypeError{Value: "timestamp " + strconv.Quote(string(b)), Type: reflect.TypeFor[Timestamp]()}
	}
	if ok {
		*t = Timestamp(n)
	}
	return nil
}

// Call is one call or meeting session: who made it to whom, when, for how
// long, who took part, and its recordings and transcriptions.
//
// Minutes are fractional (the reference's schema says integer, its
// examples are fractions such as 0.3166). TotalDuration is a timer string
// such as "00:00:19" (the schema says integer; a number decodes as its
// text); [Call.Duration] reads it.
type Call struct {
	// SessionID identifies the call, e.g. "v1.us.31780434a95d45.1692368168aefb...".
	SessionID string `json:"sessionId"`
	// Type is audio or video.
	Type Type `json:"type,omitempty"`
	// Mode is call, meet or presenter.
	Mode Mode `json:"mode,omitempty"`
	// Status is where the call is: initiated, ongoing, ended, unanswered,
	// rejected or canceled.
	Status Status `json:"status,omitempty"`
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
	Participants []Participant `json:"participants,omitempty"`
	// Recordings lists the call's recordings (named by the reference's
	// overview only).
	Recordings []Recording `json:"recordings,omitempty"`
	// Transcriptions holds at most the 5 most recent transcriptions, and
	// only when HasTranscription is set; list them all with
	// [Service.ListTranscriptions].
	Transcriptions []Transcription `json:"transcriptions,omitempty"`
	// MetaData is the call's metadata as sent (an array in the reference's
	// get-call example, which alone shows it).
	MetaData json.RawMessage `json:"metaData,omitempty"`
	// Tags are the call's tags (in the get-call example only).
	Tags []string `json:"tags,omitempty"`
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

// Participant is one user's part in a call, per device.
//
// Unlike [Call.TotalDuration], TotalDuration is a number here: minutes.
type Participant struct {
	// UID is the user.
	UID string `json:"uid"`
	// TotalAudioMinutes is the user's audio minutes.
	TotalAudioMinutes float64 `json:"totalAudioMinutes"`
	// TotalVideoMinutes is the user's video minutes.
	TotalVideoMinutes float64 `json:"totalVideoMinutes"`
	// TotalDuration is the user's time in the call in minutes (the
	// reference's overview calls it totalDurationInMinutes).
	TotalDuration float64 `json:"totalDuration"`
	// IsJoined reports whether the user joined.
	IsJoined bool `json:"isJoined"`
	// State is ongoing, ended, unanswered or rejected.
	State State `json:"state,omitempty"`
	// DeviceID names the device the user joined from (a string; the
	// schema says integer, the examples are strings, and both decode).
	DeviceID string `json:"deviceId,omitempty"`
	// JoinedAt is when the user joined.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// LeftAt is when the user left.
	LeftAt Timestamp `json:"leftAt,omitempty"`
	// MID is the meeting id.
	MID string `json:"mid,omitempty"`
}

// JoinedTime is JoinedAt as a time.Time (zero when unset).
func (p *Participant) JoinedTime() time.Time { return p.JoinedAt.Time() }

// LeftTime is LeftAt as a time.Time (zero when unset).
func (p *Participant) LeftTime() time.Time { return p.LeftAt.Time() }

// Recording is one recording of a call. The reference describes it in its
// overview only.
type Recording struct {
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
func (r *Recording) StartedTime() time.Time { return r.StartTime.Time() }

// EndedTime is EndTime as a time.Time (zero when unset).
func (r *Recording) EndedTime() time.Time { return r.EndTime.Time() }

// Transcription is the transcript of a call, or of one meeting within it.
// Transcripts are generated asynchronously after the call ends; empty
// fields are left out on the wire.
type Transcription struct {
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
func (t *Transcription) StartedTime() time.Time { return t.StartTime.Time() }

// EndedTime is EndTime as a time.Time (zero when unset).
func (t *Transcription) EndedTime() time.Time { return t.EndTime.Time() }

// Date is TranscriptDate parsed as RFC 3339 (ISO-8601), or the zero time
// when it is empty or not in that form.
func (t *Transcription) Date() time.Time {
	d, err := time.Parse(time.RFC3339Nano, t.TranscriptDate)
	if err != nil {
		return time.Time{}
	}
	return d
}

// Page is one page of a list: its items and the list's meta.
type Page[T any] struct {
	// Data holds the page's items.
	Data []T `json:"data"`
	// Meta describes where the page sits in the list.
	Meta Meta `json:"meta"`
}

// Meta is the "meta" object of a list response.
type Meta struct {
	// Pagination is the list's page-number pagination, when sent.
	Pagination *Pagination `json:"pagination,omitempty"`
}

// Pagination is the meta of a page-numbered list.
type Pagination struct {
	// Total is the number of items in the list.
	Total int `json:"total"`
	// Count is the number of items on this page.
	Count int `json:"count"`
	// PerPage is the page size applied.
	PerPage int `json:"per_page"`
	// CurrentPage is this page's number, from 1.
	CurrentPage int `json:"current_page"`
	// TotalPages is the number of pages.
	TotalPages int `json:"total_pages"`
}
