package chattest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// heroes are the users the reference's examples name, as they show them.
var heroes = map[string]string{
	"superhero1":      `{"uid":"superhero1","name":"Iron Man","avatar":"https://data-us.cometchat.io/assets/images/avatars/ironman.png"}`,
	"superhero2":      `{"uid":"superhero2","name":"Captain America","avatar":"https://data-us.cometchat.io/assets/images/avatars/captainamerica.png"}`,
	"superhero3":      `{"uid":"superhero3","name":"Spiderman","avatar":"https://data-us.cometchat.io/assets/images/avatars/spiderman.png"}`,
	"superhero4":      `{"uid":"superhero4","name":"Wolverine","avatar":"https://data-us.cometchat.io/assets/images/avatars/wolverine.png"}`,
	"superhero5":      `{"uid":"superhero5","name":"Cyclops","avatar":"https://data-us.cometchat.io/assets/images/avatars/cyclops.png"}`,
	"superhero6":      `{"uid":"superhero6","name":"Barry Allen","link":"http://placehold.it","avatar":"http://placehold.it/120x120&text=image1","role":"manager"}`,
	"cometchat-uid-1": `{"uid":"cometchat-uid-1","name":"Andrew Joseph","avatar":"https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-1.webp"}`,
	"cometchat-uid-2": `{"uid":"cometchat-uid-2","name":"George Alan","avatar":"https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-2.webp"}`,
}

// users creates the named heroes.
func (f *fixture) users(uids ...string) {
	f.t.Helper()
	for _, uid := range uids {
		body, ok := heroes[uid]
		if !ok {
			body = fmt.Sprintf(`{"uid":%q,"name":%q}`, uid, uid)
		}
		f.must("chat", "POST", "/users", body, "")
	}
}

// role creates the role manager of the examples.
func (f *fixture) managerRole() {
	f.t.Helper()
	f.must("chat", "POST", "/roles", `{"role":"manager","name":"manager","description":"This role gives an update access",
		"metadata":{"email":"managers@gmail.com"},"settings":{"listUsers":"all","sendMessagesTo":"friendsOnly"}}`, "")
}

// projectGroup creates the group project-group of the examples, owned by
// superhero4.
func (f *fixture) projectGroup() {
	f.t.Helper()
	f.must("chat", "POST", "/groups", `{"guid":"project-group","name":"Project Group","type":"public",
		"description":"project related discussions between members","icon":"http://placehold.it/120x120&text=image1",
		"owner":"superhero4","tags":["friends","project"]}`, "")
}

// superGroup creates the group supergroup, owned by superhero1, with
// members.
func (f *fixture) superGroup(members ...string) {
	f.t.Helper()
	f.must("chat", "POST", "/groups", `{"guid":"supergroup","name":"Super Group","type":"public","owner":"superhero1"}`, "")
	if len(members) > 0 {
		f.must("chat", "POST", "/groups/supergroup/members", fmt.Sprintf(`{"participants":[%s]}`, quoteAll(members)), "")
	}
}

// text sends a text message and returns its id.
func (f *fixture) text(from, to, receiverType, text string) string {
	f.t.Helper()
	v := f.must("chat", "POST", "/messages", fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"category":"message","type":"text",
		"data":{"text":%q}}`, to, receiverType, text), from)
	return v.(map[string]any)["data"].(map[string]any)["id"].(string)
}

// textMeta sends the text message of the message examples, with
// metadata.
func (f *fixture) textMeta(from, to, receiverType string) {
	f.t.Helper()
	f.must("chat", "POST", "/messages", fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"category":"message","type":"text",
		"data":{"text":"test     hello","metadata":{"key1":"val1"}}}`, to, receiverType), from)
}

// plainUsers creates users with a name only, as the reaction examples
// show them.
func (f *fixture) plainUsers(uids ...string) {
	f.t.Helper()
	names := map[string]string{"superhero1": "Iron Man", "superhero2": "Captain America"}
	for _, uid := range uids {
		f.must("chat", "POST", "/users", fmt.Sprintf(`{"uid":%q,"name":%q}`, uid, names[uid]), "")
	}
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ",")
}

// contractCases say how each operation is sent, by operationId; an
// operation on an extension's settings without one is sent as
// settingsCase says.
var contractCases = mergeCases(chatCases, platformCases, callCases, importCases, managementCases)

// mergeCases merges the cases of each collection; a name in two of them is
// a mistake of the table's.
func mergeCases(collections ...map[string]contractCase) map[string]contractCase {
	out := map[string]contractCase{}
	for _, cases := range collections {
		for name, c := range cases {
			if _, twice := out[name]; twice {
				panic("contract case " + name + " is given twice")
			}
			out[name] = c
		}
	}
	return out
}

