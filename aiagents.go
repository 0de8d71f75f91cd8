package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// AIAgentsService manages AI agents: agents built with CometChat's Agent
// Builder, and bring-your-own (BYO) agents that delegate conversations to
// an external framework (Mastra, CrewAI, LangGraph, Vercel AI SDK, AG2,
// Agno, AG-UI). Get it from [Client.AIAgents].
//
// Every request type has an Extra map for fields this SDK does not model,
// and every result keeps the object as received in Raw. The answers are
// decoded whether or not the service wraps them in "data" or in an "agent"
// member.
//
// The SDK does not implement the other AI Agents operations (send them
// yourself, e.g. with an [http.Client]):
//   - Agent Builder agents: get, update, delete agent; search agent tools;
//     list agent tools and actions; list available models.
//   - Tools (Composio): add tools to agent, remove tools from agent, get
//     tool actions for agent, enable tool actions, remove tool actions.
//   - Custom API tools: list, get, create, update, delete; add to agent;
//     remove from agent.
//   - Frontend actions: list, get, create, update, delete; add to agent;
//     remove from agent.
//   - MCP servers: list, get, create, update, delete; add to agent; remove
//     from agent.
//   - Knowledge base: list records; get source pages; retry source
//     indexing; initiate file uploads; delete uploaded file; list / get /
//     create / update / delete text entries; poll status; add / remove
//     knowledge-base files; scrape single page; scrape website; get
//     discovered URLs; process discovered URLs; delete website; poll
//     discovered-URL status; retry indexing for website pages.
//   - Variables: get all available; create / update / delete custom
//     variable.
//   - BYO: update BYO agent (by UID), delete BYO agent; BYO tools list /
//     get / create / update / delete; integrations list.
//
// Errors of these APIs include ERR_AGENT_NOT_FOUND,
// ERR_AGENT_CREATION_FAILED, ERR_TOOL_NOT_FOUND, ERR_TOOL_ALREADY_ADDED,
// ERR_KB_NOT_FOUND, ERR_KB_INDEXING_FAILED and the authentication codes.
type AIAgentsService struct{ c *caller }

// Agent is an agent made with the Agent Builder. Raw keeps the object as
// received; its times are Unix milliseconds, read with [Agent.CreatedTime]
// and [Agent.UpdatedTime].
type Agent struct {
	// UID identifies the agent.
	UID string `json:"uid"`
	// AppID is the app the agent belongs to.
	AppID string `json:"appId,omitempty"`
	// Name is the agent's name.
	Name string `json:"name"`
	// Icon is the URL of the agent's avatar.
	Icon string `json:"icon,omitempty"`
	// IsActive reports whether the agent answers.
	IsActive bool `json:"isActive"`
	// Description describes the agent.
	Description string `json:"description,omitempty"`
	// Tools are the names of the tools the agent may use.
	Tools []string `json:"tools"`
	// Files are the knowledge-base files of the agent.
	Files []string `json:"files"`
	// Websites are the knowledge-base websites of the agent.
	Websites []string `json:"websites"`
	// OtherKBIntegrations are further knowledge-base integrations.
	OtherKBIntegrations []string `json:"otherKbIntegrations"`
	// APITools are the custom API tools of the agent.
	APITools []string `json:"apiTools"`
	// MCPServers are the MCP servers of the agent.
	MCPServers []string `json:"mcpServers"`
	// FrontendActions are the frontend actions of the agent.
	FrontendActions []string `json:"frontendActions"`
	// RAGVersion is the retrieval pipeline version, "v1" or "v2".
	RAGVersion string `json:"ragVersion,omitempty"`
	// LastMessageAt is when the agent last answered, in Unix
	// milliseconds; zero if never.
	LastMessageAt int64 `json:"lastMessageAt,omitempty"`
	// Instruction is the agent's instruction (system prompt).
	Instruction string `json:"instruction,omitempty"`
	// FormattedInstruction is the instruction as the service rendered it.
	FormattedInstruction string `json:"formattedInstruction,omitempty"`
	// MetaData is the agent's metadata.
	MetaData map[string]any `json:"metaData,omitempty"`
	// Model is the language model, e.g. "gpt-4o-mini".
	Model string `json:"model,omitempty"`
	// ModelMetaData are the model's settings.
	ModelMetaData *ModelSettings `json:"modelMetaData,omitempty"`
	// CreatedAt is when the agent was created, in Unix milliseconds.
	CreatedAt int64 `json:"createdAt,omitempty"`
	// UpdatedAt is when the agent last changed, in Unix milliseconds.
	UpdatedAt int64 `json:"updatedAt,omitempty"`
	// Raw is the agent object as received, fields this type does not
	// model included. It is not sent.
	Raw json.RawMessage `json:"-"`
}

