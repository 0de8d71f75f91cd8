package fake

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// notifLogRec is a log entry with what the list filters on beyond it.
type notifLogRec struct {
	l        chat.NotificationLog
	category chat.Category
	msgType  chat.MessageType
}

func notifLogRoutes() []route {
	return []route{
		{pattern: "GET /v3/notifications/v1/logs", reach: appOnly, handle: (*state).listNotifLogs},
	}
}

// notifSync writes the log entries of the messages stored since it last
// ran. The fake logs one push notification per message and push token of
// each recipient: the receiver of a user message, the members other than
// the sender of a group message (messages of the message, custom and
// interactive categories; trigger after_message). It runs at the start of
// every notifications call, before anything changes, so an entry reflects
// the push tokens, preferences, mutes and providers as they were when the
// message was sent; changes made elsewhere since (a user deactivated, an
// auth token deleted, a member removed) are seen as of the next
// notifications call. It runs with st.mu held.
func (st *state) notifSync() {
	n := st.notif
	i := sort.Search(len(st.messages), func(i int) bool { return st.messages[i].id > n.scannedID })
	for _, m := range st.messages[i:] {
		st.notifLogMessage(m)
		n.scannedID = m.id
		st.lazy |= lazyNotifications
	}
}

func (st *state) notifLogMessage(m *MsgRec) {
	msg := &m.m
	switch msg.Category {
	case chat.CategoryMessage, chat.CategoryCustom, chat.CategoryInteractive:
	default:
		return
	}
	var recipients []string
	switch msg.ReceiverType {
	case chat.ReceiverUser:
		recipients = []string{msg.Receiver}
	case chat.ReceiverGroup:
		g := st.groups[strings.ToLower(msg.Receiver)]
		if g == nil {
			return
		}
		for uid := range g.members {
			if uid != msg.Sender {
				recipients = append(recipients, uid)
			}
		}
		slices.Sort(recipients)
	}
	for _, uid := range recipients {
		if st.activeUser(uid) == nil {
			continue
		}
		for _, t := range st.notif.tokens {
			if t.UID == uid && st.authTokenUser(string(t.AuthToken)) != nil {
				st.notifLogPush(m, uid, t)
			}
		}
	}
}

// notifLogPush writes the entry of the push notification of m to the
// token t of the recipient uid (notifLog).
func (st *state) notifLogPush(m *MsgRec, uid string, t chat.PushToken) {
	st.notifLog(m, nil, uid, t)
}

// notifLogReaction writes the entries of the push notifications of the
// reaction r to m: to the tokens of m's sender, unless the sender reacted
// (or is the app).
func (st *state) notifLogReaction(m *MsgRec, r *ReactionRec) {
	uid := m.m.Sender
	if uid == r.uid || st.activeUser(uid) == nil {
		return
	}
	for _, t := range st.notif.tokens {
		if t.UID == uid && st.authTokenUser(string(t.AuthToken)) != nil {
			st.notifLog(m, r, uid, t)
		}
	}
}