// chatCases are the chat API's operations.
var chatCases = map[string]contractCase{
	// Users.
	"creates-user": {body: `{"uid":"superhero6","name":"Barry Allen","link":"http://placehold.it","avatar":"http://placehold.it/120x120&text=image1",
		"metadata":{"rawMetadata":"{'gender':'Male'}"},"role":"manager","tags":["Engineer","manager"],"withAuthToken":true}`,
		seed: func(f *fixture) { f.managerRole() }},
	"list-users": {seed: func(f *fixture) {
		f.managerRole()
		f.users("superhero2", "superhero3", "superhero6")
		f.must("chat", "PUT", "/users/superhero6", `{"metadata":{"email":"user@email.com","contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero3", `{"link":"https://data-us.cometchat.io/assets","metadata":{"contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero2", `{"name":"Captain America"}`, "")
	}},
	"reactivate-users": {body: `{"uidsToActivate":["superhero2","superhero3"]}`, seed: func(f *fixture) {
		f.users("superhero2", "superhero3")
		f.must("chat", "DELETE", "/users", `{"uidsToDeactivate":["superhero2","superhero3"]}`, "")
	}},
	"deactivate-users": {body: `{"uidsToDeactivate":["superhero2","superhero3"]}`, seed: func(f *fixture) { f.users("superhero2", "superhero3") }},
	"get-user":         {params: map[string]string{"uid": "superhero6"}, seed: func(f *fixture) { f.managerRole(); f.users("superhero6") }},
	"update-user": {params: map[string]string{"uid": "superhero6"}, seed: func(f *fixture) { f.managerRole(); f.users("superhero6") },
		body: `{"metadata":{"email":"user@email.com","contactNumber":"0123456789"},"tags":["supergroup"]}`},
	"delete-user": {params: map[string]string{"uid": "superhero6"}, seed: func(f *fixture) { f.managerRole(); f.users("superhero6") }},

	// Auth tokens.
	"create-authtoken": {params: map[string]string{"uid": "superhero1"}, body: `{"force":true}`, seed: func(f *fixture) { f.users("superhero1") }},
	"list-authtokens":  {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1"); f.token("superhero1") }},
	"flush-authtokens": {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1"); f.token("superhero1") }},
	"get-authtoken":    {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1"); f.token("superhero1") }},
	"update-authtoken": {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1"); f.token("superhero1") },
		body: `{"platform":"web","userAgent":"Mozilla/5.0","appInfo":{"version":"1.0"}}`},
	"delete-authtoken": {params: map[string]string{"uid": "superhero6"}, seed: func(f *fixture) { f.managerRole(); f.users("superhero6"); f.token("superhero6") }},

	// API keys.
	"list-apikeys": {seed: func(f *fixture) {
		f.must("chat", "POST", "/apikeys", `{"name":"John's apiKey","scope":"authOnly"}`, "")
		f.must("chat", "POST", "/apikeys", `{"name":"Auth Key","scope":"authOnly"}`, "")
	}},
	"create-apikey": {body: `{"name":"John's apiKey","scope":"authOnly"}`},
	"get-apikey":    {seed: func(f *fixture) { f.apiKey() }},
	"update-apikey": {seed: func(f *fixture) { f.apiKey() }, body: `{"name":"John's apiKey","scope":"authOnly"}`},
	"delete-apikey": {seed: func(f *fixture) { f.apiKey() }},

	// Roles.
	"list-roles":  {seed: func(f *fixture) { f.managerRole() }},
	"create-role": {body: `{"role":"manager","name":"manager","description":"This role gives an update access","metadata":{"email":"managers@gmail.com"},"settings":{"listUsers":"all","sendMessagesTo":"friendsOnly"}}`},
	"get-role":    {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole() }},
	"update-role": {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole() },
		body: `{"description":"This role gives an update access"}`},
	"delete-role":            {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole() }},
	"get-restrictedfeatures": {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole(); f.restrict() }},
	"restrict-features":      {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole() }, body: `{"featuresToRestrict":["u.listUsers"]}`},
	"allow-features": {params: map[string]string{"role": "manager"}, seed: func(f *fixture) { f.managerRole(); f.restrict() },
		body: `{"featuresToAllow":["u.listUsers"]}`},

	// Friends and blocked users.
	"list-all-friends": {params: map[string]string{"uid": "superhero4"}, seed: func(f *fixture) {
		f.managerRole()
		f.users("superhero2", "superhero3", "superhero4", "superhero6")
		f.must("chat", "PUT", "/users/superhero6", `{"metadata":{"email":"user@email.com","contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero3", `{"link":"https://data-us.cometchat.io/assets","metadata":{"contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero2", `{"name":"Captain America"}`, "")
		f.must("chat", "POST", "/users/superhero4/friends", `{"accepted":["superhero6","superhero2","superhero3"]}`, "")
		f.must("chat", "POST", "/users/superhero4/blockedusers", `{"blockedUids":["superhero3"]}`, "")
	}},
	"add-friend": {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1", "superhero2", "superhero3") },
		body: `{"accepted":["superhero2","superhero3"]}`},
	"remove-friend": {params: map[string]string{"uid": "superhero1"}, body: `{"friends":["superhero2"]}`, seed: func(f *fixture) {
		f.users("superhero1", "superhero2")
		f.must("chat", "POST", "/users/superhero1/friends", `{"accepted":["superhero2"]}`, "")
	}},
	"noid-get-users-uid-blockedusers": {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) {
		f.managerRole()
		f.users("superhero1", "superhero2", "superhero6")
		f.must("chat", "PUT", "/users/superhero6", `{"metadata":{"rawMetadata":"{'gender':'Male'}"}}`, "")
		f.must("chat", "PUT", "/users/superhero2", `{"link":"http://placehold.it","role":"manager","metadata":{"rawMetadata":"{'gender':'Male'}"}}`, "")
		f.must("chat", "POST", "/users/superhero1/blockedusers", `{"blockedUids":["superhero6","superhero2"]}`, "")
	}},
	"noid-post-users-uid-blockedusers": {params: map[string]string{"uid": "superhero1"}, seed: func(f *fixture) { f.users("superhero1", "superhero4") },
		body: `{"blockedUids":["superhero4"]}`},
	"noid-delete-users-uid-blockedusers": {params: map[string]string{"uid": "superhero1"}, body: `{"blockedUids":["superhero4"]}`, seed: func(f *fixture) {
		f.users("superhero1", "superhero4")
		f.must("chat", "POST", "/users/superhero1/blockedusers", `{"blockedUids":["superhero4"]}`, "")
	}},

	// Groups.
	"create-group": {actor: "superhero4", seed: func(f *fixture) { f.users("superhero4") },
		body: `{"guid":"project-group","name":"Project Group","type":"public","description":"project related discussions between members",
			"icon":"http://placehold.it/120x120&text=image1","owner":"superhero4","tags":["friends","project"]}`},
	"list-groups": {actor: "superhero4", seed: func(f *fixture) {
		f.users("superhero4")
		f.projectGroup()
		f.must("chat", "POST", "/groups", `{"guid":"project-group-2","name":"Project Group 2","type":"public",
			"description":"project related discussions between members","icon":"http://placehold.it/120x120&text=image1",
			"owner":"superhero4","tags":["friends","project"]}`, "")
	}},
	"get-group": {params: map[string]string{"guid": "project-group"}, actor: "superhero4", seed: func(f *fixture) { f.users("superhero4"); f.projectGroup() }},
	"update-group": {params: map[string]string{"guid": "project-group"}, actor: "superhero4", seed: func(f *fixture) { f.users("superhero4"); f.projectGroup() },
		body: `{"name":"Project Group","description":"project related discussions between members"}`},
	"delete-group": {params: map[string]string{"guid": "project-group"}, seed: func(f *fixture) { f.users("superhero4"); f.projectGroup() }},

	// Members and bans.
	"list-group-members": {params: map[string]string{"guid": "supergroup"}, seed: func(f *fixture) {
		f.users("superhero1", "superhero2", "superhero3", "superhero4", "superhero5")
		f.superGroup()
		f.must("chat", "POST", "/groups/supergroup/members", `{"participants":["superhero2","superhero3"],"moderators":["superhero5"],"admins":["superhero4"]}`, "")
		f.must("chat", "PUT", "/users/superhero3", `{"link":"https://data-us.cometchat.io/assets","metadata":{"contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero2", `{"name":"Captain America"}`, "")
	}},
	"add-group-members": {params: map[string]string{"guid": "project-group"}, seed: func(f *fixture) {
		f.users("superhero1", "superhero2", "superhero3", "superhero4", "superhero5", "superhero6")
		f.must("chat", "PUT", "/users/superhero3", `{"name":"Spiderman"}`, "") // updated, as the example shows it
		f.must("chat", "POST", "/groups", `{"guid":"project-group","name":"Project Group","type":"public",
			"description":"project related discussions between members","icon":"http://placehold.it/120x120&text=image1",
			"owner":"superhero2","tags":["friends","project"]}`, "")
	}, body: `{"admins":["superhero1"],"moderators":["superhero3"],"participants":["superhero4","superhero5"],"usersToBan":["superhero6"]}`},
	"change-group-member-scope": {params: map[string]string{"guid": "supergroup", "uid": "superhero2"}, body: `{"scope":"participant"}`,
		seed: func(f *fixture) {
			f.users("superhero1", "superhero2")
			f.superGroup()
			f.must("chat", "POST", "/groups/supergroup/members", `{"moderators":["superhero2"]}`, "")
		}},
	"kick-group-member": {params: map[string]string{"guid": "supergroup", "uid": "superhero3"}, seed: func(f *fixture) {
		f.users("superhero1", "superhero3")
		f.superGroup("superhero3")
	}},
	"list-banned-group-users": {params: map[string]string{"guid": "supergroup"}, seed: func(f *fixture) {
		f.managerRole()
		f.users("superhero1", "superhero2", "superhero3", "superhero4", "superhero6")
		f.superGroup("superhero4")
		f.must("chat", "PUT", "/users/superhero6", `{"metadata":{"email":"user@email.com","contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero3", `{"link":"https://data-us.cometchat.io/assets","metadata":{"contactNumber":"0123456789"}}`, "")
		f.must("chat", "PUT", "/users/superhero2", `{"name":"Captain America"}`, "")
		f.must("chat", "POST", "/users/superhero4/blockedusers", `{"blockedUids":["superhero3"]}`, "")
		f.must("chat", "POST", "/groups/supergroup/members", `{"usersToBan":["superhero6","superhero2","superhero3"]}`, "")
	}},
	"ban-group-user": {params: map[string]string{"guid": "supergroup", "uid": "superhero3"}, seed: func(f *fixture) {
		f.users("superhero1", "superhero3")
		f.superGroup("superhero3")
	}},
	"unban-group-user": {params: map[string]string{"guid": "supergroup", "uid": "superhero3"}, seed: func(f *fixture) {
		f.users("superhero1", "superhero3")
		f.superGroup("superhero3")
		f.must("chat", "POST", "/groups/supergroup/bannedusers/superhero3", "", "")
	}},

	// Messages.
	"send-message":      {actor: "superhero3", seed: func(f *fixture) { f.users("superhero1", "superhero2", "superhero3") }},
	"sends-bot-message": {params: map[string]string{"uid": "superhero3"}, seed: func(f *fixture) { f.users("superhero1", "superhero2", "superhero3") }},
	"list-all-messages": {seed: func(f *fixture) { f.users("superhero3", "superhero5"); f.textMeta("superhero3", "superhero5", "user") }},
	"get-message-details": {params: map[string]string{"id": "1"}, seed: func(f *fixture) {
		f.users("superhero3", "superhero5")
		f.textMeta("superhero3", "superhero5", "user")
	}},
	"update-message": {params: map[string]string{"id": "1"}, actor: "superhero1", body: `{"data":{"text":"hello spider"},"tags":["t6"]}`, seed: func(f *fixture) {
		f.plainUsers("superhero1")
		f.users("superhero2")
		f.text("superhero1", "superhero2", "user", "hello")
		f.must("chat", "PUT", "/users/superhero1", `{"name":"Updated Name"}`, "")
	}},
	"deletes-message": {params: map[string]string{"id": "1"}, actor: "superhero1", seed: func(f *fixture) {
		f.plainUsers("superhero1")
		f.users("superhero2")
		f.text("superhero1", "superhero2", "user", "hello spider")
	}},
	"user-list-user-messages": {params: map[string]string{"uid": "superhero3"}, actor: "superhero2", seed: func(f *fixture) {
		f.users("superhero2", "superhero3")
		f.textMeta("superhero2", "superhero3", "user")
		f.textMeta("superhero3", "superhero2", "user")
	}},
	"user-list-group-messages": {params: map[string]string{"guid": "project-group"}, actor: "superhero4", seed: func(f *fixture) {
		f.users("superhero4")
		f.projectGroup()
		f.textMeta("superhero4", "project-group", "group")
	}},
	"send-thread-message": {params: map[string]string{"id": "1"}, actor: "superhero3", seed: func(f *fixture) {
		f.users("superhero3", "superhero5")
		f.textMeta("superhero3", "superhero5", "user")
	}, body: `{"receiver":"superhero5","receiverType":"user","category":"message","type":"text","data":{"text":"test     hello","metadata":{"key1":"val1"}}}`},
	"list-all-thread-messages": {params: map[string]string{"id": "1"}, seed: func(f *fixture) {
		f.users("superhero3", "superhero5")
		f.textMeta("superhero3", "superhero5", "user")
		f.must("chat", "POST", "/messages/1/thread", `{"receiver":"superhero5","receiverType":"user","category":"message","type":"text",
			"data":{"text":"test     hello","metadata":{"key1":"val1"}}}`, "superhero3")
	}},
	"mark-message-as-interacted": {params: map[string]string{"id": "1"}, actor: "superhero1", seed: func(f *fixture) {
		f.users("superhero1", "superhero2")
		f.must("chat", "POST", "/messages", `{"receiver":"superhero1","receiverType":"user","category":"interactive","type":"form",
			"data":{"interactionGoal":{"type":"none","elementIds":[]},"allowSenderInteraction":true,
			"interactiveData":{"title":"Form","formFields":[{"elementType":"textInput","elementId":"element1","label":"Name"}],
			"submitElement":{"elementType":"button","elementId":"submit","buttonText":"Submit","disableAfterInteracted":true,
			"action":{"actionType":"urlNavigation","url":"https://example.com"}}}}}`, "superhero2")
	}, body: `{"interactions":["element1"]}`},

	// Reactions.
	"list-all-reactions": {params: map[string]string{"id": "1"}, seed: func(f *fixture) { f.reacted() }},
	"get-message-reactions": {params: map[string]string{"id": "1", "reaction": "%F0%9F%98%85"}, seed: func(f *fixture) {
		f.must("chat", "POST", "/data_import/users", `{"users":{"superhero1":{"uid":"superhero1","name":"Iron Man",
			"avatar":"https://data-us.cometchat.io/assets/images/avatars/ironman.png","createdAt":1684751861,"lastActiveAt":1689082633}}}`, "")
		f.plainUsers("superhero2")
		f.reactions()
	}},
	"add-message-reactions": {params: map[string]string{"id": "1", "reaction": "%F0%9F%A4%A8"}, actor: "superhero2", seed: func(f *fixture) {
		f.reacted()
	}},
	"remove-message-reactions": {params: map[string]string{"id": "1", "reaction": "%F0%9F%98%92"}, actor: "superhero2", seed: func(f *fixture) {
		f.reacted()
	}},

	// Conversations.
	"list-all-conversations": {actor: "superhero3", seed: func(f *fixture) { f.groupConversation() }},
	"get-conversation": {params: map[string]string{"conversationId": "group_project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"deletes-conversation": {params: map[string]string{"conversationId": "group_project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"get-group-conversations": {params: map[string]string{"guid": "project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"updates-group-conversation": {params: map[string]string{"guid": "project-group"}, actor: "superhero3", body: `{"tags":["archived"]}`,
		seed: func(f *fixture) { f.groupConversation() }},
	"resets-group-conversation": {params: map[string]string{"guid": "project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"mark-group-conversation-as-delivered": {params: map[string]string{"guid": "project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"mark-group-conversation-as-read": {params: map[string]string{"guid": "project-group"}, actor: "superhero3",
		seed: func(f *fixture) { f.groupConversation() }},
	"mark-group-conversation-as-unread": {params: map[string]string{"guid": "project-group"}, actor: "superhero3", body: `{"messageId":1}`,
		seed: func(f *fixture) { f.groupConversation() }},
	"get-user-conversations": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1",
		seed: func(f *fixture) { f.userConversation() }},
	"updates-user-conversation": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1", body: `{"tags":["archived"]}`,
		seed: func(f *fixture) { f.userConversation() }},
	"resets-user-conversation": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1",
		seed: func(f *fixture) { f.userConversation() }},
	"mark-conversation-as-delivered": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1",
		seed: func(f *fixture) { f.userConversation() }},
	"mark-conversation-as-read": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1",
		seed: func(f *fixture) { f.userConversation() }},
	"mark-conversation-as-unread": {params: map[string]string{"uid": "superhero2"}, actor: "superhero1", body: `{"messageId":1}`,
		seed: func(f *fixture) { f.userConversation() }},
}

// token mints an auth token for uid and makes it the authToken path
// parameter.
func (f *fixture) token(uid string) {
	f.t.Helper()
	v := f.must("chat", "POST", "/users/"+uid+"/auth_tokens", `{}`, "")
	f.params["authToken"] = v.(map[string]any)["data"].(map[string]any)["authToken"].(string)
}

// apiKey creates the key of the examples and makes it the apiKey path
// parameter.
func (f *fixture) apiKey() {
	f.t.Helper()
	v := f.must("chat", "POST", "/apikeys", `{"name":"John's apiKey","scope":"authOnly"}`, "")
	f.params["apiKey"] = v.(map[string]any)["data"].(map[string]any)["apiKey"].(string)
}

// restrict restricts u.listUsers for the role manager.
func (f *fixture) restrict() {
	f.t.Helper()
	f.must("chat", "POST", "/roles/manager/restrictedfeatures", `{"featuresToRestrict":["u.listUsers","u.deleteGroup"]}`, "")
}

// reacted sends message 1 from superhero1 to superhero2 with the reactions
// of the examples; the users have a name only.
func (f *fixture) reacted() {
	f.t.Helper()
	f.plainUsers("superhero1", "superhero2")
	f.reactions()
}

// reactions sends message 1 from superhero1 to superhero2 and reacts to
// it.
func (f *fixture) reactions() {
	f.t.Helper()
	f.must("chat", "POST", "/messages", `{"receiver":"superhero2","receiverType":"user","category":"message","type":"text","data":{"text":"Hi,"}}`, "superhero1")
	for _, r := range []struct{ who, emoji string }{{"superhero1", "%F0%9F%98%85"}, {"superhero2", "%F0%9F%98%92"}} {
		f.must("chat", "POST", "/messages/1/reactions/"+r.emoji, "", r.who)
	}
}

// groupConversation makes the group conversation of the examples:
// project-group, owned and last updated by superhero4, superhero3 a
// member, its last message superhero4 unbanning superhero5 (who has a link
// and was updated).
func (f *fixture) groupConversation() {
	f.t.Helper()
	f.users("superhero3", "superhero4", "superhero5")
	f.must("chat", "PUT", "/users/superhero5", `{"link":"https://data-us.cometchat.io/assets"}`, "")
	f.must("chat", "POST", "/groups", `{"guid":"project-group","name":"Project Group","type":"private",
		"description":"project related discussions between members","icon":"http://placehold.it/120x120&text=image1","owner":"superhero4"}`, "")
	f.must("chat", "POST", "/groups/project-group/members", `{"participants":["superhero3","superhero5"]}`, "")
	f.must("chat", "PUT", "/groups/project-group", `{"name":"Project Group1"}`, "superhero4")
	f.must("chat", "POST", "/groups/project-group/bannedusers/superhero5", "", "superhero4")
	f.must("chat", "DELETE", "/groups/project-group/bannedusers/superhero5", "", "superhero4")
}

// userConversation makes the conversation of superhero1 and superhero2,
// its last message from superhero2 (as get-message-details' example shows
// one, with metadata).
func (f *fixture) userConversation() {
	f.t.Helper()
	f.users("superhero1", "superhero2")
	f.textMeta("superhero2", "superhero1", "user")
}

// moderationRule is the rule moderation-test of the examples.
const moderationRule = `{"id":"moderation-test","name":"Video Moderation","description":"AI-powered video moderation to detect unsafe content.",
	"enabled":true,"conditions":[{"id":1,"isKeywordsReferencePresent":false,"isMediaPresent":true,"entity":"message","operand":"image",
	"category":"word","operator":"contains","value":["violence_greaterThan_30"],"message":["Image contains violence with confidence greater than 30"]}],
	"action":["blockMessage"]}`

// moderationMessage is the message of the moderation messages' examples.
const moderationMessage = `{"category":"message","type":"text","data":{"text":"Hi new user"},"sender":"cometchat-uid-2","receiver":"cometchat-uid-1",
	"senderUserDetails":{"uid":"cometchat-uid-2","name":"George Alan","avatar":"https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-2.webp"},
	"receiverUserDetails":{"uid":"cometchat-uid-1","name":"Andrew Joseph","avatar":"https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-1.webp"},
	"receiverType":"user"}`

// activeUsers imports users who were last active before now, with an
// avatar.
func (f *fixture) activeUsers(uids ...string) {
	f.t.Helper()
	users := map[string]any{}
	for _, uid := range uids {
		users[uid] = map[string]any{"uid": uid, "name": uid, "avatar": "https://assets.cometchat.io/sampleapp/v2/users/" + uid + ".webp",
			"createdAt": 1751644824, "lastActiveAt": 1751644824}
	}
	body, err := json.Marshal(map[string]any{"users": users})
	require.NoError(f.t, err)
	f.must("chat", "POST", "/data_import/users", string(body), "")
}

// modMessage submits the message of the moderation messages' examples
// (message 1).
func (f *fixture) modMessage() {
	f.t.Helper()
	f.activeUsers("cometchat-uid-1", "cometchat-uid-2")
	f.must("chat", "POST", "/moderation/messages", moderationMessage, "")
}

// keywordList is the keyword list profane-word-list-1 of the examples, as
// form fields.
var keywordList = map[string]string{"id": "profane-word-list-1", "name": "profane word list", "description": "Profane word list",
	"category": "word", "searchTerms": `"a","b","c"`}

// platformCases are the operations of moderation, notifications and
// metrics.
var platformCases = map[string]contractCase{
	// Moderation rules and keyword lists.
	"chat-api-list-rules":  {seed: func(f *fixture) { f.must("chat", "POST", "/moderation/rules", moderationRule, "") }},
	"chat-api-create-rule": {body: moderationRule},
	"chat-api-get-rule": {params: map[string]string{"ruleId": "moderation-test"},
		seed: func(f *fixture) { f.must("chat", "POST", "/moderation/rules", moderationRule, "") }},
	"chat-api-update-rule": {params: map[string]string{"ruleId": "moderation-test"}, body: `{"enabled":true}`,
		seed: func(f *fixture) { f.must("chat", "POST", "/moderation/rules", moderationRule, "") }},
	"chat-api-delete-rule": {params: map[string]string{"ruleId": "moderation-test"},
		seed: func(f *fixture) { f.must("chat", "POST", "/moderation/rules", moderationRule, "") }},
	"chat-api-list-rule-revisions": {params: map[string]string{"ruleId": "moderation-test"}, seed: func(f *fixture) {
		f.must("chat", "POST", "/moderation/rules", moderationRule, "")
		f.must("chat", "PUT", "/moderation/rules/moderation-test", `{"conditions":[{"id":1,"isKeywordsReferencePresent":false,"isMediaPresent":false,
			"entity":"message","operand":"text","category":"word","operator":"equals","value":["paris"]}]}`, "")
	}},
	"chat-api-list-rule-keywords":  {seed: func(f *fixture) { f.form("POST", "/moderation/keywords", keywordList) }},
	"chat-api-create-rule-keyword": {form: keywordList},
	"chat-api-get-rule-keyword":    {params: map[string]string{"keywordId": "profanity-list"}},
	"chat-api-update-rule-keyword": {params: map[string]string{"keywordId": "profanity-list"},
		form: map[string]string{"name": "Profane Words", "category": "word", "searchTerms": "fuck,damn,shit"}},
	"chat-api-delete-rule-keyword": {params: map[string]string{"keywordId": "profane-word-list-1"},
		seed: func(f *fixture) { f.form("POST", "/moderation/keywords", keywordList) }},
	"chat-api-list-moderation-blocked-messages": {seed: func(f *fixture) { f.blockedMessage() }},
	"chat-api-approve-moderation-blocked-messages": {params: map[string]string{"messageId": "1"}, body: `{"status":"approved"}`,
		seed: func(f *fixture) { f.blockedMessage() }},

	// Moderation messages: the users were active before, as the examples
	// show them (lastActiveAt).
	"chat-api-send-message-moderation": {seed: func(f *fixture) { f.activeUsers("cometchat-test-user-1", "cometchat-test-user-2") }},
	"chat-api-list-message-moderation": {seed: func(f *fixture) { f.modMessage() }},
	"chat-api-get-message-moderation":  {params: map[string]string{"id": "1"}, seed: func(f *fixture) { f.modMessage() }},
	"chat-api-update-message-moderation": {params: map[string]string{"id": "1"},
		seed: func(f *fixture) { f.modMessage() }},
	"chat-api-delete-message-moderation": {params: map[string]string{"id": "1"}, seed: func(f *fixture) { f.modMessage() }},

	// Notifications: providers.
	"notifications-push-list-fcm-providers":  {},
	"notifications-push-add-fcm-provider":    {body: fcmProvider},
	"notifications-push-update-fcm-provider": {body: fcmProvider, seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/fcm", fcmProvider, "") }},
	"notifications-push-default-fcm-provider": {params: map[string]string{"providerId": "fcm-provider-2"},
		seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/fcm", fcmProvider, "") }},
	"notifications-push-delete-fcm-provider": {params: map[string]string{"providerId": "fcm-provider-2"},
		seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/fcm", fcmProvider, "") }},
	"notifications-push-list-apns-providers":  {},
	"notifications-push-add-apns-provider":    {body: apnsProvider},
	"notifications-push-update-apns-provider": {body: apnsProvider, seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/apns", apnsProvider, "") }},
	"notifications-push-default-apns-provider": {params: map[string]string{"providerId": "apns-provider"},
		seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/apns", apnsProvider, "") }},
	"notifications-push-delete-apns-provider": {params: map[string]string{"providerId": "apns-provider"},
		seed: func(f *fixture) { f.must("chat", "POST", "/notifications/push/v1/providers/apns", apnsProvider, "") }},
	"notifications-list-push-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/push/v1/providers/custom", customPushProvider, "")
	}},
	"notifications-save-push-custom-provider": {body: customPushProvider},
	"notifications-update-push-custom-provider": {body: customPushProvider, seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/push/v1/providers/custom", customPushProvider, "")
	}},
	"notifications-delete-push-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/push/v1/providers/custom", customPushProvider, "")
	}},
	"notifications-list-email-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/custom", customEmailProvider, "")
	}},
	"notifications-save-email-custom-provider": {body: customEmailProvider},
	"notifications-update-email-custom-provider": {body: customEmailProvider, seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/custom", customEmailProvider, "")
	}},
	"notifications-delete-email-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/custom", customEmailProvider, "")
	}},
	"notifications-list-sms-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/custom", customSMSProvider, "")
	}},
	"notifications-save-sms-custom-provider": {body: customSMSProvider},
	"notifications-update-sms-custom-provider": {body: customSMSProvider, seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/custom", customSMSProvider, "")
	}},
	"notifications-delete-sms-custom-provider": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/custom", customSMSProvider, "")
	}},
	"notifications-email-list-sendgrid-details": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/sendgrid", sendgrid, "")
	}},
	"notifications-email-save-sendgrid-details": {body: sendgrid},
	"notifications-email-update-sendgrid-details": {body: sendgrid, seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/sendgrid", sendgrid, "")
	}},
	"notifications-email-delete-sendgrid-details": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/email/v1/providers/sendgrid", sendgrid, "")
	}},
	"notifications-sms-list-twilio-details": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/twilio", twilio, "")
	}},
	"notifications-sms-save-twilio-details": {body: twilio},
	"notifications-sms-update-twilio-details": {body: twilio, seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/twilio", twilio, "")
	}},
	"notifications-sms-delete-twilio-details": {seed: func(f *fixture) {
		f.must("chat", "POST", "/notifications/sms/v1/providers/twilio", twilio, "")
	}},

	// Notifications: push tokens.
	"notifications-push-register-token": {seed: func(f *fixture) { f.pushReady() },
		body: `{"platform":"fcm_android","providerId":"fcm-provider-2","fcmToken":"superhero3_fcm_android_asia_kolkata","authToken":"{authToken}","timezone":"Asia/Kolkata"}`},
	"notifications-push-list-tokens":       {seed: func(f *fixture) { f.pushReady(); f.pushToken() }, query: "authToken={authToken}"},
	"notifications-push-unregister-tokens": {seed: func(f *fixture) { f.pushReady(); f.pushToken() }, body: `{"authToken":"{authToken}"}`},
	"notifications-push-delete-token": {params: map[string]string{"pushToken": "superhero3_fcm_android_asia_kolkata"},
		seed: func(f *fixture) { f.pushReady(); f.pushToken() }, body: `{"authToken":"{authToken}"}`},

	// Notifications: settings and preferences.
	"notifications-push-list-settings": {seed: func(f *fixture) {
		f.must("chat", "PATCH", "/notifications/v1/settings", `{"preferences":{"push":{"customJson":{"hello":"world"}}}}`, "")
	}},
	"notifications-push-update-settings":    {body: `{"preferences":{"group":{"messagesSetting":2}}}`},
	"notifications-push-reset-settings":     {},
	"notifications-push-list-preferences":   {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }},
	"notifications-push-update-preferences": {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }, body: `{"usePrivacyTemplate":true}`},
	"notifications-push-reset-preferences":  {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }},
	"notifications-push-list-muted":         {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }},
	"notifications-push-mute-conversations": {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1", "superhero2") }, body: `{"conversations":[{"id":"superhero2","type":"oneOnOne","until":1893456000000}]}`},
	"notifications-push-unmute-conversations": {query: "uid=superhero1", body: `{"conversations":[{"id":"superhero2","type":"oneOnOne"}]}`,
		seed: func(f *fixture) {
			f.users("superhero1", "superhero2")
			f.must("chat", "PUT", "/notifications/v1/preferences/mute?uid=superhero1", `{"conversations":[{"id":"superhero2","type":"oneOnOne","until":1893456000000}]}`, "")
		}},
	"notifications-get-timezone":    {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }},
	"notifications-update-timezone": {query: "uid=superhero1", seed: func(f *fixture) { f.users("superhero1") }, body: `{"timezone":"Asia/Kolkata"}`},
	"notifications-get-contact-details": {seed: func(f *fixture) {
		f.users("superhero1")
		f.must("chat", "PATCH", "/notifications/v1/contact-details", `{"email":"someone@example.com","phno":"+919591128691"}`, "superhero1")
	}},
	"notifications-update-contact-details": {seed: func(f *fixture) { f.users("superhero1") }, body: `{"email":"someone@example.com","phno":"+919591128691"}`},
	"notifications-delete-contact-details": {seed: func(f *fixture) {
		f.users("superhero1")
		f.must("chat", "PATCH", "/notifications/v1/contact-details", `{"email":"someone@example.com","phno":"+919591128691"}`, "superhero1")
	}},
	"notifications-logs": {seed: func(f *fixture) { // as in the example: a reaction to a member's message in a group they muted, over APNs
		f.users("superhero1", "superhero3")
		f.must("chat", "POST", "/notifications/push/v1/providers/apns", apnsProvider, "")
		f.token("superhero3")
		f.must("chat", "POST", "/notifications/push/v1/tokens", f.fill(`{"platform":"apns_ios_device","providerId":"apns-provider",
			"deviceToken":"pushtoken123","authToken":"{authToken}","timezone":"Asia/Kolkata"}`), "")
		f.superGroup("superhero3")
		id := f.text("superhero3", "supergroup", "group", "hello")
		f.must("chat", "PUT", "/notifications/v1/preferences/mute?uid=superhero3", `{"conversations":[{"id":"supergroup","type":"group","until":1893456000000}]}`, "")
		f.must("chat", "POST", "/messages/"+id+"/reactions/%F0%9F%98%82", "", "superhero1")
	}},

	// Metrics.
	"usage-metrics":           {query: "fromDate=1630164253&toDate=1632842653"},
	"message-receipt-metrics": {},
}

