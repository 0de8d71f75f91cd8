package chat_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// The reference's list example, abridged: totalDuration is a timer string
// on the call and a number of minutes on participants; deviceId is a
// string.
const endedCallJSON = `{"sessionId":"v1.us.x.y","type":"audio","mode":"call","status":"ended","receiverType":"group","receiver":"g1","initiator":"u8",
 "initiatedAt":1692368168,"startedAt":1692368180,"endedAt":1692368199,"totalAudioMinutes":0.31666666666666665,"totalVideoMinutes":0,
 "totalDurationInMinutes":0.31666666666666665,"totalDuration":"00:00:19","totalParticipants":2,"hasRecording":true,"hasTranscription":false,
 "mid":"3f75","participants":[{"uid":"u2","totalAudioMinutes":0.31666666666666665,"totalVideoMinutes":0,"isJoined":true,"state":"ended",
 "totalDuration":0.31666666666666665,"deviceId":"b768@rtc/ucTK","joinedAt":1692368180,"mid":"3f75","leftAt":1692368199},
 {"uid":"u4","totalAudioMinutes":0,"totalVideoMinutes":0,"isJoined":false,"state":"unanswered","totalDuration":0}],
 "recordings":[{"rid":"r1","duration":0.3,"startTime":1692368181,"endTime":1692368199,"recording_url":"https://rec.example/r1.mp4"}]}`

var endedCall = chat.Call{
	SessionID: "v1.us.x.y", Type: chat.CallTypeAudio, Mode: chat.CallModeCall, Status: chat.CallStatusEnded,
	ReceiverType: chat.ReceiverGroup, Receiver: "g1", Initiator: "u8",
	InitiatedAt: 1692368168, StartedAt: 1692368180, EndedAt: 1692368199,
	TotalAudioMinutes: 0.31666666666666665, TotalDurationInMinutes: 0.31666666666666665, TotalDuration: "00:00:19",
	TotalParticipants: 2, HasRecording: true, MID: "3f75",
	Participants: []chat.CallParticipant{
		{UID: "u2", TotalAudioMinutes: 0.31666666666666665, IsJoined: true, State: chat.ParticipantEnded, TotalDuration: 0.31666666666666665,
			DeviceID: "b768@rtc/ucTK", JoinedAt: 1692368180, MID: "3f75", LeftAt: 1692368199},
		{UID: "u4", State: chat.ParticipantUnanswered},
	},
	Recordings: []chat.CallRecording{{RID: "r1", Duration: 0.3, StartTime: 1692368181, EndTime: 1692368199, RecordingURL: "https://rec.example/r1.mp4"}},
}

const pagination = `"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}`

var onePage = chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}

