package chattest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// contractExpectations lists the operations whose answer is not expected
// to have the shape of the reference's example, each with its reason: the
// live service's answers where they differ from the reference, and the
// examples the reference itself contradicts (its object shapes in
// chat-core.md and platform.md, or its other examples). The rest of each
// answer is compared as usual.
var contractExpectations = map[string]contractExpectation{
	// The live service's answers.
	"reactivate-users": {service: true,
		reason: "the service answers reactivatedUids (and notFound for unknown uids), not nonDeactivatedUids",
		expect: func(doc any, _ json.RawMessage) any {
			return obj("data", obj("reactivatedUids", dig(doc, "data.nonDeactivatedUids"), "notFound", []any{}))
		}},
	"deactivate-users": {service: true,
		reason: "the service answers deactivatedUids, alreadyDeactivatedUids and notFound",
		expect: func(doc any, _ json.RawMessage) any {
			return obj("data", obj("deactivatedUids", dig(doc, "data.deactivatedUids"), "alreadyDeactivatedUids", []any{}, "notFound", []any{}))
		}},
	"delete-user": {service: true,
		reason: "the service answers a deactivation, {\"deactivatedUids\": [uid]}, when permanent is false, as the documented request leaves it",
		expect: func(any, json.RawMessage) any { return obj("data", obj("deactivatedUids", []any{"superhero6"})) }},

	// Examples the reference contradicts.
	"notifications-push-list-settings":      {reason: quotedRepliesReason, expect: withQuotedReplies},
	"notifications-push-list-preferences":   {reason: quotedRepliesReason, expect: withQuotedReplies},
	"notifications-push-update-preferences": {reason: quotedRepliesReason, expect: withQuotedReplies},
	"notifications-push-reset-preferences": {reason: quotedRepliesReason, expect: func(doc any, _ json.RawMessage) any {
		dig(doc, "data.groupPreferences").(map[string]any)["groupQuotedReplies"] = 0.0
		dig(doc, "data.oneOnOnePreferences").(map[string]any)["oneOnOneQuotedReplies"] = 0.0
		return doc
	}},
	"list-users":              {reason: listConversationReason, expect: withoutConversationIDs},
	"list-banned-group-users": {reason: listConversationReason, expect: withoutConversationIDs},
	"list-groups": {reason: "chat-core §6.2: the example's data is a malformed object (the second group nested in the first, meta inside data); the list is data []Group with meta beside it",
		expect: func(doc any, _ json.RawMessage) any {
			first := dig(doc, "data.0").(map[string]any)
			second := first["0"]
			delete(first, "0")
			return obj("data", []any{first, second}, "meta", dig(doc, "data.meta"))
		}},
	"chat-api-get-rule": {reason: "platform.md: get-rule answers {\"data\": Rule}; its example mistakenly shows a keyword list (update-rule's example is a rule)",
		expect: func(any, json.RawMessage) any { return documentedAnswer("chat/chat-api-update-rule.json") }},
	"update-message": {reason: editedByReason, expect: withoutSenderAvatar},
	"deletes-message": {reason: "chat-core §9.7, §15.3: the example is a copy of update-message's (action edited); the deleted message carries deletedAt and deletedBy, not editedAt, editedBy and the edit's tags; as in it, its by entity and the message's sender entity show superhero1 with different keys (an avatar only in the latter)",
		expect: func(doc any, _ json.RawMessage) any {
			on := dig(doc, "data.data.entities.on.entity").(map[string]any)
			on["deletedAt"], on["deletedBy"] = on["editedAt"], on["editedBy"]
			delete(on, "editedAt")
			delete(on, "editedBy")
			delete(on, "tags")
			dig(doc, "data.data").(map[string]any)["action"] = "deleted"
			return withoutSenderAvatar(doc, nil)
		}},
	"create-webhook": {reason: "platform.md: create-webhook answers {\"data\": Webhook}; the example wraps it as [{\"data\": Webhook}]; " + webhookReason,
		expect: func(doc any, _ json.RawMessage) any { return withWebhookFields(dig(doc, "0"), "data") }},
	"get-webhook": {reason: "platform.md: get-webhook answers {\"data\": Webhook}; the example wraps it as {\"data\": [{\"data\": Webhook}]}; " + webhookReason,
		expect: func(doc any, _ json.RawMessage) any { return withWebhookFields(dig(doc, "data.0"), "data") }},
	"update-webhook": {reason: "platform.md: update-webhook answers {\"data\": Webhook}; the example wraps it as {\"data\": [{\"data\": Webhook}]}; " + webhookReason,
		expect: func(doc any, _ json.RawMessage) any { return withWebhookFields(dig(doc, "data.0"), "data") }},
	"list-webhooks": {reason: webhookReason, expect: func(doc any, _ json.RawMessage) any { return withWebhookFields(doc, "data.0") }},
	"list-triggers": {reason: "platform.md §14.1: the trigger object has id, category and description; the example leaves category out",
		expect: func(doc any, _ json.RawMessage) any {
			for _, tr := range dig(doc, "data").([]any) {
				tr.(map[string]any)["category"] = ""
			}
			return doc
		}},
	"list-apps": {reason: "platform.md: list-apps answers {\"data\": [App], \"meta\": {...}}; the example's data is one app object and has no meta",
		expect: func(doc any, _ json.RawMessage) any {
			return obj("data", []any{dig(doc, "data")}, "meta", dig(documentedAnswer("management/list-webhooks.json"), "meta"))
		}},
	"get-settings-push-notification":    {reason: pushSettingsReason, expect: pushSettings},
	"store-settings-push-notification":  {reason: pushSettingsReason, expect: pushSettings},
	"update-settings-push-notification": {reason: pushSettingsReason, expect: pushSettings},
	"send-message":                      {reason: sendReason, expect: sentMessage},
	"sends-bot-message":                 {reason: sendReason, expect: sentMessage},
	"user-list-group-messages": {reason: "its example is list-all-messages' (a message to the user superhero5, receiverType user) in a group's list; the group's message has the group as its receiver entity (the group entity of add-group-members' example)",
		expect: func(doc any, _ json.RawMessage) any {
			group := dig(documentedAnswer("chat/add-group-members.json"), "data.admins.superhero1.data.data.entities.for")
			for _, m := range dig(doc, "data").([]any) {
				dig(m, "data.entities").(map[string]any)["receiver"] = group
			}
			return doc
		}},
	"user-list-user-messages": {reason: "its example lists call messages (category call), which no operation of the reference creates; its messages are compared as list-all-messages' text message, its meta as documented",
		expect: func(doc any, _ json.RawMessage) any {
			dig(doc, "").(map[string]any)["data"] = dig(documentedAnswer("chat/list-all-messages.json"), "data")
			return doc
		}},
	"get-user-conversations":     {reason: userConversationReason, expect: userConversation},
	"updates-user-conversation":  {reason: userConversationReason + "; " + conversationTagsReason, expect: withTags(userConversation)},
	"list-all-conversations":     {reason: receiptsReason, expect: withoutReceipts},
	"get-conversation":           {reason: receiptsReason, expect: withoutReceipts},
	"updates-group-conversation": {reason: receiptsReason + "; " + conversationTagsReason, expect: withTags(withoutReceipts)},
	"update-group": {reason: "its example is get-group's, unchanged; an updated group carries updatedAt and updatedBy (chat-core §2.2)",
		expect: func(doc any, _ json.RawMessage) any {
			dig(doc, "data").(map[string]any)["updatedAt"] = 0.0
			dig(doc, "data").(map[string]any)["updatedBy"] = ""
			return doc
		}},
	"update-role": {reason: "its example is get-role's, unchanged; an updated role carries updatedAt (chat-core §2.6)",
		expect: func(doc any, _ json.RawMessage) any {
			dig(doc, "data").(map[string]any)["updatedAt"] = 0.0
			return doc
		}},
	"update-authtoken": {reason: "chat-core §5, §2.4: its example shows only uid, authToken and createdAt; the token updated carries the platform, userAgent and appInfo the request sets",
		expect: func(doc any, _ json.RawMessage) any {
			d := dig(doc, "data").(map[string]any)
			d["platform"], d["userAgent"], d["appInfo"] = "", "", obj("version", "")
			return doc
		}},
	"add-message-reactions":    {reason: entitiesReason, expect: withEntityCreatedAt},
	"remove-message-reactions": {reason: entitiesReason, expect: withEntityCreatedAt},
	"chat-api-list-moderation-blocked-messages": {reason: "its blocked message is an image blocked by AI image moderation, whose judgement the reference does not define; a text message blocked by a keyword rule has data.text in place of the image's attachments, url, resource and metadata, and its user entities createdAt and its data.moderation the rule that blocked it (chat-core §2.7)",
		expect: func(doc any, _ json.RawMessage) any {
			d := dig(doc, "data.0.message.data").(map[string]any)
			for _, k := range []string{"attachments", "url", "resource", "metadata"} {
				delete(d, k)
			}
			d["text"] = ""
			dig(d, "moderation").(map[string]any)["rule"] = obj("id", "", "name", "")
			return withEntityCreatedAt(doc, nil)
		}},
	"list-calls": {reason: "its pagination lacks the per_page every page-based list carries (chat-core §1.8; retrieve-call-transcriptions' example has it)",
		expect: func(doc any, _ json.RawMessage) any {
			dig(doc, "meta.pagination").(map[string]any)["per_page"] = 0.0
			return doc
		}},
	"import-messages": {reason: "its request imports muid 3118 with data.metadata, while its answer is keyed 3117 and spells metadata metad2ata",
		expect: func(doc any, _ json.RawMessage) any {
			d := dig(doc, "data").(map[string]any)
			d["3118"] = d["3117"]
			delete(d, "3117")
			inner := dig(doc, "data.3118.data.data").(map[string]any)
			inner["metadata"] = inner["metad2ata"]
			delete(inner, "metad2ata")
			return doc
		}},
	"notifications-email-list-sendgrid-details": {reason: "its example lacks allowEmailReplies, senderEmailForReplies and repliesWebhook, which the save and update examples answer for the same settings",
		expect: func(doc any, _ json.RawMessage) any {
			d := dig(doc, "data").(map[string]any)
			saved := dig(documentedAnswer("chat/notifications-email-save-sendgrid-details.json"), "data").(map[string]any)
			for _, k := range []string{"allowEmailReplies", "senderEmailForReplies", "repliesWebhook"} {
				d[k] = saved[k]
			}
			return doc
		}},
	"enable-extension": {reason: "its answer is keyed by placeholders (extention_id1, 2, 3), not by the extension ids the request names",
		expect: func(doc any, req json.RawMessage) any {
			for _, list := range []string{"enabled", "disabled"} {
				m := dig(doc, "data."+list).(map[string]any)
				var entry any
				for _, v := range m {
					entry = v
				}
				for k := range m {
					delete(m, k)
				}
				var body map[string][]string
				_ = json.Unmarshal(req, &body)
				for _, id := range body[list] {
					m[id] = entry
				}
			}
			return doc
		}},
	"add-collaborator": {reason: "its answer lists developers, which no request property (admins, moderators, collaboratorsToRemove) asks for",
		expect: func(doc any, _ json.RawMessage) any {
			delete(dig(doc, "data").(map[string]any), "developers")
			return doc
		}},
	"get-settings-gifs-giphy":            {reason: appIDReason, expect: appIDString},
	"get-settings-email-replies":         {reason: appIDReason, expect: appIDString},
	"get-settings-virus-malware-scanner": {reason: appIDReason, expect: appIDString},
	"get-settings-image-moderation":      {reason: appIDReason, expect: appIDString},
	"get-settings-message-shortcuts":     {reason: appIDReason, expect: appIDString},
	"get-settings-email-notification":    {reason: appIDReason, expect: appIDString},
}

