package webhooks

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/webhook"
)

// Events is the webhooks' consumer of the fake's outbox: it renders each
// event as the triggers it fires and their payloads, as the event is
// recorded, and once the event's change is published it hands them to its
// [Deliverer], which makes a [Delivery] per enabled webhook subscribed to
// each trigger. It reads the state only through the reader it subscribes
// with, and keeps what it rendered under its own lock.
type Events struct {
	*Deliverer // the deliveries

	core fake.Reader

	mu      sync.Mutex
	pending []hookEvent // rendered, waiting for their change to be published
}

// NewEvents returns the consumer of the outbox of a fake that delivers to
// webhooks on loopback addresses, or, with localNetwork, on the
// machine's networks too.
func NewEvents(localNetwork bool) *Events {
	return &Events{Deliverer: New(localNetwork)}
}

// Subscriber is w as the consumer of the outbox of the state core reads.
func (w *Events) Subscriber(core fake.Reader) fake.Subscriber {
	w.core = core
	return w
}

// hookEvent is a webhook trigger fired, with its payload as the envelope's
// data, by an event of the change c.
type hookEvent struct {
	c       *fake.Commit
	trigger string
	data    json.RawMessage
	err     error // why the payload could not be encoded: its deliveries fail with it
}

// Recorded renders ev as the triggers it fires, when a webhook listens.
func (w *Events) Recorded(c *fake.Commit, ev fake.Event) {
	r := w.core
	switch ev := ev.(type) {
	case fake.MessageSent:
		w.fire(c, "message_sent", func() any { return messagePayload(r, ev.M) })
	case fake.MessageActed:
		w.fire(c, "message_"+ev.Action, func() any { return messagePayload(r, ev.M) }) // message_edited, message_deleted
	case fake.ReactionAdded:
		w.fire(c, "message_reaction_added", func() any { return reactionPayload(r, ev.M, ev.R) })
	case fake.ReactionRemoved:
		w.fire(c, "message_reaction_removed", func() any { return reactionPayload(r, ev.M, ev.R) })
	case fake.UsersBlocked:
		trigger := "user_blocked"
		if ev.Unblocked {
			trigger = "user_unblocked"
		}
		if len(ev.UIDs) > 0 {
			w.fire(c, trigger, func() any { return blocksPayload(r, ev) })
		}
	case fake.GroupChanged:
		w.fire(c, "group_"+ev.Change, func() any { return groupChangedPayload(r, ev) }) // group_created, _updated, _deleted
	case fake.MemberChanged:
		w.fire(c, "group_member_"+ev.Action, func() any { return memberPayload(r, ev) })
	case fake.MemberScopeChanged:
		w.fire(c, "group_member_scope_changed", func() any {
			m := hookMemberOf(r, ev.G, ev.UID)
			m.Scope, m.OldScope = ev.Scope, ev.Old
			by := r.UserEntity(ev.By)
			return groupPayload{Group: hookGroupOf(r, ev.G), Members: map[string]hookMember{ev.UID: m}, By: &by}
		})
	case fake.OwnerTransferred:
		w.fire(c, "group_owner_transferred", func() any {
			hg := hookGroupOf(r, ev.G)
			hg.OldOwner, hg.Owner = hg.Owner, ev.Owner
			return groupPayload{Group: hg}
		})
	case fake.ReceiptMarked:
		w.fire(c, receiptTriggers[ev.Action], func() any { return fake.ReceiptOf(r, ev) })
	case fake.MessageModerated:
		trigger := "moderation_engine_approved"
		if ev.Verdict != fake.ModApproved {
			trigger = "moderation_engine_blocked"
		}
		w.fire(c, trigger, func() any { return r.EngineVerdict(ev.M, ev.Verdict) })
	case fake.MessageReviewApproved:
		w.fire(c, "moderation_manual_approved", func() any { return r.ReviewApproval(ev.Rec, ev.Reviewed) })
	case fake.CallAdded:
		w.renderCall(c, ev.C)
	case fake.TranscriptAdded:
		w.fire(c, "transcription_generated", func() any {
			return transcriptionPayload{SessionID: ev.C.SessionID, TID: ev.T.TID, TranscriptDate: ev.T.TranscriptDate,
				TranscriptURL: ev.T.TranscriptURL, StartTime: int64(ev.T.StartTime), EndTime: int64(ev.T.EndTime)}
		})
	case fake.TriggerFired:
		w.fire(c, ev.Trigger, func() any { return ev.Data })
	case fake.UserPresence:
		w.fire(c, "user_connection_status_changed", func() any { return connectionPayload(ev) })
	}
}