const (
	fcmProvider = `{"providerId":"fcm-provider-2","serviceAccountFilename":"service-account.json",
		"serviceAccountCreds":{"type":"service_account","project_id":"project_id","private_key_id":"private_key_id","private_key":"private_key",
		"client_email":"client_email"}}`
	apnsProvider = `{"providerId":"apns-provider","keyId":"KEYID12345","teamId":"TEAMID1234","bundleId":"com.example.com",
		"p8KeyFilename":"AuthKey.p8","p8Key":"-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----","includeContentAvailable":true,
		"includeMutableContent":true,"productionMode":false}`
	customPushProvider = `{"isEnabled":true,"webhookURL":"https://trigger-push.example.com/cometchat","useBasicAuth":true,
		"basicAuthUsername":"user123","basicAuthPassword":"pass123"}`
	customEmailProvider = `{"isEnabled":true,"useStoredEmailID":false,"webhookURL":"https://trigger-email.example.com/cometchat","useBasicAuth":true,
		"basicAuthUsername":"user889","basicAuthPassword":"pass122"}`
	customSMSProvider = `{"isEnabled":true,"useStoredPhNo":false,"webhookURL":"https://trigger-sms.example.com/cometchat","useBasicAuth":true,
		"basicAuthUsername":"user889","basicAuthPassword":"pass122"}`
	sendgrid = `{"sendGridApiKey":"sendgrid_key","sendGridTemplateID":"template_id","sendGridUnsubscribeGroupID":"12312","senderName":"Emailer",
		"senderEmail":"noreply@em123.example.com","allowEmailReplies":true,"senderEmailForReplies":"reply@em123.example.com"}`
	twilio = `{"twilioAccountSID":"AC91e67951ff7e5e7be8122184e76ae0e6","twilioAuthToken":"71c2301435733997e83db7a3445bc57",
		"twilioSenderPhoneNumber":"+13611364718"}`
)

