package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestNotificationProvidersWire(t *testing.T) {
	ctx := context.Background()
	success := &chat.Result{Success: true}
	const successJSON = `{"data":{"success":true}}`
	fcm := &chat.FCMProvider{
		ProviderID: "fcm-main", ServiceAccountFilename: "sa.json",
		ServiceAccountCreds:   &chat.FCMServiceAccount{ProjectID: "proj", ClientEmail: "sa@proj.iam", PrivateKey: "-----KEY-----", PrivateKeyID: "kid"},
		NotificationInPayload: &chat.FCMNotificationInPayload{IOS: chat.FCMPayloadFlags{Chat: true}, Android: chat.FCMPayloadFlags{Call: true}},
	}
	const fcmJSON = `{"providerId":"fcm-main","serviceAccountFilename":"sa.json",
		"serviceAccountCreds":{"project_id":"proj","client_email":"sa@proj.iam","private_key":"-----KEY-----","private_key_id":"kid"},
		"notificationInPayload":{"ios":{"chat":true,"call":false},"android":{"chat":false,"call":true},"web":{"chat":false,"call":false}}}`
	apns := &chat.APNsProvider{ProviderID: "apns-main", KeyID: "K1", TeamID: "T1", BundleID: "com.example", P8KeyFilename: "k.p8", P8Key: "p8data", ProductionMode: true}
	const apnsJSON = `{"providerId":"apns-main","keyId":"K1","teamId":"T1","bundleId":"com.example","p8KeyFilename":"k.p8","p8Key":"p8data",
		"includeContentAvailable":false,"includeMutableContent":false,"productionMode":true}`
	customPush := &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.example.com/push", UseBasicAuth: true, BasicAuthUsername: "u", BasicAuthPassword: "p"}
	const customPushJSON = `{"isEnabled":true,"webhookURL":"https://hooks.example.com/push","useBasicAuth":true,"basicAuthUsername":"u","basicAuthPassword":"p"}`
	twilio := &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok", TwilioSenderPhoneNumber: "+15550100"}
	const twilioJSON = `{"twilioAccountSID":"AC1","twilioAuthToken":"tok","twilioSenderPhoneNumber":"+15550100"}`
	customSMS := &chat.CustomSMSProvider{IsEnabled: true, UseStoredPhoneNumber: false, WebhookURL: "https://hooks.example.com/sms"}
	const customSMSJSON = `{"isEnabled":true,"useStoredPhNo":false,"webhookURL":"https://hooks.example.com/sms","useBasicAuth":false}`
	sendGrid := &chat.SendGridProvider{SendGridAPIKey: "SG.key", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "42",
		SenderName: "Acme", SenderEmail: "no-reply@acme.test"}
	const sendGridReqJSON = `{"sendGridApiKey":"SG.key","sendGridTemplateID":"d-1","sendGridUnsubscribeGroupID":"42","senderName":"Acme",
		"senderEmail":"no-reply@acme.test","allowEmailReplies":false}`
	const sendGridRespJSON = `{"allowEmailReplies":false,"sendGridApiKey":"SG.key","sendGridTemplateID":"d-1","sendGridUnsubscribeGroupID":"42",
		"senderEmail":"no-reply@acme.test","senderEmailForReplies":null,"senderName":"Acme","repliesWebhook":"https://r.example/1"}`
	sendGridResp := &chat.SendGridProvider{SendGridAPIKey: "SG.key", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "42",
		SenderName: "Acme", SenderEmail: "no-reply@acme.test", AllowEmailReplies: new(false), RepliesWebhook: "https://r.example/1"}
	customEmail := &chat.CustomEmailProvider{IsEnabled: false, UseStoredEmailID: true, WebhookURL: "https://hooks.example.com/email"}
	const customEmailJSON = `{"isEnabled":false,"useStoredEmailID":true,"webhookURL":"https://hooks.example.com/email","useBasicAuth":false}`

	runWire(t, []wireCase{
		// FCM
		{
			name:     "ListFCMProviders",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.ListFCMProviders(ctx) },
			response: `{"data":{"pushProviders":[` + fcmJSON + `]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/providers/fcm",
			want: []chat.FCMProvider{*fcm},
		},
		{
			name:     "AddFCMProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddFCMProvider(ctx, fcm) },
			response: successJSON, method: http.MethodPost, path: "/v3/notifications/push/v1/providers/fcm",
			body: fcmJSON, want: success,
		},
		{
			name:     "UpdateFCMProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.UpdateFCMProvider(ctx, fcm) },
			response: successJSON, method: http.MethodPut, path: "/v3/notifications/push/v1/providers/fcm",
			body: fcmJSON, want: success,
		},
		{
			name:     "DeleteFCMProvider escapes the id",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteFCMProvider(ctx, "fcm/main") },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/push/v1/providers/fcm/fcm%2Fmain",
			want: success,
		},
		{
			name:     "SetDefaultFCMProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.SetDefaultFCMProvider(ctx, "fcm-main") },
			response: successJSON, method: http.MethodPut, path: "/v3/notifications/push/v1/providers/fcm/default/fcm-main",
			want: success,
		},
		// APNs
		{
			name:     "ListAPNsProviders",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.ListAPNsProviders(ctx) },
			response: `{"data":{"pushProviders":[` + apnsJSON + `]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/providers/apns",
			want: []chat.APNsProvider{*apns},
		},
		{
			name:     "AddAPNsProvider answered as the reference's example",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddAPNsProvider(ctx, apns) },
			response: `{"data":{"pushProviders":[]}}`, method: http.MethodPost, path: "/v3/notifications/push/v1/providers/apns",
			body: apnsJSON, want: &chat.Result{},
		},
		{
			name:     "UpdateAPNsProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.UpdateAPNsProvider(ctx, apns) },
			response: successJSON, method: http.MethodPut, path: "/v3/notifications/push/v1/providers/apns",
			body: apnsJSON, want: success,
		},
		{
			name:     "DeleteAPNsProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteAPNsProvider(ctx, "apns-main") },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/push/v1/providers/apns/apns-main",
			want: success,
		},
		{
			name:     "SetDefaultAPNsProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.SetDefaultAPNsProvider(ctx, "apns main") },
			response: successJSON, method: http.MethodPut, path: "/v3/notifications/push/v1/providers/apns/default/apns%20main",
			want: success,
		},
		// Custom push
		{
			name:     "GetCustomPushProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetCustomPushProvider(ctx) },
			response: `{"data":{"pushProviders":[` + customPushJSON + `]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/providers/custom",
			want: customPush,
		},
		{
			name:     "GetCustomPushProvider with an empty list",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetCustomPushProvider(ctx) },
			response: `{"data":{"pushProviders":[]}}`,
			method:   http.MethodGet, path: "/v3/notifications/push/v1/providers/custom",
			want: &chat.CustomPushProvider{},
		},
		{
			name:     "AddCustomPushProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddCustomPushProvider(ctx, customPush) },
			response: `{"data":{"pushProviders":[` + customPushJSON + `]}}`,
			method:   http.MethodPost, path: "/v3/notifications/push/v1/providers/custom",
			body: customPushJSON, want: customPush,
		},
		{
			name: "UpdateCustomPushProvider sends only what is set",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomPushProvider(ctx, &chat.UpdateCustomProviderRequest{IsEnabled: new(false), UseBasicAuth: new(false)})
			},
			response: `{"data":{"pushProviders":[{"isEnabled":false,"webhookURL":"https://hooks.example.com/push","useBasicAuth":false}]}}`,
			method:   http.MethodPut, path: "/v3/notifications/push/v1/providers/custom",
			body: `{"isEnabled":false,"useBasicAuth":false}`,
			want: &chat.CustomPushProvider{WebhookURL: "https://hooks.example.com/push"},
		},
		{
			name:     "DeleteCustomPushProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomPushProvider(ctx) },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/push/v1/providers/custom",
			want: success,
		},
		// Twilio
		{
			name:     "GetTwilioProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetTwilioProvider(ctx) },
			response: `{"data":` + twilioJSON + `}`, method: http.MethodGet, path: "/v3/notifications/sms/v1/providers/twilio",
			want: twilio,
		},
		{
			name: "AddTwilioProvider",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok",
					TwilioSenderPhoneNumber: "+15550100", IsEnabled: new(false)})
			},
			response: `{"data":` + twilioJSON + `}`, method: http.MethodPost, path: "/v3/notifications/sms/v1/providers/twilio",
			body: `{"twilioAccountSID":"AC1","twilioAuthToken":"tok","twilioSenderPhoneNumber":"+15550100","isEnabled":false}`,
			want: twilio,
		},
		{
			name: "UpdateTwilioProvider",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioSenderPhoneNumber: "+15550100"})
			},
			response: `{"data":` + twilioJSON + `}`, method: http.MethodPut, path: "/v3/notifications/sms/v1/providers/twilio",
			body: `{"twilioSenderPhoneNumber":"+15550100"}`, want: twilio,
		},
		{
			name:     "DeleteTwilioProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteTwilioProvider(ctx) },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/sms/v1/providers/twilio",
			want: success,
		},
		// Custom SMS
		{
			name:     "GetCustomSMSProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetCustomSMSProvider(ctx) },
			response: `{"data":` + customSMSJSON + `}`, method: http.MethodGet, path: "/v3/notifications/sms/v1/providers/custom",
			want: customSMS,
		},
		{
			name:     "AddCustomSMSProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddCustomSMSProvider(ctx, customSMS) },
			response: `{"data":` + customSMSJSON + `}`, method: http.MethodPost, path: "/v3/notifications/sms/v1/providers/custom",
			body: customSMSJSON, want: customSMS,
		},
		{
			name: "UpdateCustomSMSProvider",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomSMSProvider(ctx, &chat.UpdateCustomProviderRequest{UseStoredPhoneNumber: new(false)})
			},
			response: `{"data":` + customSMSJSON + `}`, method: http.MethodPut, path: "/v3/notifications/sms/v1/providers/custom",
			body: `{"useStoredPhNo":false}`, want: customSMS,
		},
		{
			name:     "DeleteCustomSMSProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomSMSProvider(ctx) },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/sms/v1/providers/custom",
			want: success,
		},
		// SendGrid
		{
			name:     "GetSendGridProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetSendGridProvider(ctx) },
			response: `{"data":` + sendGridRespJSON + `}`, method: http.MethodGet, path: "/v3/notifications/email/v1/providers/sendgrid",
			want: sendGridResp,
		},
		{
			name:     "AddSendGridProvider sends allowEmailReplies false by default",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddSendGridProvider(ctx, sendGrid) },
			response: `{"data":` + sendGridRespJSON + `}`, method: http.MethodPost, path: "/v3/notifications/email/v1/providers/sendgrid",
			body: sendGridReqJSON, want: sendGridResp,
		},
		{
			name: "UpdateSendGridProvider",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateSendGridProvider(ctx, &chat.SendGridProvider{AllowEmailReplies: new(true), SenderEmailForReplies: "r@acme.test"})
			},
			response: `{"data":` + sendGridRespJSON + `}`, method: http.MethodPut, path: "/v3/notifications/email/v1/providers/sendgrid",
			body: `{"allowEmailReplies":true,"senderEmailForReplies":"r@acme.test"}`, want: sendGridResp,
		},
		{
			name:     "DeleteSendGridProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteSendGridProvider(ctx) },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/email/v1/providers/sendgrid",
			want: success,
		},
		// Custom email
		{
			name:     "GetCustomEmailProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetCustomEmailProvider(ctx) },
			response: `{"data":` + customEmailJSON + `}`, method: http.MethodGet, path: "/v3/notifications/email/v1/providers/custom",
			want: customEmail,
		},
		{
			name:     "AddCustomEmailProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.AddCustomEmailProvider(ctx, customEmail) },
			response: `{"data":` + customEmailJSON + `}`, method: http.MethodPost, path: "/v3/notifications/email/v1/providers/custom",
			body: customEmailJSON, want: customEmail,
		},
		{
			name: "UpdateCustomEmailProvider",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomEmailProvider(ctx, &chat.UpdateCustomProviderRequest{UseStoredEmailID: new(true), WebhookURL: "https://hooks.example.com/email"})
			},
			response: `{"data":` + customEmailJSON + `}`, method: http.MethodPut, path: "/v3/notifications/email/v1/providers/custom",
			body: `{"useStoredEmailID":true,"webhookURL":"https://hooks.example.com/email"}`, want: customEmail,
		},
		{
			name:     "DeleteCustomEmailProvider",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomEmailProvider(ctx) },
			response: successJSON, method: http.MethodDelete, path: "/v3/notifications/email/v1/providers/custom",
			want: success,
		},
	})
}

// TestNotificationProviderErrorsScrubbed checks that a credential the
// service echoes in an error does not reach the error's text.
func TestNotificationProviderErrorsScrubbed(t *testing.T) {
	ctx := context.Background()
	const secret = "tw-auth-token-123"
	m := newMockAPI(t)
	m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":"bad token `+secret+`","devMessage":"`+secret+`",
		"details":{"twilioAuthToken":["`+secret+` is invalid"]}}}`)
	_, err := m.client.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: secret, TwilioSenderPhoneNumber: "+1"})
	e := wiretest.RequireAPIError(t, err)
	assert.Equal(t, "ERR_BAD_REQUEST", e.Code)
	assert.NotContains(t, err.Error(), secret)
	assert.NotContains(t, e.DevMessage, secret)
	assert.Equal(t, []string{"REDACTED is invalid"}, e.Details["twilioAuthToken"])
}

