package fake

import (
	"net/url"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

// The AI Agents bodies follow CometChat's public AI Agents documentation,
// as the SDK does (see CHOICES.md): create answers {"agent": {...}} without
// a "data" envelope, the Agent Builder list answers {"data": [...],
// "meta": {...}} with a createdAt cursor, and the BYO list answers a bare
// array. Tools, actions, API tools, MCP servers and frontend actions are
// accepted by name: the fake has no registry of them to validate against.

const (
	// maxAgentName is the longest agent name (the BYO limit, applied to
	// Agent Builder agents too).
	maxAgentName = 100
	// defaultAgentModel is the model of an Agent Builder agent created
	// without one (see CHOICES.md).
	defaultAgentModel = "gpt-4o-mini"
)

// agentsState holds AI agents.
type agentsState struct {
	agents      []*chat.Agent    // Agent Builder agents, in creation order
	byoAgents   []*chat.BYOAgent // BYO agents, in creation order
	agentSeq    int64            // agents of either kind created: makes uids
	lastAgentMs int64            // the latest Agent Builder createdAt
}

func (a *agentsState) init() {}

func aiAgentRoutes() []route {
	return []route{
		{pattern: "POST /v3/ai-agents/agent-builder/agents", reach: appOnly, handle: (*state).createAgent},
		{pattern: "GET /v3/ai-agents/agent-builder/agents", reach: appOnly, handle: (*state).listAgents},
		{pattern: "POST /v3/ai-agents/agents", reach: appOnly, handle: (*state).createBYOAgent},
		{pattern: "GET /v3/ai-agents/agents", reach: appOnly, handle: (*state).listBYOAgents},
		{pattern: "POST /v3/ai-agents/agents/test", reach: appOnly, handle: (*state).testBYOAgent},
	}
}

// agentUID returns a new agent uid: a UUID of version 4 form.
func (st *state) agentUID() string {
	st.agentSeq++
	h := []byte(st.hexID("ai-agent", st.agentSeq))
	h[12] = '4'
	h[16] = "89ab"[h[16]%4]
	return uuidOf(string(h))
}

// agentAnswer is the answer of the create operations: {"agent": {...}}.
type agentAnswer struct {
	Agent any `json:"agent"`
}

// checkNames validates a list of tool (or action, ...) names: each 1 to
// 100 characters.
func checkNames(v *validator, field string, names []string) {
	for i, n := range names {
		if n == "" || charLen(n) > 100 {
			v.add(field, "The %s.%d must be between 1 and 100 characters.", field, i)
		}
	}
}

// orEmpty returns s, or an empty list for nil, as the API shows lists.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// POST /v3/ai-agents/agent-builder/agents
//
// name is required (at most 100 characters); icon at most 3000; isActive
// defaults to true and model to "gpt-4o-mini". createdAt and updatedAt are
// Unix milliseconds, unique in the app: an agent created in the same
// millisecond as the previous one gets the next millisecond, so that the
// list's createdAt cursor never skips an agent.
func (st *state) createAgent(c *call) (any, error) {
	var b struct {
		Name            string              `json:"name"`
		Icon            string              `json:"icon"`
		Description     string              `json:"description"`
		Tools           []string            `json:"tools"`
		APITools        []string            `json:"apiTools"`
		MCPServers      []string            `json:"mcpServers"`
		FrontendActions []string            `json:"frontendActions"`
		Instruction     string              `json:"instruction"`
		MetaData        map[string]any      `json:"metaData"`
		Model           string              `json:"model"`
		ModelMetaData   *chat.ModelSettings `json:"modelMetaData"`
		IsActive        *bool               `json:"isActive"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, maxAgentName)
	checkText(&v, "icon", b.Icon, false, 3000)
	for field, names := range map[string][]string{"tools": b.Tools, "apiTools": b.APITools, "mcpServers": b.MCPServers, "frontendActions": b.FrontendActions} {
		checkNames(&v, field, names)
	}
	if m := b.ModelMetaData; m != nil {
		if m.Temperature != nil && (*m.Temperature < 0 || *m.Temperature > 2) {
			v.add("modelMetaData.temperature", "The modelMetaData.temperature must be between 0 and 2.")
		}
		if m.MaxTokens < 0 {
			v.add("modelMetaData.maxTokens", "The modelMetaData.maxTokens must be at least 1.")
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	ms := max(c.now.UnixMilli(), st.lastAgentMs+1)
	st.lastAgentMs = ms
	a := &chat.Agent{
		UID: st.agentUID(), AppID: st.appID, Name: b.Name, Icon: b.Icon, IsActive: b.IsActive == nil || *b.IsActive,
		Description: b.Description, Tools: orEmpty(b.Tools), Files: []string{}, Websites: []string{}, OtherKBIntegrations: []string{},
		APITools: orEmpty(b.APITools), MCPServers: orEmpty(b.MCPServers), FrontendActions: orEmpty(b.FrontendActions),
		RAGVersion: "v2", Instruction: b.Instruction, FormattedInstruction: b.Instruction, MetaData: b.MetaData,
		Model: b.Model, ModelMetaData: b.ModelMetaData, CreatedAt: ms, UpdatedAt: ms,
	}
	if a.Model == "" {
		a.Model = defaultAgentModel
	}
	if a.MetaData == nil {
		a.MetaData = map[string]any{}
	}
	if a.ModelMetaData == nil {
		a.ModelMetaData = &chat.ModelSettings{}
	}
	st.agents = append(st.agents, a)
	touchField(st, &st.agents)
	return agentAnswer{clone(a)}, nil
}

// GET /v3/ai-agents/agent-builder/agents
//
// Agents in creation order, limit at a time (default 10, at most 100: the
// fake's bounds). search keeps the agents whose name,
// description or uid contains it, ignoring case. The cursor is createdAt
// (Unix milliseconds) with affix: append (the default) lists the agents
// created after it, oldest first; prepend those created before it, newest
// first. meta.next names the last agent returned while more follow in that
// direction; meta.previous names the first one returned.
func (st *state) listAgents(c *call) (any, error) {
	p := c.params()
	limit := p.intRange("limit", 10, 1, 100)
	search := strings.ToLower(p.str("search"))
	affix := oneOf(p, "affix", chat.DirectionAfter, chat.DirectionBefore)
	cursor, hasCursor := p.timestamp("createdAt")
	if err := p.err(); err != nil {
		return nil, err
	}
	prepend := affix == chat.DirectionBefore
	var match []*chat.Agent
	for i := range st.agents {
		a := st.agents[i]
		if prepend {
			a = st.agents[len(st.agents)-1-i]
		}
		switch {
		case hasCursor && !prepend && a.CreatedAt <= cursor,
			hasCursor && prepend && a.CreatedAt >= cursor,
			search != "" && !strings.Contains(strings.ToLower(a.Name), search) &&
				!strings.Contains(strings.ToLower(a.Description), search) && !strings.Contains(strings.ToLower(a.UID), search):
			continue
		}
		match = append(match, a)
	}
	out := make([]chat.Agent, 0, min(limit, len(match)))
	for _, a := range match[:min(limit, len(match))] {
		out = append(out, clone(*a))
	}
	meta := chat.PageMeta{Current: &chat.PageCount{Limit: limit, Count: len(out)}}
	dir := chat.DirectionAfter
	back := chat.DirectionBefore
	if prepend {
		dir, back = back, dir
	}
	if len(out) > 0 {
		meta.Previous = &chat.Cursor{Direction: back, CreatedAt: out[0].CreatedAt}
		if len(match) > limit {
			meta.Next = &chat.Cursor{Direction: dir, CreatedAt: out[len(out)-1].CreatedAt}
		}
	}
	return chat.Page[chat.Agent]{Data: out, Meta: meta}, nil
}

// byoBody is the body of create and test BYO agent.
type byoBody struct {
	Name            string               `json:"name"`
	Icon            string               `json:"icon"`
	IsActive        *bool                `json:"isActive"`
	IntegrateWith   string               `json:"integrateWith"`
	IntegrationType chat.IntegrationType `json:"integrationType"`
	IntegrationMeta map[string]any       `json:"integrationMeta"`
	Tools           []string             `json:"tools"`
	Actions         []string             `json:"actions"`
	CometChatTools  []string             `json:"cometchatTools"`
	Instruction     string               `json:"instruction"`
	Suggestions     []string             `json:"suggestions"`
	MetaData        map[string]any       `json:"metaData"`
}

// checkConnection validates how a BYO agent connects: integrateWith and
// integrationType (llm or agent) are required; an agent integration needs
// integrationMeta, whose url or baseUrl, when given, must be an https URL
// ("URL must be HTTPS").
func checkConnection(v *validator, b *byoBody) {
	checkText(v, "integrateWith", b.IntegrateWith, true, 100)
	switch b.IntegrationType {
	case chat.IntegrationLLM, chat.IntegrationAgent:
	case "":
		v.add("integrationType", "The integrationType field is required.")
	default:
		v.add("integrationType", `The integrationType must be "llm" or "agent".`)
	}
	if b.IntegrationType == chat.IntegrationAgent && len(b.IntegrationMeta) == 0 {
		v.add("integrationMeta", `The integrationMeta field is required when integrationType is "agent".`)
	}
	for _, key := range []string{"url", "baseUrl"} {
		raw, ok := b.IntegrationMeta[key]
		if !ok {
			continue
		}
		s, _ := raw.(string)
		if u, err := url.Parse(s); err != nil || u.Scheme != "https" || u.Host == "" {
			v.add("integrationMeta."+key, "The integrationMeta.%s must be a valid https URL.", key)
		}
	}
}

// POST /v3/ai-agents/agents
//
// name (at most 100 characters), integrateWith and integrationType are
// required, as checkConnection says; isActive defaults to true. The uid is
// a UUID v4; createdAt and updatedAt are ISO-8601 strings and deletedAt is
// null (see CHOICES.md).
func (st *state) createBYOAgent(c *call) (any, error) {
	var b byoBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, maxAgentName)
	checkText(&v, "icon", b.Icon, false, 3000)
	checkConnection(&v, &b)
	for field, names := range map[string][]string{"tools": b.Tools, "actions": b.Actions, "cometchatTools": b.CometChatTools} {
		checkNames(&v, field, names)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	now := c.now.UTC().Format("2006-01-02T15:04:05.000Z")
	a := &chat.BYOAgent{
		UID: st.agentUID(), AppID: st.appID, Name: b.Name, Icon: b.Icon, IsActive: b.IsActive == nil || *b.IsActive,
		IntegrateWith: b.IntegrateWith, IntegrationType: b.IntegrationType, IntegrationMeta: b.IntegrationMeta,
		Tools: orEmpty(b.Tools), Actions: orEmpty(b.Actions), CometChatTools: b.CometChatTools, Instruction: b.Instruction,
		Suggestions: b.Suggestions, MetaData: b.MetaData, CreatedAt: now, UpdatedAt: now,
	}
	if a.IntegrationMeta == nil {
		a.IntegrationMeta = map[string]any{}
	}
	if a.MetaData == nil {
		a.MetaData = map[string]any{}
	}
	st.byoAgents = append(st.byoAgents, a)
	touchField(st, &st.byoAgents)
	return agentAnswer{byoWire{BYOAgent: clone(*a)}}, nil
}

// byoWire is a BYO agent as the API shows it: deletedAt is null.
type byoWire struct {
	chat.BYOAgent
	DeletedAt *string `json:"deletedAt"`
}

// GET /v3/ai-agents/agents
//
// Every BYO agent, in creation order, as a bare JSON array (see
// CHOICES.md).
func (st *state) listBYOAgents(c *call) (any, error) {
	out := make([]byoWire, len(st.byoAgents))
	for i, a := range st.byoAgents {
		out[i] = byoWire{BYOAgent: clone(*a)}
	}
	return out, nil
}

// POST /v3/ai-agents/agents/test
//
// The fake validates the connection settings as create does
// (integrateWith, integrationType, integrationMeta) and, without calling
// anything, answers {"data": {"success": true, "message": ...}}.
func (st *state) testBYOAgent(c *call) (any, error) {
	var b byoBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkConnection(&v, &b)
	if err := v.err(); err != nil {
		return nil, err
	}
	return data(chat.Result{Success: true, Message: "The " + b.IntegrateWith + " agent was tested at " + c.now.UTC().Format(time.RFC3339) + "."}), nil
}
