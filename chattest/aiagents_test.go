package chattest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

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