const (
	pushSettingsReason     = "its answer is the request example reused (identical to it, without the envelope); platform.md gives every extension's settings answer as {\"data\": {statusCode, success, responseTime, body: {data: {settings}}}}"
	sendReason             = "its answer is a text message (superhero3 to superhero5) while each request example sends an interactive message; the message sent carries the data sent, with the entities"
	userConversationReason = "its example is a group conversation (conversationType group); the conversation with a user has the user as conversationWith (get-user's example, without the link that the entities of get-message-details' example, the lastMessage, do not show) and a message as lastMessage (get-message-details' example)"
	receiptsReason         = "lastMessage.receipts ({\"data\": [[]]}) is in some conversation examples and not in others (get-user-conversations, get-group-conversations); chat-core §2.7 leaves its shape unconfirmed"
	entitiesReason         = "its user entities lack the createdAt that the same users' entities carry in the text messages of get-message-details and list-all-messages (chat-core §2.7)"
	listConversationReason = "its users carry conversationIds with superhero4, an acting user the operation takes no header for (chat-core §0: onBehalfOf none; §2.1: the other party is unconfirmed without onBehalfOf)"
	conversationTagsReason = "the example answers the update of a conversation's tags without them; the conversation carries the tags set (chat-core §2.10: tags settable via update)"
	quotedRepliesReason    = "platform.md §9.1, §9.3: the group and oneOnOne preferences have quotedRepliesSetting and quotedRepliesOverride (groupQuotedReplies, oneOnOneQuotedReplies at the user level), which the examples lack"
	webhookReason          = "platform.md §14.1: the Webhook object has useBasicAuth, username, password and enabled, which the examples leave out"
	editedByReason         = "its by entity and the edited message's sender entity are the same user, superhero1, shown with different keys (an avatar only in the latter)"
	appIDReason            = "settings.appId is a string in most extensions' examples, a number or absent in the others; GET adds settings.appId (platform.md), a string"
)

