package calls_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/calls"
)

// The app and key every mock client uses; the key has the shape of a real
// one so that a leak would be recognisable.
const (
	testAppID  = "myapp"
	testAPIKey = "f1915e328e249ffaaafd97fb46a57ba55d233fbf"
	testHost   = "myapp.call-us.cometchat.io"
)

// wireRequest is what the mock server saw of one request.
type wireRequest struct {
	Method   string
	Scheme   string
	Host     string
	Path     string // escaped, exactly as sent
	RawQuery string
	Header   http.Header
	Body     []byte
}

// mockAPI is a chat client whose requests go to an httpmock transport that
// records them and answers through handle.
type mockAPI struct {
	t      testing.TB
	client *chat.Client

	mu     sync.Mutex
	reqs   []wireRequest
	handle func(n int, req *http.Request) *http.Response
}

// newMockAPI returns a client for testAppID/testAPIKey over a mock
// transport, without retries, answering 200 {"data":{}} until told
// otherwise.
func newMockAPI(t testing.TB) *mockAPI {
	t.Helper()
	m := &mockAPI{t: t}
	m.reply(http.StatusOK, `{"data":{}}`)
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(m.respond)
	c, err := chat.NewClient(testAppID, testAPIKey, chat.WithoutRetries(), chat.WithHTTPClient(&http.Client{Transport: mt}))
	require.NoError(t, err)
	m.client = c
	return m
}

func (m *mockAPI) respond(req *http.Request) (*http.Response, error) {
	w := wireRequest{Method: req.Method, Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.EscapedPath(),
		RawQuery: req.URL.RawQuery, Header: req.Header.Clone()}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		w.Body = b
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, w)
	n, handle := len(m.reqs), m.handle
	m.mu.Unlock()
	return handle(n, req), nil
}

// reply makes every request answer status with body.
func (m *mockAPI) reply(status int, body string) {
	m.serve(func(int, *http.Request) *http.Response { return jsonResponse(status, body) })
}

// serve makes every request answer through h; n counts requests from 1.
func (m *mockAPI) serve(h func(n int, req *http.Request) *http.Response) {
	m.mu.Lock()
	m.handle = h
	m.mu.Unlock()
}

// requests returns the requests seen so far.
func (m *mockAPI) requests() []wireRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]wireRequest(nil), m.reqs...)
}

// only returns the one request seen, failing the test if there were more
// or none.
func (m *mockAPI) only() wireRequest {
	m.t.Helper()
	reqs := m.requests()
	require.Len(m.t, reqs, 1, "requests sent")
	return reqs[0]
}

func jsonResponse(status int, body string) *http.Response {
	resp := httpmock.NewStringResponse(status, body)
	resp.Header.Set("Content-Type", "application/json")
	return resp
}

// assertWire checks the request line and the headers every calls request
// carries: the calls host, the apikey, no body.
func assertWire(t *testing.T, r wireRequest, method, escapedPath string) {
	t.Helper()
	assert.Equal(t, method, r.Method, "method")
	assert.Equal(t, escapedPath, r.Path, "escaped path")
	assert.Equal(t, "https", r.Scheme, "scheme")
	assert.Equal(t, testHost, r.Host, "host")
	assert.Equal(t, []string{testAPIKey}, r.Header.Values("apikey"), "apikey header")
	assert.Equal(t, "application/json", r.Header.Get("Accept"), "Accept header")
	assert.Empty(t, r.Body, "body")
}

// wireCase is one call of a wire test: what the SDK must send and what it
// must make of the answer. obo is the onBehalfOf header expected ("" means
// absent); query is the raw query ("" means none).
type wireCase struct {
	name     string
	call     func(s *calls.Service) (any, error)
	response string
	path     string
	query    string
	obo      string
	want     any
}