// CreatedTime is CreatedAt as a time.Time (zero when unset).
func (a *Agent) CreatedTime() time.Time { return unixMillis(a.CreatedAt) }

// UpdatedTime is UpdatedAt as a time.Time (zero when unset).
func (a *Agent) UpdatedTime() time.Time { return unixMillis(a.UpdatedAt) }

// UnmarshalJSON decodes the agent leniently and keeps it in Raw.
func (a *Agent) UnmarshalJSON(b []byte) error {
	type plain Agent
	*a = Agent{}
	return decodeKeepingRaw(b, (*plain)(a), &a.Raw)
}

func unixMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// ModelSettings are the settings of an Agent Builder agent's model
// (modelMetaData).
type ModelSettings struct {
	// Temperature is the sampling temperature; nil leaves the default.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens caps the length of an answer; zero leaves the default.
	MaxTokens int `json:"maxTokens,omitempty"`
}

// CreateAgentRequest is the body of [AIAgentsService.CreateAgent]. The
// tools, API tools, MCP servers and frontend actions it names are
// validated by the service before the agent is created; Extra sends
// fields not modelled here.
type CreateAgentRequest struct {
	// Name is required.
	Name string `json:"name"`
	// Icon is the URL of the agent's avatar.
	Icon string `json:"icon,omitempty"`
	// Description describes the agent.
	Description string `json:"description,omitempty"`
	// Tools names the tools the agent may use.
	Tools []string `json:"tools,omitempty"`
	// APITools names custom API tools.
	APITools []string `json:"apiTools,omitempty"`
	// MCPServers names MCP servers.
	MCPServers []string `json:"mcpServers,omitempty"`
	// FrontendActions names frontend actions.
	FrontendActions []string `json:"frontendActions,omitempty"`
	// Instruction is the agent's instruction (system prompt).
	Instruction string `json:"instruction,omitempty"`
	// MetaData is the agent's metadata.
	MetaData map[string]any `json:"metaData,omitempty"`
	// Model is the language model, e.g. "gpt-4o-mini".
	Model string `json:"model,omitempty"`
	// ModelMetaData are the model's settings.
	ModelMetaData *ModelSettings `json:"modelMetaData,omitempty"`
	// IsActive turns the agent on or off; nil leaves the default (on).
	IsActive *bool `json:"isActive,omitempty"`
	// Extra holds further body fields, sent as given; a key that a field
	// above also sends is replaced by Extra's value.
	Extra map[string]any `json:"-"`
}

// MarshalJSON sends the fields and Extra.
func (r CreateAgentRequest) MarshalJSON() ([]byte, error) {
	type plain CreateAgentRequest
	return withExtra(plain(r), r.Extra)
}

