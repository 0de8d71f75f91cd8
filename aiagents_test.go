package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// The agent examples of the public AI Agents documentation.
const (
	builderAgentJSON = `{"uid":"agent-uuid-1234","appId":"my-app-id","name":"Support Agent","icon":"https://example.com/icon.png","isActive":true,
		"description":"A helpful support agent","tools":["gmail","slack"],"files":[],"websites":[],"otherKbIntegrations":[],"apiTools":[],
		"mcpServers":[],"frontendActions":[],"ragVersion":"v2","lastMessageAt":null,"instruction":"You are a helpful assistant",
		"formattedInstruction":"You are a helpful assistant","metaData":{},"model":"gpt-4o-mini","modelMetaData":{},
		"createdAt":1700000000000,"updatedAt":1700000000000,"futureField":1}`
	byoAgentJSON = `{"uid":"550e8400-e29b-41d4-a716-446655440000","appId":"my-app-id","name":"My Agent","icon":"https://example.com/icon.png",
		"isActive":true,"integrateWith":"mastra","integrationType":"agent","tools":["tool1"],"actions":["action1"],
		"instruction":"You are a helpful assistant","integrationMeta":{"baseUrl":"https://mastra.example"},"metaData":{},"deletedAt":null,
		"createdAt":"2025-12-01T00:00:00.000Z","updatedAt":"2025-12-01T00:00:00.000Z"}`
)

// wantBuilderAgent checks the decoded Agent Builder example.
func wantBuilderAgent(t *testing.T, a *chat.Agent) {
	t.Helper()
	assert.Equal(t, "agent-uuid-1234", a.UID)
	assert.Equal(t, "my-app-id", a.AppID)
	assert.Equal(t, "Support Agent", a.Name)
	assert.True(t, a.IsActive)
	assert.Equal(t, []string{"gmail", "slack"}, a.Tools)
	assert.Equal(t, []string{}, a.MCPServers)
	assert.Equal(t, "v2", a.RAGVersion)
	assert.Zero(t, a.LastMessageAt, "null")
	assert.Equal(t, "gpt-4o-mini", a.Model)
	assert.Equal(t, &chat.ModelSettings{}, a.ModelMetaData)
	assert.Equal(t, time.UnixMilli(1700000000000), a.CreatedTime())
	assert.Equal(t, time.UnixMilli(1700000000000), a.UpdatedTime())
	assert.Contains(t, string(a.Raw), `"futureField":1`, "Raw keeps what the type does not model")
}

// wantBYOAgent checks the decoded BYO example.
func wantBYOAgent(t *testing.T, a *chat.BYOAgent) {
	t.Helper()
	assert.Equal(t, "550e8400-e29b-41d4-a716-446655440000", a.UID)
	assert.Equal(t, "My Agent", a.Name)
	assert.Equal(t, "mastra", a.IntegrateWith)
	assert.Equal(t, chat.IntegrationAgent, a.IntegrationType)
	assert.Equal(t, map[string]any{"baseUrl": "https://mastra.example"}, a.IntegrationMeta)
	assert.Equal(t, []string{"tool1"}, a.Tools)
	assert.Equal(t, []string{"action1"}, a.Actions)
	assert.Empty(t, a.DeletedAt)
	assert.Equal(t, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), a.CreatedTime())
	assert.Equal(t, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), a.UpdatedTime())
	assert.JSONEq(t, byoAgentJSON, string(a.Raw))
}