// fire renders the payload of trigger, an event of c, with payload, when
// an enabled webhook listens to it: nothing is built for a trigger nobody
// listens to.
func (w *Events) fire(c *fake.Commit, trigger string, payload func() any) {
	if !w.core.Hooked(trigger) {
		return
	}
	raw, err := json.Marshal(payload())
	if err != nil {
		err = fmt.Errorf("chattest: encoding the %s payload: %w", trigger, err)
	}
	w.mu.Lock()
	w.pending = append(w.pending, hookEvent{c: c, trigger: trigger, data: raw, err: err})
	w.mu.Unlock()
}

// Published hands the triggers c's events fired to the deliverer, each
// with the enabled webhooks of the app subscribed to it; their deliveries
// leave once c's change is kept.
func (w *Events) Published(c *fake.Commit) {
	w.mu.Lock()
	// The commits begun after c are published: c's triggers end the list.
	i := len(w.pending)
	for i > 0 && w.pending[i-1].c == c {
		i--
	}
	if i == len(w.pending) {
		w.mu.Unlock()
		return
	}
	fired := make([]Fired, 0, len(w.pending)-i)
	for _, he := range w.pending[i:] {
		fired = append(fired, Fired{Trigger: he.trigger, Data: he.data, Err: he.err, Targets: targets(w.core.HookTargets(he.trigger))})
	}
	clear(w.pending[i:])
	w.pending = w.pending[:i]
	w.mu.Unlock()
	w.Deliver(w.core.App(), fired, c.Durable)
}

// The payloads of the triggers the chat API's events fire.

// messagePayload is the data of message_sent, message_edited and
// message_deleted: {"message": m}, m as the app sees it (for the last two,
// the action message). An edit or delete's action message shows its by and
// on entities only, as the reference lists them and the service delivers
// them (no for), and a deleted message as the service shows it: its id,
// conversationId, deletedAt and deletedBy.
func messagePayload(r fake.Reader, m *fake.MsgRec) any {
	v := r.MessageView(m)
	if e := v.Data.Entities; v.Category == chat.CategoryAction && v.Type == chat.MessageTypeMessage && e != nil {
		hooked := chat.Entities{By: e.By, On: e.On}
		if v.Data.Action == chat.ActionDeleted && e.On != nil {
			var gone deletedMessage
			if json.Unmarshal(e.On.Entity, &gone) == nil {
				hooked.On = fake.Entity(chat.EntityMessage, gone)
			}
		}
		v.Data.Entities = &hooked
	}
	return struct {
		Message chat.Message `json:"message"`
	}{v}
}

// deletedMessage is a deleted message as message_deleted shows it.
type deletedMessage struct {
	ID             string         `json:"id"`
	ConversationID string         `json:"conversationId"`
	DeletedAt      chat.Timestamp `json:"deletedAt"`
	DeletedBy      string         `json:"deletedBy"`
}

// reactionPayload is the data of message_reaction_added and
// message_reaction_removed.
func reactionPayload(r fake.Reader, m *fake.MsgRec, rr *fake.ReactionRec) any {
	return struct {
		Reaction chat.Reaction `json:"reaction"`
	}{r.Reaction(m, rr)}
}