// notifLog writes the entry of the push notification of m (or, when r is
// not nil, of the reaction r to m) to the token t of the recipient uid.
// Whether it is sent follows, in order: Do Not Disturb, a mute of the
// conversation, the preference of what happened (messages, replies,
// quoted replies, where 3 notifies only when the text mentions the user
// (<@uid:...>), or reactions), and the existence of the token's provider.
// A mention bypasses the first three when the app's
// bypassPreferencesForMentions is set. Schedules and quotas are not
// applied.
func (st *state) notifLog(m *MsgRec, r *ReactionRec, uid string, t chat.PushToken) {
	msg := &m.m
	n := st.notif
	eff := st.notifEffective(n.users[uid])
	kind, convID, muteType, muteOverride := "oneOnOne", msg.Sender, chat.MutedOneOnOne, "mutedOneOnOnesOverride"
	if msg.ReceiverType == chat.ReceiverGroup {
		kind, convID, muteType, muteOverride = "group", msg.Receiver, chat.MutedGroup, "mutedGroupsOverride"
	} else if uid == msg.Sender {
		convID = msg.Receiver // a reaction to uid's own message: the conversation with its receiver
	}
	setting, prefReason := "messagesSetting", chat.ReasonMessagesPreference
	switch {
	case r != nil:
		setting, prefReason = "reactionsSetting", chat.ReasonReactionsPreference
	case msg.QuotedMessage != nil:
		setting, prefReason = "quotedRepliesSetting", chat.ReasonQuotedRepliesPreference
	case msg.ParentID != "":
		setting, prefReason = "repliesSetting", chat.ReasonRepliesPreference
	}
	sentMS := int64(msg.SentAt) * 1000
	at := sentMS
	if r != nil {
		at = int64(r.at) * 1000
	}
	mentioned := r == nil && strings.Contains(msg.Data.Text, "<@uid:"+uid+">")
	bypass := mentioned && boolIn(objAt(n.settings, "preferences"), "bypassPreferencesForMentions")
	appMute := objAt(n.settings, "preferences", "mute")
	muted := false
	if u := n.users[uid]; u != nil && boolIn(appMute, muteOverride) {
		muted = slices.ContainsFunc(u.mutes, func(c chat.MutedConversation) bool {
			return c.ID == convID && c.Type == muteType && c.Until > at
		})
	}
	dnd, _ := intIn(objAt(eff, "preferences", "mute"), "dndPreferenceSetting")
	pref, _ := intIn(objAt(eff, "preferences", kind), setting)

	provider, providers := chat.ProviderFCM, &n.fcm
	if strings.HasPrefix(string(t.Platform), "apns_") {
		provider, providers = chat.ProviderAPNs, &n.apns
	}
	var reason chat.NotificationReason
	switch {
	case dnd == int64(chat.DNDEnabled) && !bypass:
		reason = chat.ReasonDNDPreference
	case muted && !bypass:
		reason = chat.ReasonMutePreference
	case (pref == int64(chat.NotifyNone) || pref == int64(chat.NotifyMentions) && !mentioned) && !bypass:
		reason = prefReason
	case providers.byID[t.ProviderID] == nil:
		reason = chat.ReasonInvalidPushProviderID
	}

	n.logSeq++
	entry := chat.NotificationLog{
		ID:                      st.hexID("notiflog", n.logSeq)[:24],
		ProcessingStartedAtMS:   at,
		ProcessingEndedAtMS:     at + notifProcessingMS,
		TotalProcessingTimeInMS: notifProcessingMS,
		Component:               "notifications-core",
		Channel:                 chat.ChannelPush,
		Provider:                provider,
		MessageID:               m.id,
		Trigger:                 chat.TriggerAfterMessage,
		MessageSentAtMS:         sentMS,
		Sender:                  msg.Sender,
		Receiver:                msg.Receiver,
		ReceiverType:            msg.ReceiverType,
		TokenType:               t.Platform,
		PushToken:               t.Token,
		ProviderID:              t.ProviderID,
		Payload:                 st.notifPayload(m, r, eff, provider, providers.byID[t.ProviderID], at),
		NotificationTriggered:   reason == "",
		Reason:                  reason,
	}
	if r != nil {
		entry.Trigger, entry.ReactionID, entry.ReactionSender, entry.ReactionReceiver = chat.TriggerMessageReactionAdded, r.id, r.uid, uid
	}
	if msg.ReceiverType == chat.ReceiverGroup {
		entry.Member = uid
	}
	n.logs = append(n.logs, &notifLogRec{l: entry, category: msg.Category, msgType: msg.Type})
	touchField(st, &n.logs)
}

// notifProcessingMS is how long the fake's notifications take to process,
// in milliseconds.
const notifProcessingMS = 1

