package fake

import (
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// seen is what a consumer of the outbox read of one commit.
type seen struct {
	seq    uint64
	events []string
}

// commits is a consumer of the outbox that keeps what it read of each
// commit, under its own lock.
type commits struct {
	mu       sync.Mutex
	got      []seen
	mismatch bool
	pending  []string // the events recorded since the last commit published
}

func (s *commits) Recorded(c *Commit, ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, ev.EventName())
}

func (s *commits) Published(c *Commit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := seen{seq: c.seq}
	for _, ev := range c.events {
		e.events = append(e.events, ev.EventName())
	}
	if !slices.Equal(e.events, s.pending) {
		s.mismatch = true // each event is read as it is recorded, then in its commit
	}
	s.pending = nil
	s.got = append(s.got, e)
}

func (s *commits) all() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.got...)
}

// A consumer subscribed to the outbox reads one commit per change, in
// order, each holding what the change did: nothing else tells it.
func TestOutboxOneEventPerChange(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	sub := &commits{}
	st := srv.st
	st.mu.Lock()
	st.out.subscribe(sub)
	st.mu.Unlock()

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"}) // a seeding call: one commit
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err := mc.Webhooks.Create(t.Context(), srv.AppID(), &management.CreateWebhookRequest{ID: "h", Name: "h", URL: "http://127.0.0.1:1/hook"})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), srv.AppID(), "h", []webhook.Trigger{webhook.TriggerMessageSent})
	require.NoError(t, err)
	before := len(sub.all())
	client := srv.Client(chat.WithoutRetries())
	_, err = client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Users.Get(t.Context(), "bob") // a read: a commit of no event
	require.NoError(t, err)
	_, err = client.Users.Get(t.Context(), "nobody")
	require.Error(t, err)

	all := sub.all()
	assert.False(t, sub.mismatch, "each event read as it was recorded, then in its commit")
	require.Len(t, all, before+3)
	for i, e := range all {
		assert.Equal(t, uint64(i+1), e.seq, "in order, none missing")
	}
	assert.Equal(t, []seen{{seq: 1}, {seq: 2}}, all[:2], "the seeding calls")
	assert.Equal(t, []string{"message sent"}, all[before].events, "the send recorded one event, once")
	assert.Empty(t, all[before+1].events)
	assert.Empty(t, all[before+2].events)
	// The webhooks render the send as one trigger: internal/webhooks'
	// TestOneDeliveryPerEvent.
}

// activity is a consumer of the outbox that no handler knows of: what
// each user did, rendered from the events alone.
type activity struct {
	core Reader
	mu   sync.Mutex
	did  map[string][]string // by the acting user
}

func (a *activity) Recorded(_ *Commit, ev Event) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch ev := ev.(type) {
	case MessageSent:
		a.did[ev.M.m.Sender] = append(a.did[ev.M.m.Sender], "sent "+a.core.MessageView(ev.M).Data.Text)
	case ReactionAdded:
		a.did[ev.R.uid] = append(a.did[ev.R.uid], "reacted "+ev.R.reaction)
	case GroupChanged:
		a.did[a.core.GroupView(ev.G).Owner] = append(a.did[a.core.GroupView(ev.G).Owner], "group "+ev.Change+" "+ev.G.g.GUID)
	case MemberChanged:
		a.did[ev.By] = append(a.did[ev.By], ev.Action+" "+ev.UID)
	}
}

func (a *activity) Published(*Commit) {}

// A new consumer is one subscriber: it reads what every handler records,
// and no handler names it.
func TestOutboxNewConsumer(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	a := &activity{core: srv.st, did: map[string][]string{}}
	srv.st.mu.Lock()
	srv.st.out.subscribe(a)
	srv.st.mu.Unlock()

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	client := srv.Client(chat.WithoutRetries())
	ctx := t.Context()
	m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, m.ID, "👍", "bob")
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g1", Name: "G", Type: chat.GroupPublic, Owner: "alice"})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "g1", &chat.AddMembersRequest{Participants: []string{"bob"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "g1", "bob", chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	a.mu.Lock()
	defer a.mu.Unlock()
	assert.Equal(t, map[string][]string{
		"alice": {"sent hi", "group created g1", "added bob", "kicked bob"},
		"bob":   {"reacted 👍"},
	}, a.did)
}