// blocksPayload is the data of user_blocked and user_unblocked: {"users":
// {uid: {uid, name}}, "by": {uid, name}}.
func blocksPayload(r fake.Reader, ev fake.UsersBlocked) any {
	users := map[string]chat.User{}
	for _, uid := range ev.UIDs {
		users[uid] = r.NamedUser(uid)
	}
	return struct {
		Users map[string]chat.User `json:"users"`
		By    chat.User            `json:"by"`
	}{users, r.NamedUser(ev.By)}
}

// connectionPayload is the data of user_connection_status_changed: the
// user (uid, name, status, role) with the status the change gave them, and
// the websocket whose authenticating or closing made it, a web client of
// the JavaScript SDK's (as joinConfig has it). The fake knows no client's
// appInfo or user agent.
func connectionPayload(ev fake.UserPresence) any {
	action := "disconnected"
	if ev.Online {
		action = "connected"
	}
	u := ev.U.User()
	return struct {
		Timestamp           webhook.Millis     `json:"timestamp"`
		User                chat.User          `json:"user"`
		Status              chat.UserStatus    `json:"status"`
		CurrentConnection   webhook.Connection `json:"currentConnection"`
		UserPresenceChanged bool               `json:"userPresenceChanged"`
	}{webhook.Millis(ev.Ms), chat.User{UID: u.UID, Name: u.Name, Status: u.Status, Role: u.Role}, u.Status,
		webhook.Connection{Action: action, Platform: "javascript", ConnectedAt: webhook.Millis(ev.ConnectedAt)}, true}
}

// hookGroup is a group in a group payload: the group as the app sees it,
// with the fields only webhooks carry.
type hookGroup struct {
	chat.Group
	OnlineMembersCount *int   `json:"onlineMembersCount,omitempty"`
	OldOwner           string `json:"oldOwner,omitempty"`
}

// hookMember is a member in a group payload.
type hookMember struct {
	chat.GroupMember
	OldScope chat.MemberScope `json:"oldScope,omitempty"`
}

// groupPayload is the data of the group triggers.
type groupPayload struct {
	Group   hookGroup             `json:"group"`
	Members map[string]hookMember `json:"members,omitempty"`
	By      *chat.User            `json:"by,omitempty"`
}

// hookGroupOf is g as group payloads show it: with onlineMembersCount,
// the members online.
func hookGroupOf(r fake.Reader, g *fake.GroupRec) hookGroup {
	online := 0
	for _, uid := range r.MemberUIDs(g) {
		if r.Online(uid) {
			online++
		}
	}
	return hookGroup{Group: r.GroupView(g), OnlineMembersCount: &online}
}

// hookMemberOf is the user uid as a member of g in group payloads: the
// user, with their scope and joinedAt while they are a member.
func hookMemberOf(r fake.Reader, g *fake.GroupRec, uid string) hookMember {
	u := r.UserEntity(uid)
	m := hookMember{GroupMember: chat.GroupMember{UID: u.UID, Name: u.Name, Avatar: u.Avatar, Status: u.Status,
		Role: u.Role, LastActiveAt: u.LastActiveAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}}
	if scope, joined, ok := r.Membership(g, uid); ok {
		m.Scope, m.JoinedAt = scope, joined
	}
	return m
}

// groupChangedPayload is the data of group_created, group_updated and
// group_deleted; group_created carries the members g has at that point.
func groupChangedPayload(r fake.Reader, ev fake.GroupChanged) any {
	p := groupPayload{Group: hookGroupOf(r, ev.G)}
	if ev.Change == fake.GroupCreated {
		// The group as its owner sees it (scope, joinedAt, hasJoined),
		// without onlineMembersCount, as the reference lists it.
		p.Group = hookGroup{Group: r.GroupViewAs(ev.G, r.GroupView(ev.G).Owner)}
		p.Members = map[string]hookMember{}
		for _, uid := range r.MemberUIDs(ev.G) {
			p.Members[uid] = hookMemberOf(r, ev.G, uid)
		}
	}
	return p
}

