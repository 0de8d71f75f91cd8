package chat_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// iterators returns every method of every service of the chat client
// (calls included) and the management client that returns an iterator,
// as functions that start it with plain arguments: "x" for each id, nil
// options.
func iterators(t *testing.T, services ...any) map[string]func(ctx context.Context) iter.Seq2[any, error] {
	t.Helper()
	ctxType := reflect.TypeFor[context.Context]()
	out := map[string]func(ctx context.Context) iter.Seq2[any, error]{}
	for _, client := range services {
		cv := reflect.ValueOf(client).Elem()
		for i := range cv.NumField() {
			f := cv.Type().Field(i)
			if !f.IsExported() || f.Type.Kind() != reflect.Pointer || !strings.HasSuffix(f.Type.Elem().Name(), "Service") {
				continue
			}
			svc := cv.Field(i)
			for j := range svc.NumMethod() {
				m, mt := svc.Method(j), svc.Type().Method(j)
				ft := m.Type()
				if ft.NumOut() != 1 || !strings.HasPrefix(ft.Out(0).Name(), "Seq2[") || takesSeq(ft) {
					continue
				}
				name := f.Type.Elem().Name() + "." + mt.Name
				out[name] = func(ctx context.Context) iter.Seq2[any, error] {
					in := make([]reflect.Value, 0, ft.NumIn())
					for k := range ft.NumIn() {
						at := ft.In(k)
						switch {
						case at == ctxType:
							in = append(in, reflect.ValueOf(ctx))
						case ft.IsVariadic() && k == ft.NumIn()-1:
						case at.Kind() == reflect.String:
							in = append(in, reflect.ValueOf("x").Convert(at))
						default:
							in = append(in, reflect.Zero(at))
						}
					}
					seq := m.Call(in)[0]
					return func(yield func(any, error) bool) {
						yieldFn := reflect.MakeFunc(seq.Type().In(0), func(args []reflect.Value) []reflect.Value {
							err, _ := args[1].Interface().(error)
							return []reflect.Value{reflect.ValueOf(yield(args[0].Interface(), err))}
						})
						seq.Call([]reflect.Value{yieldFn})
					}
				}
			}
		}
	}
	return out
}

// TestEveryIteratorStopsOnARepeatedPage answers every page of every
// iterator with the same item, as a server or a caching proxy that ignores
// the page asked for would, while the page meta names no current page or
// total and the cursors move on: each iterator yields the item once and
// stops with ErrPaginationStalled, after at most two requests.
func TestEveryIteratorStopsOnARepeatedPage(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if n > 20 {
			http.Error(w, "the iterator did not stop", http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		// One item, a full page of one, and cursors that move on with every
		// request, in each of the shapes the lists use.
		fmt.Fprintf(w, `{"data":[{"id":"1","uid":"u1","guid":"g1","sessionId":"s1","name":"same","reaction":"r"}],
			"meta":{"pagination":{"per_page":1,"count":1,"links":{"next":"/x?page=%[1]d"}},
				"current":{"limit":1,"count":1},
				"next":{"affix":"append","id":"%[1]d","logId":"%[1]d","sentAt":%[1]d,"updatedAt":%[1]d,"createdAt":%[1]d,"cursor":"c%[1]d"}}}`, n+1)
	}))
	t.Cleanup(srv.Close)
	c, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL(srv.URL), chat.WithHTTPClient(srv.Client()), chat.WithoutRetries())
	require.NoError(t, err)
	mc, err := management.NewClient("key", "secret", chat.WithBaseURL(srv.URL), chat.WithHTTPClient(srv.Client()),
		chat.WithoutRetries())
	require.NoError(t, err)

	its := iterators(t, c, mc)
	require.GreaterOrEqual(t, len(its), 30, "iterators found")
	for name, start := range its {
		t.Run(name, func(t *testing.T) {
			requests.Store(0)
			var items int
			var last error
			for item, err := range start(t.Context()) {
				if err != nil {
					last = err
					break
				}
				require.NotNil(t, item)
				items++
			}
			assert.ErrorIs(t, last, chat.ErrPaginationStalled)
			assert.Equal(t, 1, items, "the repeated item is yielded once")
			assert.LessOrEqual(t, requests.Load(), int64(2), "requests")
		})
	}
}

// collectKeys ranges over seq, failing the test at the first error it
// yields, and returns key of every item in order.
func collectKeys[T any](t *testing.T, seq iter.Seq2[*T, error], key func(*T) string) []string {
	t.Helper()
	var keys []string
	for v, err := range seq {
		require.NoError(t, err)
		keys = append(keys, key(v))
	}
	return keys
}

// collect ranges over seq and returns key of every item and every error
// it yields, in order.
func collect[T any](seq iter.Seq2[*T, error], key func(*T) string) (keys []string, errs []error) {
	for v, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		keys = append(keys, key(v))
	}
	return keys, errs
}

