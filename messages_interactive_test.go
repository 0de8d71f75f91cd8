package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestMessagesMarkInteracted(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "MarkInteracted",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.MarkInteracted(ctx, "42", "cometchat-uid-1", &chat.MarkInteractedRequest{Interactions: []string{"name", "submit"}})
			},
			Method: http.MethodPatch, Path: "/v3/messages/42/interacted", OnBehalfOf: "cometchat-uid-1",
			Body:  `{"interactions":["name","submit"]}`,
			Reply: `{"data":{"success":true,"message":"Marked as interacted."}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, &chat.Result{Success: true, Message: "Marked as interacted."}, got)
			},
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.MarkInteracted(ctx, "", "u", &chat.MarkInteractedRequest{Interactions: []string{"a"}})
			return err
		}, Arg: "id"},
		{Name: "empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.MarkInteracted(ctx, "1", "", &chat.MarkInteractedRequest{Interactions: []string{"a"}})
			return err
		}, Arg: "onBehalfOf"},
		{Name: "nil request", Call: func(c *chat.Client) error {
			_, err := c.Messages.MarkInteracted(ctx, "1", "u", nil)
			return err
		}, Arg: "req.Interactions"},
		{Name: "no interactions", Call: func(c *chat.Client) error {
			_, err := c.Messages.MarkInteracted(ctx, "1", "u", &chat.MarkInteractedRequest{})
			return err
		}, Arg: "req.Interactions"},
	})
}

// A card as the reference's bot example sends it (chat-core §2.8).
const cardJSON = `{"imageUrl":"https://example.com/card.png","text":"Pick one",
	"cardActions":[{"elementType":"button","elementId":"yes","buttonText":"Yes","disableAfterInteracted":true,
		"action":{"actionType":"apiAction","url":"https://example.com/api","method":"POST","payload":{"answer":"yes"},
			"headers":{"x-key":"k"},"dataKey":"data"}},
	  {"elementType":"button","elementId":"docs","buttonText":"Docs","action":{"actionType":"urlNavigation","url":"https://example.com/docs"}}]}`

// A form with every element kind.
const formJSON = `{"title":"Survey","text":"Tell us","formFields":[
	{"elementType":"textInput","elementId":"name","label":"Name","optional":true,"maxLines":2,"defaultValue":"Ann","placeholder":{"text":"Your name"}},
	{"elementType":"dropdown","elementId":"country","label":"Country","defaultValue":"fr","options":[{"value":"fr","label":"France"},{"value":"de","label":"Germany"}]},
	{"elementType":"checkbox","elementId":"topics","label":"Topics","defaultValue":["a","b"],"options":[{"value":"a","label":"A"},{"value":"b","label":"B"}]},
	{"elementType":"singleSelect","elementId":"size","label":"Size","options":[{"value":"s","label":"S"}]}],
	"submitElement":{"elementType":"button","elementId":"submit","buttonText":"Send","action":{"actionType":"urlNavigation","url":"https://example.com"}}}`

func TestInteractiveDataDecoding(t *testing.T) {
	decode := func(t *testing.T, interactive string) *chat.Message {
		t.Helper()
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"id":"9","category":"interactive","type":"form","data":{"interactiveData":`+interactive+`,
			"interactionGoal":{"type":"anyOf","elementIds":["submit"]},"allowSenderInteraction":"true",
			"interactions":[{"elementId":"submit","interactedAt":"1719993037"}]}}}`)
		msg, err := client.Messages.Get(context.Background(), "9")
		require.NoError(t, err)
		require.NotNil(t, msg.Data.InteractiveData)
		return msg
	}

	t.Run("form", func(t *testing.T) {
		msg := decode(t, formJSON)
		d := msg.Data.InteractiveData
		assert.Equal(t, "Survey", d.Title)
		assert.Equal(t, "Tell us", d.Text)
		require.Len(t, d.FormFields, 4)
		name := d.FormFields[0]
		assert.Equal(t, chat.InteractiveElement{ElementType: chat.ElementTextInput, ElementID: "name", Label: "Name", Optional: true,
			MaxLines: 2, DefaultValue: "Ann", Placeholder: &chat.Placeholder{Text: "Your name"}}, name)
		assert.Equal(t, []chat.ElementOption{{Value: "fr", Label: "France"}, {Value: "de", Label: "Germany"}}, d.FormFields[1].Options)
		assert.Equal(t, []any{"a", "b"}, d.FormFields[2].DefaultValue)
		assert.Equal(t, chat.ElementSingleSelect, d.FormFields[3].ElementType)
		require.NotNil(t, d.SubmitElement)
		assert.Equal(t, chat.ActionTypeURLNavigation, d.SubmitElement.Action.ActionType)
		assert.JSONEq(t, formJSON, string(d.Raw), "Raw keeps the object")
		assert.Equal(t, &chat.InteractionGoal{Type: chat.GoalAnyOf, ElementIDs: []string{"submit"}}, msg.Data.InteractionGoal)
		require.NotNil(t, msg.Data.AllowSenderInteraction)
		assert.True(t, *msg.Data.AllowSenderInteraction, "a string boolean decodes")
		assert.Equal(t, []chat.Interaction{{ElementID: "submit", InteractedAt: 1719993037}}, msg.Data.Interactions)
	})

	t.Run("card", func(t *testing.T) {
		d := decode(t, cardJSON).Data.InteractiveData
		assert.Equal(t, "https://example.com/card.png", d.ImageURL)
		require.Len(t, d.CardActions, 2)
		yes := d.CardActions[0]
		assert.True(t, yes.DisableAfterInteracted)
		assert.Equal(t, &chat.ButtonAction{ActionType: chat.ActionTypeAPI, URL: "https://example.com/api", Method: "POST",
			Payload: map[string]any{"answer": "yes"}, Headers: map[string]string{"x-key": "k"}, DataKey: "data"}, yes.Action)
	})

	t.Run("lenient inside the interactive data", func(t *testing.T) {
		d := decode(t, `{"title":"T","formFields":[{"elementId":"n","maxLines":"3","optional":"1"}],
			"cardActions":[{"elementId":"b","action":{"headers":{"x-n":7}}}]}`).Data.InteractiveData
		require.Len(t, d.FormFields, 1)
		assert.Equal(t, 3, d.FormFields[0].MaxLines)
		assert.True(t, d.FormFields[0].Optional)
		assert.Equal(t, map[string]string{"x-n": "7"}, d.CardActions[0].Action.Headers)
	})

	t.Run("a scheduler is kept in Raw", func(t *testing.T) {
		const scheduler = `{"title":"Meet","goalCompletionText":"Booked","dateRangeStart":"2024-01-01","dateRangeEnd":"2024-01-31",
			"availability":{"monday":[{"from":"0900","to":"1700"}]},"duration":30}`
		d := decode(t, scheduler).Data.InteractiveData
		assert.Equal(t, "Meet", d.Title)
		var s struct {
			GoalCompletionText string `json:"goalCompletionText"`
			DateRangeStart     string `json:"dateRangeStart"`
			Duration           int    `json:"duration"`
		}
		require.NoError(t, json.Unmarshal(d.Raw, &s))
		assert.Equal(t, "Booked", s.GoalCompletionText)
		assert.Equal(t, "2024-01-01", s.DateRangeStart)
		assert.Equal(t, 30, s.Duration)
	})

	t.Run("custom content that does not fit the typed fields", func(t *testing.T) {
		const custom = `{"title":{"en":"Hi","fr":"Salut"},"formFields":"none","text":"fits","x":[1,2]}`
		d := decode(t, custom).Data.InteractiveData
		assert.Empty(t, d.Title, "a member that does not fit leaves its field zero")
		assert.Nil(t, d.FormFields)
		assert.Equal(t, "fits", d.Text, "the members that fit are decoded")
		assert.JSONEq(t, custom, string(d.Raw))
		out, err := json.Marshal(d)
		require.NoError(t, err)
		assert.JSONEq(t, custom, string(out), "encoding again loses nothing")
	})

	t.Run("custom content that is not an object", func(t *testing.T) {
		d := decode(t, `["a","b"]`).Data.InteractiveData
		assert.JSONEq(t, `["a","b"]`, string(d.Raw))
	})
}