// pushReady makes superhero1 and superhero3, an FCM provider and an auth
// token of superhero3 (the authToken parameter).
func (f *fixture) pushReady() {
	f.t.Helper()
	f.users("superhero1", "superhero3")
	f.must("chat", "POST", "/notifications/push/v1/providers/fcm", fcmProvider, "")
	f.token("superhero3")
}

// pushToken registers superhero3's FCM token.
func (f *fixture) pushToken() {
	f.t.Helper()
	f.must("chat", "POST", "/notifications/push/v1/tokens", f.fill(`{"platform":"fcm_android","providerId":"fcm-provider-2",
		"fcmToken":"superhero3_fcm_android_asia_kolkata","authToken":"{authToken}","timezone":"Asia/Kolkata"}`), "")
}

// blockedMessage turns the built-in text profanity filter on and has
// superhero1 send superhero2 a message it blocks (message 1).
func (f *fixture) blockedMessage() {
	f.t.Helper()
	f.users("superhero1", "superhero2")
	f.must("chat", "PUT", "/moderation/rules/text-profanity-filter", `{"enabled":true}`, "")
	f.must("chat", "POST", "/messages", `{"receiver":"superhero2","receiverType":"user","category":"message","type":"text",
		"muid":"_5zytzmceo","data":{"text":"badword"}}`, "superhero1")
}

