package management_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
)

// The Management API client, pointed at chattest's fake Management API.
// Against the service, NewClient(key, secret) is all it takes.
func Example() {
	srv := chattest.NewServer(chattest.WithAppID("shop"))
	defer srv.Close()

	mc, err := management.NewClient(srv.ManagementKey(), srv.ManagementSecret(),
		chat.WithBaseURL(srv.ManagementURL()), chat.WithHTTPClient(srv.HTTPClient()))
	if err != nil {
		log.Fatal(err)
	}
	page, err := mc.Apps.List(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, app := range page.Data {
		fmt.Println(app.ID, app.Region, app.State)
	}
	// Output:
	// shop us active
}

func ExampleAppsService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()

	app, err := mc.Apps.Create(context.Background(), &management.CreateAppRequest{Name: "Support Desk", Region: chat.RegionEU})
	if err != nil {
		log.Fatal(err)
	}
	// The REST API key of the new app, for chat.NewClient(app.ID, key,
	// chat.WithRegion(app.Region)).
	key, ok := app.APIKeys.Key(chat.ScopeFullAccess)
	fmt.Println(app.ID, app.Region, ok, len(key))
	// Printing the app never shows its keys.
	fmt.Printf("%v\n", app.APIKeys)
	// Output:
	// support-desk eu true 40
	// map[REDACTED:{REDACTED Auth Key authOnly app_system} REDACTED:{REDACTED Rest API Key fullAccess app_system}]
}

func ExampleAppsService_All() {
	srv := chattest.NewServer(chattest.WithAppID("main"))
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	for _, name := range []string{"Alpha", "Beta", "Gamma"} {
		if _, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: name, Region: chat.RegionUS}); err != nil {
			log.Fatal(err)
		}
	}

	// Two apps a page, as many pages as it takes.
	for app, err := range mc.Apps.All(ctx, &management.ListAppsOptions{PerPage: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(app.ID)
	}
	// Output:
	// main
	// alpha
	// beta
	// gamma
}

func ExampleAppsService_Delete() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	app, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "Old", Region: chat.RegionUS})
	if err != nil {
		log.Fatal(err)
	}

	res, err := mc.Apps.Delete(ctx, app.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Success, !res.ScheduledToDeleteAt.IsZero())
	// The app is archived until then.
	_, err = mc.Settings.List(ctx, app.ID)
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Code)
	}
	// Output:
	// true true
	// ERR_APP_ARCHIVED
}

func ExampleAppsService_RequestUsage() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()

	res, err := mc.Apps.RequestUsage(context.Background(), srv.AppID(), &management.UsageRequest{UsePreviousBillingCycle: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Message)
	// Output:
	// The usage report of the previous billing cycle will be emailed to owner@chattest.example.
}

func ExampleTenantsService_Add() {
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return time.Unix(1700000000, 0) }))
	defer srv.Close()
	mc := srv.ManagementClient()

	tenant, err := mc.Tenants.Add(context.Background(), &management.AddTenantRequest{
		Name: "Ann", Email: "ann@example.com", Password: "correct horse", AppName: "Ann's Shop", AppRegion: chat.RegionIN,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tenant.Email, tenant.App.AppID, tenant.App.Region, tenant.App.Plan)
	// The app's keys print redacted.
	fmt.Printf("%+v\n", tenant.App)
	// Output:
	// ann@example.com ann-s-shop in Build
	// {Name:Ann's Shop AppID:ann-s-shop Region:in AuthKey:REDACTED APIKey:REDACTED CreatedAt:1700000000 Plan:Build}
}

