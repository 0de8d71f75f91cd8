package chattest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// at is t0 plus s seconds, as a calls timestamp.
func at(s int64) chat.Timestamp { return chat.TimestampOf(t0) + chat.Timestamp(s) }

// addCall seeds c and returns it as stored.
func addCall(t *testing.T, srv *chattest.Server, c chat.Call) chat.Call {
	t.Helper()
	got, err := srv.AddCall(c)
	require.NoError(t, err)
	return got
}

// sessionIDs lists the session ids of calls.
func sessionIDs(cs []chat.Call) []string {
	return ids(cs, func(c chat.Call) string { return c.SessionID })
}

// seedCalls stores four calls of different kinds, oldest first:
//
//	c1 audio call alice -> bob, ended after 90s, recorded
//	c2 video call alice -> group team (bob, carol joined; dave unanswered), ended
//	c3 audio meeting by carol, ongoing
//	c4 video call bob -> alice, unanswered
func seedCalls(t *testing.T, srv *chattest.Server) {
	t.Helper()
	addCall(t, srv, chat.Call{SessionID: "c1", Initiator: "alice", Receiver: "bob", InitiatedAt: at(0), StartedAt: at(5), EndedAt: at(95),
		Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: at(5)}, {UID: "bob", JoinedAt: at(5)}},
		Recordings:   []chat.CallRecording{{StartTime: at(10), EndTime: at(70), RecordingURL: "https://rec.example/c1.mp4"}}})
	addCall(t, srv, chat.Call{SessionID: "c2", Type: chat.CallTypeVideo, Initiator: "alice", ReceiverType: chat.ReceiverGroup, Receiver: "team",
		InitiatedAt: at(100), StartedAt: at(110), EndedAt: at(170),
		Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: at(110)}, {UID: "bob", JoinedAt: at(110), LeftAt: at(140)},
			{UID: "carol", JoinedAt: at(120)}, {UID: "dave"}}})
	addCall(t, srv, chat.Call{SessionID: "c3", Mode: chat.CallModeMeet, Initiator: "carol", ReceiverType: chat.ReceiverGroup, Receiver: "team",
		InitiatedAt: at(200), StartedAt: at(200), Participants: []chat.CallParticipant{{UID: "carol", JoinedAt: at(200)}}})
	addCall(t, srv, chat.Call{SessionID: "c4", Type: chat.CallTypeVideo, Initiator: "bob", Receiver: "alice", InitiatedAt: at(300),
		Status: chat.CallStatusUnanswered, Participants: []chat.CallParticipant{{UID: "alice"}}})
}

func TestCallsGetAsSeeded(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	seedCalls(t, srv)

	c, err := client.Calls.Get(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, chat.CallTypeAudio, c.Type)
	assert.Equal(t, chat.CallModeCall, c.Mode)
	assert.Equal(t, chat.CallStatusEnded, c.Status)
	assert.Equal(t, chat.ReceiverUser, c.ReceiverType)
	assert.Equal(t, "00:01:30", c.TotalDuration)
	assert.Equal(t, 90*time.Second, c.Duration())
	assert.Equal(t, t0.Add(5*time.Second), c.StartedTime())
	assert.Equal(t, 2, c.TotalParticipants)
	assert.InDelta(t, 3.0, c.TotalAudioMinutes, 1e-9, "two participants for 90s each")
	assert.InDelta(t, 3.0, c.TotalDurationInMinutes, 1e-9)
	assert.Zero(t, c.TotalVideoMinutes)
	assert.True(t, c.HasRecording)
	assert.False(t, c.HasTranscription)
	assert.NotEmpty(t, c.MID)
	require.Len(t, c.Participants, 2)
	p := c.Participants[1]
	assert.Equal(t, "bob", p.UID)
	assert.True(t, p.IsJoined)
	assert.Equal(t, chat.ParticipantEnded, p.State)
	assert.InDelta(t, 1.5, p.TotalDuration, 1e-9, "a participant's totalDuration is minutes")
	assert.Equal(t, c.MID, p.MID)
	require.Len(t, c.Recordings, 1)
	assert.Equal(t, "https://rec.example/c1.mp4", c.Recordings[0].RecordingURL)
	assert.InDelta(t, 1.0, c.Recordings[0].Duration, 1e-9)
	assert.NotEmpty(t, c.Recordings[0].RID)
	assert.JSONEq(t, `[]`, string(c.MetaData), "get answers metaData as the reference's example does")
	assert.Equal(t, []string{}, c.Tags)

	c2, err := client.Calls.Get(t.Context(), "c2")
	require.NoError(t, err)
	assert.Equal(t, 3, c2.TotalParticipants, "dave never answered")
	assert.Equal(t, chat.ParticipantUnanswered, c2.Participants[3].State)
	assert.False(t, c2.Participants[3].IsJoined)
	assert.InDelta(t, 0.5+1+5.0/6, c2.TotalVideoMinutes, 1e-9)

	_, err = client.Calls.Get(t.Context(), "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_CALL_SESSION_NOT_FOUND", chat.ErrNotFound)

	got, ok := srv.Call("c1")
	require.True(t, ok)
	assert.Equal(t, c.SessionID, got.SessionID)
	_, ok = srv.Call("nope")
	assert.False(t, ok)
}

