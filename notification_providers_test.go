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

	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		// FCM
		{
			Name:   "ListFCMProviders",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.ListFCMProviders(ctx) },
			Reply:  `{"data":{"pushProviders":[` + fcmJSON + `]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/providers/fcm",
			Want: []chat.FCMProvider{*fcm},
		},
		{
			Name:  "AddFCMProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.AddFCMProvider(ctx, fcm) },
			Reply: successJSON, Method: http.MethodPost, Path: "/v3/notifications/push/v1/providers/fcm",
			Body: fcmJSON, Want: success,
		},
		{
			Name:  "UpdateFCMProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.UpdateFCMProvider(ctx, fcm) },
			Reply: successJSON, Method: http.MethodPut, Path: "/v3/notifications/push/v1/providers/fcm",
			Body: fcmJSON, Want: success,
		},
		{
			Name:  "DeleteFCMProvider escapes the id",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteFCMProvider(ctx, "fcm/main") },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/push/v1/providers/fcm/fcm%2Fmain",
			Want: success,
		},
		{
			Name:  "SetDefaultFCMProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.SetDefaultFCMProvider(ctx, "fcm-main") },
			Reply: successJSON, Method: http.MethodPut, Path: "/v3/notifications/push/v1/providers/fcm/default/fcm-main",
			Want: success,
		},
		// APNs
		{
			Name:   "ListAPNsProviders",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.ListAPNsProviders(ctx) },
			Reply:  `{"data":{"pushProviders":[` + apnsJSON + `]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/providers/apns",
			Want: []chat.APNsProvider{*apns},
		},
		{
			Name:  "AddAPNsProvider answered as the reference's example",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.AddAPNsProvider(ctx, apns) },
			Reply: `{"data":{"pushProviders":[]}}`, Method: http.MethodPost, Path: "/v3/notifications/push/v1/providers/apns",
			Body: apnsJSON, Want: &chat.Result{},
		},
		{
			Name:  "UpdateAPNsProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.UpdateAPNsProvider(ctx, apns) },
			Reply: successJSON, Method: http.MethodPut, Path: "/v3/notifications/push/v1/providers/apns",
			Body: apnsJSON, Want: success,
		},
		{
			Name:  "DeleteAPNsProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteAPNsProvider(ctx, "apns-main") },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/push/v1/providers/apns/apns-main",
			Want: success,
		},
		{
			Name:  "SetDefaultAPNsProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.SetDefaultAPNsProvider(ctx, "apns main") },
			Reply: successJSON, Method: http.MethodPut, Path: "/v3/notifications/push/v1/providers/apns/default/apns%20main",
			Want: success,
		},
		// Custom push
		{
			Name:   "GetCustomPushProvider",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetCustomPushProvider(ctx) },
			Reply:  `{"data":{"pushProviders":[` + customPushJSON + `]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/providers/custom",
			Want: customPush,
		},
		{
			Name:   "GetCustomPushProvider with an empty list",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetCustomPushProvider(ctx) },
			Reply:  `{"data":{"pushProviders":[]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/push/v1/providers/custom",
			Want: &chat.CustomPushProvider{},
		},
		{
			Name:   "AddCustomPushProvider",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.AddCustomPushProvider(ctx, customPush) },
			Reply:  `{"data":{"pushProviders":[` + customPushJSON + `]}}`,
			Method: http.MethodPost, Path: "/v3/notifications/push/v1/providers/custom",
			Body: customPushJSON, Want: customPush,
		},
		{
			Name: "UpdateCustomPushProvider sends only what is set",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomPushProvider(ctx, &chat.UpdateCustomProviderRequest{IsEnabled: new(false), UseBasicAuth: new(false)})
			},
			Reply:  `{"data":{"pushProviders":[{"isEnabled":false,"webhookURL":"https://hooks.example.com/push","useBasicAuth":false}]}}`,
			Method: http.MethodPut, Path: "/v3/notifications/push/v1/providers/custom",
			Body: `{"isEnabled":false,"useBasicAuth":false}`,
			Want: &chat.CustomPushProvider{WebhookURL: "https://hooks.example.com/push"},
		},
		{
			Name:  "DeleteCustomPushProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomPushProvider(ctx) },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/push/v1/providers/custom",
			Want: success,
		},
		// Twilio
		{
			Name:  "GetTwilioProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.GetTwilioProvider(ctx) },
			Reply: `{"data":` + twilioJSON + `}`, Method: http.MethodGet, Path: "/v3/notifications/sms/v1/providers/twilio",
			Want: twilio,
		},
		{
			Name: "AddTwilioProvider",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok",
					TwilioSenderPhoneNumber: "+15550100", IsEnabled: new(false)})
			},
			Reply: `{"data":` + twilioJSON + `}`, Method: http.MethodPost, Path: "/v3/notifications/sms/v1/providers/twilio",
			Body: `{"twilioAccountSID":"AC1","twilioAuthToken":"tok","twilioSenderPhoneNumber":"+15550100","isEnabled":false}`,
			Want: twilio,
		},
		{
			Name: "UpdateTwilioProvider",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioSenderPhoneNumber: "+15550100"})
			},
			Reply: `{"data":` + twilioJSON + `}`, Method: http.MethodPut, Path: "/v3/notifications/sms/v1/providers/twilio",
			Body: `{"twilioSenderPhoneNumber":"+15550100"}`, Want: twilio,
		},
		{
			Name:  "DeleteTwilioProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteTwilioProvider(ctx) },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/sms/v1/providers/twilio",
			Want: success,
		},
		// Custom SMS
		{
			Name:  "GetCustomSMSProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.GetCustomSMSProvider(ctx) },
			Reply: `{"data":` + customSMSJSON + `}`, Method: http.MethodGet, Path: "/v3/notifications/sms/v1/providers/custom",
			Want: customSMS,
		},
		{
			Name:  "AddCustomSMSProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.AddCustomSMSProvider(ctx, customSMS) },
			Reply: `{"data":` + customSMSJSON + `}`, Method: http.MethodPost, Path: "/v3/notifications/sms/v1/providers/custom",
			Body: customSMSJSON, Want: customSMS,
		},
		{
			Name: "UpdateCustomSMSProvider",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomSMSProvider(ctx, &chat.UpdateCustomProviderRequest{UseStoredPhoneNumber: new(false)})
			},
			Reply: `{"data":` + customSMSJSON + `}`, Method: http.MethodPut, Path: "/v3/notifications/sms/v1/providers/custom",
			Body: `{"useStoredPhNo":false}`, Want: customSMS,
		},
		{
			Name:  "DeleteCustomSMSProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomSMSProvider(ctx) },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/sms/v1/providers/custom",
			Want: success,
		},
		// SendGrid
		{
			Name:  "GetSendGridProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.GetSendGridProvider(ctx) },
			Reply: `{"data":` + sendGridRespJSON + `}`, Method: http.MethodGet, Path: "/v3/notifications/email/v1/providers/sendgrid",
			Want: sendGridResp,
		},
		{
			Name:  "AddSendGridProvider sends allowEmailReplies false by default",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.AddSendGridProvider(ctx, sendGrid) },
			Reply: `{"data":` + sendGridRespJSON + `}`, Method: http.MethodPost, Path: "/v3/notifications/email/v1/providers/sendgrid",
			Body: sendGridReqJSON, Want: sendGridResp,
		},
		{
			Name: "UpdateSendGridProvider",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateSendGridProvider(ctx, &chat.SendGridProvider{AllowEmailReplies: new(true), SenderEmailForReplies: "r@acme.test"})
			},
			Reply: `{"data":` + sendGridRespJSON + `}`, Method: http.MethodPut, Path: "/v3/notifications/email/v1/providers/sendgrid",
			Body: `{"allowEmailReplies":true,"senderEmailForReplies":"r@acme.test"}`, Want: sendGridResp,
		},
		{
			Name:  "DeleteSendGridProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteSendGridProvider(ctx) },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/email/v1/providers/sendgrid",
			Want: success,
		},
		// Custom email
		{
			Name:  "GetCustomEmailProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.GetCustomEmailProvider(ctx) },
			Reply: `{"data":` + customEmailJSON + `}`, Method: http.MethodGet, Path: "/v3/notifications/email/v1/providers/custom",
			Want: customEmail,
		},
		{
			Name:  "AddCustomEmailProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.AddCustomEmailProvider(ctx, customEmail) },
			Reply: `{"data":` + customEmailJSON + `}`, Method: http.MethodPost, Path: "/v3/notifications/email/v1/providers/custom",
			Body: customEmailJSON, Want: customEmail,
		},
		{
			Name: "UpdateCustomEmailProvider",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateCustomEmailProvider(ctx, &chat.UpdateCustomProviderRequest{UseStoredEmailID: new(true), WebhookURL: "https://hooks.example.com/email"})
			},
			Reply: `{"data":` + customEmailJSON + `}`, Method: http.MethodPut, Path: "/v3/notifications/email/v1/providers/custom",
			Body: `{"useStoredEmailID":true,"webhookURL":"https://hooks.example.com/email"}`, Want: customEmail,
		},
		{
			Name:  "DeleteCustomEmailProvider",
			Call:  func(c *chat.Client) (any, error) { return c.Notifications.DeleteCustomEmailProvider(ctx) },
			Reply: successJSON, Method: http.MethodDelete, Path: "/v3/notifications/email/v1/providers/custom",
			Want: success,
		},
	})
}

func TestNotificationProviderArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.NotificationsService]{
		{Name: "AddFCMProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddFCMProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddFCMProvider without id", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddFCMProvider(ctx, &chat.FCMProvider{})
			return err
		}, Arg: "req.ProviderID"},
		{Name: "UpdateFCMProvider without id", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateFCMProvider(ctx, &chat.FCMProvider{ProviderID: ".."})
			return err
		}, Arg: "req.ProviderID"},
		{Name: "DeleteFCMProvider empty", Call: func(s *chat.NotificationsService) error { _, err := s.DeleteFCMProvider(ctx, ""); return err }, Arg: "providerID"},
		{Name: "SetDefaultFCMProvider dot", Call: func(s *chat.NotificationsService) error { _, err := s.SetDefaultFCMProvider(ctx, "."); return err }, Arg: "providerID"},
		{Name: "AddAPNsProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddAPNsProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "UpdateAPNsProvider without id", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateAPNsProvider(ctx, &chat.APNsProvider{})
			return err
		}, Arg: "req.ProviderID"},
		{Name: "DeleteAPNsProvider empty", Call: func(s *chat.NotificationsService) error { _, err := s.DeleteAPNsProvider(ctx, ""); return err }, Arg: "providerID"},
		{Name: "SetDefaultAPNsProvider empty", Call: func(s *chat.NotificationsService) error { _, err := s.SetDefaultAPNsProvider(ctx, ""); return err }, Arg: "providerID"},
		{Name: "AddCustomPushProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddCustomPushProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddCustomPushProvider without URL", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddCustomPushProvider(ctx, &chat.CustomPushProvider{IsEnabled: true})
			return err
		}, Arg: "req.WebhookURL"},
		{Name: "UpdateCustomPushProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateCustomPushProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddTwilioProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddTwilioProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddTwilioProvider without token", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC", TwilioSenderPhoneNumber: "+1"})
			return err
		}, Arg: "req.TwilioAuthToken"},
		{Name: "UpdateTwilioProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateTwilioProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddCustomSMSProvider without URL", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddCustomSMSProvider(ctx, &chat.CustomSMSProvider{})
			return err
		}, Arg: "req.WebhookURL"},
		{Name: "UpdateCustomSMSProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateCustomSMSProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddSendGridProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddSendGridProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddSendGridProvider without sender email", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: "k", SendGridTemplateID: "t", SendGridUnsubscribeGroupID: "1", SenderName: "n"})
			return err
		}, Arg: "req.SenderEmail"},
		{Name: "UpdateSendGridProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateSendGridProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddCustomEmailProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.AddCustomEmailProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "AddCustomEmailProvider without URL", Call: func(s *chat.NotificationsService) error {
			_, err := s.AddCustomEmailProvider(ctx, &chat.CustomEmailProvider{IsEnabled: true})
			return err
		}, Arg: "req.WebhookURL"},
		{Name: "UpdateCustomEmailProvider nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateCustomEmailProvider(ctx, nil); return err }, Arg: "req"},
		{Name: "UpdateSettings nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateSettings(ctx, nil); return err }, Arg: "req"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}

// TestNotificationProviderErrorsScrubbed checks that a credential the
// service echoes in an error does not reach the error's text.
func TestNotificationProviderErrorsScrubbed(t *testing.T) {
	ctx := context.Background()
	const secret = "tw-auth-token-123"
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":"bad token `+secret+`","devMessage":"`+secret+`",
		"details":{"twilioAuthToken":["`+secret+` is invalid"]}}}`)
	_, err := client.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: secret, TwilioSenderPhoneNumber: "+1"})
	e := wiretest.RequireAPIError(t, err)
	assert.Equal(t, "ERR_BAD_REQUEST", e.Code)
	assert.NotContains(t, err.Error(), secret)
	assert.NotContains(t, e.DevMessage, secret)
	assert.Equal(t, []string{"REDACTED is invalid"}, e.Details["twilioAuthToken"])
}

// TestNotificationProvidersValidate holds the Validate of the providers to the checks
// their methods run before sending.
func TestNotificationProvidersValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an FCM provider", Value: &chat.FCMProvider{ProviderID: "fcm1"}},
		{Name: "an FCM provider without an id", Value: &chat.FCMProvider{}, Field: "req.ProviderID"},
		{Name: "an APNs provider", Value: &chat.APNsProvider{ProviderID: "apns1"}},
		{Name: "an APNs provider without an id", Value: &chat.APNsProvider{}, Field: "req.ProviderID"},
		{Name: "a custom push provider", Value: &chat.CustomPushProvider{WebhookURL: "https://example.com/push"}},
		{Name: "a custom push provider without a URL", Value: &chat.CustomPushProvider{IsEnabled: true}, Field: "req.WebhookURL"},
		{Name: "a custom SMS provider", Value: &chat.CustomSMSProvider{WebhookURL: "https://example.com/sms"}},
		{Name: "a custom SMS provider without a URL", Value: &chat.CustomSMSProvider{}, Field: "req.WebhookURL"},
		{Name: "a custom email provider", Value: &chat.CustomEmailProvider{WebhookURL: "https://example.com/mail"}},
		{Name: "a custom email provider without a URL", Value: &chat.CustomEmailProvider{UseStoredEmailID: true}, Field: "req.WebhookURL"},
		{Name: "Twilio credentials", Value: &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "t", TwilioSenderPhoneNumber: "+1"}},
		{Name: "Twilio credentials without a sender", Value: &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "t"}, Field: "req.TwilioSenderPhoneNumber"},
		{Name: "SendGrid settings", Value: &chat.SendGridProvider{SendGridAPIKey: "k", SendGridTemplateID: "t", SendGridUnsubscribeGroupID: "1",
			SenderName: "n", SenderEmail: "n@example.com"}},
		{Name: "SendGrid settings without a key", Value: &chat.SendGridProvider{SendGridTemplateID: "t", SendGridUnsubscribeGroupID: "1",
			SenderName: "n", SenderEmail: "n@example.com"}, Field: "req.SendGridAPIKey"},
	})
}