// pushSettings wraps the push-notification settings in the envelope of
// every extension's settings answer.
func pushSettings(doc any, _ json.RawMessage) any {
	return obj("data", obj("statusCode", 0.0, "success", true, "responseTime", 0.0, "body", obj("data", doc)))
}

// sentMessage is the documented message with the data the request sent
// (and the documented entities) as its data.
func sentMessage(doc any, req json.RawMessage) any {
	var sent map[string]any
	_ = json.Unmarshal(req, &sent)
	data := sent["data"].(map[string]any)
	data["entities"] = dig(doc, "data.data.entities")
	msg := dig(doc, "data").(map[string]any)
	msg["data"] = data
	if tags, ok := sent["tags"]; ok {
		msg["tags"] = tags
	}
	return doc
}

// userConversation makes the documented conversation one with a user.
func userConversation(doc any, _ json.RawMessage) any {
	c := dig(withoutReceipts(doc, nil), "data.0").(map[string]any)
	user := dig(documentedAnswer("chat/get-user.json"), "data").(map[string]any)
	user["conversationId"] = ""
	delete(user, "link") // get-message-details' entities of the same users show none
	c["conversationWith"] = user
	c["lastMessage"] = dig(documentedAnswer("chat/get-message-details.json"), "data")
	return doc
}

