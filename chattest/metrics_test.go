package chattest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// rawGet sends a GET the SDK would refuse to send, with the server's key,
// and returns the status and the decoded body.
func rawGet(t *testing.T, srv *chattest.Server, path string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL()+path, nil)
	require.NoError(t, err)
	req.Header.Set("apikey", srv.APIKey())
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var body map[string]any
	require.NoError(t, json.Unmarshal(b, &body), "%s", b)
	return resp.StatusCode, body
}

func TestUsageMetrics(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	sec := chat.TimestampOf(t0)
	srv.AddUser(chat.User{UID: "idle", Name: "Idle", LastActiveAt: sec - 86400})
	srv.AddUser(chat.User{UID: "seen", Name: "Seen", LastActiveAt: sec + 50})
	seed(srv, "alice", "bob", "carol", "dave")

	// In the period [t0, t0+1000]: an audio call alice/bob for 90s (a 1-minute
	// recording), a video call bob/carol for 30s overlapping it. Outside:
	// an earlier audio call of dave.
	addCall(t, srv, chat.Call{Initiator: "alice", Receiver: "bob", StartedAt: at(10), EndedAt: at(100),
		Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: at(10)}, {UID: "bob", JoinedAt: at(10)}},
		Recordings:   []chat.CallRecording{{StartTime: at(20), EndTime: at(80)}}})
	addCall(t, srv, chat.Call{Type: chat.CallTypeVideo, Initiator: "carol", Receiver: "dave", StartedAt: at(50), EndedAt: at(80),
		Participants: []chat.CallParticipant{{UID: "carol", JoinedAt: at(50)}, {UID: "dave", JoinedAt: at(60), LeftAt: at(70)}}})
	addCall(t, srv, chat.Call{Initiator: "dave", Receiver: "alice", StartedAt: at(-5000), EndedAt: at(-4000),
		Participants: []chat.CallParticipant{{UID: "dave", JoinedAt: at(-5000)}}})
	clk.Set(t0.Add(200 * time.Second))
	dm(t, client, "bob", "alice", "hi")

	u, err := client.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: sec, ToDate: sec + 1000})
	require.NoError(t, err)
	assert.Equal(t, chat.UsageCounts{
		AudioMinutes:    3, // 2 × 1.5 minutes
		VideoMinutes:    1, // 0.5 + 1/6 minutes, rounded up
		RecordedMinutes: 1,
		ActiveUsers:     5, // alice, bob, carol, dave joined calls; seen was active
		ConcurrentUsers: 4, // alice, bob, carol and dave at t0+60
	}, u.Metrics)
	assert.Equal(t, chat.UsageTimeRange{FromDate: int64(sec) * 1000, ToDate: (int64(sec) + 1000) * 1000}, u.TimeRange, "echoed in milliseconds")
	assert.True(t, t0.Equal(u.TimeRange.From()))
	assert.True(t, t0.Add(1000*time.Second).Equal(u.TimeRange.To()))

	early, err := client.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: sec - 90000, ToDate: sec - 1})
	require.NoError(t, err)
	assert.Equal(t, chat.UsageCounts{AudioMinutes: 17, ActiveUsers: 2, ConcurrentUsers: 1}, early.Metrics,
		"dave's call of 1000s, and idle's activity")

	later, err := client.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: sec + 150, ToDate: sec + 300})
	require.NoError(t, err)
	assert.Equal(t, chat.UsageCounts{ActiveUsers: 1}, later.Metrics, "bob sent a message")

	status, body := rawGet(t, srv, "/v3/stats")
	assert.Equal(t, http.StatusBadRequest, status)
	details := body["error"].(map[string]any)["details"].(map[string]any)
	assert.Contains(t, details, "fromDate")
	assert.Contains(t, details, "toDate")

	status, body = rawGet(t, srv, "/v3/stats?fromDate=10&toDate=5")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body["error"].(map[string]any)["details"], "toDate")
}

func TestMessageMetrics(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")

	// t0 is 22:13:20 UTC: the buckets run from 21:15 to 22:15, the last one
	// holding t0.
	clk.Set(t0.Add(-2 * time.Hour))
	dm(t, client, "alice", "bob", "too old")
	clk.Set(t0.Add(-10 * time.Minute)) // 22:03:20, bucket 22:00-22:05
	m1 := dm(t, client, "alice", "bob", "one")
	dm(t, client, "alice", "bob", "two")
	clk.Set(t0)
	dm(t, client, "bob", "alice", "three")
	_, err := client.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: m1})
	require.NoError(t, err)
	_, err = client.Conversations.MarkUserDelivered(ctx, "alice", "bob", nil)
	require.NoError(t, err)

	m, err := client.Metrics.Messages(ctx)
	require.NoError(t, err)
	assert.Equal(t, srv.AppID(), m.AppID)
	assert.Equal(t, time.Date(2023, 11, 14, 21, 15, 0, 0, time.UTC), m.Start().UTC())
	assert.Equal(t, time.Date(2023, 11, 14, 22, 15, 0, 0, time.UTC), m.End().UTC())
	require.Len(t, m.DataPoints, 12)
	for i, p := range m.DataPoints {
		assert.Equal(t, m.Start().Add(time.Duration(i)*5*time.Minute), p.Start(), "bucket %d", i)
		assert.Equal(t, 5*time.Minute, p.End().Sub(p.Start()))
	}
	assert.Equal(t, chat.MessageDataPoint{MessagesSent: 2, ReadReceipts: 1, DeliveryReceipts: 2,
		StartTime: strconv.FormatInt(time.Date(2023, 11, 14, 22, 0, 0, 0, time.UTC).UnixMilli(), 10),
		EndTime:   strconv.FormatInt(time.Date(2023, 11, 14, 22, 5, 0, 0, time.UTC).UnixMilli(), 10)},
		m.DataPoints[9], "bob read the first and got both")
	assert.Equal(t, 1, m.DataPoints[11].MessagesSent, "alice has not received the third")
	assert.Zero(t, m.DataPoints[11].DeliveryReceipts)
	total := 0
	for _, p := range m.DataPoints {
		total += p.MessagesSent
	}
	assert.Equal(t, 3, total, "the message of two hours ago is outside the hour")
}
