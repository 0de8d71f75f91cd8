package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// maxCallParticipants is how many users a call may have.
const maxCallParticipants = 50

// AddCall does the work of chattest.Server.AddCall, which documents it.
func (s *Core) AddCall(c chat.Call) (chat.Call, error) {
	r := seeded(s, "AddCall", c, (*state).seedCall)
	return r.call, r.err
}

// callResult is what [Server.AddCall] returns.
type callResult struct {
	call chat.Call
	err  error
}

// seedCall is [Server.AddCall] with st.mu held.
func (st *state) seedCall(c chat.Call) callResult {
	c = clone(c)
	now := chat.TimestampOf(st.clock())
	fillCall(&c, now)
	transcripts := c.Transcriptions
	c.Transcriptions = nil
	if err := st.checkCall(&c); err != nil {
		return callResult{err: fmt.Errorf("chattest: AddCall: %w", err)}
	}
	for i := range transcripts {
		if err := checkTranscript(&transcripts[i], nil); err != nil {
			return callResult{err: fmt.Errorf("chattest: AddCall: transcriptions[%d]: %w", i, err)}
		}
	}
	st.callSeq++
	if c.SessionID == "" {
		c.SessionID = "v1.us." + st.appID + "." + strconv.FormatInt(int64(c.InitiatedAt), 10) + st.hexID("call", st.callSeq)
	}
	if c.MID == "" {
		c.MID = uuidOf(st.hexID("meeting", st.callSeq))
	}
	for i := range c.Participants {
		if c.Participants[i].IsJoined && c.Participants[i].MID == "" {
			c.Participants[i].MID = c.MID
		}
	}
	r := &callRec{c: c, seq: st.callSeq}
	st.calls[c.SessionID] = r
	touch(st, &st.calls, c.SessionID)
	st.record(CallAdded{C: &r.c})
	for _, t := range transcripts {
		st.addTranscript(r, t, now)
	}
	return callResult{call: clone(r.wire())}
}

// AddTranscription does the work of chattest.Server.AddTranscription, which documents it.
func (s *Core) AddTranscription(sessionID string, t chat.CallTranscription) error {
	return seeded(s, "AddTranscription", transcriptionArgs{sessionID, t}, (*state).seedTranscription)
}

// transcriptionArgs are the arguments of [Server.AddTranscription].
type transcriptionArgs struct {
	SessionID     string                 `json:"sessionId"`
	Transcription chat.CallTranscription `json:"transcription"`
}

// seedTranscription is [Server.AddTranscription] with st.mu held.
func (st *state) seedTranscription(a transcriptionArgs) error {
	sessionID, t := a.SessionID, a.Transcription
	r := st.calls[sessionID]
	if r == nil {
		return fmt.Errorf("chattest: AddTranscription: no call %q", sessionID)
	}
	if err := checkTranscript(&t, r); err != nil {
		return fmt.Errorf("chattest: AddTranscription: %w", err)
	}
	st.addTranscript(r, t, chat.TimestampOf(st.clock()))
	return nil
}

// Call does the work of chattest.Server.Call, which documents it.
func (s *Core) Call(sessionID string) (chat.Call, bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.calls[sessionID]
	if r == nil {
		return chat.Call{}, false
	}
	return clone(r.wire()), true
}

// fillCall fills in what AddCall documents, before validation.
func fillCall(c *chat.Call, now chat.Timestamp) {
	c.Initiator = strings.ToLower(c.Initiator)
	if c.ReceiverType == "" {
		c.ReceiverType = chat.ReceiverUser
	}
	if c.ReceiverType == chat.ReceiverUser {
		c.Receiver = strings.ToLower(c.Receiver)
	}
	if c.Type == "" {
		c.Type = chat.CallTypeAudio
	}
	if c.Mode == "" {
		c.Mode = chat.CallModeCall
	}
	if c.Status == "" {
		switch {
		case c.EndedAt != 0:
			c.Status = chat.CallStatusEnded
		case c.StartedAt != 0:
			c.Status = chat.CallStatusOngoing
		default:
			c.Status = chat.CallStatusInitiated
		}
	}
	if c.InitiatedAt == 0 {
		c.InitiatedAt = c.StartedAt
		if c.InitiatedAt == 0 {
			c.InitiatedAt = chat.Timestamp(now)
		}
	}
	var audio, video float64
	joined := 0
	for i := range c.Participants {
		p := &c.Participants[i]
		p.UID = strings.ToLower(p.UID)
		if p.JoinedAt != 0 {
			p.IsJoined = true
		}
		if p.State == "" {
			switch {
			case !p.IsJoined:
				p.State = chat.ParticipantUnanswered
			case p.LeftAt != 0 || c.EndedAt != 0:
				p.State = chat.ParticipantEnded
			default:
				p.State = chat.ParticipantOngoing
			}
		}
		if p.IsJoined {
			joined++
		}
		end := p.LeftAt
		if end == 0 {
			end = c.EndedAt
		}
		if p.TotalAudioMinutes == 0 && p.TotalVideoMinutes == 0 && p.TotalDuration == 0 && p.JoinedAt != 0 && end > p.JoinedAt {
			minutes := float64(end-p.JoinedAt) / 60
			p.TotalDuration = minutes
			if c.Type == chat.CallTypeVideo {
				p.TotalVideoMinutes = minutes
			} else {
				p.TotalAudioMinutes = minutes
			}
		}
		audio += p.TotalAudioMinutes
		video += p.TotalVideoMinutes
	}
	if c.TotalParticipants == 0 {
		c.TotalParticipants = joined
	}
	if c.TotalAudioMinutes == 0 && c.TotalVideoMinutes == 0 {
		c.TotalAudioMinutes, c.TotalVideoMinutes = audio, video
	}
	if c.TotalDurationInMinutes == 0 {
		c.TotalDurationInMinutes = c.TotalAudioMinutes + c.TotalVideoMinutes
	}
	if c.TotalDuration == "" && c.StartedAt != 0 && c.EndedAt >= c.StartedAt {
		d := int64(c.EndedAt - c.StartedAt)
		c.TotalDuration = fmt.Sprintf("%02d:%02d:%02d", d/3600, d/60%60, d%60)
	}
	for i := range c.Recordings {
		rec := &c.Recordings[i]
		if rec.Duration == 0 && rec.EndTime > rec.StartTime && rec.StartTime != 0 {
			rec.Duration = float64(rec.EndTime-rec.StartTime) / 60
		}
	}
	c.HasRecording = c.HasRecording || len(c.Recordings) > 0
}