// notifPayload renders the notification of m (or of the reaction r to m)
// for its recipient with the templates in effect, at (Unix milliseconds):
// text messages use the text template, images, audio, video and files the
// media one, other messages the custom one's fallback; a reaction is
// "Reacted to your message: <emoji>" from the user who reacted. An APNs
// notification adds what APNs takes (alert, topic, sound, collapseId,
// expiry in an hour, and contentAvailable and mutableContent as the
// provider cfg says).
func (st *state) notifPayload(m *MsgRec, r *ReactionRec, eff map[string]any, provider chat.NotificationProviderType,
	cfg map[string]any, at int64) json.RawMessage {
	msg := &m.m
	variant := "Default"
	if p, _ := intIn(objAt(eff, "templates"), "usePrivacyTemplate"); p == int64(chat.PrivacyTemplatePrivacy) {
		variant = "Privacy"
	}
	var tpl map[string]any
	bodyKey := "body"
	switch msg.Type {
	case "text":
		tpl = objAt(eff, "templates", "textMessageTemplate"+variant)
	case "image", "audio", "video", "file":
		tpl, bodyKey = objAt(eff, "templates", "mediaMessageTemplate"+variant), "body_"+string(msg.Type)
	default:
		tpl, bodyKey = objAt(eff, "templates", "customMessageTemplate"+variant), "body_fallback"
	}
	senderName := st.UserEntity(msg.Sender).Name
	receiverName, groupName := st.UserEntity(msg.Receiver).Name, ""
	titleKey := "titleOneOnOne"
	if msg.ReceiverType == chat.ReceiverGroup {
		titleKey = "titleGroup"
		if g := st.groups[strings.ToLower(msg.Receiver)]; g != nil {
			groupName = g.g.Name
		}
		receiverName = groupName
	}
	fill := strings.NewReplacer(
		"{{message.data.entities.sender.entity.name}}", senderName,
		"{{senderDetails.name}}", senderName,
		"{{message.data.text}}", msg.Data.Text,
		"{{groupDetails.name}}", groupName,
		"{{message.type}}", string(msg.Type),
	)
	title, _ := tpl[titleKey].(string)
	body, _ := tpl[bodyKey].(string)
	title, body = fill.Replace(title), fill.Replace(body)
	tag, sender, sentAt := strconv.FormatInt(m.id, 10), msg.Sender, any(msg.SentAt)
	if r != nil {
		sender = r.uid
		title, body = st.UserEntity(r.uid).Name, "Reacted to your message: "+r.reaction
		tag, senderName, sentAt = strconv.FormatInt(r.id, 10), st.UserEntity(r.uid).Name, nil
	}
	payload := map[string]any{
		"payload": map[string]any{
			"title": title, "body": body, "tag": tag, "sender": sender, "senderName": senderName,
			"receiver": msg.Receiver, "receiverName": receiverName, "receiverType": msg.ReceiverType,
			"conversationId": msg.ConversationID, "type": "chat",
			"sessionId": nil, "callAction": nil, "callType": nil, "sentAt": sentAt,
		},
		"type": provider,
	}
	if provider == chat.ProviderAPNs {
		flag := func(name string) int {
			if boolIn(cfg, name) {
				return 1
			}
			return 0
		}
		sound, _ := objAt(eff, "sound")["chat"].(string)
		if sound == "" {
			sound = "default"
		}
		payload["contentAvailable"], payload["mutableContent"] = flag("includeContentAvailable"), flag("includeMutableContent")
		payload["topic"], _ = cfg["bundleId"].(string)
		payload["alert"] = map[string]any{"title": title, "body": body}
		payload["priority"], payload["pushType"], payload["sound"] = 10, "alert", sound
		payload["collapseId"], payload["expiry"] = tag, at/1000+3600
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return nil
	}
	return b
}

// logFilter reads the list's filters.
type logFilter struct {
	ints  map[string]int64  // messageId, reactionId
	from  int64             // ms; 0: none
	to    int64             // ms; 0: none
	strs  map[string]string // the exact-match string filters, by parameter
	bools map[string]bool   // notificationTriggered, success
}

// logEnums are the parameters that take one of a set of values.
var logEnums = map[string][]string{
	"receiverType": {"user", "group"},
	"channel":      {"push", "email", "sms"},
	"provider":     {"fcm", "apns", "sendgrid", "twilio", "custom"},
	"trigger": {"after_message", "message_deleted", "message_edited", "message_reaction_added", "initiated", "rejected",
		"cancelled", "unanswered", "after_group_joined", "after_group_left", "after_group_members_added",
		"after_group_members_kicked", "after_group_members_banned", "after_group_members_unbanned", "after_scope_changed"},
	"reason": {"MESSAGES_PREFERENCE", "REPLIES_PREFERENCE", "QUOTED_REPLIES_PREFERENCE", "MESSAGE_ACTIONS_PREFERENCE",
		"REACTIONS_PREFERENCE", "GROUP_ACTIONS_PREFERENCE", "DND_PREFERENCE", "MUTE_PREFERENCE", "SCHEDULE_PREFERENCE",
		"CALL_PREFERENCE", "QUOTA_PREFERENCE", "MISSING_EMAIL", "MISSING_PHNO", "INVALID_PUSH_PROVIDER_ID", "TIMED_OUT",
		"NOT_FOUND", "TWILIO_CREATE_ERROR"},
}

// logString returns the value of an exact-match string filter of e.
func logString(r *notifLogRec, name string) string {
	l := &r.l
	switch name {
	case "messageCategory":
		return string(r.category)
	case "messageType":
		return string(r.msgType)
	case "trigger":
		return string(l.Trigger)
	case "sender":
		return l.Sender
	case "reactionSender":
		return l.ReactionSender
	case "receiver":
		return l.Receiver
	case "receiverType":
		return string(l.ReceiverType)
	case "reactionReceiver":
		return l.ReactionReceiver
	case "member":
		return l.Member
	case "channel":
		return string(l.Channel)
	case "provider":
		return string(l.Provider)
	case "reason":
		return string(l.Reason)
	}
	return ""
}

var logStringFilters = []string{"messageCategory", "messageType", "trigger", "sender", "reactionSender", "receiver",
	"receiverType", "reactionReceiver", "member", "channel", "provider", "reason"}

