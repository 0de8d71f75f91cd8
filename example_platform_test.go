package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// examplesNow is the fake's clock in the platform examples.
var examplesNow = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

func ExampleMetricsService_Usage() {
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return examplesNow }))
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	start := chat.TimestampOf(examplesNow.Add(-2 * time.Hour))
	if _, err := srv.AddCall(chat.Call{Type: chat.CallTypeVideo, Initiator: "alice", Receiver: "bob", StartedAt: start, EndedAt: start + 600,
		Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: start}, {UID: "bob", JoinedAt: start}}}); err != nil {
		log.Fatal(err)
	}

	// Today's usage, from midnight to now.
	midnight := examplesNow.Truncate(24 * time.Hour)
	u, err := client.Metrics.Usage(context.Background(), &chat.UsageOptions{
		FromDate: chat.TimestampOf(midnight), ToDate: chat.TimestampOf(examplesNow),
	})
	if err != nil {
		log.Fatal(err)
	}
	m := u.Metrics
	fmt.Printf("%.0f video minutes, %d active users, at most %d at once\n", m.VideoMinutes, m.ActiveUsers, m.ConcurrentUsers)
	fmt.Println("from", u.TimeRange.From().UTC().Format(time.DateTime), "to", u.TimeRange.To().UTC().Format(time.DateTime))
	// Output:
	// 20 video minutes, 2 active users, at most 2 at once
	// from 2024-05-01 00:00:00 to 2024-05-01 12:00:00
}

func ExampleMetricsService_Messages() {
	// A clock the example moves: the messages are sent at 11:53.
	var clock atomic.Int64
	clock.Store(examplesNow.Add(-7 * time.Minute).Unix())
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return time.Unix(clock.Load(), 0) }))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	for _, text := range []string{"Hi", "Lunch?"} {
		if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice")); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := client.Conversations.MarkUserRead(ctx, "alice", "bob", nil); err != nil {
		log.Fatal(err)
	}
	clock.Store(examplesNow.Unix())

	m, err := client.Metrics.Messages(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(m.DataPoints), "buckets from", m.Start().UTC().Format(time.Kitchen), "to", m.End().UTC().Format(time.Kitchen))
	for _, p := range m.DataPoints {
		if p.MessagesSent > 0 {
			fmt.Printf("%s: %d sent, %d delivered, %d read\n", p.Start().UTC().Format(time.Kitchen), p.MessagesSent, p.DeliveryReceipts, p.ReadReceipts)
		}
	}
	// Output:
	// 12 buckets from 11:05AM to 12:05PM
	// 11:50AM: 2 sent, 2 delivered, 2 read
}

func ExampleAIAgentsService_CreateAgent() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	temperature := 0.3
	agent, err := client.AIAgents.CreateAgent(context.Background(), &chat.CreateAgentRequest{
		Name:          "Support Agent",
		Description:   "Answers questions about orders",
		Instruction:   "Be brief and friendly.",
		Tools:         []string{"gmail"},
		Model:         "gpt-4o-mini",
		ModelMetaData: &chat.ModelSettings{Temperature: &temperature, MaxTokens: 1024},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(agent.Name, agent.Model, agent.IsActive, agent.Tools)
	// Output:
	// Support Agent gpt-4o-mini true [gmail]
}

func ExampleAIAgentsService_ListAgents() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, name := range []string{"Support Agent", "Sales Agent", "Support Triage"} {
		if _, err := client.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{Name: name}); err != nil {
			log.Fatal(err)
		}
	}

	// search matches names, descriptions and uids.
	page, err := client.AIAgents.ListAgents(ctx, &chat.ListAgentsOptions{Search: "support", Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range page.Data {
		fmt.Println(a.Name)
	}
	// Output:
	// Support Agent
	// Support Triage
}

func ExampleAIAgentsService_AllAgents() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, name := range []string{"One", "Two", "Three"} {
		if _, err := client.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{Name: name}); err != nil {
			log.Fatal(err)
		}
	}

	// Two agents per request, following meta.next.
	for a, err := range client.AIAgents.AllAgents(ctx, &chat.ListAgentsOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(a.Name, " ")
	}
	fmt.Println()
	// Output:
	// One Two Three
}

func ExampleAIAgentsService_CreateBYOAgent() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	agent, err := client.AIAgents.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{
		Name:            "Weather",
		IntegrateWith:   "mastra",
		IntegrationType: chat.IntegrationAgent,
		IntegrationMeta: map[string]any{"baseUrl": "https://mastra.example.com", "agentId": "weatherAgent"},
		MetaData:        map[string]any{"greetingMessage": "Ask me about the weather."},
	})
	if err != nil {
		log.Fatal(err)
	}
	agents, err := client.AIAgents.ListBYOAgents(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(agents), "agent:", agents[0].Name, agents[0].IntegrateWith, agents[0].UID == agent.UID)

	// The agent's URL must be https.
	_, err = client.AIAgents.CreateBYOAgent(ctx, &chat.CreateBYOAgentRequest{
		Name: "Insecure", IntegrateWith: "mastra", IntegrationType: chat.IntegrationAgent,
		IntegrationMeta: map[string]any{"baseUrl": "http://mastra.example.com"},
	})
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Code, ce.Details["integrationMeta.baseUrl"])
	}
	// Output:
	// 1 agent: Weather mastra true
	// ERR_BAD_REQUEST [The integrationMeta.baseUrl must be a valid https URL.]
}

func ExampleAIAgentsService_TestBYOAgent() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	res, err := client.AIAgents.TestBYOAgent(context.Background(), &chat.TestBYOAgentRequest{
		IntegrateWith:   "mastra",
		IntegrationType: chat.IntegrationAgent,
		IntegrationMeta: map[string]any{"baseUrl": "https://mastra.example.com", "agentId": "weatherAgent"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reachable:", res.Success)
	// Output:
	// reachable: true
}
