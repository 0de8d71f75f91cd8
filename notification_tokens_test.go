package chat_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

const (
	testAuthToken = "alice_8f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6"
	testPushToken = "fcm:APA91bH-device/token+1"
)

func TestNotificationTokensWire(t *testing.T) {
	ctx := context.Background()
	const tokenJSON = `{"authToken":"` + testAuthToken + `","pushTokenType":"chat","createdAt":"2025-03-26T09:14:19.696Z",
		"platform":"fcm_android","providerId":"fcm-main","pushToken":"` + testPushToken + `","uid":"alice","updatedAt":"2025-03-26T09:14:19.696Z"}`
	token := chat.PushToken{UID: "alice", AuthToken: testAuthToken, Token: testPushToken, Type: chat.PushTokenChat,
		Platform: chat.PushPlatformFCMAndroid, ProviderID: "fcm-main", CreatedAt: "2025-03-26T09:14:19.696Z", UpdatedAt: "2025-03-26T09:14:19.696Z"}
	success := &chat.Result{Success: true}
	register := func(platform chat.PushPlatform, providerID, timezone string) func(c *chat.Client) (any, error) {
		return func(c *chat.Client) (any, error) {
			return c.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
				Platform: platform, ProviderID: providerID, Token: "tok", AuthToken: testAuthToken, Timezone: timezone})
		}
	}
	runWire(t, []wireCase{
		{
			name: "RegisterPushToken FCM", call: register(chat.PushPlatformFCMWeb, "fcm-main", "Asia/Kolkata"),
			response: `{"data":{"success":true}}`, method: http.MethodPost, path: "/v3/notifications/push/v1/tokens",
			body: `{"platform":"fcm_web","providerId":"fcm-main","fcmToken":"tok","authToken":"` + testAuthToken + `","timezone":"Asia/Kolkata"}`,
			want: success,
		},
		{
			name: "RegisterPushToken APNs device with the default provider", call: register(chat.PushPlatformAPNsFlutterDevice, "", ""),
			response: `{"data":{"success":true}}`, method: http.MethodPost, path: "/v3/notifications/push/v1/tokens",
			body: `{"platform":"apns_flutter_device","deviceToken":"tok","authToken":"` + testAuthToken + `"}`,
			want: success,
		},
		{
			name: "RegisterPushToken APNs VoIP", call: register(chat.PushPlatformAPNsReactNativeVoIP, "apns-voip", ""),
			response: `{"data":{"success":true}}`, method: http.MethodPost, path: "/v3/notifications/push/v1/tokens",
			body: `{"platform":"apns_react_native_voip","providerId":"apns-voip","voipToken":"tok","authToken":"` + testAuthToken + `"}`,
			want: success,
		},
		{
			name: "ListPushTokens of the login",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken})
			},
			response: `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/tokens", query: "authToken=" + testAuthToken,
			want: []chat.PushToken{token},
		},
		{
			name: "ListPushTokens of the user",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken, All: true})
			},
			response: `{"data":{"pushTokens":[]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/tokens", query: "all=true&authToken=" + testAuthToken,
			want: []chat.PushToken{},
		},
		{
			name: "UnregisterPushTokens of the login",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken})
			},
			response: `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			method:   http.MethodDelete, path: "/v3/notifications/push/v1/tokens",
			body: `{"authToken":"` + testAuthToken + `"}`, want: []chat.PushToken{token},
		},
		{
			name: "UnregisterPushTokens of the user",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken, All: true})
			},
			response: `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			method:   http.MethodDelete, path: "/v3/notifications/push/v1/tokens", query: "all=true",
			body: `{"authToken":"` + testAuthToken + `"}`, want: []chat.PushToken{token},
		},
		{
			name: "DeletePushToken escapes the token",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.DeletePushToken(ctx, testPushToken, &chat.DeletePushTokenRequest{AuthToken: testAuthToken})
			},
			response: `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			method:   http.MethodDelete, path: "/v3/notifications/push/v1/tokens/fcm:APA91bH-device%2Ftoken+1",
			body: `{"authToken":"` + testAuthToken + `"}`, want: []chat.PushToken{token},
		},
	})
}

// TestPushTokensNeverShown checks that push and auth tokens show neither
// in errors nor in the debug log.
func TestPushTokensNeverShown(t *testing.T) {
	ctx := context.Background()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := newMockAPI(t, chat.WithLogger(logger))
	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_TOKEN_NOT_FOUND","message":"push token `+testPushToken+` of `+testAuthToken+` not found"}}`)

	_, err := m.client.Notifications.DeletePushToken(ctx, testPushToken, &chat.DeletePushTokenRequest{AuthToken: testAuthToken})
	e := wiretest.RequireAPIError(t, err)
	assert.ErrorIs(t, err, chat.ErrNotFound)
	assert.Equal(t, "/v3/notifications/push/v1/tokens/REDACTED", e.Path)
	_, err2 := m.client.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken})
	_, err3 := m.client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
		Platform: chat.PushPlatformFCMAndroid, Token: testPushToken, AuthToken: testAuthToken})
	_, err4 := m.client.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken})
	// Each call scrubs the secrets it sends; List and Unregister send no
	// push token.
	for _, err := range []error{err, err2, err3, err4} {
		require.Error(t, err)
		assert.NotContains(t, err.Error(), testAuthToken)
	}
	for _, err := range []error{err, err3} {
		assert.NotContains(t, err.Error(), testPushToken)
	}
	require.NotEmpty(t, logs.String())
	assert.NotContains(t, logs.String(), "APA91bH")
	assert.NotContains(t, logs.String(), testAuthToken)
}

