package chattest_test

// What a list page costs as the store grows: each kind of list is asked
// for the same page with 1,000 and with 100,000 items stored, through the
// SDK, so that the ratio of the two shows whether a page's cost depends on
// how much is stored. BENCHMARKS.md reports the ratios (go run
// ./internal/benchreport).

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// scaleSizes are the store sizes compared.
var scaleSizes = []struct {
	name string
	n    int
}{{"1k", 1_000}, {"100k", 100_000}}

// listKind is one kind of list: fill stores n items of it, and page asks
// for one page of 50.
type listKind struct {
	name string
	fill func(srv *chattest.Server, n int) (parentID string)
	page func(ctx context.Context, c *chat.Client, parentID string) (int, error)
}

// addUsers stores the users user-00000 ... as the server's n users.
func addUsers(srv *chattest.Server, n int) {
	for i := range n {
		srv.AddUser(chat.User{UID: fmt.Sprintf("user-%05d", i), Name: "User " + strconv.Itoa(i), Tags: []string{"t" + strconv.Itoa(i%10)}})
	}
}

var listKinds = []listKind{
	{
		name: "group-messages",
		fill: func(srv *chattest.Server, n int) string {
			srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
			srv.AddGroup(chat.Group{GUID: "big", Name: "Big"}, "alice")
			srv.AddGroup(chat.Group{GUID: "other", Name: "Other"}, "alice")
			for i := range n {
				guid := "big"
				if i%2 == 1 {
					guid = "other" // half the store is another group's
				}
				srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverGroup, Receiver: guid, Data: chat.MessageData{Text: "hello " + strconv.Itoa(i)}})
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Messages.ListGroupMessages(ctx, "big", &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Affix: chat.AffixPrepend}}, chat.OnBehalfOf("alice"))
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "user-messages",
		fill: func(srv *chattest.Server, n int) string {
			for _, uid := range []string{"alice", "bob", "carol"} {
				srv.AddUser(chat.User{UID: uid, Name: uid})
			}
			for i := range n {
				to := "bob"
				if i%2 == 1 {
					to = "carol" // half the store is another conversation's
				}
				srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: to, Data: chat.MessageData{Text: "hello " + strconv.Itoa(i)}})
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Messages.ListUserMessages(ctx, "bob", &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Affix: chat.AffixPrepend}}, chat.OnBehalfOf("alice"))
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "all-messages",
		fill: func(srv *chattest.Server, n int) string {
			for _, uid := range []string{"alice", "bob"} {
				srv.AddUser(chat.User{UID: uid, Name: uid})
			}
			for i := range n {
				srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.MessageData{Text: "hello " + strconv.Itoa(i)}})
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Messages.List(ctx, &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Affix: chat.AffixPrepend}})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "thread",
		fill: func(srv *chattest.Server, n int) string {
			for _, uid := range []string{"alice", "bob"} {
				srv.AddUser(chat.User{UID: uid, Name: uid})
			}
			parent := srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.MessageData{Text: "parent"}})
			for i := range n {
				srv.AddMessage(chat.Message{Sender: "bob", ReceiverType: chat.ReceiverUser, Receiver: "alice", ParentID: parent.ID, Data: chat.MessageData{Text: "reply " + strconv.Itoa(i)}})
			}
			return parent.ID
		},
		page: func(ctx context.Context, c *chat.Client, parentID string) (int, error) {
			p, err := c.Messages.ListThread(ctx, parentID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 50, Affix: chat.AffixPrepend}})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "users",
		fill: func(srv *chattest.Server, n int) string { addUsers(srv, n); return "" },
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "groups",
		fill: func(srv *chattest.Server, n int) string {
			srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
			for i := range n {
				srv.AddGroup(chat.Group{GUID: fmt.Sprintf("group-%05d", i), Name: "Group " + strconv.Itoa(i)}, "alice")
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Groups.List(ctx, &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}, chat.OnBehalfOf("alice"))
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "members",
		fill: func(srv *chattest.Server, n int) string {
			addUsers(srv, n)
			members := make([]string, n)
			for i := range members {
				members[i] = fmt.Sprintf("user-%05d", i)
			}
			srv.AddGroup(chat.Group{GUID: "big", Name: "Big"}, members...)
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Members.List(ctx, "big", &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
	{
		name: "conversations",
		fill: func(srv *chattest.Server, n int) string {
			srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
			addUsers(srv, n)
			for i := range n {
				srv.AddMessage(chat.Message{Sender: fmt.Sprintf("user-%05d", i), ReceiverType: chat.ReceiverUser, Receiver: "alice", Data: chat.MessageData{Text: "hello"}})
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			p, err := c.Conversations.List(ctx, &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}, chat.OnBehalfOf("alice"))
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
	},
}

// BenchmarkListPage asks for one page of 50 of each kind of list with
// 1,000 and with 100,000 items stored: messages of a group (half the
// messages stored are the group's), of a user pair (half are the pair's),
// of the whole app and of a thread (newest first, affix=prepend), users,
// groups and members (page 2), and the conversations of a user who has
// one with every other user (page 2).
func BenchmarkListPage(b *testing.B) {
	for _, kind := range listKinds {
		for _, size := range scaleSizes {
			b.Run(kind.name+"/"+size.name, func(b *testing.B) {
				srv := chattest.NewServer()
				defer srv.Close()
				parentID := kind.fill(srv, size.n)
				c := srv.Client()
				defer c.CloseIdleConnections()
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					n, err := kind.page(ctx, c, parentID)
					if err != nil {
						b.Fatal(err)
					}
					if n != 50 {
						b.Fatalf("a page of %d items, want 50", n)
					}
				}
			})
		}
	}
}

// BenchmarkStoredMessageMemory sends 20,000 one-on-one messages through the
// SDK (32 at a time) and reports the heap the server holds for each (B/msg):
// the live heap after a collection, less the live heap before the sends.
func BenchmarkStoredMessageMemory(b *testing.B) {
	const n = 20_000
	var perMsg float64
	for b.Loop() {
		srv := chattest.NewServer()
		for _, uid := range []string{"alice", "bob"} {
			srv.AddUser(chat.User{UID: uid, Name: uid})
		}
		c := srv.Client()
		before := liveHeap()
		err := sendMany(c, n, 32)
		after := liveHeap()
		c.CloseIdleConnections()
		srv.Close()
		if err != nil {
			b.Fatal(err)
		}
		perMsg = float64(after-before) / n
	}
	b.ReportMetric(perMsg, "B/msg")
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// sendMany sends n messages from alice to bob, from goroutines at a time.
func sendMany(c *chat.Client, n, goroutines int) error {
	errs := make(chan error, goroutines)
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range n {
			next <- i
		}
	}()
	for range goroutines {
		go func() {
			var first error
			for i := range next {
				if first != nil {
					continue
				}
				_, first = c.Messages.Send(context.Background(), &chat.SendMessageRequest{
					Receiver: "bob", ReceiverType: chat.ReceiverUser,
					Data: chat.MessageData{Text: "Hello, Bob! This is message " + strconv.Itoa(i)},
				}, chat.OnBehalfOf("alice"))
			}
			errs <- first
		}()
	}
	var err error
	for range goroutines {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return err
}