// callCases are the calls API's operations; the calls are seeded as the
// examples show them.
var callCases = map[string]contractCase{
	"list-calls":                   {state: callState(false)},
	"retrieve-call-details":        {state: callState(false), params: map[string]string{"sessionId": transcribedCall}},
	"retrieve-call-transcriptions": {state: callState(true), params: map[string]string{"sessionId": transcribedCall}},
}

// importCases are the data import operations, whose requests the reference
// documents.
var importCases = map[string]contractCase{
	"import-users":  {},
	"import-groups": {seed: func(f *fixture) { f.users("superhero1") }},
	"import-members": {seed: func(f *fixture) { // guid1 created before the member's joinedAt
		f.users("uid1")
		f.must("chat", "POST", "/data_import/groups", `{"groups":{"guid1":{"guid":"guid1","name":"guid1","type":"public","owner":"uid1","createdAt":1673421000}}}`, "")
	}},
	"import-messages": {seed: func(f *fixture) { // the users exist, updated since, as the answer's entities show them
		f.must("chat", "POST", "/data_import/users", `{"users":{
			"s12":{"uid":"s12","name":"user1","avatar":"https://data-eu.cometchat.io/assets/images/avatars/ironman.png","metadata":{"key":"value"},"createdAt":1674228536},
			"r123":{"uid":"r123","name":"superhero","avatar":"https://data-eu.cometchat.io/assets/images/avatars/ironman.png","metadata":{"key":"value"},"createdAt":1674228536}}}`, "")
		f.must("chat", "PUT", "/users/s12", `{"name":"user1"}`, "")
		f.must("chat", "PUT", "/users/r123", `{"name":"superhero"}`, "")
	}},
}