func TestCallsListFilters(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave")
	seedCalls(t, srv)
	require.NoError(t, srv.AddTranscription("c2", chat.CallTranscription{TranscriptURL: "https://t.example/c2.txt"}))

	yes, no, two := true, false, 2
	for _, tt := range []struct {
		name string
		opts *chat.ListCallsOptions
		obo  string
		want []string
	}{
		{"all, newest first", nil, "", []string{"c4", "c3", "c2", "c1"}},
		{"type", &chat.ListCallsOptions{Type: chat.CallTypeVideo}, "", []string{"c4", "c2"}},
		{"mode", &chat.ListCallsOptions{Mode: chat.CallModeMeet}, "", []string{"c3"}},
		{"status", &chat.ListCallsOptions{Status: chat.CallStatusEnded}, "", []string{"c2", "c1"}},
		{"status unanswered", &chat.ListCallsOptions{Status: chat.CallStatusUnanswered}, "", []string{"c4"}},
		{"receiverType", &chat.ListCallsOptions{ReceiverType: chat.ReceiverGroup}, "", []string{"c3", "c2"}},
		{"participantsCount", &chat.ListCallsOptions{ParticipantsCount: &two}, "", []string{"c1"}},
		{"participantsCount 0", &chat.ListCallsOptions{ParticipantsCount: new(int)}, "", []string{"c4"}},
		{"startedAt from", &chat.ListCallsOptions{StartedAt: at(110)}, "", []string{"c3", "c2"}},
		{"endedAt until", &chat.ListCallsOptions{EndedAt: at(100)}, "", []string{"c1"}},
		{"hasRecording", &chat.ListCallsOptions{HasRecording: &yes}, "", []string{"c1"}},
		{"hasRecording false", &chat.ListCallsOptions{HasRecording: &no}, "", []string{"c4", "c3", "c2"}},
		{"hasTranscription", &chat.ListCallsOptions{HasTranscription: &yes}, "", []string{"c2"}},
		{"hasTranscription false", &chat.ListCallsOptions{HasTranscription: &no}, "", []string{"c4", "c3", "c1"}},
		{"uid took part", &chat.ListCallsOptions{UID: "Dave"}, "", []string{"c2"}},
		{"uid who was called", &chat.ListCallsOptions{UID: "bob"}, "", []string{"c4", "c2", "c1"}},
		{"on behalf of carol", nil, "carol", []string{"c3", "c2"}},
		{"on behalf of, filtered", &chat.ListCallsOptions{Type: chat.CallTypeAudio}, "alice", []string{"c1"}},
		{"combined", &chat.ListCallsOptions{Type: chat.CallTypeVideo, Status: chat.CallStatusEnded, ReceiverType: chat.ReceiverGroup}, "", []string{"c2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var opts []chat.RequestOption
			if tt.obo != "" {
				opts = append(opts, chat.OnBehalfOf(tt.obo))
			}
			page, err := client.Calls.List(t.Context(), tt.opts, opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sessionIDs(page.Data))
			require.NotNil(t, page.Meta.Pagination)
			assert.Equal(t, len(tt.want), page.Meta.Pagination.Total)
		})
	}

	t.Run("invalid filters are a 400 naming each field", func(t *testing.T) {
		_, err := client.Calls.List(t.Context(), &chat.ListCallsOptions{Type: "hologram", Mode: "party", Status: "late", ReceiverType: "robot"})
		ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		assert.ElementsMatch(t, []string{"type", "mode", "status", "receiverType"}, detailFields(ce.Details))
		bad := -1
		_, err = client.Calls.List(t.Context(), &chat.ListCallsOptions{ParticipantsCount: &bad, PageOptions: chat.PageOptions{PerPage: 1001}})
		ce = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		assert.ElementsMatch(t, []string{"participantsCount", "perPage"}, detailFields(ce.Details))
	})
	t.Run("onBehalfOf must be a user", func(t *testing.T) {
		_, err := client.Calls.List(t.Context(), nil, chat.OnBehalfOf("ghost"))
		requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	})
}