// withExtra encodes v, a struct, with extra's members added or replacing
// its own.
func withExtra(v any, extra map[string]any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range extra {
		raw, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// Validate checks r as [AIAgentsService.CreateAgent] does before sending:
// Name set. It returns an [*ArgumentError] naming the field at fault, or
// nil.
func (r *CreateAgentRequest) Validate() error { return required("req.Name", r.Name) }

// CreateAgent creates an Agent Builder agent and returns it.
//
// API: POST /v3/ai-agents/agent-builder/agents (onBehalfOf not supported)
func (s *AIAgentsService) CreateAgent(ctx context.Context, req *CreateAgentRequest, opts ...RequestOption) (*Agent, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out answer[Agent, agentKey]
	if err := s.c.Send(ctx, &Request{Method: http.MethodPost, Path: []string{"ai-agents", "agent-builder", "agents"}, Body: req}, &out, opts); err != nil {
		return nil, err
	}
	return &out.v, nil
}

// ListAgentsOptions filters and positions the list of Agent Builder
// agents: limit and search, and the list's cursor, affix and createdAt.
type ListAgentsOptions struct {
	// Limit is the page size.
	Limit int `url:"limit,omitempty"`
	// Search keeps agents whose name, description or UID matches.
	Search string `url:"search,omitempty"`
	// Direction is the direction from CreatedAt: after it (append) or before
	// it (prepend).
	Direction Direction `url:"affix,omitempty"`
	// CreatedAt is the cursor: an agent's creation time in Unix
	// milliseconds, as meta.next gives it.
	CreatedAt int64 `url:"createdAt,omitempty"`
}

// ListAgents returns one page of the app's Agent Builder agents.
//
// API: GET /v3/ai-agents/agent-builder/agents (onBehalfOf not supported)
func (s *AIAgentsService) ListAgents(ctx context.Context, opts *ListAgentsOptions, reqOpts ...RequestOption) (*Page[Agent], error) {
	return list[Agent](ctx, s.c, &Request{Path: []string{"ai-agents", "agent-builder", "agents"}, Query: opts}, reqOpts)
}

// AllAgents iterates over every Agent Builder agent opts selects, following
// meta.next while the service sends one. It stops on an empty page, yields
// [ErrPaginationStalled] if a cursor repeats, stops at the first error,
// which it yields, and when ctx is done. opts is not modified.
//
// Agents come by creation time, in the direction opts names: oldest first
// with [DirectionAfter], newest first with [DirectionBefore].
//
// API: GET /v3/ai-agents/agent-builder/agents (onBehalfOf not supported)
func (s *AIAgentsService) AllAgents(ctx context.Context, opts *ListAgentsOptions, reqOpts ...RequestOption) iter.Seq2[*Agent, error] {
	start := *nonNil(opts)
	return cursorWalk(ctx, start, start.Limit, func(ctx context.Context, at ListAgentsOptions) (*Page[Agent], error) {
		return s.ListAgents(ctx, &at, reqOpts...)
	}, metaNext[Agent], (*ListAgentsOptions).follow)
}

// follow moves the options to next, a createdAt cursor, and says whether
// next names a position at all.
func (o *ListAgentsOptions) follow(next *Cursor) bool {
	if next.CreatedAt == 0 {
		return false
	}
	if next.Direction != "" {
		o.Direction = next.Direction
	}
	o.CreatedAt = next.CreatedAt
	return true
}

// IntegrationType says how a BYO agent connects: to a language model
// provider or to a deployed agent.
type IntegrationType string

// Integration types.
const (
	IntegrationLLM   IntegrationType = "llm"
	IntegrationAgent IntegrationType = "agent"
)

// BYOAgent is a bring-your-own agent. Raw keeps the object as received;
// its times are ISO-8601 strings, read with [BYOAgent.CreatedTime] and
// [BYOAgent.UpdatedTime].
type BYOAgent struct {
	// UID identifies the agent (a UUID v4 the service generates).
	UID string `json:"uid"`
	// ID is the service's internal document id (_id), when sent.
	ID string `json:"_id,omitempty"`
	// AppID is the app the agent belongs to.
	AppID string `json:"appId,omitempty"`
	// Name is the agent's name (at most 100 characters).
	Name string `json:"name"`
	// Icon is the URL of the agent's avatar.
	Icon string `json:"icon,omitempty"`
	// IsActive reports whether the agent answers.
	IsActive bool `json:"isActive"`
	// IntegrateWith names the platform the agent runs on, e.g. "mastra".
	IntegrateWith string `json:"integrateWith,omitempty"`
	// IntegrationType is llm or agent.
	IntegrationType IntegrationType `json:"integrationType,omitempty"`
	// IntegrationMeta is the platform's connection settings, e.g. the
	// deployed agent's URL.
	IntegrationMeta map[string]any `json:"integrationMeta,omitempty"`
	// Tools are the names of the agent's tools.
	Tools []string `json:"tools"`
	// Actions are the names of the agent's actions.
	Actions []string `json:"actions"`
	// CometChatTools are the CometChat-provided tools the agent uses.
	CometChatTools []string `json:"cometchatTools,omitempty"`
	// Instruction is the agent's instruction.
	Instruction string `json:"instruction,omitempty"`
	// Suggestions are suggested messages shown to users.
	Suggestions []string `json:"suggestions,omitempty"`
	// MetaData is the agent's metadata (e.g. greetingMessage).
	MetaData map[string]any `json:"metaData,omitempty"`
	// DeletedAt is when the agent was deleted (ISO-8601); empty if not.
	DeletedAt string `json:"deletedAt,omitempty"`
	// CreatedAt is when the agent was created (ISO-8601).
	CreatedAt string `json:"createdAt,omitempty"`
	// UpdatedAt is when the agent last changed (ISO-8601).
	UpdatedAt string `json:"updatedAt,omitempty"`
	// Raw is the agent object as received, fields this type does not
	// model included. It is not sent.
	Raw json.RawMessage `json:"-"`
}

// CreatedTime is CreatedAt parsed as RFC 3339 (zero when absent or in
// another form).
func (a *BYOAgent) CreatedTime() time.Time { return isoTime(a.CreatedAt) }

// UpdatedTime is UpdatedAt parsed as RFC 3339 (zero when absent or in
// another form).
func (a *BYOAgent) UpdatedTime() time.Time { return isoTime(a.UpdatedAt) }

// UnmarshalJSON decodes the agent leniently and keeps it in Raw.
func (a *BYOAgent) UnmarshalJSON(b []byte) error {
	type plain BYOAgent
	*a = BYOAgent{}
	return decodeKeepingRaw(b, (*plain)(a), &a.Raw)
}

func isoTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// CreateBYOAgentRequest is the body of [AIAgentsService.CreateBYOAgent].
// The tools and actions named are validated by the service before the
// agent is created; Extra sends fields not modelled here.
type CreateBYOAgentRequest struct {
	// Name is required; at most 100 characters.
	Name string `json:"name"`
	// Icon is the URL of the agent's avatar; the service may require it.
	Icon string `json:"icon,omitempty"`
	// IsActive turns the agent on or off; nil leaves the default (on).
	IsActive *bool `json:"isActive,omitempty"`
	// IntegrateWith names the platform, e.g. "mastra"; required.
	IntegrateWith string `json:"integrateWith"`
	// IntegrationType is llm or agent; required.
	IntegrationType IntegrationType `json:"integrationType"`
	// IntegrationMeta is the platform's connection settings, required for
	// IntegrationAgent: where the agent is deployed (an https URL), e.g.
	// {"baseUrl": "https://...", "agentId": "weatherAgent"} for Mastra.
	IntegrationMeta map[string]any `json:"integrationMeta,omitempty"`
	// Tools names tools of the app the agent may use.
	Tools []string `json:"tools,omitempty"`
	// Actions names actions of the app the agent may use.
	Actions []string `json:"actions,omitempty"`
	// CometChatTools names CometChat-provided tools.
	CometChatTools []string `json:"cometchatTools,omitempty"`
	// Instruction is the agent's instruction.
	Instruction string `json:"instruction,omitempty"`
	// Suggestions are suggested messages shown to users.
	Suggestions []string `json:"suggestions,omitempty"`
	// MetaData is the agent's metadata, e.g. greetingMessage,
	// introductoryMessage, suggestedMessages.
	MetaData map[string]any `json:"metaData,omitempty"`
	// Extra holds further body fields, sent as given; a key that a field
	// above also sends is replaced by Extra's value.
	Extra map[string]any `json:"-"`
}

// MarshalJSON sends the fields and Extra.
func (r CreateBYOAgentRequest) MarshalJSON() ([]byte, error) {
	type plain CreateBYOAgentRequest
	return withExtra(plain(r), r.Extra)
}

// Validate checks r as [AIAgentsService.CreateBYOAgent] does before
// sending: Name, IntegrateWith and IntegrationType set. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *CreateBYOAgentRequest) Validate() error {
	return required("req.Name", r.Name, "req.IntegrateWith", r.IntegrateWith, "req.IntegrationType", string(r.IntegrationType))
}

// CreateBYOAgent registers a bring-your-own agent and returns it.
//
// API: POST /v3/ai-agents/agents (onBehalfOf not supported)
func (s *AIAgentsService) CreateBYOAgent(ctx context.Context, req *CreateBYOAgentRequest, opts ...RequestOption) (*BYOAgent, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out answer[BYOAgent, agentKey]
	if err := s.c.Send(ctx, &Request{Method: http.MethodPost, Path: []string{"ai-agents", "agents"}, Body: req}, &out, opts); err != nil {
		return nil, err
	}
	return &out.v, nil
}

// ListBYOAgents returns every bring-your-own agent of the app; the list is
// not paginated. The answer is a bare JSON array; an array under "data"
// or "agents" decodes too.
//
// API: GET /v3/ai-agents/agents (onBehalfOf not supported)
func (s *AIAgentsService) ListBYOAgents(ctx context.Context, opts ...RequestOption) ([]BYOAgent, error) {
	var out answer[[]BYOAgent, agentsKey]
	if err := s.c.Send(ctx, &Request{Method: http.MethodGet, Path: []string{"ai-agents", "agents"}}, &out, opts); err != nil {
		return nil, err
	}
	if out.v == nil {
		return []BYOAgent{}, nil
	}
	return out.v, nil
}

// TestBYOAgentRequest is the body of [AIAgentsService.TestBYOAgent]: the
// connection settings [CreateBYOAgentRequest] takes, and Extra for
// anything else.
type TestBYOAgentRequest struct {
	// IntegrateWith names the platform, e.g. "mastra".
	IntegrateWith string `json:"integrateWith,omitempty"`
	// IntegrationType is llm or agent.
	IntegrationType IntegrationType `json:"integrationType,omitempty"`
	// IntegrationMeta is the platform's connection settings.
	IntegrationMeta map[string]any `json:"integrationMeta,omitempty"`
	// Extra holds further body fields, sent as given; a key that a field
	// above also sends is replaced by Extra's value.
	Extra map[string]any `json:"-"`
}

// MarshalJSON sends the fields and Extra.
func (r TestBYOAgentRequest) MarshalJSON() ([]byte, error) {
	type plain TestBYOAgentRequest
	return withExtra(plain(r), r.Extra)
}

// TestBYOAgentResult is the answer of [AIAgentsService.TestBYOAgent]:
// Success and Message are read when the service sends them, and Raw keeps
// the whole answer.
type TestBYOAgentResult struct {
	// Success reports whether the agent could be reached.
	Success bool `json:"success"`
	// Message describes the outcome.
	Message string `json:"message,omitempty"`
	// Raw is the answer as received (inside "data" when it was wrapped).
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the result leniently and keeps it in Raw.
func (r *TestBYOAgentResult) UnmarshalJSON(b []byte) error {
	type plain TestBYOAgentResult
	*r = TestBYOAgentResult{}
	return decodeKeepingRaw(b, (*plain)(r), &r.Raw)
}

// TestBYOAgent tests the connection to a bring-your-own agent before (or
// after) registering it.
//
// API: POST /v3/ai-agents/agents/test (onBehalfOf not supported)
func (s *AIAgentsService) TestBYOAgent(ctx context.Context, req *TestBYOAgentRequest, opts ...RequestOption) (*TestBYOAgentResult, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	var out answer[TestBYOAgentResult, noKey]
	if err := s.c.Send(ctx, &Request{Method: http.MethodPost, Path: []string{"ai-agents", "agents", "test"}, Body: req}, &out, opts); err != nil {
		return nil, err
	}
	return &out.v, nil
}

// answer decodes a response whose envelope may vary (see CHOICES.md): the
// value itself, or the value under "data", under the member K names, or
// under "data" then that member. The member's name is a type, not a
// field, so that the lenient decoder's second pass, which zeroes the
// value, cannot lose it.
type answer[T any, K interface{ member() string }] struct{ v T }

// The members answers may wrap their value in.
type (
	agentKey  struct{} // {"agent": ...}
	agentsKey struct{} // {"agents": [...]}
	noKey     struct{} // the value itself, or under "data"
)

func (agentKey) member() string  { return "agent" }
func (agentsKey) member() string { return "agents" }
func (noKey) member() string     { return "" }

// UnmarshalJSON unwraps "data" and K's member, then decodes leniently.
func (a *answer[T, K]) UnmarshalJSON(b []byte) error {
	var k K
	b = member(b, "data", true)
	if name := k.member(); name != "" {
		b = member(b, name, false)
	}
	return rest.Unmarshal(b, &a.v)
}

// member returns the member key of the JSON object b when it has one, and
// b otherwise. With envelope, only an object whose other members are all
// "meta" counts: {"data": ..., "meta": ...}, not a value with a field
// named key.
func member(b []byte, key string, envelope bool) []byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return b
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	v, ok := m[key]
	if !ok {
		return b
	}
	if envelope {
		for k := range m {
			if k != key && k != "meta" {
				return b
			}
		}
	}
	return v
}