// transcribedCall is the call of the retrieve-call-details and
// retrieve-call-transcriptions examples.
const transcribedCall = "v1.us.31780434a95d45.16923681138d75114d60d1345a22e4cc612263fb26c0b5cf92"

// callState seeds the calls of the list-calls example and, with
// transcribed, the transcription of the retrieve-call-transcriptions
// example with the call it names (the other examples' calls have none:
// hasTranscription false).
func callState(transcribed bool) func(t testing.TB) []string {
	return func(t testing.TB) []string { return callChanges(t, transcribed) }
}

func callChanges(t testing.TB, transcribed bool) []string {
	t.Helper()
	calls := dig(documentedAnswer("calls/list-calls.json"), "data").([]any)
	transcripts := dig(documentedAnswer("calls/retrieve-call-transcriptions.json"), "data").([]any)
	var out []string
	for _, c := range calls {
		call := c.(map[string]any)
		if transcribed && call["sessionId"] == transcribedCall {
			call["transcriptions"] = transcripts
		}
		args, err := json.Marshal(call)
		require.NoError(t, err)
		out = append(out, fmt.Sprintf(`{"at": %q, "seed": "AddCall", "args": %s}`, contractTime.UTC().Format(time.RFC3339), args))
	}
	return out
}

// testWebhook is the webhook test_webhook201 of the examples.
const testWebhook = `{"id":"test_webhook201","name":"test_webhook201","webhookURL":"https://example.com/test"}`

