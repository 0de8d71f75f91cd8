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
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
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

// pageLen is the length of a page, or the error that got none.
func pageLen[T any](p *chat.Page[T], err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return len(p.Data), nil
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
			return pageLen(c.Messages.ListGroupMessages(ctx, "big", &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Direction: chat.DirectionBefore}}, chat.OnBehalfOf("alice")))
		},
	},
	{
		name: "user-messages",
		fill: func(srv *chattest.Server, n int) string {
			seed(srv, "alice", "bob", "carol")
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
			return pageLen(c.Messages.ListUserMessages(ctx, "bob", &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Direction: chat.DirectionBefore}}, chat.OnBehalfOf("alice")))
		},
	},
	{
		name: "all-messages",
		fill: func(srv *chattest.Server, n int) string {
			seed(srv, "alice", "bob")
			for i := range n {
				srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.MessageData{Text: "hello " + strconv.Itoa(i)}})
			}
			return ""
		},
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			return pageLen(c.Messages.List(ctx, &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 50, Direction: chat.DirectionBefore}}))
		},
	},
	{
		name: "thread",
		fill: func(srv *chattest.Server, n int) string {
			seed(srv, "alice", "bob")
			parent := srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.MessageData{Text: "parent"}})
			for i := range n {
				srv.AddMessage(chat.Message{Sender: "bob", ReceiverType: chat.ReceiverUser, Receiver: "alice", ParentID: parent.ID, Data: chat.MessageData{Text: "reply " + strconv.Itoa(i)}})
			}
			return parent.ID
		},
		page: func(ctx context.Context, c *chat.Client, parentID string) (int, error) {
			return pageLen(c.Messages.ListThreadMessages(ctx, parentID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 50, Direction: chat.DirectionBefore}}))
		},
	},
	{
		name: "users",
		fill: func(srv *chattest.Server, n int) string { addUsers(srv, n); return "" },
		page: func(ctx context.Context, c *chat.Client, _ string) (int, error) {
			return pageLen(c.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}))
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
			return pageLen(c.Groups.List(ctx, &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}, chat.OnBehalfOf("alice")))
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
			return pageLen(c.Members.List(ctx, "big", &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}))
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
			return pageLen(c.Conversations.List(ctx, &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 50, Page: 2}}, chat.OnBehalfOf("alice")))
		},
	},
}

// BenchmarkListPage asks for one page of 50 of each kind of list from two
// servers, one with 1,000 items stored and one with 100,000: messages of a
// group (half the messages stored are the group's), of a user pair (half
// are the pair's), of the whole app and of a thread (newest first,
// affix=prepend), users, groups and members (page 2), and the
// conversations of a user who has one with every other user (page 2).
// Each iteration asks each server for 10 pages, in alternating order, so
// that both see the same load of a shared machine; it reports the time of
// a page from each (1k-ns/page, 100k-ns/page) and their ratio.
func BenchmarkListPage(b *testing.B) {
	const pages = 10
	for _, kind := range listKinds {
		b.Run(kind.name, func(b *testing.B) {
			ctx := context.Background()
			type side struct {
				c        *chat.Client
				parentID string
				took     time.Duration
			}
			var sides []*side
			for _, size := range scaleSizes {
				srv := chattest.NewServer()
				defer srv.Close()
				sd := &side{parentID: kind.fill(srv, size.n), c: srv.Client()}
				defer sd.c.CloseIdleConnections()
				sides = append(sides, sd)
			}
			round := 0
			for b.Loop() {
				for k := range sides {
					sd := sides[(round+k)%len(sides)]
					start := time.Now()
					for range pages {
						n, err := kind.page(ctx, sd.c, sd.parentID)
						if err != nil {
							b.Fatal(err)
						}
						if n != 50 {
							b.Fatalf("a page of %d items, want 50", n)
						}
					}
					sd.took += time.Since(start)
				}
				round++
			}
			n := float64(b.N * pages)
			small, large := float64(sides[0].took)/n, float64(sides[1].took)/n
			b.ReportMetric(small, scaleSizes[0].name+"-ns/page")
			b.ReportMetric(large, scaleSizes[1].name+"-ns/page")
			b.ReportMetric(large/small, "ratio")
		})
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
		seed(srv, "alice", "bob")
		c := srv.Client()
		before := liveHeap()
		err := faketest.SendMany(c, n, 32)
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