func TestAIAgentsWire(t *testing.T) {
	ctx := context.Background()
	temp, off := 0.7, false
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "CreateAgent answered with an agent member",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{
					Name: "Support Agent", Icon: "https://example.com/icon.png", Description: "A helpful support agent",
					Tools: []string{"gmail"}, APITools: []string{"orders"}, MCPServers: []string{"docs"}, FrontendActions: []string{"open-cart"},
					Instruction: "Be brief", MetaData: map[string]any{"team": "support"}, Model: "gpt-4o-mini",
					ModelMetaData: &chat.ModelSettings{Temperature: &temp, MaxTokens: 4096}, IsActive: &off,
				})
			},
			Reply:  `{"agent":` + builderAgentJSON + `}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agent-builder/agents",
			Body: `{"name":"Support Agent","icon":"https://example.com/icon.png","description":"A helpful support agent","tools":["gmail"],
				"apiTools":["orders"],"mcpServers":["docs"],"frontendActions":["open-cart"],"instruction":"Be brief","metaData":{"team":"support"},
				"model":"gpt-4o-mini","modelMetaData":{"temperature":0.7,"maxTokens":4096},"isActive":false}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) { wantBuilderAgent(t, got.(*chat.Agent)) },
		},
		{
			Name: "CreateAgent with Extra, answered under data",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "A", Model: "m",
					Extra: map[string]any{"ragVersion": "v2", "model": "override"}})
			},
			Reply:  `{"data":{"agent":` + builderAgentJSON + `}}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agent-builder/agents",
			Body:  `{"name":"A","model":"override","ragVersion":"v2"}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) { wantBuilderAgent(t, got.(*chat.Agent)) },
		},
		{
			Name: "CreateAgent answered with the agent under data",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "A"})
			},
			Reply:  `{"data":` + builderAgentJSON + `}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agent-builder/agents", Body: `{"name":"A"}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) { wantBuilderAgent(t, got.(*chat.Agent)) },
		},
		{
			Name: "ListAgents",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.ListAgents(ctx, &chat.ListAgentsOptions{Limit: 10, Search: "support agent", Direction: chat.DirectionAfter, CreatedAt: 1699999999999})
			},
			Reply: `{"data":[` + builderAgentJSON + `],"meta":{"previous":{"affix":"prepend","createdAt":1700000000000},
				"current":{"limit":10,"count":1},"next":{"affix":"append","createdAt":1700000000000}}}`,
			Method: http.MethodGet, Path: "/v3/ai-agents/agent-builder/agents",
			Query: "affix=append&createdAt=1699999999999&limit=10&search=support+agent",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				p := got.(*chat.Page[chat.Agent])
				require.Len(t, p.Data, 1)
				wantBuilderAgent(t, &p.Data[0])
				assert.Equal(t, chat.PageMeta{
					Current:  &chat.PageCount{Limit: 10, Count: 1},
					Next:     &chat.Cursor{Direction: chat.DirectionAfter, CreatedAt: 1700000000000},
					Previous: &chat.Cursor{Direction: chat.DirectionBefore, CreatedAt: 1700000000000},
				}, p.Meta)
			},
		},
		{
			Name: "CreateBYOAgent",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{
					Name: "My Agent", Icon: "https://example.com/icon.png", IsActive: &off, IntegrateWith: "mastra",
					IntegrationType: chat.IntegrationAgent, IntegrationMeta: map[string]any{"baseUrl": "https://mastra.example", "agentId": "weatherAgent"},
					Tools: []string{"tool1"}, Actions: []string{"action1"}, CometChatTools: []string{"search"}, Instruction: "Help",
					Suggestions: []string{"Hi"}, MetaData: map[string]any{"greetingMessage": "Hello"},
				})
			},
			Reply:  `{"agent":` + byoAgentJSON + `}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agents",
			Body: `{"name":"My Agent","icon":"https://example.com/icon.png","isActive":false,"integrateWith":"mastra","integrationType":"agent",
				"integrationMeta":{"baseUrl":"https://mastra.example","agentId":"weatherAgent"},"tools":["tool1"],"actions":["action1"],
				"cometchatTools":["search"],"instruction":"Help","suggestions":["Hi"],"metaData":{"greetingMessage":"Hello"}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) { wantBYOAgent(t, got.(*chat.BYOAgent)) },
		},
		{
			Name:   "ListBYOAgents answered with a bare array",
			Call:   func(c *chat.Client) (any, error) { return c.AIAgents.ListBYOAgents(ctx) },
			Reply:  `[` + byoAgentJSON + `]`,
			Method: http.MethodGet, Path: "/v3/ai-agents/agents",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				list := got.([]chat.BYOAgent)
				require.Len(t, list, 1)
				wantBYOAgent(t, &list[0])
			},
		},
		{
			Name:   "ListBYOAgents answered under data",
			Call:   func(c *chat.Client) (any, error) { return c.AIAgents.ListBYOAgents(ctx) },
			Reply:  `{"data":[` + byoAgentJSON + `]}`,
			Method: http.MethodGet, Path: "/v3/ai-agents/agents",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				list := got.([]chat.BYOAgent)
				require.Len(t, list, 1)
				wantBYOAgent(t, &list[0])
			},
		},
		{
			Name:   "ListBYOAgents empty",
			Call:   func(c *chat.Client) (any, error) { return c.AIAgents.ListBYOAgents(ctx) },
			Reply:  `{"data":[]}`,
			Method: http.MethodGet, Path: "/v3/ai-agents/agents",
			Want: []chat.BYOAgent{},
		},
		{
			Name: "TestBYOAgent",
			Call: func(c *chat.Client) (any, error) {
				return c.AIAgents.TestBYOAgent(ctx, &chat.TestBYOAgentRequest{IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent,
					IntegrationMeta: map[string]any{"baseUrl": "https://mastra.example"}, Extra: map[string]any{"message": "ping"}})
			},
			Reply:  `{"data":{"success":true,"message":"Agent reachable.","latencyMs":42}}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agents/test",
			Body: `{"integrateWith":"mastra","integrationType":"agent","integrationMeta":{"baseUrl":"https://mastra.example"},"message":"ping"}`,
			Want: &chat.TestBYOAgentResult{Success: true, Message: "Agent reachable.",
				Raw: json.RawMessage(`{"success":true,"message":"Agent reachable.","latencyMs":42}`)},
		},
		{
			Name:   "TestBYOAgent answered with a data member of its own",
			Call:   func(c *chat.Client) (any, error) { return c.AIAgents.TestBYOAgent(ctx, &chat.TestBYOAgentRequest{}) },
			Reply:  `{"success":true,"data":{"reply":"pong"}}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agents/test", Body: `{}`,
			Want: &chat.TestBYOAgentResult{Success: true, Raw: json.RawMessage(`{"success":true,"data":{"reply":"pong"}}`)},
		},
		{
			Name:   "TestBYOAgent answered at the top level",
			Call:   func(c *chat.Client) (any, error) { return c.AIAgents.TestBYOAgent(ctx, &chat.TestBYOAgentRequest{}) },
			Reply:  `{"success":"false","message":"unreachable"}`,
			Method: http.MethodPost, Path: "/v3/ai-agents/agents/test", Body: `{}`,
			Want: &chat.TestBYOAgentResult{Message: "unreachable", Raw: json.RawMessage(`{"success":"false","message":"unreachable"}`)},
		},
	})
}