func TestPushPlatformTokenField(t *testing.T) {
	for platform, want := range map[chat.PushPlatform]string{
		chat.PushPlatformFCMAndroid: "fcmToken", chat.PushPlatformFCMIonicCordovaIOS: "fcmToken",
		chat.PushPlatformAPNsIOSDevice: "deviceToken", chat.PushPlatformAPNsIonicCordovaDevice: "deviceToken",
		chat.PushPlatformAPNsIOSVoIP: "voipToken", chat.PushPlatformAPNsFlutterVoIP: "voipToken",
		"fcm_future_platform": "fcmToken", "hms_android": "", "": "",
	} {
		assert.Equal(t, want, platform.TokenField(), string(platform))
	}
}

func TestNotificationTokenArguments(t *testing.T) {
	ctx := context.Background()
	ok := func() *chat.RegisterPushTokenRequest {
		return &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, Token: "t", AuthToken: "a"}
	}
	tests := []argCase[*chat.NotificationsService]{
		{"RegisterPushToken nil", func(s *chat.NotificationsService) error { _, err := s.RegisterPushToken(ctx, nil); return err }, "req"},
		{"RegisterPushToken without platform", func(s *chat.NotificationsService) error {
			r := ok()
			r.Platform = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, "req.Platform"},
		{"RegisterPushToken unknown platform", func(s *chat.NotificationsService) error {
			r := ok()
			r.Platform = "hms_android"
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, "req.Platform"},
		{"RegisterPushToken without token", func(s *chat.NotificationsService) error {
			r := ok()
			r.Token = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, "req.Token"},
		{"RegisterPushToken without auth token", func(s *chat.NotificationsService) error {
			r := ok()
			r.AuthToken = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, "req.AuthToken"},
		{"ListPushTokens nil", func(s *chat.NotificationsService) error { _, err := s.ListPushTokens(ctx, nil); return err }, "opts"},
		{"ListPushTokens without auth token", func(s *chat.NotificationsService) error {
			_, err := s.ListPushTokens(ctx, &chat.ListPushTokensOptions{All: true})
			return err
		}, "opts.AuthToken"},
		{"UnregisterPushTokens nil", func(s *chat.NotificationsService) error { _, err := s.UnregisterPushTokens(ctx, nil); return err }, "req"},
		{"UnregisterPushTokens without auth token", func(s *chat.NotificationsService) error {
			_, err := s.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{All: true})
			return err
		}, "req.AuthToken"},
		{"DeletePushToken empty", func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "", &chat.DeletePushTokenRequest{AuthToken: "a"})
			return err
		}, "pushToken"},
		{"DeletePushToken dot-dot", func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "..", &chat.DeletePushTokenRequest{AuthToken: "a"})
			return err
		}, "pushToken"},
		{"DeletePushToken nil", func(s *chat.NotificationsService) error { _, err := s.DeletePushToken(ctx, "t", nil); return err }, "req"},
		{"DeletePushToken without auth token", func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "t", &chat.DeletePushTokenRequest{})
			return err
		}, "req.AuthToken"},
	}
	runArgs(t, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}