// matches reports whether r passes every filter f has.
func (f *logFilter) matches(r *notifLogRec) bool {
	l := &r.l
	if id, ok := f.ints["messageId"]; ok && l.MessageID != id {
		return false
	}
	if id, ok := f.ints["reactionId"]; ok && l.ReactionID != id {
		return false
	}
	if f.from > 0 && l.MessageSentAtMS < f.from || f.to > 0 && l.MessageSentAtMS > f.to {
		return false
	}
	for name, want := range f.strs {
		if logString(r, name) != want {
			return false
		}
	}
	// The fake's deliveries succeed exactly when they are triggered.
	for _, name := range []string{"notificationTriggered", "success"} {
		if want, ok := f.bools[name]; ok && l.NotificationTriggered != want {
			return false
		}
	}
	return true
}

// GET /v3/notifications/v1/logs
//
// Entries are cursor-paginated: limit (default 10, at most 1000), affix
// and logId. Append (the default) walks forward, oldest first: the entries
// after logId, or from the first. Prepend walks backward, newest first:
// the entries before logId, or from the last (a page continues after the
// _id of its last entry). As the reference gives them, meta.next {affix,
// messageId} names the message of the page's last entry, in the walk's
// direction, and meta.previous that of its first, with the other affix,
// whenever the page has entries. An unknown logId is a 400. Every filter of the list applies; success selects the
// same entries as notificationTriggered, as the fake's deliveries never
// fail.
func (st *state) listNotifLogs(c *call) (any, error) {
	st.notifSync()
	p := c.params()
	f := logFilter{ints: map[string]int64{}, strs: map[string]string{}, bools: map[string]bool{}}
	for _, name := range []string{"messageId", "reactionId"} {
		if n, ok := p.timestamp(name); ok {
			f.ints[name] = n
		}
	}
	f.from, _ = p.timestamp("from")
	f.to, _ = p.timestamp("to")
	for _, name := range logStringFilters {
		if v := p.str(name); v != "" {
			if allowed := logEnums[name]; allowed != nil && !slices.Contains(allowed, v) {
				p.v.add(name, "The %s must be one of: %s.", name, strings.Join(allowed, ", "))
			}
			f.strs[name] = v
		}
	}
	for _, name := range []string{"notificationTriggered", "success"} {
		if p.q.Has(name) {
			f.bools[name] = p.boolean(name)
		}
	}
	limit := p.intRange("limit", 10, 1, 1000)
	affix := chat.Direction(p.str("affix"))
	if affix != "" && affix != chat.DirectionAfter && affix != chat.DirectionBefore {
		p.v.add("affix", `The affix field must be "append" or "prepend".`)
	}
	logs := st.notif.logs
	pos := -1 // the cursor's index in logs
	if id := p.str("logId"); id != "" {
		if pos = slices.IndexFunc(logs, func(r *notifLogRec) bool { return r.l.ID == id }); pos < 0 {
			p.v.add("logId", "The logId does not name a log entry.")
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}

	var idx []int // indexes in logs of the matching entries
	for i, r := range logs {
		if f.matches(r) {
			idx = append(idx, i)
		}
	}
	// The page is idx[start:end], walked forward (append) or backward
	// (prepend).
	var page []int
	if affix == chat.DirectionBefore {
		end := len(idx)
		if pos >= 0 {
			end = sort.SearchInts(idx, pos)
		}
		page = slices.Clone(idx[max(end-limit, 0):end])
		slices.Reverse(page)
	} else {
		start := 0
		if pos >= 0 {
			start = sort.SearchInts(idx, pos+1)
		}
		page = idx[start:min(start+limit, len(idx))]
	}
	out := make([]chat.NotificationLog, 0, len(page))
	for _, i := range page {
		out = append(out, logs[i].l)
	}
	forward, backward := chat.DirectionAfter, chat.DirectionBefore
	if affix == chat.DirectionBefore {
		forward, backward = backward, forward
	}
	meta := map[string]any{"current": chat.PageCount{Limit: limit, Count: len(out)}}
	if len(out) > 0 {
		meta["next"] = map[string]any{"affix": forward, "messageId": out[len(out)-1].MessageID}
		meta["previous"] = map[string]any{"affix": backward, "messageId": out[0].MessageID}
	}
	return map[string]any{"data": out, "meta": meta}, nil
}

// NotificationLogs does the work of chattest.Server.NotificationLogs, which documents it.
func (s *Core) NotificationLogs() []chat.NotificationLog {
	return synced(s, func(st *state) []chat.NotificationLog {
		st.notifSync()
		out := make([]chat.NotificationLog, len(st.notif.logs))
		for i, r := range st.notif.logs {
			out[i] = r.l
			out[i].Payload = slices.Clone(r.l.Payload)
		}
		return out
	})
}
