package chattest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

const (
	importUsersRoute    = "POST /v3/data_import/users"
	importGroupsRoute   = "POST /v3/data_import/groups"
	importMembersRoute  = "POST /v3/data_import/members"
	importMessagesRoute = "POST /v3/data_import/messages"
)

// requireImportError asserts that err is the service's refusal of one
// entity with code, and returns it.
func requireImportError(t *testing.T, err error, code string) *chat.ImportError {
	t.Helper()
	return faketest.RequireImportError(t, err, code)
}

// importRaw sends entities, keyed by their ids, to the import endpoint
// for prop in a request the SDK does not check, so that the fake's own
// refusals of what the SDK would not send can be seen. It returns each
// entity's refusal by key, an *chat.ImportError; an imported entity has
// none.
func importRaw(t *testing.T, client *chat.Client, prop string, entities map[string]any) map[string]error {
	t.Helper()
	var answer struct {
		Data map[string]struct {
			Success bool `json:"success"`
			Error   struct {
				Code    string              `json:"code"`
				Message string              `json:"message"`
				Details map[string][]string `json:"details"`
			} `json:"error"`
		} `json:"data"`
	}
	err := client.Do(t.Context(), &chat.Request{Method: http.MethodPost, Path: []string{"data_import", prop},
		Body: map[string]any{prop: entities}}, &answer)
	require.NoError(t, err)
	require.Len(t, answer.Data, len(entities))
	refused := map[string]error{}
	for key, e := range answer.Data {
		if !e.Success {
			refused[key] = &chat.ImportError{Code: e.Error.Code, Message: e.Error.Message, Details: e.Error.Details}
		}
	}
	return refused
}

// rawMember is an ImportMember as the import request carries it, with
// the member's id.
type rawMember struct {
	MemberID string `json:"memberId"`
	chat.ImportMember
}

func TestDataImportUsers(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "taken")
	srv.AddRole(chat.Role{Role: "moderator", Name: "Moderator"})
	then := chat.TimestampOf(t0) - 86400

	noname, badID := chat.ImportUser{UID: "noname"}, chat.ImportUser{UID: "Bad Id", Name: "Bad"}
	res, err := client.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "ok", Name: "OK"}, {UID: "ok2", Name: "OK"}, noname})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "a user without a name is refused before sending")
	requireArgErrorNamed(t, err, "users[2].name")
	assert.Nil(t, res)
	assert.Zero(t, srv.RequestCount(importUsersRoute))

	res, err = client.DataImport.ImportUsers(ctx, []chat.ImportUser{
		{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png", Role: "moderator", CreatedAt: then, LastActiveAt: then + 60,
			Metadata: map[string]any{"team": "red"}, Tags: []string{"vip"}},
		{UID: "gone", Name: "Gone", DeactivatedAt: then},
		{UID: "norole", Name: "No role", Role: "ghost"},
		{UID: "taken", Name: "Taken"},
	})
	require.NoError(t, err)
	require.Len(t, res, 4)

	require.True(t, res[0].Success, "%v", res[0].Err)
	assert.Equal(t, &chat.User{UID: "alice", Name: "Alice", Avatar: "https://a.example/a.png", Metadata: map[string]any{"team": "red"},
		Status: chat.UserOffline, Role: "moderator", LastActiveAt: then + 60, CreatedAt: then}, res[0].Data)
	alice, err := client.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, then, alice.CreatedAt, "the import keeps createdAt")
	stored, ok := srv.User("alice")
	require.True(t, ok)
	assert.Equal(t, []string{"vip"}, stored.Tags)

	require.True(t, res[1].Success)
	_, err = client.Users.Get(ctx, "gone")
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, ok = srv.User("gone")
	assert.True(t, ok, "imported deactivated")

	ie := requireImportError(t, res[2].Err, "ERR_IMPORT_INVALID_USER_FORMAT")
	assert.Contains(t, ie.Details, "role")
	requireImportError(t, res[3].Err, "ERR_UID_ALREADY_EXISTS")
	assert.ErrorIs(t, res[3].Err, chat.ErrConflict)

	// What the SDK refuses, the fake refuses too.
	refused := importRaw(t, client, "users", map[string]any{"noname": noname, "Bad Id": badID})
	ie = requireImportError(t, refused["noname"], "ERR_IMPORT_INVALID_USER_FORMAT")
	assert.Contains(t, ie.Details, "name")
	assert.ErrorIs(t, refused["noname"], chat.ErrBadRequest)
	ie = requireImportError(t, refused["Bad Id"], "ERR_IMPORT_INVALID_USER_FORMAT")
	assert.Contains(t, ie.Details, "uid")
	for _, uid := range []string{"noname", "norole", "bad id"} {
		_, ok := srv.User(uid)
		assert.False(t, ok, uid)
	}
}