func TestNotificationProviderArguments(t *testing.T) {
	ctx := context.Background()
	tests := []argCase[*chat.NotificationsService]{
		{"AddFCMProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddFCMProvider(ctx, nil); return err }, "req"},
		{"AddFCMProvider without id", func(s *chat.NotificationsService) error {
			_, err := s.AddFCMProvider(ctx, &chat.FCMProvider{})
			return err
		}, "req.ProviderID"},
		{"UpdateFCMProvider without id", func(s *chat.NotificationsService) error {
			_, err := s.UpdateFCMProvider(ctx, &chat.FCMProvider{ProviderID: ".."})
			return err
		}, "req.ProviderID"},
		{"DeleteFCMProvider empty", func(s *chat.NotificationsService) error { _, err := s.DeleteFCMProvider(ctx, ""); return err }, "providerID"},
		{"SetDefaultFCMProvider dot", func(s *chat.NotificationsService) error { _, err := s.SetDefaultFCMProvider(ctx, "."); return err }, "providerID"},
		{"AddAPNsProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddAPNsProvider(ctx, nil); return err }, "req"},
		{"UpdateAPNsProvider without id", func(s *chat.NotificationsService) error {
			_, err := s.UpdateAPNsProvider(ctx, &chat.APNsProvider{})
			return err
		}, "req.ProviderID"},
		{"DeleteAPNsProvider empty", func(s *chat.NotificationsService) error { _, err := s.DeleteAPNsProvider(ctx, ""); return err }, "providerID"},
		{"SetDefaultAPNsProvider empty", func(s *chat.NotificationsService) error { _, err := s.SetDefaultAPNsProvider(ctx, ""); return err }, "providerID"},
		{"AddCustomPushProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddCustomPushProvider(ctx, nil); return err }, "req"},
		{"AddCustomPushProvider without URL", func(s *chat.NotificationsService) error {
			_, err := s.AddCustomPushProvider(ctx, &chat.CustomPushProvider{IsEnabled: true})
			return err
		}, "req.WebhookURL"},
		{"UpdateCustomPushProvider nil", func(s *chat.NotificationsService) error { _, err := s.UpdateCustomPushProvider(ctx, nil); return err }, "req"},
		{"AddTwilioProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddTwilioProvider(ctx, nil); return err }, "req"},
		{"AddTwilioProvider without token", func(s *chat.NotificationsService) error {
			_, err := s.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC", TwilioSenderPhoneNumber: "+1"})
			return err
		}, "req.TwilioAuthToken"},
		{"UpdateTwilioProvider nil", func(s *chat.NotificationsService) error { _, err := s.UpdateTwilioProvider(ctx, nil); return err }, "req"},
		{"AddCustomSMSProvider without URL", func(s *chat.NotificationsService) error {
			_, err := s.AddCustomSMSProvider(ctx, &chat.CustomSMSProvider{})
			return err
		}, "req.WebhookURL"},
		{"UpdateCustomSMSProvider nil", func(s *chat.NotificationsService) error { _, err := s.UpdateCustomSMSProvider(ctx, nil); return err }, "req"},
		{"AddSendGridProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddSendGridProvider(ctx, nil); return err }, "req"},
		{"AddSendGridProvider without sender email", func(s *chat.NotificationsService) error {
			_, err := s.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: "k", SendGridTemplateID: "t", SendGridUnsubscribeGroupID: "1", SenderName: "n"})
			return err
		}, "req.SenderEmail"},
		{"UpdateSendGridProvider nil", func(s *chat.NotificationsService) error { _, err := s.UpdateSendGridProvider(ctx, nil); return err }, "req"},
		{"AddCustomEmailProvider nil", func(s *chat.NotificationsService) error { _, err := s.AddCustomEmailProvider(ctx, nil); return err }, "req"},
		{"UpdateCustomEmailProvider nil", func(s *chat.NotificationsService) error { _, err := s.UpdateCustomEmailProvider(ctx, nil); return err }, "req"},
		{"UpdateSettings nil", func(s *chat.NotificationsService) error { _, err := s.UpdateSettings(ctx, nil); return err }, "req"},
	}
	runArgs(t, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}