// checkCall validates a filled call and fills the recordings' ids.
func (st *state) checkCall(c *chat.Call) error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if c.SessionID != "" && st.calls[c.SessionID] != nil {
		bad("the session %q already exists", c.SessionID)
	}
	if c.Initiator == "" {
		bad("Initiator is required")
	}
	if c.Receiver == "" && c.Mode == chat.CallModeCall {
		bad(`Receiver is required for mode "call"`)
	}
	if !slices.Contains(callTypes, c.Type) {
		bad("Type %q is not audio or video", c.Type)
	}
	if !slices.Contains(callModes, c.Mode) {
		bad("Mode %q is not call, meet or presenter", c.Mode)
	}
	if !slices.Contains(callStatuses, c.Status) {
		bad("Status %q is not a call status", c.Status)
	}
	if !slices.Contains(callReceiverTypes, c.ReceiverType) {
		bad("ReceiverType %q is not user or group", c.ReceiverType)
	}
	if c.StartedAt != 0 && c.StartedAt < c.InitiatedAt {
		bad("StartedAt is before InitiatedAt")
	}
	if c.EndedAt != 0 && c.EndedAt < max(c.StartedAt, c.InitiatedAt) {
		bad("EndedAt is before the call started")
	}
	if len(c.MetaData) > 0 && !json.Valid(c.MetaData) {
		bad("MetaData is not valid JSON")
	}
	if len(c.Participants) > maxCallParticipants {
		bad("a call has at most %d participants", maxCallParticipants)
	}
	for i, p := range c.Participants {
		switch {
		case p.UID == "":
			bad("Participants[%d].UID is required", i)
		case !slices.Contains(participantStates, p.State):
			bad("Participants[%d].State %q is not a participant state", i, p.State)
		case p.LeftAt != 0 && p.LeftAt < p.JoinedAt:
			bad("Participants[%d].LeftAt is before JoinedAt", i)
		case p.LeftAt != 0 && p.JoinedAt == 0:
			bad("Participants[%d] left without joining", i)
		}
	}
	for i := range c.Recordings {
		if c.Recordings[i].EndTime != 0 && c.Recordings[i].EndTime < c.Recordings[i].StartTime {
			bad("Recordings[%d].EndTime is before StartTime", i)
		}
		if c.Recordings[i].RID == "" {
			c.Recordings[i].RID = "r" + strconv.Itoa(i+1)
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// checkTranscript validates t against the call r (nil: a call being
// added) and fills its defaults from r.
func checkTranscript(t *chat.CallTranscription, r *callRec) error {
	if t.EndTime != 0 && t.EndTime < t.StartTime {
		return errors.New("EndTime is before StartTime")
	}
	if r != nil && t.TID != "" {
		for _, have := range r.transcripts {
			if have.t.TID == t.TID {
				return fmt.Errorf("the call already has the transcription %q", t.TID)
			}
		}
	}
	return nil
}

// addTranscript stores t for the call r, filling its defaults, and
// records it (transcription_generated fires).
func (st *state) addTranscript(r *callRec, t chat.CallTranscription, now chat.Timestamp) {
	r.transSeq++
	if t.TID == "" {
		t.TID = uuidOf(st.hexID("transcript "+r.c.SessionID, r.transSeq))
	}
	if t.RoomName == "" {
		t.RoomName = r.c.SessionID
	}
	if t.TranscriptDate == "" {
		t.TranscriptDate = now.Time().UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if t.StartTime == 0 {
		t.StartTime = r.c.StartedAt
	}
	if t.EndTime == 0 {
		t.EndTime = r.c.EndedAt
	}
	r.transcripts = append(r.transcripts, transcriptRec{t: t, seq: r.transSeq})
	r.c.HasTranscription = true
	touch(st, &st.calls, r.c.SessionID)
	st.record(TranscriptAdded{C: &r.c, T: t})
}

// uuidOf formats the first 32 hex digits of a 40-digit id as a UUID.
func uuidOf(hex string) string {
	return hex[0:8] + "-" + hex[8:12] + "-" + hex[12:16] + "-" + hex[16:20] + "-" + hex[20:32]
}

// LeftAt is when p left the call: its LeftAt, or the call's end for a
// participant still in it when it ended; zero while p is in the call.
func LeftAt(c *chat.Call, p *chat.CallParticipant) chat.Timestamp {
	if p.LeftAt != 0 {
		return p.LeftAt
	}
	return c.EndedAt
}
