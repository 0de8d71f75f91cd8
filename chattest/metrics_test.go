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

func TestAgentBuilderAgents(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	ai := client.AIAgents
	names := []string{"Support Agent", "Sales Agent", "Billing Helper", "Support Triage", "Docs"}
	var created []*chat.Agent
	for _, n := range names {
		a, err := ai.CreateAgent(ctx, &chat.CreateAgentRequest{Name: n, Description: "answers " + n, Tools: []string{"gmail"}})
		require.NoError(t, err)
		created = append(created, a)
	}
	first := created[0]
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, first.UID)
	assert.Equal(t, srv.AppID(), first.AppID)
	assert.True(t, first.IsActive, "active by default")
	assert.Equal(t, "gpt-4o-mini", first.Model)
	assert.Equal(t, []string{"gmail"}, first.Tools)
	assert.Equal(t, []string{}, first.MCPServers)
	assert.True(t, t0.Equal(first.CreatedTime()))
	assert.Equal(t, first.CreatedAt+1, created[1].CreatedAt, "agents created in the same millisecond keep distinct cursors")

	off, temp := false, 0.2
	quiet, err := ai.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "Quiet", IsActive: &off, Model: "gpt-4o",
		ModelMetaData: &chat.ModelSettings{Temperature: &temp, MaxTokens: 100}, MetaData: map[string]any{"tier": "gold"}})
	require.NoError(t, err)
	assert.False(t, quiet.IsActive)
	assert.Equal(t, &chat.ModelSettings{Temperature: &temp, MaxTokens: 100}, quiet.ModelMetaData)
	assert.Equal(t, map[string]any{"tier": "gold"}, quiet.MetaData)

	page, err := ai.ListAgents(ctx, &chat.ListAgentsOptions{Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"Support Agent", "Sales Agent"}, agentNames(page.Data))
	assert.Equal(t, &chat.PageCount{Limit: 2, Count: 2}, page.Meta.Current)
	require.NotNil(t, page.Meta.Next)
	assert.Equal(t, chat.Cursor{Direction: chat.DirectionAfter, CreatedAt: created[1].CreatedAt}, *page.Meta.Next)

	page, err = ai.ListAgents(ctx, &chat.ListAgentsOptions{Search: "SUPPORT"})
	require.NoError(t, err)
	assert.Equal(t, []string{"Support Agent", "Support Triage"}, agentNames(page.Data), "search ignores case")
	assert.Nil(t, page.Meta.Next, "no more")
	page, err = ai.ListAgents(ctx, &chat.ListAgentsOptions{Search: first.UID[:13]})
	require.NoError(t, err)
	assert.Equal(t, []string{"Support Agent"}, agentNames(page.Data), "search matches the uid")

	page, err = ai.ListAgents(ctx, &chat.ListAgentsOptions{Direction: chat.DirectionBefore, CreatedAt: created[3].CreatedAt, Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"Billing Helper", "Sales Agent"}, agentNames(page.Data), "prepend walks back, newest first")

	var all []string
	for a, err := range ai.AllAgents(ctx, &chat.ListAgentsOptions{Limit: 2}) {
		require.NoError(t, err)
		all = append(all, a.Name)
	}
	assert.Equal(t, append(names, "Quiet"), all)

	_, err = ai.CreateAgent(ctx, &chat.CreateAgentRequest{Name: string(make([]byte, 101)), Icon: "x",
		ModelMetaData: &chat.ModelSettings{MaxTokens: -1}, Extra: map[string]any{"name": ""}})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "name")
	assert.Contains(t, ce.Details, "modelMetaData.maxTokens")
	_, err = ai.ListAgents(ctx, &chat.ListAgentsOptions{Limit: 1000})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
}

func agentNames(as []chat.Agent) []string {
	return ids(as, func(a chat.Agent) string { return a.Name })
}

func TestBYOAgents(t *testing.T) {
	_, client := start(t)
	ctx := t.Context()
	ai := client.AIAgents

	list, err := ai.ListBYOAgents(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)

	meta := map[string]any{"baseUrl": "https://mastra.example", "agentId": "weatherAgent"}
	a, err := ai.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{Name: "Weather", IntegrateWith: "mastra",
		IntegrationType: chat.IntegrationAgent, IntegrationMeta: meta, Tools: []string{"forecast"},
		MetaData: map[string]any{"greetingMessage": "Hi"}})
	require.NoError(t, err)
	assert.Regexp(t, `^[0-9a-f-]{36}$`, a.UID)
	assert.True(t, a.IsActive)
	assert.Equal(t, meta, a.IntegrationMeta)
	assert.Equal(t, []string{"forecast"}, a.Tools)
	assert.Equal(t, []string{}, a.Actions)
	assert.True(t, t0.Equal(a.CreatedTime()))
	assert.Contains(t, string(a.Raw), `"deletedAt":null`)

	llm, err := ai.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{Name: "Plain", IntegrateWith: "openai", IntegrationType: chat.IntegrationLLM})
	require.NoError(t, err)

	list, err = ai.ListBYOAgents(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []string{a.UID, llm.UID}, []string{list[0].UID, list[1].UID})

	for name, req := range map[string]*chat.CreateBYOAgentRequest{
		"bad type":           {Name: "x", IntegrateWith: "mastra", IntegrationType: "robot"},
		"agent without meta": {Name: "x", IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent},
		"plain http url": {Name: "x", IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent,
			IntegrationMeta: map[string]any{"url": "http://agent.example"}},
		"long name": {Name: string(make([]byte, 101)), IntegrateWith: "openai", IntegrationType: chat.IntegrationLLM},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ai.CreateBYOAgent(ctx, req)
			requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		})
	}
	list, err = ai.ListBYOAgents(ctx)
	require.NoError(t, err)
	assert.Len(t, list, 2, "nothing stored by failed creates")

	res, err := ai.TestBYOAgent(ctx, &chat.TestBYOAgentRequest{IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent, IntegrationMeta: meta})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.NotEmpty(t, res.Message)

	_, err = ai.TestBYOAgent(ctx, &chat.TestBYOAgentRequest{IntegrateWith: "mastra"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "integrationType")
}