// runWire runs each case against a mock API answering 200 with its
// response, and checks the one GET the call sent.
func runWire(t *testing.T, tests []wireCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t)
			m.reply(http.StatusOK, tt.response)
			got, err := tt.call(m.client.Calls)
			require.NoError(t, err)
			r := m.only()
			assertWire(t, r, http.MethodGet, tt.path)
			assert.Equal(t, tt.query, r.RawQuery, "query")
			if tt.obo == "" {
				assert.Empty(t, r.Header.Values("onBehalfOf"), "onBehalfOf header")
			} else {
				assert.Equal(t, []string{tt.obo}, r.Header.Values("onBehalfOf"), "onBehalfOf header")
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

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

var endedCall = calls.Call{
	SessionID: "v1.us.x.y", Type: calls.TypeAudio, Mode: calls.ModeCall, Status: calls.StatusEnded,
	ReceiverType: calls.ReceiverGroup, Receiver: "g1", Initiator: "u8",
	InitiatedAt: 1692368168, StartedAt: 1692368180, EndedAt: 1692368199,
	TotalAudioMinutes: 0.31666666666666665, TotalDurationInMinutes: 0.31666666666666665, TotalDuration: "00:00:19",
	TotalParticipants: 2, HasRecording: true, MID: "3f75",
	Participants: []calls.Participant{
		{UID: "u2", TotalAudioMinutes: 0.31666666666666665, IsJoined: true, State: calls.StateEnded, TotalDuration: 0.31666666666666665,
			DeviceID: "b768@rtc/ucTK", JoinedAt: 1692368180, MID: "3f75", LeftAt: 1692368199},
		{UID: "u4", State: calls.StateUnanswered},
	},
	Recordings: []calls.Recording{{RID: "r1", Duration: 0.3, StartTime: 1692368181, EndTime: 1692368199, RecordingURL: "https://rec.example/r1.mp4"}},
}

const pagination = `"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}`

var onePage = calls.Meta{Pagination: &calls.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}

func TestCallsWire(t *testing.T) {
	ctx := context.Background()
	yes, no, zero := true, false, 0
	transcript := calls.Transcription{RoomName: "v1.us.x.y", TID: "t1", StartTime: 1692368180, EndTime: 1692368199,
		TranscriptDate: "2023-08-18T14:16:39.000Z", TranscriptURL: "https://t.example/t1.txt"}
	const transcriptJSON = `{"roomName":"v1.us.x.y","tid":"t1","startTime":1692368180,"endTime":1692368199,"transcriptDate":"2023-08-18T14:16:39.000Z","transcriptUrl":"https://t.example/t1.txt"}`

	runWire(t, []wireCase{
		{
			name:     "List without options",
			call:     func(s *calls.Service) (any, error) { return s.List(ctx, nil) },
			response: `{"data":[` + endedCallJSON + `],` + pagination + `}`,
			path:     "/v3/calls",
			want:     &calls.Page[calls.Call]{Data: []calls.Call{endedCall}, Meta: onePage},
		},
		{
			name: "List with every filter",
			call: func(s *calls.Service) (any, error) {
				return s.List(ctx, &calls.ListCallsOptions{
					Type: calls.TypeVideo, Mode: calls.ModeMeet, ParticipantsCount: &zero, StartedAt: 1692368180, EndedAt: 1692368199,
					Status: calls.StatusUnanswered, ReceiverType: calls.ReceiverUser, HasRecording: &no, HasTranscription: &yes,
					UID: "u 2", PerPage: 10, Page: 2,
				})
			},
			response: `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":10,"current_page":2,"total_pages":0}}}`,
			path:     "/v3/calls",
			query: "endedAt=1692368199&hasRecording=false&hasTranscription=true&mode=meet&page=2&participantsCount=0&perPage=10" +
				"&receiverType=user&startedAt=1692368180&status=unanswered&type=video&uid=u+2",
			want: &calls.Page[calls.Call]{Data: []calls.Call{}, Meta: calls.Meta{Pagination: &calls.Pagination{PerPage: 10, CurrentPage: 2}}},
		},
		{
			name:     "List on behalf of a user",
			call:     func(s *calls.Service) (any, error) { return s.List(ctx, nil, chat.OnBehalfOf("u2")) },
			response: `{"data":[` + endedCallJSON + `],` + pagination + `}`,
			path:     "/v3/calls", obo: "u2",
			want: &calls.Page[calls.Call]{Data: []calls.Call{endedCall}, Meta: onePage},
		},
		{
			name:     "Get",
			call:     func(s *calls.Service) (any, error) { return s.Get(ctx, "v1.us.x.y") },
			response: `{"data":` + endedCallJSON + `}`,
			path:     "/v3/calls/v1.us.x.y",
			want:     &endedCall,
		},
		{
			name: "Get with metaData, tags, transcriptions and string numbers",
			call: func(s *calls.Service) (any, error) { return s.Get(ctx, "a/b c", chat.OnBehalfOf("u8")) },
			response: `{"data":{"sessionId":"a/b c","initiatedAt":"1692368168","totalDuration":19,"totalParticipants":"2","totalAudioMinutes":"0.5",
				"hasTranscription":"true","participants":[{"uid":"u2","deviceId":12345,"joinedAt":"1692368180","totalDuration":"0.25"}],
				"transcriptions":[` + transcriptJSON + `],"metaData":[],"tags":["vip"]}}`,
			path: "/v3/calls/a%2Fb%20c", obo: "u8",
			want: &calls.Call{SessionID: "a/b c", InitiatedAt: 1692368168, TotalDuration: "19", TotalParticipants: 2, TotalAudioMinutes: 0.5,
				HasTranscription: true, Participants: []calls.Participant{{UID: "u2", DeviceID: "12345", JoinedAt: 1692368180, TotalDuration: 0.25}},
				Transcriptions: []calls.Transcription{transcript}, MetaData: []byte(`[]`), Tags: []string{"vip"}},
		},
		{
			name:     "ListTranscriptions",
			call:     func(s *calls.Service) (any, error) { return s.ListTranscriptions(ctx, "v1.us.x.y", nil) },
			response: `{"data":[` + transcriptJSON + `],` + pagination + `}`,
			path:     "/v3/calls/v1.us.x.y/transcriptions",
			want:     &calls.Page[calls.Transcription]{Data: []calls.Transcription{transcript}, Meta: onePage},
		},
		{
			name: "ListTranscriptions with a page, on behalf of a user",
			call: func(s *calls.Service) (any, error) {
				return s.ListTranscriptions(ctx, "s/1", &calls.ListTranscriptionsOptions{PerPage: 5, Page: 3}, chat.OnBehalfOf("u2"))
			},
			response: `{"data":[]}`,
			path:     "/v3/calls/s%2F1/transcriptions", query: "page=3&perPage=5", obo: "u2",
			want: &calls.Page[calls.Transcription]{Data: []calls.Transcription{}},
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
		c := calls.Call{TotalDuration: timer}
		assert.Equal(t, want, c.Duration(), timer)
	}
	// Not a timer (the schema's integer): the start and end times tell.
	c = calls.Call{TotalDuration: "19", StartedAt: 100, EndedAt: 130}
	assert.Equal(t, 30*time.Second, c.Duration())
	c = calls.Call{TotalDuration: "x:y", StartedAt: 100}
	assert.Zero(t, c.Duration(), "an ongoing call without a timer")

	tr := calls.Transcription{TranscriptDate: "2023-08-18T14:16:39.000Z", StartTime: 10, EndTime: 20}
	assert.Equal(t, time.Date(2023, 8, 18, 14, 16, 39, 0, time.UTC), tr.Date())
	assert.Equal(t, time.Unix(10, 0), tr.StartedTime())
	assert.Equal(t, time.Unix(20, 0), tr.EndedTime())
	assert.True(t, (&calls.Transcription{TranscriptDate: "yesterday"}).Date().IsZero())

	assert.True(t, calls.Timestamp(0).Time().IsZero())
	assert.True(t, calls.Timestamp(0).IsZero())
	assert.Equal(t, calls.Timestamp(1692368168), calls.TimestampOf(time.Unix(1692368168, 0)))
	assert.Zero(t, calls.TimestampOf(time.Time{}))
}

func TestTimestampDecoding(t *testing.T) {
	for in, want := range map[string]calls.Timestamp{`1692368168`: 1692368168, `"1692368168"`: 1692368168, `null`: 0, `""`: 0, `1692368168.7`: 1692368168,
		`1e300`: 253402300799, `"Infinity"`: 253402300799, `-99999999999999999999999`: -253402300799} {
		var ts calls.Timestamp
		require.NoError(t, ts.UnmarshalJSON([]byte(in)), in)
		assert.Equal(t, want, ts, in)
	}
	var ts calls.Timestamp
	assert.Error(t, ts.UnmarshalJSON([]byte(`"soon"`)))
	assert.Error(t, ts.UnmarshalJSON([]byte(`"NaN"`)))
}

func TestCallsErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("unknown session", func(t *testing.T) {
		m := newMockAPI(t)
		m.reply(http.StatusNotFound, `{"error":{"code":"ERR_CALL_SESSION_NOT_FOUND","message":"no such session"}}`)
		_, err := m.client.Calls.Get(ctx, "nope")
		var ce *chat.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "ERR_CALL_SESSION_NOT_FOUND", ce.Code)
		assert.Equal(t, "/v3/calls/nope", ce.Path)
		assert.ErrorIs(t, err, chat.ErrNotFound)
		assert.NotContains(t, err.Error(), testAPIKey)
	})
	t.Run("bad arguments name the argument and send nothing", func(t *testing.T) {
		m := newMockAPI(t)
		for name, call := range map[string]func() error{
			"Get":                func() error { _, err := m.client.Calls.Get(ctx, ""); return err },
			"Get dot segment":    func() error { _, err := m.client.Calls.Get(ctx, ".."); return err },
			"ListTranscriptions": func() error { _, err := m.client.Calls.ListTranscriptions(ctx, "", nil); return err },
			"AllTranscriptions": func() error {
				for _, err := range m.client.Calls.AllTranscriptions(ctx, "", nil) {
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
		assert.Empty(t, m.requests())
	})
	t.Run("a service without a client fails instead of panicking", func(t *testing.T) {
		for _, s := range []*calls.Service{calls.NewService(nil), {}, nil} {
			_, err := s.List(ctx, nil)
			assert.ErrorIs(t, err, calls.ErrNoClient)
			_, err = s.Get(ctx, "x")
			assert.ErrorIs(t, err, calls.ErrNoClient)
			_, err = s.ListTranscriptions(ctx, "x", nil)
			assert.ErrorIs(t, err, calls.ErrNoClient)
			for c, err := range s.All(ctx, nil) {
				assert.Nil(t, c)
				assert.ErrorIs(t, err, calls.ErrNoClient)
			}
			for tr, err := range s.AllTranscriptions(ctx, "x", nil) {
				assert.Nil(t, tr)
				assert.ErrorIs(t, err, calls.ErrNoClient)
			}
		}
	})
}

// pageResponder answers the page the request asks for out of items (JSON
// objects), perPage at a time, with meta.pagination.
func pageResponder(items []string, perPage int) func(int, *http.Request) *http.Response {
	return func(_ int, req *http.Request) *http.Response {
		page := 1
		if p := req.URL.Query().Get("page"); p != "" {
			page = int(p[0] - '0')
		}
		start := min((page-1)*perPage, len(items))
		end := min(start+perPage, len(items))
		total := (len(items) + perPage - 1) / perPage
		body := `{"data":[` + strings.Join(items[start:end], ",") + `],"meta":{"pagination":{"total":` + itoa(len(items)) +
			`,"count":` + itoa(end-start) + `,"per_page":` + itoa(perPage) + `,"current_page":` + itoa(page) + `,"total_pages":` + itoa(total) + `}}}`
		return jsonResponse(http.StatusOK, body)
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
		m := newMockAPI(t)
		m.serve(pageResponder([]string{`{"sessionId":"a"}`, `{"sessionId":"b"}`, `{"sessionId":"c"}`}, 2))
		opts := &calls.ListCallsOptions{Type: calls.TypeAudio, PerPage: 2}
		var ids []string
		for c, err := range m.client.Calls.All(ctx, opts, chat.OnBehalfOf("u2")) {
			require.NoError(t, err)
			ids = append(ids, c.SessionID)
		}
		assert.Equal(t, []string{"a", "b", "c"}, ids)
		reqs := m.requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "page=1&perPage=2&type=audio", reqs[0].RawQuery)
		assert.Equal(t, "page=2&perPage=2&type=audio", reqs[1].RawQuery)
		for _, r := range reqs {
			assertWire(t, r, http.MethodGet, "/v3/calls")
			assert.Equal(t, []string{"u2"}, r.Header.Values("onBehalfOf"))
		}
		assert.Equal(t, &calls.ListCallsOptions{Type: calls.TypeAudio, PerPage: 2}, opts, "opts unchanged")
	})
	t.Run("a server that ignores page stops with ErrPaginationStalled", func(t *testing.T) {
		m := newMockAPI(t)
		m.reply(http.StatusOK, `{"data":[{"sessionId":"a"}],"meta":{"pagination":{"total":2,"count":1,"per_page":1,"current_page":1,"total_pages":2}}}`)
		var ids []string
		var last error
		for c, err := range m.client.Calls.All(ctx, nil) {
			if err != nil {
				last = err
				continue
			}
			ids = append(ids, c.SessionID)
		}
		assert.Equal(t, []string{"a"}, ids)
		assert.ErrorIs(t, last, calls.ErrPaginationStalled)
		assert.ErrorIs(t, last, chat.ErrPaginationStalled, "the same error as chat's")
	})
	t.Run("stops at the first error", func(t *testing.T) {
		m := newMockAPI(t)
		m.reply(http.StatusInternalServerError, `{"error":{"code":"ERR_EXCEPTION","message":"boom"}}`)
		n := 0
		for c, err := range m.client.Calls.All(ctx, nil) {
			n++
			assert.Nil(t, c)
			var ce *chat.Error
			assert.True(t, errors.As(err, &ce))
		}
		assert.Equal(t, 1, n)
	})
	t.Run("transcriptions, from a given page", func(t *testing.T) {
		m := newMockAPI(t)
		m.serve(pageResponder([]string{`{"tid":"t1"}`, `{"tid":"t2"}`, `{"tid":"t3"}`}, 1))
		var tids []string
		for tr, err := range m.client.Calls.AllTranscriptions(ctx, "s1", &calls.ListTranscriptionsOptions{PerPage: 1, Page: 2}) {
			require.NoError(t, err)
			tids = append(tids, tr.TID)
		}
		assert.Equal(t, []string{"t2", "t3"}, tids)
		for _, r := range m.requests() {
			assertWire(t, r, http.MethodGet, "/v3/calls/s1/transcriptions")
		}
	})
	t.Run("a cancelled context stops before sending", func(t *testing.T) {
		m := newMockAPI(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		for _, err := range m.client.Calls.All(cctx, nil) {
			assert.ErrorIs(t, err, context.Canceled)
		}
		assert.Empty(t, m.requests())
	})
}

func TestCallsAddress(t *testing.T) {
	m := newMockAPI(t)
	m.reply(http.StatusOK, `{"data":[]}`)
	_, err := m.client.Calls.List(context.Background(), nil)
	require.NoError(t, err)
	r := m.only()
	assert.Equal(t, "myapp.call-us.cometchat.io", r.Host, "calls go to the calls host, not the chat host")
	assert.Equal(t, "https://myapp.call-us.cometchat.io/v3", m.client.CallsBaseURL())

	eu, err := chat.NewClient(testAppID, testAPIKey, chat.WithRegion(chat.RegionEU))
	require.NoError(t, err)
	assert.Equal(t, "https://myapp.call-eu.cometchat.io/v3", eu.CallsBaseURL())
}