// withoutReceipts drops lastMessage.receipts from the documented
// conversations.
func withoutReceipts(doc any, _ json.RawMessage) any {
	for _, c := range dig(doc, "data").([]any) {
		delete(dig(c, "lastMessage").(map[string]any), "receipts")
	}
	return doc
}

// withEntityCreatedAt adds createdAt to every user entity of the
// documented answer.
func withEntityCreatedAt(doc any, _ json.RawMessage) any {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["entityType"] == "user" {
				if e, ok := x["entity"].(map[string]any); ok {
					e["createdAt"] = 0.0
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	return doc
}

// withTags adds the request's tags to the documented conversations, after
// expect.
func withTags(expect func(any, json.RawMessage) any) func(any, json.RawMessage) any {
	return func(doc any, req json.RawMessage) any {
		doc = expect(doc, req)
		var sent struct {
			Tags []any `json:"tags"`
		}
		_ = json.Unmarshal(req, &sent)
		for _, c := range dig(doc, "data").([]any) {
			c.(map[string]any)["tags"] = sent.Tags
		}
		return doc
	}
}

// withQuotedReplies adds the quoted replies' preferences to the documented
// group and oneOnOne preferences.
func withQuotedReplies(doc any, _ json.RawMessage) any {
	for _, kind := range []string{"group", "oneOnOne"} {
		prefs := dig(doc, "data.preferences."+kind).(map[string]any)
		prefs["quotedRepliesSetting"], prefs["quotedRepliesOverride"] = 0.0, true
	}
	return doc
}

// withWebhookFields adds to the documented webhook at path the fields the
// examples leave out (username and password may be absent: "").
func withWebhookFields(doc any, path string) any {
	w := dig(doc, path).(map[string]any)
	w["useBasicAuth"], w["username"], w["password"], w["enabled"] = false, "", "", true
	return doc
}

// withoutConversationIDs drops the conversationId of the documented
// list's users.
func withoutConversationIDs(doc any, _ json.RawMessage) any {
	for _, u := range dig(doc, "data").([]any) {
		delete(u.(map[string]any), "conversationId")
	}
	return doc
}

// withoutSenderAvatar drops the avatar of the edited message's sender
// entity.
func withoutSenderAvatar(doc any, _ json.RawMessage) any {
	delete(dig(doc, "data.data.entities.on.entity.data.entities.sender.entity").(map[string]any), "avatar")
	return doc
}

// appIDString makes the documented settings.appId a string.
func appIDString(doc any, _ json.RawMessage) any {
	dig(doc, "data.body.data.settings").(map[string]any)["appId"] = ""
	return doc
}

// dig returns the value at a dotted path of keys and array indexes ("" is
// v itself), or nil.
func dig(v any, path string) any {
	if path == "" {
		return v
	}
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// obj makes an object of key, value pairs.
func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// documentedAnswer is the documented answer of another operation, read
// from its example file (name is relative to referenceDir); it panics if
// the file cannot be read, which the tests' own copy rules out.
func documentedAnswer(name string) any {
	raw, err := os.ReadFile(filepath.Join(referenceDir, name))
	if err != nil {
		panic(err)
	}
	var op refOperation
	if err := json.Unmarshal(raw, &op); err != nil {
		panic(err)
	}
	var v any
	for _, r := range op.Responses {
		if err := json.Unmarshal(r, &v); err != nil {
			panic(err)
		}
	}
	return v
}