func TestDataImportGroups(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	srv.AddGroup(chat.Group{GUID: "taken", Name: "Taken"})
	then := chat.TimestampOf(t0) - 86400

	nopass := chat.ImportGroup{GUID: "nopass", Name: "No password", Type: chat.GroupPassword}
	notype := chat.ImportGroup{GUID: "notype", Name: "No type"}
	res, err := client.DataImport.ImportGroups(ctx, []chat.ImportGroup{{GUID: "ok", Name: "OK", Type: chat.GroupPublic}, nopass})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "a password group without a password is refused before sending")
	requireArgErrorNamed(t, err, "groups[1].password")
	assert.Nil(t, res)
	assert.Zero(t, srv.RequestCount(importGroupsRoute))

	res, err = client.DataImport.ImportGroups(ctx, []chat.ImportGroup{
		{GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, Password: "pw", Owner: "bob", CreatedAt: then,
			Tags: []string{"outdoor"}, OwnerDetails: &chat.UserDetails{UID: "bob", Name: "Bob"}},
		{GUID: "readers", Name: "Readers", Type: chat.GroupPublic, Owner: "alice"},
		{GUID: "taken", Name: "Taken", Type: chat.GroupPublic},
		{GUID: "orphan", Name: "Orphan", Type: chat.GroupPrivate, Owner: "nobody"},
	})
	require.NoError(t, err)
	require.Len(t, res, 4)

	require.True(t, res[0].Success, "%v", res[0].Err)
	assert.Equal(t, &chat.Group{GUID: "hikers", Name: "Hikers", Type: chat.GroupPassword, ConversationID: "group_hikers",
		CreatedAt: then, Owner: "bob"}, res[0].Data)
	_, ok := srv.User("bob")
	assert.True(t, ok, "the owner was created from groupOwnerDetails")
	g, err := client.Groups.Get(ctx, "hikers", chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, chat.MemberAdmin, g.Scope, "the owner joins as an admin")
	assert.Equal(t, then, g.JoinedAt)
	assert.Equal(t, 1, g.MembersCount)
	_, err = client.Members.Add(ctx, "hikers", &chat.AddMembersRequest{Participants: []string{"alice"}})
	require.NoError(t, err)

	require.True(t, res[1].Success)
	assert.Equal(t, chat.TimestampOf(t0), res[1].Data.CreatedAt, "createdAt defaults to now")
	requireImportError(t, res[2].Err, "ERR_GUID_ALREADY_EXISTS")
	requireImportError(t, res[3].Err, "ERR_UID_NOT_FOUND")

	// What the SDK refuses, the fake refuses too.
	refused := importRaw(t, client, "groups", map[string]any{"nopass": nopass, "notype": notype})
	ie := requireImportError(t, refused["nopass"], "ERR_IMPORT_INVALID_GROUP_FORMAT")
	assert.Contains(t, ie.Details, "password")
	ie = requireImportError(t, refused["notype"], "ERR_IMPORT_INVALID_GROUP_FORMAT")
	assert.Contains(t, ie.Details, "type")
	for _, guid := range []string{"nopass", "orphan", "notype"} {
		_, ok := srv.Group(guid)
		assert.False(t, ok, guid)
	}
	_, ok = srv.User("nobody")
	assert.False(t, ok)
}