// memberPayload is the data of group_member_added, _kicked, _banned,
// _unbanned, _joined and _left for ev.uid in ev.g, acting as ev.by; a
// member who joins or leaves acts themself, and the payload has no by.
func memberPayload(r fake.Reader, ev fake.MemberChanged) any {
	p := groupPayload{Group: hookGroupOf(r, ev.G), Members: map[string]hookMember{ev.UID: hookMemberOf(r, ev.G, ev.UID)}}
	if ev.Action != "joined" && ev.Action != "left" {
		by := r.UserEntity(ev.By)
		p.By = &by
	}
	return p
}

// receiptTriggers are the triggers of the receipts' actions.
var receiptTriggers = map[string]string{
	fake.ReceiptDelivered:      "message_delivery_receipt",
	fake.ReceiptRead:           "message_read_receipt",
	fake.ReceiptDeliveredToAll: fake.TriggerDeliveredToAll,
	fake.ReceiptReadByAll:      fake.TriggerReadByAll,
}

// The data of the call and meeting webhook triggers.
type (
	callInitiatedPayload struct {
		Call chat.Message `json:"call"`
	}
	sessionStartedPayload struct {
		CreatedAt int64  `json:"created_at"`
		SessionID string `json:"sessionId"`
	}
	occupantPayload struct {
		JoinedAt  int64  `json:"joined_at"`
		AudioCall string `json:"audio_call"` // "true" or "false"
		LeftAt    int64  `json:"left_at,omitempty"`
		Name      string `json:"name"`
	}
	participantPayload struct {
		Occupant      occupantPayload `json:"occupant"`
		InitialConfig *initialConfig  `json:"initial_config,omitempty"` // joins only
		SessionID     string          `json:"sessionId"`
	}
	// initialConfig is how a participant's client joined, as the
	// service's call_participant_joined shows it: string flags.
	initialConfig struct {
		AudioMuted        string `json:"is_audio_muted"`
		VideoMuted        string `json:"is_video_muted"`
		AudioOnly         string `json:"is_audio_only"`
		Mode              string `json:"mode"`
		SDK               string `json:"sdk"`
		Platform          string `json:"platform"`
		CallVersion       string `json:"call_version"`
		RecordOnCallStart string `json:"start_recording_on_call_start"`
	}
	sessionEndedPayload struct {
		AllOccupants []occupantPayload `json:"all_occupants"`
		DestroyedAt  int64             `json:"destroyed_at"`
		CreatedAt    int64             `json:"created_at"`
		SessionID    string            `json:"sessionId"`
	}
	recordingPayload struct {
		RecordingDate string `json:"recordingDate"` // YYYY-MM-DD
		Duration      string `json:"duration"`      // seconds, e.g. "21.433000"
		StartTime     string `json:"startTime"`     // Unix seconds
		SessionID     string `json:"sessionId"`
		RecordingURL  string `json:"recording_url"`
	}
	transcriptionPayload struct {
		SessionID      string `json:"sessionId"`
		TID            string `json:"tid"`
		TranscriptDate string `json:"transcriptDate"`
		TranscriptURL  string `json:"transcript_url"`
		StartTime      int64  `json:"startTime"`
		EndTime        int64  `json:"endTime"`
	}
)

