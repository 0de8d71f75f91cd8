package chat_test

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleNotificationsService_UpdateSettings() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	// Group messages notify only on mentions, and users may not change
	// that; a pointer sends false as well as true.
	if _, err := client.Notifications.UpdateSettings(ctx, &chat.NotificationSettings{
		Preferences: &chat.NotificationPreferences{
			Group: &chat.GroupNotificationPreferences{
				MessagesSetting:  new(chat.NotifyMentions),
				MessagesOverride: new(false),
			},
		},
	}); err != nil {
		log.Fatal(err)
	}
	s, err := client.Notifications.GetSettings(ctx)
	if err != nil {
		log.Fatal(err)
	}
	g := s.Preferences.Group
	fmt.Println("group messages:", *g.MessagesSetting == chat.NotifyMentions, "overridable:", *g.MessagesOverride)
	fmt.Println("group replies unchanged:", *g.RepliesSetting == chat.NotifyAll)
	// Output:
	// group messages: true overridable: false
	// group replies unchanged: true
}

func ExampleNotificationsService_UpdatePreferences() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	// Alice wants one-on-one messages only when mentioned, and Do Not
	// Disturb on Sundays.
	eff, err := client.Notifications.UpdatePreferences(ctx, "alice", &chat.UpdatePreferencesRequest{
		OneOnOnePreferences: &chat.UserOneOnOnePreferences{Messages: new(chat.NotifyMentions)},
		MutePreferences: &chat.UserMutePreferences{Schedule: &chat.WeekSchedule{
			Sunday: &chat.DaySchedule{From: 0, To: 2359, DND: true},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("mentions only:", *eff.Preferences.OneOnOne.MessagesSetting == chat.NotifyMentions)
	fmt.Println("sunday DND:", eff.Preferences.Mute.SchedulePreferenceSetting.Sunday.DND)

	// Resetting brings back the app's settings.
	reset, err := client.Notifications.ResetPreferences(ctx, "alice")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after reset, all messages:", *reset.OneOnOnePreferences.Messages == chat.NotifyAll)
	// Output:
	// mentions only: true
	// sunday DND: true
	// after reset, all messages: true
}

func ExampleNotificationsService_Mute() {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return now }))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	// Until is in Unix milliseconds.
	until := now.Add(8 * time.Hour).UnixMilli()
	if _, err := client.Notifications.Mute(ctx, "alice", &chat.MuteRequest{Conversations: []chat.MutedConversation{
		{ID: "bob", Type: chat.MutedOneOnOne, Until: until},
	}}); err != nil {
		log.Fatal(err)
	}
	muted, err := client.Notifications.ListMuted(ctx, "alice")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range muted {
		fmt.Println(m.Type, m.ID, "until", time.UnixMilli(m.Until).UTC().Format(time.Kitchen))
	}
	// Output:
	// oneOnOne bob until 8:00PM
}

func ExampleNotificationsService_RegisterPushToken() {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return now }))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	// The device logged in with an auth token; its push token is
	// registered for that login.
	login, err := client.AuthTokens.Create(ctx, "alice", nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
		Platform:  chat.PushPlatformAPNsIOSVoIP, // sent as voipToken
		Token:     "3f1c9a2e-device-voip-token",
		AuthToken: login.AuthToken,
		Timezone:  "Europe/Paris",
	}); err != nil {
		log.Fatal(err)
	}
	tokens, err := client.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: login.AuthToken})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tokens {
		// Printing a token hides its secrets.
		fmt.Printf("%s %s token=%v\n", t.UID, t.Platform, t)
	}
	tz, err := client.Notifications.GetTimezone(ctx, "alice")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tz)
	// Output:
	// alice apns_ios_voip token={alice REDACTED REDACTED chat apns_ios_voip  2025-03-01T12:00:00.000Z 2025-03-01T12:00:00.000Z}
	// Europe/Paris
}

func ExampleNotificationsService_AddFCMProvider() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	provider := &chat.FCMProvider{
		ProviderID:             "fcm-main",
		ServiceAccountFilename: "service-account.json",
		ServiceAccountCreds: &chat.FCMServiceAccount{
			ProjectID:   "demo-project",
			ClientEmail: "push@demo-project.iam.gserviceaccount.com",
			PrivateKey:  "-----BEGIN PRIVATE KEY-----\n...",
		},
	}
	if _, err := client.Notifications.AddFCMProvider(ctx, provider); err != nil {
		log.Fatal(err)
	}
	providers, err := client.Notifications.ListFCMProviders(ctx)
	if err != nil {
		log.Fatal(err)
	}
	// The private key never shows in print.
	fmt.Printf("%+v\n", providers[0].ServiceAccountCreds)
	// Output:
	// {ProjectID:demo-project ClientEmail:push@demo-project.iam.gserviceaccount.com PrivateKey:REDACTED PrivateKeyID:}
}

func ExampleNotificationsService_AllLogs() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	// Bob's phone gets his notifications through the app's FCM provider.
	if _, err := client.Notifications.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-main",
		ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", ClientEmail: "e", PrivateKey: "k"}}); err != nil {
		log.Fatal(err)
	}
	login, err := client.AuthTokens.Create(ctx, "bob", nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
		Platform: chat.PushPlatformFCMAndroid, Token: "bob-phone", AuthToken: login.AuthToken}); err != nil {
		log.Fatal(err)
	}
	// Bob turns Do Not Disturb on after the first message.
	send := func(text string) {
		if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: text}}, chat.OnBehalfOf("alice")); err != nil {
			log.Fatal(err)
		}
	}
	send("lunch?")
	if _, err := client.Notifications.UpdatePreferences(ctx, "bob", &chat.UpdatePreferencesRequest{
		MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDEnabled)}}); err != nil {
		log.Fatal(err)
	}
	send("still hungry?")

	for l, err := range client.Notifications.AllLogs(ctx, &chat.ListLogsOptions{Receiver: "bob", Limit: 1}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(l.Sender, "->", l.Receiver, "via", l.Provider, "sent:", l.NotificationTriggered, "reason:", cmp.Or(string(l.Reason), "-"))
	}
	// Output:
	// alice -> bob via fcm sent: true reason: -
	// alice -> bob via fcm sent: false reason: DND_PREFERENCE
}

func ExampleNotificationsService_UpdateContactDetails() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	// Email and SMS notifications reach Alice here; she is the acting user.
	cd, err := client.Notifications.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{
		Email:       "alice@example.com",
		PhoneNumber: "+14155550100",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cd.Email, cd.PhoneNumber)
	// Output:
	// alice@example.com +14155550100
}