func TestCallsWire(t *testing.T) {
	ctx := context.Background()
	yes, no, zero := true, false, 0
	transcript := chat.CallTranscription{RoomName: "v1.us.x.y", TID: "t1", StartTime: 1692368180, EndTime: 1692368199,
		TranscriptDate: "2023-08-18T14:16:39.000Z", TranscriptURL: "https://t.example/t1.txt"}
	const transcriptJSON = `{"roomName":"v1.us.x.y","tid":"t1","startTime":1692368180,"endTime":1692368199,"transcriptDate":"2023-08-18T14:16:39.000Z","transcriptUrl":"https://t.example/t1.txt"}`

	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "List without options",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) { return c.Calls.List(ctx, nil) },
			Reply: `{"data":[` + endedCallJSON + `],` + pagination + `}`,
			Path:  "/v3/calls",
			Want:  &chat.Page[chat.Call]{Data: []chat.Call{endedCall}, Meta: onePage},
		},
		{
			Name:   "List with every filter",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) {
				s := c.Calls
				return s.List(ctx, &chat.ListCallsOptions{Type: chat.CallTypeVideo, Mode: chat.CallModeMeet, ParticipantsCount: &zero, StartedAt: 1692368180, EndedAt: 1692368199,
					Status: chat.CallStatusUnanswered, ReceiverType: chat.ReceiverUser, HasRecording: &no, HasTranscription: &yes,
					UID: "u 2", PageOptions: chat.PageOptions{PerPage: 10, Page: 2}})
			},
			Reply: `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":10,"current_page":2,"total_pages":0}}}`,
			Path:  "/v3/calls",
			Query: "endedAt=1692368199&hasRecording=false&hasTranscription=true&mode=meet&page=2&participantsCount=0&perPage=10" +
				"&receiverType=user&startedAt=1692368180&status=unanswered&type=video&uid=u+2",
			Want: &chat.Page[chat.Call]{Data: []chat.Call{}, Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 10, CurrentPage: 2}}},
		},
		{
			Name:   "List on behalf of a user",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) { return c.Calls.List(ctx, nil, chat.OnBehalfOf("u2")) },
			Reply: `{"data":[` + endedCallJSON + `],` + pagination + `}`,
			Path:  "/v3/calls", OnBehalfOf: "u2",
			Want: &chat.Page[chat.Call]{Data: []chat.Call{endedCall}, Meta: onePage},
		},
		{
			Name:   "Get",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) { return c.Calls.Get(ctx, "v1.us.x.y") },
			Reply: `{"data":` + endedCallJSON + `}`,
			Path:  "/v3/calls/v1.us.x.y",
			Want:  &endedCall,
		},
		{
			Name:   "Get with metaData, tags, transcriptions and string numbers",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) { return c.Calls.Get(ctx, "a/b c", chat.OnBehalfOf("u8")) },
			Reply: `{"data":{"sessionId":"a/b c","initiatedAt":"1692368168","totalDuration":19,"totalParticipants":"2","totalAudioMinutes":"0.5",
				"hasTranscription":"true","participants":[{"uid":"u2","deviceId":12345,"joinedAt":"1692368180","totalDuration":"0.25"}],
				"transcriptions":[` + transcriptJSON + `],"metaData":[],"tags":["vip"]}}`,
			Path: "/v3/calls/a%2Fb%20c", OnBehalfOf: "u8",
			Want: &chat.Call{SessionID: "a/b c", InitiatedAt: 1692368168, TotalDuration: "19", TotalParticipants: 2, TotalAudioMinutes: 0.5,
				HasTranscription: true, Participants: []chat.CallParticipant{{UID: "u2", DeviceID: "12345", JoinedAt: 1692368180, TotalDuration: 0.25}},
				Transcriptions: []chat.CallTranscription{transcript}, MetaData: []byte(`[]`), Tags: []string{"vip"}},
		},
		{
			Name:   "ListTranscriptions",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) { return c.Calls.ListTranscriptions(ctx, "v1.us.x.y", nil) },
			Reply: `{"data":[` + transcriptJSON + `],` + pagination + `}`,
			Path:  "/v3/calls/v1.us.x.y/transcriptions",
			Want:  &chat.Page[chat.CallTranscription]{Data: []chat.CallTranscription{transcript}, Meta: onePage},
		},
		{
			Name:   "ListTranscriptions with a page, on behalf of a user",
			Method: http.MethodGet, Call: func(c *chat.Client) (any, error) {
				s := c.Calls
				return s.ListTranscriptions(ctx, "s/1", &chat.ListTranscriptionsOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 3}}, chat.OnBehalfOf("u2"))
			},
			Reply: `{"data":[]}`,
			Path:  "/v3/calls/s%2F1/transcriptions", Query: "page=3&perPage=5", OnBehalfOf: "u2",
			Want: &chat.Page[chat.CallTranscription]{Data: []chat.CallTranscription{}},
		},
	})
}