// renderCall renders the triggers of a call that was made, as AddCall
// documents, events of c. The fake stores no call message: call_initiated's call.id is
// the session id.
func (w *Events) renderCall(cm *fake.Commit, c *chat.Call) {
	prefix := "meeting_"
	if c.Mode == chat.CallModeCall {
		prefix = "call_"
		conv := "group_" + c.Receiver
		if c.ReceiverType == chat.ReceiverUser {
			conv = fake.UserConversationID(c.Initiator, c.Receiver)
		}
		w.fire(cm, "call_initiated", func() any {
			return callInitiatedPayload{Call: chat.Message{
				ID: c.SessionID, ConversationID: conv, Sender: c.Initiator,
				ReceiverType: chat.ReceiverType(c.ReceiverType), Receiver: c.Receiver,
				Category: chat.CategoryCall, Type: chat.MessageType(c.Type), Data: chat.MessageData{Action: "initiated"},
				SentAt: chat.Timestamp(c.InitiatedAt), UpdatedAt: chat.Timestamp(c.InitiatedAt),
			}}
		})
	}
	if c.StartedAt == 0 {
		return
	}
	w.fire(cm, prefix+"started", func() any { return sessionStartedPayload{CreatedAt: int64(c.StartedAt), SessionID: c.SessionID} })

	// Joins and leaves in the order they happened; a leave at the moment
	// of a join comes after it.
	type move struct {
		at   chat.Timestamp
		left bool
		p    *chat.CallParticipant
	}
	var moves []move
	var all []occupantPayload
	for i := range c.Participants {
		p := &c.Participants[i]
		if p.JoinedAt == 0 {
			continue
		}
		moves = append(moves, move{p.JoinedAt, false, p})
		if left := fake.LeftAt(c, p); left != 0 {
			moves = append(moves, move{left, true, p})
		}
		all = append(all, occupant(w.core, c, p, true))
	}
	sort.SliceStable(moves, func(i, j int) bool {
		if moves[i].at != moves[j].at {
			return moves[i].at < moves[j].at
		}
		return !moves[i].left && moves[j].left
	})
	for _, m := range moves {
		trigger := prefix + "participant_joined"
		if m.left {
			trigger = prefix + "participant_left"
		}
		w.fire(cm, trigger, func() any {
			p := participantPayload{Occupant: occupant(w.core, c, m.p, m.left), SessionID: c.SessionID}
			if !m.left {
				p.InitialConfig = joinConfig(c)
			}
			return p
		})
	}
	if c.EndedAt != 0 {
		if all == nil {
			all = []occupantPayload{}
		}
		w.fire(cm, prefix+"ended", func() any {
			return sessionEndedPayload{AllOccupants: all, DestroyedAt: int64(c.EndedAt), CreatedAt: int64(c.StartedAt), SessionID: c.SessionID}
		})
	}
	for _, rec := range c.Recordings {
		start := rec.StartTime
		if start == 0 {
			start = c.StartedAt
		}
		w.fire(cm, "recording_generated", func() any {
			return recordingPayload{
				RecordingDate: start.Time().UTC().Format(time.DateOnly),
				Duration:      strconv.FormatFloat(rec.Duration*60, 'f', 6, 64),
				StartTime:     strconv.FormatInt(int64(start), 10),
				SessionID:     c.SessionID, RecordingURL: rec.RecordingURL,
			}
		})
	}
}

// joinConfig is the initial_config of a participant joining c: a web
// client of the JavaScript SDK, unmuted, with video only on a video call,
// recording from the start when a recording of c starts with it.
func joinConfig(c *chat.Call) *initialConfig {
	audio := strconv.FormatBool(c.Type == chat.CallTypeAudio)
	record := slices.ContainsFunc(c.Recordings, func(r chat.CallRecording) bool { return r.StartTime == 0 || r.StartTime == c.StartedAt })
	return &initialConfig{AudioMuted: "false", VideoMuted: audio, AudioOnly: audio, Mode: "DEFAULT", SDK: "javascript",
		Platform: "web", CallVersion: "v2", RecordOnCallStart: strconv.FormatBool(record)}
}

// occupant is p as call and meeting triggers show it: its name is the
// user's, or the uid for a user the fake does not have; left_at only once
// it left (withLeft).
func occupant(r fake.Reader, c *chat.Call, p *chat.CallParticipant, withLeft bool) occupantPayload {
	o := occupantPayload{JoinedAt: int64(p.JoinedAt), AudioCall: strconv.FormatBool(c.Type == chat.CallTypeAudio), Name: p.UID}
	if name := r.NamedUser(p.UID).Name; name != "" {
		o.Name = name
	}
	if withLeft {
		o.LeftAt = int64(fake.LeftAt(c, p))
	}
	return o
}

// targets are the webhooks hs, as the deliverer reads them.
func targets(hs []fake.HookTarget) []Target {
	out := make([]Target, len(hs))
	for i, h := range hs {
		out[i] = Target(h)
	}
	return out
}