// assertYielded asserts that a walk collected wantKeys and then failed
// once with wantErr or, when wantErr is nil, did not fail at all.
func assertYielded(t *testing.T, keys []string, errs []error, wantKeys []string, wantErr error) {
	t.Helper()
	assert.Equal(t, wantKeys, keys)
	if wantErr == nil {
		assert.Empty(t, errs)
		return
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], wantErr)
}

// TestHostileRepeatingPages answers the hostile-server iterators with pages
// that repeat: every iterator ends, with ErrPaginationStalled. Every
// scenario asserts all of the promises of hostileEnv.check.
func TestHostileRepeatingPages(t *testing.T) { runHostile(t, hostileRepeatingPages()) }

// hostileRepeatingPages is TestHostileRepeatingPages's part of the hostile-server table.
func hostileRepeatingPages() hostileSection {
	s := hostileSection{title: "iterators that never stop (class 5): pages that repeat", test: "TestHostileRepeatingPages (iterators_test.go)"}
	add := s.add
	for v := range 4 {
		add(hostileScenario{Call: "Users.All", Status: 200, Repeat: true, Variant: v},
			hostileScenario{Call: "Messages.All", Status: 200, Repeat: true, Variant: v})
	}
	add(hostileScenario{Call: "Users.All", Status: 200, Repeat: true, Deadline: true},
		hostileScenario{Call: "Messages.All", Status: 200, Repeat: true, Variant: 1, Deadline: true})
	return s
}

// End to end, against chattest.

// TestExportStopAndResume walks lists as an exporter does: it writes items
// until it stops, and a later run resumes from what it wrote. The two runs
// together see every item once, in the list's order, and no run asks for a
// page after a short one.
func TestExportStopAndResume(t *testing.T) {
	srv, client := faketest.Start(t)
	ctx := t.Context()
	var uids []string
	for i := range 25 {
		uid := fmt.Sprintf("u%02d", i)
		uids = append(uids, uid)
		faketest.Seed(srv, uid)
	}

	t.Run("a page-based list resumes at the count written", func(t *testing.T) {
		for _, stopAt := range []int{0, 1, 9, 10, 11, 24, 25} {
			t.Run(fmt.Sprint("stop after ", stopAt), func(t *testing.T) {
				opts := &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 10}}
				var written []string
				for u, err := range client.Users.All(ctx, opts) {
					require.NoError(t, err)
					if len(written) == stopAt {
						break
					}
					written = append(written, u.UID)
				}
				srv.ResetRequests()
				opts.ResumeAt(len(written))
				for u, err := range client.Users.All(ctx, opts) {
					require.NoError(t, err)
					written = append(written, u.UID)
				}
				assert.Equal(t, uids, written, "every user once, in order")
				pages := 0
				for _, r := range srv.Requests() {
					assert.Equal(t, "GET /v3/users", r.Route)
					pages++
				}
				assert.Equal(t, 3-stopAt/10, pages, "pages from the one holding the next user to the short last one")
			})
		}
	})

	t.Run("ResumeAt with the default page size", func(t *testing.T) {
		opts := &chat.ListUsersOptions{}
		opts.ResumeAt(23)
		var got []string
		for u, err := range client.Users.All(ctx, opts) {
			require.NoError(t, err)
			got = append(got, u.UID)
		}
		assert.Equal(t, uids[23:], got)
		assert.Equal(t, 100, opts.PerPage)
	})

	t.Run("a message list resumes after the last message written", func(t *testing.T) {
		var want []string
		for i := range 23 {
			want = append(want, faketest.Send(t, client, "u00", faketest.ToUser("u01", fmt.Sprint("m", i))).ID)
		}
		for _, dir := range []chat.Direction{chat.DirectionAfter, chat.DirectionBefore} {
			if dir == chat.DirectionBefore {
				for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
					want[i], want[j] = want[j], want[i]
				}
			}
			for _, stopAt := range []int{1, 5, 6, 22} {
				t.Run(fmt.Sprint(dir, " stop after ", stopAt), func(t *testing.T) {
					opts := &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 5, Direction: dir}}
					var written []string
					var last *chat.Message
					for m, err := range client.Messages.AllUserMessages(ctx, "u01", opts, chat.OnBehalfOf("u00")) {
						require.NoError(t, err)
						if len(written) == stopAt {
							break
						}
						written, last = append(written, m.ID), m
					}
					srv.ResetRequests()
					opts.ResumeAfter(last.ID)
					for m, err := range client.Messages.AllUserMessages(ctx, "u01", opts, chat.OnBehalfOf("u00")) {
						require.NoError(t, err)
						written = append(written, m.ID)
					}
					assert.Equal(t, want, written, "every message once, in order")
					assert.Len(t, srv.Requests(), (len(want)-stopAt)/5+1, "no page after the short last one")
				})
			}
		}
	})
}

// takesSeq reports whether a method takes a sequence: the Stream methods
// of the data import, which yield results rather than pages.
func takesSeq(ft reflect.Type) bool {
	for k := range ft.NumIn() {
		if ft.In(k).Kind() == reflect.Func {
			return true
		}
	}
	return false
}