// managementCases are the management API's operations but for the
// extensions' settings (settingsCase).
var managementCases = map[string]contractCase{
	"list-apps":                {},
	"create-app":               {body: `{"name":"My App","region":"us"}`},
	"delete-app":               {seed: func(f *fixture) { f.app() }},
	"fetch-multi-tenant-usage": {body: `{"usePreviousBillingCycle":false}`},
	"add-tenant":               {},
	"list-collaborators": {seed: func(f *fixture) {
		f.must("management", "POST", "/apps/test-app/collaborators", `{"admins":["admin1@cometchat.com","admin2@cometchat.com"],"moderators":["developer1@cometchat.com"]}`, "")
	}},
	"add-collaborator": {body: `{"admins":["admin1@cometchat.com","admin2@cometchat.com"]}`},
	"list-settings": {seed: func(f *fixture) {
		f.must("management", "POST", "/apps/test-app/settings", `{"settings":{"core.notifications.push.advanced.included":["preferences","templates","providers.multiple"]}}`, "")
	}},
	"map-settings": {body: `{"settings":{"core.conversations.updateOnGroupActions":true}}`},
	"unmap-settings": {body: `{"settings":["core.conversations.updateOnGroupActions"]}`,
		seed: func(f *fixture) {
			f.must("management", "POST", "/apps/test-app/settings", `{"settings":{"core.conversations.updateOnGroupActions":true}}`, "")
		}},
	"list-extensions":  {},
	"enable-extension": {body: `{"enabled":["broadcast","chatwoot"],"disabled":["e2ee"]}`},

	"list-chat-widget":  {seed: func(f *fixture) { f.extension("widget"); f.widget() }},
	"store-chat-widget": {seed: func(f *fixture) { f.extension("widget") }, body: `{"settings":` + widgetSettings() + `}`},
	"update-chat-widget": {seed: func(f *fixture) { f.extension("widget"); f.widget() },
		body: `{"settings":{"widgetId":"{widgetId}","name":"Test Chat Widget"}}`},
	"upload-push-notification-certificate-p12": {seed: func(f *fixture) { f.extension("push-notification") },
		form: map[string]string{"certificate@certificate.p12": "-----BEGIN CERTIFICATE-----"}},
	"upload-push-notification-certificate-p8": {seed: func(f *fixture) { f.extension("push-notification") },
		form: map[string]string{"certificate@AuthKey.p8": "-----BEGIN PRIVATE KEY-----"}},
	"query-push-notification-certificates": {seed: func(f *fixture) { f.extension("push-notification") }},

	"list-webhooks":  {seed: func(f *fixture) { f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "") }},
	"create-webhook": {body: testWebhook},
	"get-webhook": {params: map[string]string{"webhookId": "test_webhook201"},
		seed: func(f *fixture) { f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "") }},
	"update-webhook": {params: map[string]string{"webhookId": "test_webhook201"}, body: `{"name":"updated webhook"}`,
		seed: func(f *fixture) { f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "") }},
	"delete-webhook": {params: map[string]string{"webhookId": "test_webhook201"},
		seed: func(f *fixture) { f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "") }},
	"list-triggers": {params: map[string]string{"webhookId": "test_webhook201"}, seed: func(f *fixture) {
		f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "")
		f.must("management", "POST", "/apps/test-app/webhooks/test_webhook201/triggers", `{"triggerIds":["message_delivery_receipt","message_read_receipt"]}`, "")
	}},
	"add-triggers": {params: map[string]string{"webhookId": "test_webhook201"}, body: `{"triggerIds":["message_delivery_receipt","message_read_receipt"]}`,
		seed: func(f *fixture) { f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "") }},
	"remove-triggers": {params: map[string]string{"webhookId": "test_webhook201"}, body: `{"triggerIds":["message_read_receipt"]}`, seed: func(f *fixture) {
		f.must("management", "POST", "/apps/test-app/webhooks", testWebhook, "")
		f.must("management", "POST", "/apps/test-app/webhooks/test_webhook201/triggers", `{"triggerIds":["message_delivery_receipt","message_read_receipt"]}`, "")
	}},
}

