package management_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

func TestSettingsWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "map",
			Call: func(c *management.Client) (any, error) {
				return c.Settings.Map(ctx, "app1", map[management.SettingKey]bool{
					management.SettingUpdateOnReplies: false, management.SettingPushEnabled: true,
				})
			},
			Reply: `{"data":{"core.conversations.updateOnReplies":{"success":true,"message":"Added setting(s) successfully."},
				"core.notifications.push.enabled":{"success":true,"message":"Added setting(s) successfully."}}}`,
			Method: http.MethodPost, Path: "/apps/app1/settings",
			Body: `{"settings":{"core.conversations.updateOnReplies":false,"core.notifications.push.enabled":true}}`,
			Want: management.Results{
				"core.conversations.updateOnReplies": {Success: true, Message: "Added setting(s) successfully."},
				"core.notifications.push.enabled":    {Success: true, Message: "Added setting(s) successfully."},
			},
		},
		{
			Name: "list",
			Call: func(c *management.Client) (any, error) { return c.Settings.List(ctx, "app1") },
			Reply: `{"data":{"core.conversations.updateOnReplies":true,
				"core.notifications.push.advanced.included":["preferences","templates"]}}`,
			Method: http.MethodGet, Path: "/apps/app1/settings",
			Want: management.AppSettings{
				management.SettingUpdateOnReplies:      json.RawMessage(`true`),
				management.SettingPushAdvancedIncluded: json.RawMessage(`["preferences","templates"]`),
			},
		},
		{
			Name: "unmap",
			Call: func(c *management.Client) (any, error) {
				return c.Settings.Unmap(ctx, "app1", []management.SettingKey{management.SettingUpdateOnReplies, "custom.key"})
			},
			Reply:  `{"data":{"success":true,"message":"Removed setting(s) successfully."}}`,
			Method: http.MethodDelete, Path: "/apps/app1/settings",
			Body: `{"settings":["core.conversations.updateOnReplies","custom.key"]}`,
			Want: &chat.Result{Success: true, Message: "Removed setting(s) successfully."},
		},
	})
}

func TestSettingsValidate(t *testing.T) {
	client, m := wiretest.Management(t)
	ctx := context.Background()
	_, err := client.Settings.Map(ctx, "", map[management.SettingKey]bool{management.SettingPushEnabled: true})
	wiretest.RequireArgError(t, err, "appID")
	_, err = client.Settings.Map(ctx, "app", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = client.Settings.Map(ctx, "app", map[management.SettingKey]bool{"": true})
	wiretest.RequireArgError(t, err, "settings")
	_, err = client.Settings.List(ctx, "")
	wiretest.RequireArgError(t, err, "appID")
	_, err = client.Settings.Unmap(ctx, "", []management.SettingKey{management.SettingPushEnabled})
	wiretest.RequireArgError(t, err, "appID")
	_, err = client.Settings.Unmap(ctx, "app", nil)
	wiretest.RequireArgError(t, err, "keys")
	_, err = client.Settings.Unmap(ctx, "app", []management.SettingKey{""})
	wiretest.RequireArgError(t, err, "keys")
	assert.Zero(t, m.Calls())
}

func TestAppSettingsAccessors(t *testing.T) {
	s := management.AppSettings{
		management.SettingUpdateOnReplies:      json.RawMessage(`false`),
		management.SettingPushAdvancedIncluded: json.RawMessage(`["preferences"]`),
	}
	v, ok := s.Bool(management.SettingUpdateOnReplies)
	assert.True(t, ok)
	assert.False(t, v)
	_, ok = s.Bool(management.SettingPushAdvancedIncluded)
	assert.False(t, ok, "an array is not a boolean")
	_, ok = s.Bool(management.SettingPushEnabled)
	assert.False(t, ok, "absent")
	list, ok := s.Strings(management.SettingPushAdvancedIncluded)
	require.True(t, ok)
	assert.Equal(t, []string{"preferences"}, list)
	_, ok = s.Strings(management.SettingUpdateOnReplies)
	assert.False(t, ok, "a boolean is not an array")
	_, ok = s.Strings(management.SettingPushEnabled)
	assert.False(t, ok, "absent")
}