func detailFields(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCallsPagination(t *testing.T) {
	srv, client := start(t)
	for i := range 7 {
		addCall(t, srv, chat.Call{SessionID: "s" + strconv.Itoa(i), Initiator: "alice", Receiver: "bob", InitiatedAt: at(int64(i))})
	}
	page, err := client.Calls.List(t.Context(), &chat.ListCallsOptions{PageOptions: chat.PageOptions{PerPage: 3, Page: 3}})
	require.NoError(t, err)
	assert.Equal(t, []string{"s0"}, sessionIDs(page.Data))
	assert.Equal(t, &chat.Pagination{Total: 7, Count: 1, PerPage: 3, CurrentPage: 3, TotalPages: 3}, page.Meta.Pagination)

	srv.ResetRequests()
	var ids []string
	for c, err := range client.Calls.All(t.Context(), &chat.ListCallsOptions{PageOptions: chat.PageOptions{PerPage: 3}}) {
		require.NoError(t, err)
		ids = append(ids, c.SessionID)
	}
	assert.Equal(t, []string{"s6", "s5", "s4", "s3", "s2", "s1", "s0"}, ids)
	assert.Equal(t, 3, srv.RequestCount("GET /v3/calls"))
}

func TestCallTranscriptions(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	seedCalls(t, srv)
	ctx := t.Context()

	page, err := client.Calls.ListTranscriptions(ctx, "c1", nil)
	require.NoError(t, err)
	assert.Empty(t, page.Data, "no transcript until one is generated")

	for i := range 7 {
		require.NoError(t, srv.AddTranscription("c1", chat.CallTranscription{TID: "t" + strconv.Itoa(i), StartTime: at(5), EndTime: at(10 + int64(i)),
			TranscriptURL: "https://t.example/" + strconv.Itoa(i)}))
	}
	page, err = client.Calls.ListTranscriptions(ctx, "c1", &chat.ListTranscriptionsOptions{PageOptions: chat.PageOptions{PerPage: 2, Page: 2}})
	require.NoError(t, err)
	assert.Equal(t, []string{"t4", "t3"}, tids(page.Data), "newest first")
	assert.Equal(t, &chat.Pagination{Total: 7, Count: 2, PerPage: 2, CurrentPage: 2, TotalPages: 4}, page.Meta.Pagination)
	tr := page.Data[0]
	assert.Equal(t, "c1", tr.RoomName, "the room defaults to the session")
	assert.True(t, t0.Equal(tr.Date()), "generated at the server's time, not %v", tr.Date())
	assert.Equal(t, "https://t.example/4", tr.TranscriptURL)

	var all []chat.CallTranscription
	for tr, err := range client.Calls.AllTranscriptions(ctx, "c1", &chat.ListTranscriptionsOptions{PageOptions: chat.PageOptions{PerPage: 3}}) {
		require.NoError(t, err)
		all = append(all, *tr)
	}
	assert.Equal(t, []string{"t6", "t5", "t4", "t3", "t2", "t1", "t0"}, tids(all))

	c, err := client.Calls.Get(ctx, "c1")
	require.NoError(t, err)
	assert.True(t, c.HasTranscription)
	assert.Equal(t, []string{"t6", "t5", "t4", "t3", "t2"}, tids(c.Transcriptions), "a call carries its 5 most recent transcriptions")

	list, err := client.Calls.List(ctx, &chat.ListCallsOptions{UID: "bob", Type: chat.CallTypeAudio})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	assert.Len(t, list.Data[0].Transcriptions, 5)

	_, err = client.Calls.ListTranscriptions(ctx, "nope", nil)
	requireAPIError(t, err, http.StatusNotFound, "ERR_CALL_SESSION_NOT_FOUND", chat.ErrNotFound)

	assert.EqualError(t, srv.AddTranscription("nope", chat.CallTranscription{}), `chattest: AddTranscription: no call "nope"`, "unknown call")
	assert.EqualError(t, srv.AddTranscription("c1", chat.CallTranscription{TID: "t1"}),
		`chattest: AddTranscription: the call already has the transcription "t1"`, "a TID the call has")
	assert.EqualError(t, srv.AddTranscription("c1", chat.CallTranscription{StartTime: at(10), EndTime: at(5)}),
		"chattest: AddTranscription: EndTime is before StartTime", "times out of order")
}

func tids(ts []chat.CallTranscription) []string {
	return ids(ts, func(t chat.CallTranscription) string { return t.TID })
}

func TestCallsOnBehalfOf(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave")
	seedCalls(t, srv)
	ctx := t.Context()

	c, err := client.Calls.Get(ctx, "c2", chat.OnBehalfOf("dave"))
	require.NoError(t, err, "an unanswered participant took part")
	assert.Equal(t, "c2", c.SessionID)

	// A call carol had no part in answers as one that does not exist, so
	// that she cannot tell which session ids are in use.
	for _, op := range []struct {
		name string
		call func(id string) error
	}{
		{"get", func(id string) error {
			_, err := client.Calls.Get(ctx, id, chat.OnBehalfOf("carol"))
			return err
		}},
		{"transcriptions", func(id string) error {
			_, err := client.Calls.ListTranscriptions(ctx, id, nil, chat.OnBehalfOf("carol"))
			return err
		}},
	} {
		t.Run(op.name, func(t *testing.T) {
			other := requireAPIError(t, op.call("c1"), http.StatusNotFound, "ERR_CALL_SESSION_NOT_FOUND", chat.ErrNotFound)
			missing := requireAPIError(t, op.call("c9"), http.StatusNotFound, "ERR_CALL_SESSION_NOT_FOUND", chat.ErrNotFound)
			assert.Equal(t, strings.ReplaceAll(missing.Message, "c9", "c1"), other.Message)
			assert.Equal(t, strings.ReplaceAll(missing.DevMessage, "c9", "c1"), other.DevMessage)
			assert.Equal(t, missing.Details, other.Details)
		})
	}
	list, err := client.Calls.List(ctx, nil, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	assert.NotContains(t, ids(list.Data, func(c chat.Call) string { return c.SessionID }), "c1")

	page, err := client.Calls.ListTranscriptions(ctx, "c1", nil, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Empty(t, page.Data)

	reqs := srv.Requests()
	require.NotEmpty(t, reqs)
	assert.Equal(t, "carol", reqs[1].Header.Get("onBehalfOf"), "the SDK sent the header to the calls API")
}

func TestAddCallValidates(t *testing.T) {
	srv, _ := start(t)
	first := addCall(t, srv, chat.Call{Initiator: "Alice", Receiver: "Bob"})
	assert.Regexp(t, `^v1\.us\.test-app\.1700000000[0-9a-f]{40}$`, first.SessionID, "a generated session id")
	assert.Equal(t, chat.CallStatusInitiated, first.Status)
	assert.Equal(t, at(0), first.InitiatedAt, "initiated at the server's time")
	assert.Equal(t, "alice", first.Initiator, "uids are lower-cased")
	assert.Equal(t, "bob", first.Receiver)
	second := addCall(t, srv, chat.Call{Initiator: "alice", Receiver: "bob"})
	assert.NotEqual(t, first.SessionID, second.SessionID)

	tooMany := make([]chat.CallParticipant, 51)
	for i := range tooMany {
		tooMany[i].UID = "u" + strconv.Itoa(i)
	}
	for name, tc := range map[string]struct {
		call chat.Call
		want string // the error's text after "chattest: AddCall: "
	}{
		"no initiator":           {chat.Call{Receiver: "bob"}, "Initiator is required"},
		"no receiver":            {chat.Call{Initiator: "alice"}, `Receiver is required for mode "call"`},
		"bad type":               {chat.Call{Initiator: "a", Receiver: "b", Type: "hologram"}, `Type "hologram" is not audio or video`},
		"bad mode":               {chat.Call{Initiator: "a", Receiver: "b", Mode: "party"}, `Mode "party" is not call, meet or presenter`},
		"bad status":             {chat.Call{Initiator: "a", Receiver: "b", Status: "late"}, `Status "late" is not a call status`},
		"bad receiver type":      {chat.Call{Initiator: "a", Receiver: "b", ReceiverType: "robot"}, `ReceiverType "robot" is not user or group`},
		"started before made":    {chat.Call{Initiator: "a", Receiver: "b", InitiatedAt: at(10), StartedAt: at(5)}, "StartedAt is before InitiatedAt"},
		"ended before start":     {chat.Call{Initiator: "a", Receiver: "b", StartedAt: at(10), EndedAt: at(5)}, "EndedAt is before the call started"},
		"too many participants":  {chat.Call{Initiator: "a", Receiver: "b", Participants: tooMany}, "a call has at most 50 participants"},
		"participant without id": {chat.Call{Initiator: "a", Receiver: "b", Participants: []chat.CallParticipant{{JoinedAt: at(1)}}}, "Participants[0].UID is required"},
		"bad participant state": {chat.Call{Initiator: "a", Receiver: "b", Participants: []chat.CallParticipant{{UID: "a", State: "asleep"}}},
			`Participants[0].State "asleep" is not a participant state`},
		"left before joining": {chat.Call{Initiator: "a", Receiver: "b", Participants: []chat.CallParticipant{{UID: "a", JoinedAt: at(5), LeftAt: at(1)}}},
			"Participants[0].LeftAt is before JoinedAt"},
		"session taken":     {chat.Call{SessionID: first.SessionID, Initiator: "a", Receiver: "b"}, fmt.Sprintf("the session %q already exists", first.SessionID)},
		"metadata not JSON": {chat.Call{Initiator: "a", Receiver: "b", MetaData: []byte("{")}, "MetaData is not valid JSON"},
	} {
		_, err := srv.AddCall(tc.call)
		assert.EqualError(t, err, "chattest: AddCall: "+tc.want, name)
	}
	meeting := addCall(t, srv, chat.Call{Mode: chat.CallModePresenter, Initiator: "alice"})
	assert.Equal(t, chat.CallModePresenter, meeting.Mode, "a meeting needs no receiver")
}

// callTriggers are the triggers a seeded call fires.
var callTriggers = []webhook.Trigger{
	"call_initiated", "call_started", "call_participant_joined", "call_participant_left", "call_ended",
	"meeting_started", "meeting_participant_joined", "meeting_participant_left", "meeting_ended",
	"recording_generated", "transcription_generated",
}

// callEvents subscribes a webhook to the call triggers; the events list
// what was delivered to it since, decoded as a receiver would.
func callEvents(t *testing.T, srv *chattest.Server) func() []webhook.Event {
	t.Helper()
	mc := srv.ManagementClient()
	// Not a loopback URL: the fake records each delivery, with its data,
	// without sending it.
	_, err := mc.Webhooks.Create(t.Context(), srv.AppID(), &management.CreateWebhookRequest{
		ID: "calls", Name: "Calls", URL: "https://hooks.example.com/calls", Enabled: new(true)})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), srv.AppID(), "calls", callTriggers)
	require.NoError(t, err)
	return func() []webhook.Event {
		var out []webhook.Event
		for _, d := range srv.Deliveries() {
			ev, err := webhook.DecodeEnvelope(&webhook.Envelope{Trigger: d.Trigger, Data: d.Data, AppID: d.AppID, Webhook: d.WebhookID, Type: d.Type})
			require.NoError(t, err, "%s: %s", d.Trigger, d.Data)
			out = append(out, ev)
		}
		return out
	}
}

func triggers(evs []webhook.Event) []string {
	return ids(evs, func(ev webhook.Event) string { return string(ev.Trigger()) })
}

func TestAddCallFiresTriggers(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice", "bob")
	events := callEvents(t, srv)

	c := addCall(t, srv, chat.Call{SessionID: "s1", Type: chat.CallTypeAudio, Initiator: "alice", Receiver: "bob",
		InitiatedAt: at(0), StartedAt: at(5), EndedAt: at(95),
		Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: at(5)}, {UID: "bob", JoinedAt: at(8), LeftAt: at(60)}},
		Recordings:   []chat.CallRecording{{StartTime: at(10), EndTime: at(31), RecordingURL: "https://rec.example/s1.mp4"}}})
	evs := events()
	assert.Equal(t, []string{"call_initiated", "call_started", "call_participant_joined", "call_participant_joined",
		"call_participant_left", "call_participant_left", "call_ended", "recording_generated"}, triggers(evs))
	require.Len(t, evs, 8)

	initiated := evs[0].(*webhook.CallEvent)
	assert.Equal(t, "call", initiated.Delivery.Type)
	assert.Equal(t, "s1", initiated.Call.ID)
	assert.Equal(t, "alice_user_bob", initiated.Call.ConversationID)
	assert.Equal(t, "alice", initiated.Call.Sender)
	assert.Equal(t, "bob", initiated.Call.Receiver)
	assert.Equal(t, chat.CategoryCall, initiated.Call.Category)
	assert.Equal(t, chat.MessageTypeAudio, initiated.Call.Type)
	assert.Equal(t, "initiated", initiated.Call.Data.Action)

	started := evs[1].(*webhook.SessionStartedEvent)
	assert.Equal(t, "s1", started.SessionID)
	assert.Equal(t, chat.Timestamp(at(5)), started.CreatedAt)

	joined := evs[3].(*webhook.ParticipantEvent)
	assert.Equal(t, webhook.Occupant{Name: "Bob", JoinedAt: chat.Timestamp(at(8)), AudioCall: true}, joined.Occupant)
	left := evs[4].(*webhook.ParticipantEvent)
	assert.Equal(t, webhook.Occupant{Name: "Bob", JoinedAt: chat.Timestamp(at(8)), LeftAt: chat.Timestamp(at(60)), AudioCall: true}, left.Occupant)
	lastLeft := evs[5].(*webhook.ParticipantEvent)
	assert.Equal(t, "Alice", lastLeft.Occupant.Name, "still in the call when it ended")
	assert.Equal(t, chat.Timestamp(at(95)), lastLeft.Occupant.LeftAt)

	ended := evs[6].(*webhook.SessionEndedEvent)
	assert.Equal(t, chat.Timestamp(at(5)), ended.CreatedAt)
	assert.Equal(t, chat.Timestamp(at(95)), ended.DestroyedAt)
	assert.Len(t, ended.AllOccupants, 2)

	rec := evs[7].(*webhook.RecordingEvent)
	assert.Equal(t, "s1", rec.SessionID)
	assert.Equal(t, "https://rec.example/s1.mp4", rec.RecordingURL)
	assert.Equal(t, "2023-11-14", rec.RecordingDate)
	assert.Equal(t, 21*time.Second, rec.Duration.Duration())
	assert.Equal(t, chat.Timestamp(at(10)), rec.StartTime)

	require.NoError(t, srv.AddTranscription(c.SessionID, chat.CallTranscription{TID: "t1", TranscriptURL: "https://t.example/t1", StartTime: at(5), EndTime: at(95)}))
	evs = events()
	require.Len(t, evs, 9)
	tr := evs[8].(*webhook.TranscriptionEvent)
	assert.Equal(t, "s1", tr.SessionID)
	assert.Equal(t, "t1", tr.TID)
	assert.Equal(t, "https://t.example/t1", tr.TranscriptURL)
	assert.Equal(t, int64(at(5)), tr.StartTime)
	assert.Equal(t, int64(at(95)), tr.EndTime)
	assert.Equal(t, "2023-11-14T22:13:20.000Z", tr.TranscriptDate)
}

func TestAddMeetingFiresMeetingTriggers(t *testing.T) {
	srv, _ := start(t)
	events := callEvents(t, srv)
	addCall(t, srv, chat.Call{SessionID: "m1", Mode: chat.CallModePresenter, Type: chat.CallTypeVideo, Initiator: "carol",
		StartedAt: at(0), Participants: []chat.CallParticipant{{UID: "carol", JoinedAt: at(0)}}})
	evs := events()
	assert.Equal(t, []string{"meeting_started", "meeting_participant_joined"}, triggers(evs),
		"no call_initiated for a meeting, no end while it goes on")
	p := evs[1].(*webhook.ParticipantEvent)
	assert.Equal(t, "meet", p.Delivery.Type)
	assert.Equal(t, "carol", p.Occupant.Name, "the uid of a user the fake does not have")
	assert.False(t, p.Occupant.AudioCall)

	addCall(t, srv, chat.Call{SessionID: "u1", Initiator: "carol", Receiver: "dave", Status: chat.CallStatusUnanswered})
	assert.Equal(t, "call_initiated", triggers(events())[2], "an unanswered call only rings")
	assert.Len(t, events(), 3)
}