func TestAIAgentsAllAgents(t *testing.T) {
	ctx := context.Background()
	t.Run("follows meta.next's createdAt", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("createdAt", map[string]string{
			"":  `{"data":[{"uid":"a"},{"uid":"b"}],"meta":{"current":{"limit":2,"count":2},"next":{"affix":"append","createdAt":2}}}`,
			"2": `{"data":[{"uid":"c"}],"meta":{"current":{"limit":2,"count":1}}}`,
		})
		opts := &chat.ListAgentsOptions{Limit: 2, Search: "s"}
		uids := collectKeys(t, client.AIAgents.AllAgents(ctx, opts), func(a *chat.Agent) string { return a.UID })
		assert.Equal(t, []string{"a", "b", "c"}, uids)
		reqs := m.Requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "limit=2&search=s", reqs[0].RawQuery)
		assert.Equal(t, "affix=append&createdAt=2&limit=2&search=s", reqs[1].RawQuery)
		assert.Equal(t, &chat.ListAgentsOptions{Limit: 2, Search: "s"}, opts, "opts unchanged")
	})
	t.Run("stops at the first error", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_AGENT_NOT_FOUND","message":"gone"}}`)
		for a, err := range client.AIAgents.AllAgents(ctx, nil) {
			assert.Nil(t, a)
			assert.Equal(t, "ERR_AGENT_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
		}
		assert.Equal(t, 1, m.Calls())
	})
}

func TestAIAgentsArguments(t *testing.T) {
	ctx := context.Background()
	client, m := wiretest.Chat(t)
	s := client.AIAgents
	for _, tt := range []struct {
		name, arg string
		call      func() error
	}{
		{"CreateAgent nil", "req", func() error { _, err := s.CreateAgent(ctx, nil); return err }},
		{"CreateAgent without name", "req.Name", func() error { _, err := s.CreateAgent(ctx, &chat.CreateAgentRequest{}); return err }},
		{"CreateBYOAgent nil", "req", func() error { _, err := s.CreateBYOAgent(ctx, nil); return err }},
		{"CreateBYOAgent without name", "req.Name", func() error {
			_, err := s.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent})
			return err
		}},
		{"CreateBYOAgent without platform", "req.IntegrateWith", func() error {
			_, err := s.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{Name: "n", IntegrationType: chat.IntegrationAgent})
			return err
		}},
		{"CreateBYOAgent without type", "req.IntegrationType", func() error {
			_, err := s.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{Name: "n", IntegrateWith: "mastra"})
			return err
		}},
		{"TestBYOAgent nil", "req", func() error { _, err := s.TestBYOAgent(ctx, nil); return err }},
	} {
		t.Run(tt.name, func(t *testing.T) { wiretest.RequireArgError(t, tt.call(), tt.arg) })
	}
	assert.Zero(t, m.Calls(), "nothing sent")

	t.Run("an Extra value that cannot be encoded", func(t *testing.T) {
		_, err := s.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "n", Extra: map[string]any{"f": func() {}}})
		wiretest.RequireArgError(t, err, "body")
	})
	t.Run("a malformed answer is a decoding error", func(t *testing.T) {
		m.Reply(http.StatusOK, `{"agent":{"uid":{"not":"a string"}}}`)
		_, err := s.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "n"})
		assert.Contains(t, wiretest.RequireAPIError(t, err).Message, "decoding response")
	})
}

// TestAIAgentsValidate holds the Validate of the agent requests to the checks
// their methods run before sending.
func TestAIAgentsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an agent", Value: &chat.CreateAgentRequest{Name: "Helper"}},
		{Name: "an agent without a name", Value: &chat.CreateAgentRequest{Description: "helps"}, Field: "req.Name"},
		{Name: "a BYO agent", Value: &chat.CreateBYOAgentRequest{Name: "Bot", IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent}},
		{Name: "a BYO agent without a platform", Value: &chat.CreateBYOAgentRequest{Name: "Bot", IntegrationType: chat.IntegrationLLM}, Field: "req.IntegrateWith"},
		{Name: "a BYO agent without a type", Value: &chat.CreateBYOAgentRequest{Name: "Bot", IntegrateWith: "mastra"}, Field: "req.IntegrationType"},
	})
}
