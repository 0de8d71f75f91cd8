package chat_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// spamRule is a rule that blocks text messages containing a word of the
// keyword list "spam-words".
var spamRule = &chat.CreateRuleRequest{
	ID:      "no-spam",
	Name:    "No spam",
	Actions: []chat.RuleAction{chat.ActionBlockMessage},
	Conditions: []chat.RuleCondition{{
		Operand:          chat.ConditionText,
		Operator:         chat.ConditionContains,
		Category:         chat.KeywordWord,
		KeywordReference: true,
		Values:           []string{"spam-words"},
	}},
}

func ExampleModerationService_CreateRule() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	if _, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{
		ID: "spam-words", Category: chat.KeywordWord, SearchTerms: []string{"casino", "lottery"},
	}); err != nil {
		log.Fatal(err)
	}
	rule, err := client.Moderation.CreateRule(ctx, spamRule)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rule.ID, "enabled:", rule.Enabled, "revision:", rule.RevisionID)

	// New text messages are now moderated.
	for _, text := range []string{"See you at lunch", "Win the lottery!"} {
		m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice"))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q: %s\n", text, m.Data.Moderation.Status)
	}
	// Output:
	// no-spam enabled: true revision: test-app_no-spam_1
	// "See you at lunch": approved
	// "Win the lottery!": pending
}

func ExampleModerationService_CreateKeywordList() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	// Terms can come from searchTerms, from a CSV file, or both.
	list, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{
		ID:          "spam-words",
		Name:        "Spam words",
		Category:    chat.KeywordWord,
		SearchTerms: []string{"casino"},
		File:        &chat.KeywordFile{Name: "more.csv", Content: strings.NewReader("lottery,jackpot\nfree money\n")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(list.ID, list.Category, list.IsCSV, strings.Join(list.SearchTerms, "|"))
	// Output:
	// spam-words word true casino|lottery|jackpot|free money
}

func ExampleModerationService_UpdateRule() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	// Every app has built-in rules; chattest keeps them disabled.
	on := true
	if _, err := client.Moderation.UpdateRule(ctx, "email_filter", &chat.UpdateRuleRequest{Enabled: &on}); err != nil {
		log.Fatal(err)
	}
	// Each update is a new revision.
	revisions, err := client.Moderation.ListRuleRevisions(ctx, "email_filter", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range revisions.Data {
		fmt.Println(r.RevisionID, "enabled:", r.Enabled, "active:", r.Active)
	}
	// Output:
	// test-app_email_filter_1 enabled: false active: false
	// test-app_email_filter_2 enabled: true active: true
}

func ExampleModerationService_ReviewBlockedMessage() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	if _, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{
		ID: "spam-words", Category: chat.KeywordWord, SearchTerms: []string{"casino"},
	}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Moderation.CreateRule(ctx, spamRule); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Casino night at mine"},
	}, chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}

	// A moderator goes through the blocked messages.
	for b, err := range client.Moderation.AllBlockedMessages(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q blocked by %s\n", b.Message.Data.Text, b.RuleName)
		reviewed := true
		if _, err := client.Moderation.ReviewBlockedMessage(ctx, b.Message.ID, &chat.ReviewBlockedMessageRequest{
			Status: chat.ReviewApproved, Reviewed: &reviewed,
		}); err != nil {
			log.Fatal(err)
		}
	}
	page, err := client.Moderation.ListReviewedMessages(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range page.Data {
		fmt.Printf("%q: %s\n", r.Message.Data.Text, r.Message.Data.Moderation.Status)
	}
	// Output:
	// "Casino night at mine" blocked by No spam
	// "Casino night at mine": approved
}

func ExampleModerationService_ReviewFlaggedMessage() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam"})
	m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Cheap watches!"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Messages.Flag(ctx, m.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam", Remark: "ads again"}); err != nil {
		log.Fatal(err)
	}

	flagged, err := client.Moderation.ListFlaggedMessages(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range flagged.Data {
		for _, by := range f.FlaggedBy {
			fmt.Printf("%q flagged by %s: %s (%s)\n", f.Data.Text, by.Name, by.ReasonName, by.Remark)
		}
		if _, err := client.Moderation.ReviewFlaggedMessage(ctx, f.ID, &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewDisapproved}); err != nil {
			log.Fatal(err)
		}
	}
	got, err := client.Messages.Get(ctx, m.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("now", got.Data.Moderation.Status)
	// Output:
	// "Cheap watches!" flagged by Bob: Spam (ads again)
	// now disapproved
}