// widgetSettings is the widget configuration of the list-chat-widget
// example, but for the version and app id the service adds.
func widgetSettings() string {
	c := dig(documentedAnswer("management/list-chat-widget.json"), "data.body.data.0.configuration").(map[string]any)
	delete(c, "appId")
	delete(c, "version")
	raw, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return string(raw)
}

// app creates another app and makes it the appId parameter.
func (f *fixture) app() {
	f.t.Helper()
	v := f.must("management", "POST", "/apps", `{"name":"My App","region":"us"}`, "")
	f.params["appId"] = v.(map[string]any)["data"].(map[string]any)["id"].(string)
}

// extension enables the extension id of the fake's app.
func (f *fixture) extension(id string) {
	f.t.Helper()
	f.must("management", "POST", "/apps/test-app/extensions", fmt.Sprintf(`{"enabled":[%q]}`, id), "")
}

// widget stores a chat widget and makes its id the widgetId parameter.
func (f *fixture) widget() {
	f.t.Helper()
	v := f.must("management", "POST", "/apps/test-app/extensions/widget/v2/settings", `{"settings":`+widgetSettings()+`}`, "")
	f.params["widgetId"] = v.(map[string]any)["data"].(map[string]any)["body"].(map[string]any)["data"].(map[string]any)["widgetId"].(string)
}

// settingsCase is the case of an operation on an extension's settings
// (/apps/{appId}/extensions/{id}/v1/settings): the extension is enabled,
// and but for a store its settings are stored first. The reference gives
// no example body for them (but for push-notification's); the settings
// sent are those its answers show, of the store, else of the update,
// else of the get.
func settingsCase(t testing.TB, op refOperation, ops []refOperation) contractCase {
	id := strings.TrimPrefix(op.Path, "/apps/{appId}/extensions/")
	id = id[:strings.Index(id, "/")]
	settings := ""
	for _, o := range ops {
		if reqs := o.requests(); o.Path == op.Path && len(reqs) > 0 && settings == "" {
			settings = string(reqs[0].body) // push-notification's
		}
	}
	for _, verb := range []string{"POST", "PUT", "GET"} {
		for _, o := range ops {
			if o.Path != op.Path || o.Method != verb || settings != "" {
				continue
			}
			_, doc := o.response(t, "")
			s, ok := dig(doc, "data.body.data.settings").(map[string]any)
			if !ok || s["success"] != nil || len(s) < 2 && verb != "GET" {
				continue
			}
			delete(s, "appId")
			raw, err := json.Marshal(map[string]any{"settings": s})
			require.NoError(t, err)
			settings = string(raw)
		}
	}
	if settings == "" {
		settings = `{"settings":{}}`
	}
	c := contractCase{body: settings}
	c.seed = func(f *fixture) {
		f.extension(id)
		switch {
		case op.Method == "POST":
		case id == "stickers" || id == "data-masking": // stored by PUT only
			f.must("management", "PUT", "/apps/test-app/extensions/"+id+"/v1/settings", settings, "")
		default:
			f.must("management", "POST", "/apps/test-app/extensions/"+id+"/v1/settings", settings, "")
		}
	}
	return c
}