func TestInteractiveDataEncoding(t *testing.T) {
	tests := []struct {
		name string
		data chat.InteractiveData
		want string
	}{
		{"empty", chat.InteractiveData{}, `{}`},
		{"typed only", chat.InteractiveData{Title: "T", CardActions: []chat.InteractiveElement{{ElementID: "b"}}},
			`{"title":"T","cardActions":[{"elementId":"b"}]}`},
		{"raw only: custom content", chat.InteractiveData{Raw: json.RawMessage(`{"poll":{"q":"lunch?"}}`)}, `{"poll":{"q":"lunch?"}}`},
		{"raw that is not an object, typed empty", chat.InteractiveData{Raw: json.RawMessage(` [1,2] `)}, `[1,2]`},
		{"raw that is not an object, typed set", chat.InteractiveData{Title: "T", Raw: json.RawMessage(`[1,2]`)}, `{"title":"T"}`},
		{"null raw", chat.InteractiveData{Text: "x", Raw: json.RawMessage(`null`)}, `{"text":"x"}`},
		{"typed fields win over raw; other members are kept",
			chat.InteractiveData{Title: "New", Raw: json.RawMessage(`{"title":"Old","Text":"gone","goalCompletionText":"Done"}`)},
			`{"title":"New","goalCompletionText":"Done"}`},
		{"a typed field cleared stays cleared", chat.InteractiveData{Raw: json.RawMessage(`{"formFields":[{"elementId":"a"}],"k":1}`)},
			`{"k":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(tt.data)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(out))
			ptr, err := json.Marshal(&tt.data)
			require.NoError(t, err)
			assert.Equal(t, string(out), string(ptr), "value and pointer encode alike")
		})
	}

	t.Run("bad raw fails the encoding", func(t *testing.T) {
		_, err := json.Marshal(chat.InteractiveData{Raw: json.RawMessage(`{"a":`)})
		var marshalErr *json.MarshalerError
		require.ErrorAs(t, err, &marshalErr)
		typ := marshalErr.Type
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		assert.Equal(t, reflect.TypeFor[chat.InteractiveData](), typ, "the error names the type")
		var syntaxErr *json.SyntaxError
		assert.ErrorAs(t, err, &syntaxErr, "the cause is the broken raw JSON")
	})

	t.Run("decode then encode round-trips", func(t *testing.T) {
		for _, wire := range []string{formJSON, cardJSON, `{"title":{"en":"x"},"anything":[1,{"b":null}]}`, `"just text"`} {
			var d chat.InteractiveData
			require.NoError(t, json.Unmarshal([]byte(wire), &d))
			out, err := json.Marshal(d)
			require.NoError(t, err)
			assert.JSONEq(t, wire, string(out))
		}
	})

	t.Run("in a send request", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"id":"1"}}`)
		_, err := client.Messages.Send(context.Background(), &chat.SendMessageRequest{
			Receiver: "u", ReceiverType: chat.ReceiverUser, Category: chat.CategoryInteractive, Type: chat.MessageTypeCustomInteractive,
			Data: chat.MessageData{InteractiveData: &chat.InteractiveData{Raw: json.RawMessage(`{"widget":"rating","max":5}`)}},
			MUID: "m1",
		})
		require.NoError(t, err)
		wiretest.JSONBody(t, m.Only(), `{"receiver":"u","receiverType":"user","category":"interactive","type":"customInteractive",
			"data":{"interactiveData":{"widget":"rating","max":5}},"muid":"m1"}`)
	})
}

// TestMarkInteractedValidate holds the Validate of the interaction mark to the checks
// their methods run before sending.
func TestMarkInteractedValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an interaction", Value: &chat.MarkInteractedRequest{Interactions: []string{"button1"}}},
		{Name: "no interaction", Value: &chat.MarkInteractedRequest{}, Field: "req.Interactions"},
		{Name: "a nil mark", Value: (*chat.MarkInteractedRequest)(nil), Field: "req.Interactions"},
	})
}