func TestCallAccessors(t *testing.T) {
	c := endedCall
	assert.Equal(t, time.Unix(1692368168, 0), c.InitiatedTime())
	assert.Equal(t, time.Unix(1692368180, 0), c.StartedTime())
	assert.Equal(t, time.Unix(1692368199, 0), c.EndedTime())
	assert.Equal(t, 19*time.Second, c.Duration())
	assert.Equal(t, time.Unix(1692368180, 0), c.Participants[0].JoinedTime())
	assert.Equal(t, time.Unix(1692368199, 0), c.Participants[0].LeftTime())
	assert.True(t, c.Participants[1].JoinedTime().IsZero(), "an unanswered participant never joined")
	assert.Equal(t, time.Unix(1692368181, 0), c.Recordings[0].StartedTime())
	assert.Equal(t, time.Unix(1692368199, 0), c.Recordings[0].EndedTime())

	for timer, want := range map[string]time.Duration{"01:02:03": time.Hour + 2*time.Minute + 3*time.Second, "05:30": 5*time.Minute + 30*time.Second} {
		c := chat.Call{TotalDuration: timer}
		assert.Equal(t, want, c.Duration(), timer)
	}
	// Not a timer (the schema's integer): the start and end times tell.
	c = chat.Call{TotalDuration: "19", StartedAt: 100, EndedAt: 130}
	assert.Equal(t, 30*time.Second, c.Duration())
	c = chat.Call{TotalDuration: "x:y", StartedAt: 100}
	assert.Zero(t, c.Duration(), "an ongoing call without a timer")

	tr := chat.CallTranscription{TranscriptDate: "2023-08-18T14:16:39.000Z", StartTime: 10, EndTime: 20}
	assert.Equal(t, time.Date(2023, 8, 18, 14, 16, 39, 0, time.UTC), tr.Date())
	assert.Equal(t, time.Unix(10, 0), tr.StartedTime())
	assert.Equal(t, time.Unix(20, 0), tr.EndedTime())
	assert.True(t, (&chat.CallTranscription{TranscriptDate: "yesterday"}).Date().IsZero())

	assert.True(t, chat.Timestamp(0).Time().IsZero())
	assert.True(t, chat.Timestamp(0).IsZero())
	assert.Equal(t, chat.Timestamp(1692368168), chat.TimestampOf(time.Unix(1692368168, 0)))
	assert.Zero(t, chat.TimestampOf(time.Time{}))
}

func TestTimestampDecoding(t *testing.T) {
	for in, want := range map[string]chat.Timestamp{`1692368168`: 1692368168, `"1692368168"`: 1692368168, `null`: 0, `""`: 0, `1692368168.7`: 1692368168,
		`1e300`: 253402300799, `"Infinity"`: 253402300799, `-99999999999999999999999`: -253402300799} {
		var ts chat.Timestamp
		require.NoError(t, ts.UnmarshalJSON([]byte(in)), in)
		assert.Equal(t, want, ts, in)
	}
	var ts chat.Timestamp
	assert.EqualError(t, ts.UnmarshalJSON([]byte(`"soon"`)), `json: cannot unmarshal timestamp "\"soon\"" into Go value of type chat.Timestamp`)
	assert.EqualError(t, ts.UnmarshalJSON([]byte(`"NaN"`)), `json: cannot unmarshal timestamp "\"NaN\"" into Go value of type chat.Timestamp`)
}

func TestCallsErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("unknown session", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_CALL_SESSION_NOT_FOUND","message":"no such session"}}`)
		_, err := client.Calls.Get(ctx, "nope")
		var ce *chat.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "ERR_CALL_SESSION_NOT_FOUND", ce.Code)
		assert.Equal(t, "/v3/calls/nope", ce.Path)
		assert.ErrorIs(t, err, chat.ErrNotFound)
		assert.NotContains(t, err.Error(), wiretest.APIKey)
	})
	t.Run("bad arguments name the argument and send nothing", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		for name, call := range map[string]func() error{
			"Get":                func() error { _, err := client.Calls.Get(ctx, ""); return err },
			"Get dot segment":    func() error { _, err := client.Calls.Get(ctx, ".."); return err },
			"ListTranscriptions": func() error { _, err := client.Calls.ListTranscriptions(ctx, "", nil); return err },
			"AllTranscriptions": func() error {
				for _, err := range client.Calls.AllTranscriptions(ctx, "", nil) {
					return err
				}
				return nil
			},
		} {
			err := call()
			var ae *chat.ArgumentError
			require.ErrorAs(t, err, &ae, name)
			assert.Equal(t, "sessionID", ae.Name, name)
			assert.ErrorIs(t, err, chat.ErrInvalidArgument, name)
		}
		assert.Empty(t, m.Requests())
	})
}