func TestDataImportMembers(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave")
	created := chat.TimestampOf(t0) - 86400
	srv.AddGroup(chat.Group{GUID: "hikers", Name: "Hikers", Owner: "alice", CreatedAt: created}, "dave")

	members := []chat.ImportMember{
		{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: created + 10},
		{GUID: "hikers", UID: "carol", IsBanned: true, JoinedAt: created + 20},
		{GUID: "hikers", UID: "alice", Scope: chat.MemberAdmin, JoinedAt: created + 1},
		{GUID: "hikers", UID: "dave"},
		{GUID: "hikers", UID: "erin", JoinedAt: created - 1, UserDetails: &chat.UserDetails{UID: "erin", Name: "Erin"}},
		{GUID: "hikers", UID: "frank", JoinedAt: chat.TimestampOf(t0) + 60, UserDetails: &chat.UserDetails{UID: "frank", Name: "Frank"}},
		{GUID: "climbers", UID: "gina", GroupDetails: &chat.GroupDetails{GUID: "climbers", Name: "Climbers", Type: chat.GroupPrivate, CreatedAt: created},
			UserDetails: &chat.UserDetails{UID: "gina", Name: "Gina"}, JoinedAt: created + 5},
		{GUID: "nowhere", UID: "bob"},
		{GUID: "hikers", UID: "nobody"},
	}
	henry := chat.ImportMember{GUID: "hikers", UID: "henry", Scope: "owner"}
	repeated := append(slices.Clone(members), members[0])
	res, err := client.DataImport.ImportMembers(ctx, repeated)
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "a repeated membership is refused before sending")
	requireArgErrorNamed(t, err, "members[9]")
	assert.Nil(t, res)
	res, err = client.DataImport.ImportMembers(ctx, append(slices.Clone(members), henry))
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "a scope the service has not is refused before sending")
	requireArgErrorNamed(t, err, "members[9].scope")
	assert.Nil(t, res)
	assert.Zero(t, srv.RequestCount(importMembersRoute))

	res, err = client.DataImport.ImportMembers(ctx, members)
	require.NoError(t, err)

	require.True(t, res[0].Success, "%v", res[0].Err)
	assert.Equal(t, "hikers_member_bob", res[0].Key)
	assert.Equal(t, &chat.ImportedMember{GUID: "hikers", UID: "bob", Scope: chat.MemberModerator, JoinedAt: created + 10}, res[0].Data)
	require.True(t, res[1].Success, "carol is banned")
	require.True(t, res[2].Success, "the owner's membership is set")
	requireImportError(t, res[3].Err, "ERR_ALREADY_JOINED")
	requireImportError(t, res[4].Err, "ERR_IMPORT_INVALID_JOINEDAT")
	requireImportError(t, res[5].Err, "ERR_IMPORT_INVALID_JOINEDAT")
	require.True(t, res[6].Success, "%v", res[6].Err)
	requireImportError(t, res[7].Err, "ERR_GUID_NOT_FOUND")
	requireImportError(t, res[8].Err, "ERR_UID_NOT_FOUND")
	require.Len(t, res, 9)

	// What the SDK refuses, the fake refuses too.
	refused := importRaw(t, client, "members", map[string]any{"hikers_member_henry": rawMember{MemberID: "hikers_member_henry", ImportMember: henry}})
	ie := requireImportError(t, refused["hikers_member_henry"], "ERR_IMPORT_INVALID_MEMBER_FORMAT")
	assert.Contains(t, ie.Details, "scope")

	page, err := client.Members.List(ctx, "hikers", nil)
	require.NoError(t, err)
	got := map[string]chat.GroupMember{}
	for _, m := range page.Data {
		got[m.UID] = m
	}
	assert.Len(t, got, 3, "alice, dave and bob; carol banned, erin and frank refused")
	assert.Equal(t, chat.MemberModerator, got["bob"].Scope)
	assert.Equal(t, created+10, got["bob"].JoinedAt)
	assert.Equal(t, created+1, got["alice"].JoinedAt)
	banned, err := client.Bans.List(ctx, "hikers", nil)
	require.NoError(t, err)
	require.Len(t, banned.Data, 1)
	assert.Equal(t, "carol", banned.Data[0].UID)
	_, ok := srv.User("erin")
	assert.False(t, ok, "a refused member's details create nothing")

	climbers, ok := srv.Group("climbers")
	require.True(t, ok, "the group was created from groupDetails")
	assert.Equal(t, created, climbers.CreatedAt)
	assert.Equal(t, 1, climbers.MembersCount)
	assert.Empty(t, srv.Messages(), "imports emit no action messages")

	// Importing the same memberships again changes nothing.
	res, err = client.DataImport.ImportMembers(ctx, members[:2])
	require.NoError(t, err)
	requireImportError(t, res[0].Err, "ERR_ALREADY_JOINED")
	requireImportError(t, res[1].Err, "ERR_ALREADY_BANNED")
}

