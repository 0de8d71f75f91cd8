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
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "RegisterPushToken FCM", Call: register(chat.PushPlatformFCMWeb, "fcm-main", "Asia/Kolkata"),
			Reply: `{"data":{"success":true}}`, Method: http.MethodPost, Path: "/v3/notifications/push/v1/tokens",
			Body: `{"platform":"fcm_web","providerId":"fcm-main","fcmToken":"tok","authToken":"` + testAuthToken + `","timezone":"Asia/Kolkata"}`,
			Want: success,
		},
		{
			Name: "RegisterPushToken APNs device with the default provider", Call: register(chat.PushPlatformAPNsFlutterDevice, "", ""),
			Reply: `{"data":{"success":true}}`, Method: http.MethodPost, Path: "/v3/notifications/push/v1/tokens",
			Body: `{"platform":"apns_flutter_device","deviceToken":"tok","authToken":"` + testAuthToken + `"}`,
			Want: success,
		},
		{
			Name: "RegisterPushToken APNs VoIP", Call: register(chat.PushPlatformAPNsReactNativeVoIP, "apns-voip", ""),
			Reply: `{"data":{"success":true}}`, Method: http.MethodPost, Path: "/v3/notifications/push/v1/tokens",
			Body: `{"platform":"apns_react_native_voip","providerId":"apns-voip","voipToken":"tok","authToken":"` + testAuthToken + `"}`,
			Want: success,
		},
		{
			Name: "ListPushTokens of the login",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken})
			},
			Reply:  `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/tokens", Query: "authToken=" + testAuthToken,
			Want: []chat.PushToken{token},
		},
		{
			Name: "ListPushTokens of the user",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken, All: true})
			},
			Reply:  `{"data":{"pushTokens":[]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/tokens", Query: "all=true&authToken=" + testAuthToken,
			Want: []chat.PushToken{},
		},
		{
			Name: "UnregisterPushTokens of the login",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken})
			},
			Reply:  `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/push/v1/tokens",
			Body: `{"authToken":"` + testAuthToken + `"}`, Want: []chat.PushToken{token},
		},
		{
			Name: "UnregisterPushTokens of the user",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken, All: true})
			},
			Reply:  `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/push/v1/tokens", Query: "all=true",
			Body: `{"authToken":"` + testAuthToken + `"}`, Want: []chat.PushToken{token},
		},
		{
			Name: "DeletePushToken escapes the token",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.DeletePushToken(ctx, testPushToken, &chat.DeletePushTokenRequest{AuthToken: testAuthToken})
			},
			Reply:  `{"data":{"pushTokens":[` + tokenJSON + `]}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/push/v1/tokens/fcm:APA91bH-device%2Ftoken+1",
			Body: `{"authToken":"` + testAuthToken + `"}`, Want: []chat.PushToken{token},
		},
	})
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
	tests := []wiretest.ArgCase[*chat.NotificationsService]{
		{Name: "RegisterPushToken nil", Call: func(s *chat.NotificationsService) error { _, err := s.RegisterPushToken(ctx, nil); return err }, Arg: "req"},
		{Name: "RegisterPushToken without platform", Call: func(s *chat.NotificationsService) error {
			r := ok()
			r.Platform = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, Arg: "req.Platform"},
		{Name: "RegisterPushToken unknown platform", Call: func(s *chat.NotificationsService) error {
			r := ok()
			r.Platform = "hms_android"
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, Arg: "req.Platform"},
		{Name: "RegisterPushToken without token", Call: func(s *chat.NotificationsService) error {
			r := ok()
			r.Token = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, Arg: "req.Token"},
		{Name: "RegisterPushToken without auth token", Call: func(s *chat.NotificationsService) error {
			r := ok()
			r.AuthToken = ""
			_, err := s.RegisterPushToken(ctx, r)
			return err
		}, Arg: "req.AuthToken"},
		{Name: "ListPushTokens nil", Call: func(s *chat.NotificationsService) error { _, err := s.ListPushTokens(ctx, nil); return err }, Arg: "opts"},
		{Name: "ListPushTokens without auth token", Call: func(s *chat.NotificationsService) error {
			_, err := s.ListPushTokens(ctx, &chat.ListPushTokensOptions{All: true})
			return err
		}, Arg: "opts.AuthToken"},
		{Name: "UnregisterPushTokens nil", Call: func(s *chat.NotificationsService) error { _, err := s.UnregisterPushTokens(ctx, nil); return err }, Arg: "req"},
		{Name: "UnregisterPushTokens without auth token", Call: func(s *chat.NotificationsService) error {
			_, err := s.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{All: true})
			return err
		}, Arg: "req.AuthToken"},
		{Name: "DeletePushToken empty", Call: func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "", &chat.DeletePushTokenRequest{AuthToken: "a"})
			return err
		}, Arg: "pushToken"},
		{Name: "DeletePushToken dot-dot", Call: func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "..", &chat.DeletePushTokenRequest{AuthToken: "a"})
			return err
		}, Arg: "pushToken"},
		{Name: "DeletePushToken nil", Call: func(s *chat.NotificationsService) error { _, err := s.DeletePushToken(ctx, "t", nil); return err }, Arg: "req"},
		{Name: "DeletePushToken without auth token", Call: func(s *chat.NotificationsService) error {
			_, err := s.DeletePushToken(ctx, "t", &chat.DeletePushTokenRequest{})
			return err
		}, Arg: "req.AuthToken"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}

// TestPushTokensNeverShown checks that push and auth tokens show neither
// in errors nor in the debug log.
func TestPushTokensNeverShown(t *testing.T) {
	ctx := context.Background()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client, m := wiretest.Chat(t, chat.WithLogger(logger))
	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_TOKEN_NOT_FOUND","message":"push token `+testPushToken+` of `+testAuthToken+` not found"}}`)

	_, err := client.Notifications.DeletePushToken(ctx, testPushToken, &chat.DeletePushTokenRequest{AuthToken: testAuthToken})
	e := wiretest.RequireAPIError(t, err)
	assert.ErrorIs(t, err, chat.ErrNotFound)
	assert.Equal(t, "/v3/notifications/push/v1/tokens/REDACTED", e.Path)
	_, err2 := client.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: testAuthToken})
	_, err3 := client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
		Platform: chat.PushPlatformFCMAndroid, Token: testPushToken, AuthToken: testAuthToken})
	_, err4 := client.Notifications.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: testAuthToken})
	// Each call scrubs the secrets it sends; List and Unregister send no
	// push token.
	for _, err := range []error{err, err2, err3, err4} {
		require.ErrorIs(t, err, chat.ErrNotFound)
		assert.NotContains(t, err.Error(), testAuthToken)
	}
	for _, err := range []error{err, err3} {
		assert.NotContains(t, err.Error(), testPushToken)
	}
	require.NotEmpty(t, logs.String())
	assert.NotContains(t, logs.String(), "APA91bH")
	assert.NotContains(t, logs.String(), testAuthToken)
}

// TestPushTokensValidate holds the Validate of the push token requests to the checks
// their methods run before sending.
func TestPushTokensValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a token", Value: &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMWeb, Token: "t", AuthToken: "a"}},
		{Name: "a token without a login", Value: &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMWeb, Token: "t"}, Field: "req.AuthToken"},
		{Name: "a token of an unknown platform", Value: &chat.RegisterPushTokenRequest{Platform: "web", Token: "t", AuthToken: "a"}, Field: "req.Platform"},
		{Name: "a list", Value: &chat.ListPushTokensOptions{AuthToken: "a", All: true}},
		{Name: "a list without a login", Value: &chat.ListPushTokensOptions{All: true}, Field: "opts.AuthToken"},
		{Name: "an unregistration", Value: &chat.UnregisterPushTokensRequest{AuthToken: "a"}},
		{Name: "an unregistration without a login", Value: &chat.UnregisterPushTokensRequest{All: true}, Field: "req.AuthToken"},
		{Name: "a deletion", Value: &chat.DeletePushTokenRequest{AuthToken: "a"}},
		{Name: "a deletion without a login", Value: &chat.DeletePushTokenRequest{}, Field: "req.AuthToken"},
	})
}