// pageResponder answers the page the request asks for out of items (JSON
// objects), perPage at a time, with meta.pagination.
func pageResponder(items []string, perPage int) func(int, *http.Request) (*http.Response, error) {
	return func(_ int, req *http.Request) (*http.Response, error) {
		page := 1
		if p := req.URL.Query().Get("page"); p != "" {
			page = int(p[0] - '0')
		}
		start := min((page-1)*perPage, len(items))
		end := min(start+perPage, len(items))
		total := (len(items) + perPage - 1) / perPage
		body := `{"data":[` + strings.Join(items[start:end], ",") + `],"meta":{"pagination":{"total":` + itoa(len(items)) +
			`,"count":` + itoa(end-start) + `,"per_page":` + itoa(perPage) + `,"current_page":` + itoa(page) + `,"total_pages":` + itoa(total) + `}}}`
		return wiretest.JSONResponse(http.StatusOK, body), nil
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestCallsAll(t *testing.T) {
	ctx := context.Background()
	t.Run("walks every page with the filters and onBehalfOf", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Serve(pageResponder([]string{`{"sessionId":"a"}`, `{"sessionId":"b"}`, `{"sessionId":"c"}`}, 2))
		opts := &chat.ListCallsOptions{Type: chat.CallTypeAudio, PageOptions: chat.PageOptions{PerPage: 2}}
		ids := collectKeys(t, client.Calls.All(ctx, opts, chat.OnBehalfOf("u2")),
			func(c *chat.Call) string { return c.SessionID })
		assert.Equal(t, []string{"a", "b", "c"}, ids)
		reqs := m.Requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "page=1&perPage=2&type=audio", reqs[0].RawQuery)
		assert.Equal(t, "page=2&perPage=2&type=audio", reqs[1].RawQuery)
		for _, r := range reqs {
			wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/calls")
			assert.Equal(t, []string{"u2"}, r.Header.Values("onBehalfOf"))
		}
		assert.Equal(t, &chat.ListCallsOptions{Type: chat.CallTypeAudio, PageOptions: chat.PageOptions{PerPage: 2}}, opts, "opts unchanged")
	})
	t.Run("stops at the first error", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusInternalServerError, `{"error":{"code":"ERR_EXCEPTION","message":"boom"}}`)
		n := 0
		for c, err := range client.Calls.All(ctx, nil) {
			n++
			assert.Nil(t, c)
			var ce *chat.Error
			assert.True(t, errors.As(err, &ce))
		}
		assert.Equal(t, 1, n)
	})
	t.Run("transcriptions, from a given page", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Serve(pageResponder([]string{`{"tid":"t1"}`, `{"tid":"t2"}`, `{"tid":"t3"}`}, 1))
		tids := collectKeys(t, client.Calls.AllTranscriptions(ctx, "s1", &chat.ListTranscriptionsOptions{PageOptions: chat.PageOptions{PerPage: 1, Page: 2}}),
			func(tr *chat.CallTranscription) string { return tr.TID })
		assert.Equal(t, []string{"t2", "t3"}, tids)
		for _, r := range m.Requests() {
			wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/calls/s1/transcriptions")
		}
	})
	t.Run("a cancelled context stops before sending", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		for _, err := range client.Calls.All(cctx, nil) {
			assert.ErrorIs(t, err, context.Canceled)
		}
		assert.Empty(t, m.Requests())
	})
}

func TestCallsAddress(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":[]}`)
	_, err := client.Calls.List(context.Background(), nil)
	require.NoError(t, err)
	r := m.Only()
	assert.Equal(t, "myapp.call-us.cometchat.io", r.Host, "calls go to the calls host, not the chat host")
	assert.Equal(t, "https://myapp.call-us.cometchat.io/v3", client.CallsBaseURL())

	eu, err := chat.NewClient(wiretest.AppID, wiretest.APIKey, chat.WithRegion(chat.RegionEU))
	require.NoError(t, err)
	assert.Equal(t, "https://myapp.call-eu.cometchat.io/v3", eu.CallsBaseURL())
}