func ExampleCollaboratorsService_Update() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()

	res, err := mc.Collaborators.Update(ctx, srv.AppID(), &management.UpdateCollaboratorsRequest{
		Admins: []string{"ann@example.com"}, Moderators: []string{"bob@example.com"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Admins["ann@example.com"].Success, res.Moderators.Failed())

	team, err := mc.Collaborators.List(ctx, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range team {
		fmt.Println(m.Email, m.Role)
	}
	// Output:
	// true []
	// ann@example.com admin
	// bob@example.com moderator
}

func ExampleSettingsService_Map() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()

	// Thread replies stop updating the conversations' last message.
	if _, err := mc.Settings.Map(ctx, srv.AppID(), map[management.SettingKey]bool{management.SettingUpdateOnReplies: false}); err != nil {
		log.Fatal(err)
	}
	settings, err := mc.Settings.List(ctx, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(settings.Bool(management.SettingUpdateOnReplies))

	// Unmapping resets it to its default.
	if _, err := mc.Settings.Unmap(ctx, srv.AppID(), []management.SettingKey{management.SettingUpdateOnReplies}); err != nil {
		log.Fatal(err)
	}
	settings, err = mc.Settings.List(ctx, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(settings.Bool(management.SettingUpdateOnReplies))
	// Output:
	// false true
	// true true
}

func ExampleExtensionsService_SetEnabled() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()

	if _, err := mc.Extensions.SetEnabled(ctx, srv.AppID(), &management.SetExtensionsRequest{
		Enabled: []management.ExtensionID{management.ExtensionPolls, management.ExtensionReactions},
	}); err != nil {
		log.Fatal(err)
	}
	for e, err := range mc.Extensions.All(ctx, srv.AppID(), nil) {
		if err != nil {
			log.Fatal(err)
		}
		if e.IsActive {
			fmt.Println(e.ID, e.Name)
		}
	}
	// Output:
	// polls Polls
	// reactions Reactions
}

func ExampleStoreExtensionSettings() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	srv.EnableExtensions(srv.AppID(), management.ExtensionProfanityFilter)

	_, err := management.StoreExtensionSettings(ctx, mc.Extensions, srv.AppID(), &management.ProfanityFilterSettings{
		Badwords: []string{"darn"}, DropMessage: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	got, err := management.GetExtensionSettings[management.ProfanityFilterSettings](ctx, mc.Extensions, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Badwords, got.DropMessage)
	// Output:
	// [darn] true
}

func ExampleGetExtensionSettings() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	srv.EnableExtensions(srv.AppID(), management.ExtensionEmailNotification)
	if _, err := management.StoreExtensionSettings(ctx, mc.Extensions, srv.AppID(), &management.EmailNotificationSettings{
		SenderName: "Shop", SendGridAPIKey: "SG.secret", MessageDelay: 10,
	}); err != nil {
		log.Fatal(err)
	}

	email, err := management.GetExtensionSettings[management.EmailNotificationSettings](ctx, mc.Extensions, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(email.SenderName, email.MessageDelay)
	// Credentials print redacted.
	fmt.Printf("%+v\n", *email)
	// Output:
	// Shop 10
	// {MessageDelay:10 SenderEmail: SenderName:Shop SendGridAPIKey:REDACTED SendGridTemplateID: SendGridUnsubscribeGroupID: UseWebhook:false WebhookURL: UseWebhookBasicAuth:false WebhookUsername: WebhookPassword:}
}

func ExampleExtensionsService_GetSettings() {
	srv := chattest.NewServer(chattest.WithAppID("shop"))
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	srv.EnableExtensions("shop", management.ExtensionMessageShortcuts)
	if _, err := mc.Extensions.StoreSettings(ctx, "shop", management.ExtensionMessageShortcuts,
		map[string]any{"shortcuts": map[string]string{"!ty": "Thank you!"}}); err != nil {
		log.Fatal(err)
	}

	reply, err := mc.Extensions.GetSettings(ctx, "shop", management.ExtensionMessageShortcuts)
	if err != nil {
		log.Fatal(err)
	}
	var s management.MessageShortcutsSettings
	if err := reply.Body.Data.Settings.Decode(&s); err != nil {
		log.Fatal(err)
	}
	fmt.Println(reply.StatusCode, s.Shortcuts["!ty"])
	// Output:
	// 200 Thank you!
}

func ExampleExtensionsService_StoreChatWidget() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	srv.EnableExtensions(srv.AppID(), management.ExtensionWidget)

	stored, err := mc.Extensions.StoreChatWidget(ctx, srv.AppID(), map[string]any{"name": "Help", "version": "v2"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := mc.Extensions.UpdateChatWidget(ctx, srv.AppID(), stored.Body.Data.WidgetID, map[string]any{"name": "Support"}); err != nil {
		log.Fatal(err)
	}
	list, err := mc.Extensions.ListChatWidgets(ctx, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(list.Body.Data), list.Body.Data[0].WidgetID == stored.Body.Data.WidgetID)
	// Output:
	// 1 true
}

func ExampleExtensionsService_UploadAPNsP8() {
	srv := chattest.NewServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	srv.EnableExtensions(srv.AppID(), management.ExtensionPushNotification)

	key := []byte("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n") // e.g. os.ReadFile("AuthKey_ABC123.p8")
	up, err := mc.Extensions.UploadAPNsP8(ctx, srv.AppID(), "AuthKey_ABC123.p8", key)
	if err != nil {
		log.Fatal(err)
	}
	q, err := mc.Extensions.QueryCertificates(ctx, srv.AppID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(up.Body.Success, q.Body.Success)
	// Output:
	// true true
}