// requireArgErrorNamed asserts that err is an *chat.ArgumentError naming
// name.
func requireArgErrorNamed(t *testing.T, err error, name string) {
	t.Helper()
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, name, ae.Name)
}

func TestDataImportMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	sent := chat.TimestampOf(t0) - 3600

	badType := chat.ImportMessage{MUID: "bad-type", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Type: "poll", SentAt: sent}
	noAttachmentURL := chat.ImportMessage{MUID: "no-attachment-url", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob",
		Type: chat.MessageTypeFile, SentAt: sent,
		Data: chat.ImportMessageData{Attachments: []chat.ImportAttachment{{Name: "a.txt", MimeType: "text/plain", Extension: "txt"}}}}
	res, err := client.DataImport.ImportMessages(ctx, []chat.ImportMessage{
		{MUID: "ok", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", SentAt: sent}, noAttachmentURL})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "an attachment without a url is refused before sending")
	requireArgErrorNamed(t, err, "messages[1].data.attachments[0].url")
	assert.Nil(t, res)
	assert.Zero(t, srv.RequestCount(importMessagesRoute))

	res, err = client.DataImport.ImportMessages(ctx, []chat.ImportMessage{
		{MUID: "m2", Sender: "bob", ReceiverType: chat.ReceiverUser, Receiver: "alice", Data: chat.ImportMessageData{Text: "Hi Alice"},
			SentAt: sent + 60, DeliveredAt: sent + 61, ReadAt: sent + 62, Tags: []string{"old"}},
		{MUID: "m1", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.ImportMessageData{Text: "Hi Bob"}, SentAt: sent},
		{MUID: "m3", Sender: "carol", ReceiverType: chat.ReceiverGroup, Receiver: "club", Category: chat.CategoryMessage, Type: chat.MessageTypeImage,
			Data:                      chat.ImportMessageData{Attachments: []chat.ImportAttachment{{URL: "https://a.example/p.png", Name: "p.png", MimeType: "image/png", Extension: "png", Size: "350.2"}}},
			SentAt:                    sent + 120,
			SenderUserDetails:         &chat.UserDetails{UID: "carol", Name: "Carol"},
			ReceiverGroupDetails:      &chat.GroupDetails{GUID: "club", Name: "Club", Type: chat.GroupPublic, Owner: "dave", CreatedAt: sent - 60},
			ReceiverGroupOwnerDetails: &chat.UserDetails{UID: "dave", Name: "Dave"}},
		{MUID: "m4", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Category: chat.CategoryCustom, Type: "location",
			Data: chat.ImportMessageData{CustomData: map[string]any{"lat": 1.5}}, SentAt: sent + 180,
			MentionedUserDetails: map[string]chat.UserDetails{"erin": {UID: "erin", Name: "Erin"}}},
		{MUID: "no-sent-at", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob"},
		{MUID: "to-nobody", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "nobody", SentAt: sent},
		{MUID: "no-group", Sender: "alice", ReceiverType: chat.ReceiverGroup, Receiver: "nogroup", SentAt: sent},
	})
	require.NoError(t, err)
	for i := range 4 {
		require.True(t, res[i].Success, "%s: %v", res[i].Key, res[i].Err)
	}

	m1, m2 := res[1].Data, res[0].Data
	assert.Equal(t, "m1", m1.MUID)
	assert.Equal(t, sent, m1.SentAt, "the import keeps sentAt")
	assert.Equal(t, "alice_user_bob", m1.ConversationID)
	assert.Less(t, m1.ID, m2.ID, "stored in the order of sentAt")
	got, err := client.Messages.Get(ctx, m2.ID)
	require.NoError(t, err)
	assert.Equal(t, "m2", got.MUID)
	assert.Equal(t, "Hi Alice", got.Data.Text)
	assert.Equal(t, sent+60, got.SentAt)
	assert.Equal(t, sent+61, got.DeliveredAt)
	assert.Equal(t, sent+62, got.ReadAt)
	assert.Equal(t, []string{"old"}, got.Tags)
	sender, err := got.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, "bob", sender.UID)

	m3 := res[2].Data
	assert.Equal(t, "group_club", m3.ConversationID)
	require.Len(t, m3.Data.Attachments, 1)
	assert.Equal(t, chat.Attachment{URL: "https://a.example/p.png", Name: "p.png", MimeType: "image/png", Extension: "png", Size: 350}, m3.Data.Attachments[0])
	club, ok := srv.Group("club")
	require.True(t, ok)
	assert.Equal(t, "dave", club.Owner)
	for _, uid := range []string{"carol", "dave", "erin"} {
		_, ok := srv.User(uid)
		assert.True(t, ok, "%s was created from the details", uid)
	}
	assert.Equal(t, map[string]any{"lat": 1.5}, res[3].Data.Data.CustomData)

	ie := requireImportError(t, res[4].Err, "ERR_IMPORT_INVALID_MESSAGE_FORMAT")
	assert.Contains(t, ie.Details, "sentAt")
	requireImportError(t, res[5].Err, "ERR_UID_NOT_FOUND")
	requireImportError(t, res[6].Err, "ERR_GUID_NOT_FOUND")
	require.Len(t, res, 7)

	// What the SDK refuses, the fake refuses too.
	refused := importRaw(t, client, "messages", map[string]any{"bad-type": badType, "no-attachment-url": noAttachmentURL})
	requireImportError(t, refused["bad-type"], "ERR_IMPORT_INVALID_MESSAGE_FORMAT")
	ie = requireImportError(t, refused["no-attachment-url"], "ERR_IMPORT_INVALID_MESSAGE_FORMAT")
	assert.Contains(t, ie.Details, "data.attachments.0.url")
	assert.Len(t, srv.Messages(), 4)

	// A muid is imported once.
	res, err = client.DataImport.ImportMessages(ctx, []chat.ImportMessage{
		{MUID: "m1", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", SentAt: sent},
	})
	require.NoError(t, err)
	requireImportError(t, res[0].Err, "ERR_IMPORT_MUID_ALREADY_EXISTS")
	assert.ErrorIs(t, res[0].Err, chat.ErrConflict)
	assert.Len(t, srv.Messages(), 4)
}

func TestDataImportRequests(t *testing.T) {
	srv, _ := start(t)
	many := map[string]any{}
	for i := range 51 {
		uid := fmt.Sprint("u", i)
		many[uid] = map[string]any{"uid": uid, "name": uid}
	}
	tooMany, err := json.Marshal(map[string]any{"users": many})
	require.NoError(t, err)

	cases := []struct {
		name, path, body string
		status           int
		code             string
	}{
		{"more than 50 entities", "/v3/data_import/users", string(tooMany), 400, "ERR_BAD_REQUEST"},
		{"no users property", "/v3/data_import/users", `{"people":{}}`, 400, "ERR_IMPORT_INVALID_USER_FORMAT"},
		{"users as an array", "/v3/data_import/users", `{"users":[{"uid":"a","name":"A"}]}`, 400, "ERR_IMPORT_INVALID_USER_FORMAT"},
		{"no groups", "/v3/data_import/groups", `{"groups":{}}`, 400, "ERR_IMPORT_INVALID_GROUP_FORMAT"},
		{"not JSON", "/v3/data_import/members", `members`, 400, "ERR_IMPORT_INVALID_MEMBER_FORMAT"},
		{"no messages", "/v3/data_import/messages", ``, 400, "ERR_IMPORT_INVALID_MESSAGE_FORMAT"},
		{"timestamps as strings, the reference's examples", "/v3/data_import/users",
			`{"users":{"s":{"uid":"s","name":"S","createdAt":"1674104348"}}}`, 200, ""},
		{"an entity of the wrong shape", "/v3/data_import/users", `{"users":{"w":{"uid":"w","name":["W"]}}}`, 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := fetch(t, srv, "POST", tc.path, tc.body)
			require.Equal(t, tc.status, resp.StatusCode, body)
			if tc.code != "" {
				assert.Contains(t, body, `"code":"`+tc.code+`"`)
			}
		})
	}
	u, ok := srv.User("s")
	require.True(t, ok)
	assert.Equal(t, chat.Timestamp(1674104348), u.CreatedAt)
	_, ok = srv.User("w")
	assert.False(t, ok)
	_, body := fetch(t, srv, "POST", "/v3/data_import/users", `{"users":{"w":{"uid":"w","name":["W"]}}}`)
	assert.Contains(t, body, `"success":false`)
	assert.Contains(t, body, `"name":["The name field must be a string."]`)
}

func TestDataImportRateLimit(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, _ := start(t, chattest.WithClock(clk.Now), chattest.WithDataImportLimit(2))
	body := func(uid string) string { return `{"users":{"` + uid + `":{"uid":"` + uid + `","name":"N"}}}` }
	windowEnd := time.Unix(t0.Unix()/60*60+60, 0) // t0 is 20s into its minute

	resp, _ := fetch(t, srv, "POST", "/v3/data_import/users", body("a"))
	assert.Equal(t, "2", resp.Header.Get("X-Rate-Limit"))
	assert.Equal(t, "1", resp.Header.Get("X-Rate-Limit-Remaining"))
	resp, _ = fetch(t, srv, "POST", "/v3/data_import/users", body("b"))
	assert.Equal(t, "0", resp.Header.Get("X-Rate-Limit-Remaining"))

	resp, out := fetch(t, srv, "POST", "/v3/data_import/users", body("c"))
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Contains(t, out, `"code":"ERR_TOO_MANY_REQUESTS"`)
	assert.Equal(t, "40", resp.Header.Get("Retry-After"))
	assert.Equal(t, strconv.FormatInt(windowEnd.Unix(), 10), resp.Header.Get("X-Rate-Limit-Reset"))
	_, ok := srv.User("c")
	assert.False(t, ok, "a refused request is not processed")

	resp, _ = fetch(t, srv, "POST", "/v3/data_import/groups", `{"groups":{"g":{"guid":"g","name":"G","type":"public"}}}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "each endpoint has its own budget")

	clk.Set(windowEnd)
	resp, _ = fetch(t, srv, "POST", "/v3/data_import/users", body("c"))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a new minute")
	_, ok = srv.User("c")
	assert.True(t, ok)

	t.Run("a limit below 1 accepts any number", func(t *testing.T) {
		srv, _ := start(t, chattest.WithDataImportLimit(0))
		var last *http.Response
		for i := range 70 {
			last, _ = fetch(t, srv, "POST", "/v3/data_import/users", body(fmt.Sprint("u", i)))
			require.Equal(t, http.StatusOK, last.StatusCode, i)
		}
		assert.Equal(t, "60", last.Header.Get("X-Rate-Limit"), "the service's limit is reported")
	})

	t.Run("the service's 60 by default", func(t *testing.T) {
		srv, _ := start(t)
		for i := range 60 {
			resp, _ := fetch(t, srv, "POST", "/v3/data_import/users", body(fmt.Sprint("u", i)))
			require.Equal(t, http.StatusOK, resp.StatusCode, i)
		}
		resp, _ := fetch(t, srv, "POST", "/v3/data_import/users", body("more"))
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	})
}

func ExampleWithDataImportLimit() {
	noon := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	srv := chattest.NewServer(chattest.WithDataImportLimit(1), chattest.WithClock(func() time.Time { return noon }))
	defer srv.Close()
	client := srv.Client(chat.WithoutRetries())
	ctx := context.Background()

	users := []chat.ImportUser{{UID: "alice", Name: "Alice"}, {UID: "bob", Name: "Bob"}}
	if _, err := client.DataImport.ImportUsers(ctx, users[:1]); err != nil {
		fmt.Println(err)
	}
	_, err := client.DataImport.ImportUsers(ctx, users[1:])
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.StatusCode, ce.Code, "retry after", ce.RetryAfter)
	}
	// Output:
	// 429 ERR_TOO_MANY_REQUESTS retry after 1m0s
}
