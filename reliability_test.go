package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

var updateReliability = flag.Bool("update-reliability", false, "rewrite RELIABILITY.md from the fault matrix")

const (
	// relRetries is the retry budget of the matrix's client: MaxRetries.
	relRetries = 3
	// relLongWait is a wait no test should sit through: the delay of the
	// cancellation runs, and their client's backoff.
	relLongWait = time.Minute
	// relPrompt bounds how long a call may take to return once its context
	// is cancelled: far below relLongWait, generous for a loaded machine.
	relPrompt = 5 * time.Second
	// relDeadline is the client timeout (chat.WithTimeout) of the "slower
	// than the deadline" row.
	relDeadline = 500 * time.Millisecond
)

// relFixture is a fresh chattest server with what the operations act on:
// users alice and bob, a message to edit and delete, and a thread parent.
type relFixture struct {
	srv      *chattest.Server
	targetID string
	parentID string
}

// countMessages counts the stored messages that match.
func (f *relFixture) countMessages(match func(chat.Message) bool) int {
	n := 0
	for _, m := range f.srv.Messages() {
		if match(m) {
			n++
		}
	}
	return n
}

// actions counts the action messages the server stored for action on the
// target: one per time an edit or delete was applied.
func (f *relFixture) actions(action string) int {
	return f.countMessages(func(m chat.Message) bool {
		return m.Category == chat.CategoryAction && m.Data.Action == action
	})
}

// relOp is one column of the matrix: an SDK call and how its effect shows
// in chattest's state.
type relOp struct {
	column     string
	route      string // the chattest route pattern the call is sent to
	idempotent bool   // PUT, DELETE, GET: retried on 5xx
	safe       bool   // GET: only reads, so also retried after a lost answer or an unreadable 200
	call       func(ctx context.Context, c *chat.Client, f *relFixture) error
	// applied counts how many times the call changed the state; nil for a
	// read.
	applied func(f *relFixture) int
}

const (
	relSendText  = "matrix send"
	relReplyText = "matrix reply"
)

var relOps = []relOp{
	{
		column: "GET Users.Get", route: "GET /v3/users/{uid}", idempotent: true, safe: true,
		call: func(ctx context.Context, c *chat.Client, _ *relFixture) error {
			u, err := c.Users.Get(ctx, "bob")
			if err == nil && u.UID != "bob" {
				return fmt.Errorf("got user %q", u.UID)
			}
			return err
		},
	},
	{
		column: "PUT Messages.Update", route: "PUT /v3/messages/{id}", idempotent: true,
		call: func(ctx context.Context, c *chat.Client, f *relFixture) error {
			_, err := c.Messages.Update(ctx, f.targetID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "edited"}})
			return err
		},
		applied: func(f *relFixture) int { return f.actions(chat.ActionEdited) },
	},
	{
		column: "DELETE Messages.Delete", route: "DELETE /v3/messages/{id}", idempotent: true,
		call: func(ctx context.Context, c *chat.Client, f *relFixture) error {
			_, err := c.Messages.Delete(ctx, f.targetID, nil)
			return err
		},
		applied: func(f *relFixture) int { return f.actions(chat.ActionDeleted) },
	},
	{
		column: "POST Messages.Send", route: "POST /v3/messages",
		call: func(ctx context.Context, c *chat.Client, _ *relFixture) error {
			_, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Text: relSendText}}, chat.OnBehalfOf("alice"))
			return err
		},
		applied: func(f *relFixture) int {
			return f.countMessages(func(m chat.Message) bool { return m.Data.Text == relSendText })
		},
	},
	{
		column: "POST Messages.SendThread", route: "POST /v3/messages/{id}/thread",
		call: func(ctx context.Context, c *chat.Client, f *relFixture) error {
			_, err := c.Messages.SendThread(ctx, f.parentID, "alice", &chat.SendMessageRequest{Receiver: "bob",
				ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: relReplyText}})
			return err
		},
		applied: func(f *relFixture) int {
			return f.countMessages(func(m chat.Message) bool { return m.Data.Text == relReplyText && m.ParentID == f.parentID })
		},
	},
}

// relFault is one row of the matrix. Server faults apply once (Times 1), to
// the operation's route.
type relFault struct {
	row     string
	refused bool           // no server listens: the connection is refused
	fault   chattest.Fault // Route and Times are set per cell
	// deadline, when set, is the client's timeout (chat.WithTimeout), for a
	// fault that holds the request longer.
	deadline time.Duration
}

var relFaults = []relFault{
	{row: "connection refused", refused: true},
	{row: "dropped before the server acted", fault: chattest.Fault{Kind: chattest.FaultDropBefore}},
	{row: "dropped after the server acted", fault: chattest.Fault{Kind: chattest.FaultDropAfter}},
	{row: "500", fault: chattest.Fault{Kind: chattest.FaultStatus, Status: 500}},
	// 502 and 504 carry the API's JSON error here; a gateway's HTML page
	// is the "HTML error page" row.
	{row: "502", fault: chattest.Fault{Kind: chattest.FaultStatus, Status: 502, Code: "ERR_MISSION_FAILED"}},
	{row: "503", fault: chattest.Fault{Kind: chattest.FaultStatus, Status: 503}},
	{row: "504", fault: chattest.Fault{Kind: chattest.FaultStatus, Status: 504, Code: "ERR_MISSION_FAILED"}},
	{row: "429 with Retry-After: 1", fault: chattest.Fault{Kind: chattest.FaultStatus, Status: 429, RetryAfter: time.Second}},
	{row: "slower than the deadline", fault: chattest.Fault{Delay: relLongWait}, deadline: relDeadline},
	{row: "truncated JSON", fault: chattest.Fault{Kind: chattest.FaultTruncate}},
	{row: "HTML error page (502)", fault: chattest.Fault{Kind: chattest.FaultHTML}},
	{row: "200 with invalid JSON", fault: chattest.Fault{Kind: chattest.FaultInvalidJSON}},
}

// relExpect is what the SDK's rules say a cell must come to.
type relExpect struct {
	ok       bool
	attempts int
	applied  int // writes only
}

// expect states the retry rules (internal/rest/retry.go, documented on
// chat.WithRetryPolicy) for one cell: a GET is retried on connection
// errors, 429, 500, 502, 503 and 504, and on a 200 whose body is cut short
// or not JSON; PUT and DELETE on 429 and 5xx, and on connection errors only
// when no connection was obtained; POST only on 429 and when no connection
// was obtained; a Retry-After within MaxServerWait is honoured; a call's
// deadline ends it.
func (f relFault) expect(op relOp) relExpect {
	switch {
	case f.refused: // no connection: every method is retried, to no avail
		return relExpect{attempts: relRetries + 1}
	case f.deadline > 0: // the deadline ends the call during the first attempt
		return relExpect{attempts: 1}
	}
	switch f.fault.Kind {
	case chattest.FaultTruncate, chattest.FaultInvalidJSON:
		if op.safe { // a read is sent again
			return relExpect{ok: true, attempts: 2}
		}
		applied := 0 // an invalid JSON answer comes before the service acts
		if f.fault.Kind == chattest.FaultTruncate {
			applied = 1 // acted on, and a write is not sent again
		}
		return relExpect{attempts: 1, applied: applied}
	case chattest.FaultDropBefore, chattest.FaultDropAfter:
		if op.safe {
			return relExpect{ok: true, attempts: 2}
		}
		applied := 0 // the request reached the service: a write is not sent again
		if f.fault.Kind == chattest.FaultDropAfter {
			applied = 1
		}
		return relExpect{attempts: 1, applied: applied}
	}
	if f.fault.Status == http.StatusTooManyRequests || op.idempotent {
		// 429 is answered before the service acts: any method recovers;
		// GET, PUT and DELETE also recover from 5xx.
		return relExpect{ok: true, attempts: 2, applied: 1}
	}
	return relExpect{attempts: 1} // a POST is not retried after 5xx
}

// retried reports whether the SDK waits between attempts in this cell, so
// that cancelling during that wait can be checked.
func (f relFault) retried(op relOp) bool { return f.expect(op).attempts > 1 }

// relOutcome is what a cell came to.
type relOutcome struct {
	err      error
	attempts int
	applied  int // -1 for reads
}

// String is the cell's text in the table: deterministic, no timings.
func (o relOutcome) String() string {
	attempts := fmt.Sprintf("%d attempts", o.attempts)
	if o.attempts == 1 {
		attempts = "1 attempt"
	}
	var s string
	if o.err == nil {
		s = "ok, " + attempts
	} else {
		s = "fails: " + relErrorText(o.err) + "; " + attempts
	}
	if o.applied >= 0 {
		s += fmt.Sprintf("; applied %d×", o.applied)
	}
	return s
}

// relErrorText names an error by its type and what it carries.
func relErrorText(err error) string {
	var ce *chat.Error
	var ue *url.Error
	switch {
	case errors.As(err, &ce):
		switch {
		case ce.Code != "":
			return fmt.Sprintf("`*chat.Error` %d %s", ce.StatusCode, ce.Code)
		case strings.HasPrefix(ce.Message, "reading response"):
			return fmt.Sprintf("`*chat.Error` %d, body cut short", ce.StatusCode)
		case strings.HasPrefix(ce.Message, "decoding response"):
			return fmt.Sprintf("`*chat.Error` %d, body not JSON", ce.StatusCode)
		case strings.Contains(ce.Message, "text/html"):
			return fmt.Sprintf("`*chat.Error` %d, HTML page", ce.StatusCode)
		}
		return fmt.Sprintf("`*chat.Error` %d", ce.StatusCode)
	case errors.Is(err, context.Canceled):
		return "context.Canceled"
	case errors.As(err, &ue):
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return "`*url.Error` connection refused"
		case errors.Is(err, context.DeadlineExceeded):
			return "`*url.Error` context.DeadlineExceeded"
		}
		return "`*url.Error` connection lost"
	case errors.Is(err, context.DeadlineExceeded):
		return "context.DeadlineExceeded"
	}
	return fmt.Sprintf("untyped %T", err)
}

// relRun is one run of a cell: a fresh fake with what the operations act
// on, a client that counts its attempts, and the cell's fault installed.
type relRun struct {
	f        *relFixture
	client   *chat.Client
	attempts *faketest.Attempts
}

// prepareCell prepares a run of op under fault, with the client options
// given (the retry policy, a timeout).
func prepareCell(t *testing.T, fault relFault, op relOp, fc chattest.Fault, opts ...chat.Option) *relRun {
	t.Helper()
	srv, _ := faketest.Start(t, chattest.WithClock(nil)) // the real clock
	faketest.Seed(srv, "alice", "bob")
	dm := func(text string) string {
		return srv.AddMessage(chat.Message{Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Data: chat.MessageData{Text: text}}).ID
	}
	r := &relRun{f: &relFixture{srv: srv, targetID: dm("edit and delete me"), parentID: dm("thread parent")}}
	if fault.refused {
		r.client, r.attempts = faketest.RefusedClient(t, srv, opts...)
		return r
	}
	r.client, r.attempts = faketest.CountedClient(srv, opts...)
	// Warm the connection up, so that a request starts at once (the
	// deadline row), then forget it.
	_, err := r.client.Users.Get(t.Context(), "alice")
	require.NoError(t, err)
	srv.ResetRequests()
	r.attempts.Reset()
	fc.Route, fc.Times = op.route, 1
	require.NoError(t, srv.Fail(fc))
	return r
}

// relPanic is a panic of the SDK, caught so that the test reports it.
type relPanic struct{ v any }

func (p relPanic) Error() string { return fmt.Sprint("panic: ", p.v) }

// call runs op, turning a panic into a relPanic.
func (r *relRun) call(ctx context.Context, op relOp) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = relPanic{p}
		}
	}()
	return op.call(ctx, r.client, r.f)
}

func (r *relRun) applied(op relOp) int {
	if op.applied == nil {
		return -1
	}
	return op.applied(r.f)
}

// relPolicy retries relRetries times, waiting wait between attempts (a
// server's Retry-After still applies).
func relPolicy(wait time.Duration) chat.Option {
	return chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: relRetries, MinWait: wait, MaxWait: 2 * wait})
}

// relCancel is which waits a cell's cancellation runs interrupted.
type relCancel struct{ serverWait, clientWait string }

func (c relCancel) String() string {
	var parts []string
	for _, s := range []string{c.serverWait, c.clientWait} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

// TestFaultMatrix runs every operation against every fault, through the SDK
// and chattest over HTTPS, and asserts what a caller must be able to rely
// on: no panic; a typed error when the call fails; recovery within the
// retry budget where the rules promise it; a write the server acted on
// never applied twice unless the method is idempotent; and a cancelled
// context ending any wait at once. It prints the matrix, and checks that
// RELIABILITY.md shows it (-update-reliability rewrites the file).
func TestFaultMatrix(t *testing.T) {
	var mu sync.Mutex
	outcomes := map[[2]int]relOutcome{}
	cancels := map[[2]int]relCancel{}

	t.Run("cells", func(t *testing.T) {
		for fi, fault := range relFaults {
			for oi, op := range relOps {
				t.Run(fault.row+"/"+op.column, func(t *testing.T) {
					t.Parallel()
					out := runCell(t, fault, op)
					c := runCancels(t, fault, op)
					mu.Lock()
					defer mu.Unlock()
					outcomes[[2]int{fi, oi}], cancels[[2]int{fi, oi}] = out, c
				})
			}
		}
	})

	matrix := relTable(func(fi, oi int) string { return outcomes[[2]int{fi, oi}].String() })
	cancelTable := relTable(func(fi, oi int) string { return cancels[[2]int{fi, oi}].String() })
	t.Logf("fault matrix:\n%s\ncancellation:\n%s", matrix, cancelTable)
	if t.Failed() || len(outcomes) != len(relFaults)*len(relOps) {
		return // a partial run (-run with a cell's name) checks nothing more
	}
	if *updateReliability {
		stamp := fmt.Sprintf("%s, %s %s/%s", time.Now().UTC().Format("2006-01-02"), runtime.Version(), runtime.GOOS, runtime.GOARCH)
		require.NoError(t, os.WriteFile("RELIABILITY.md", []byte(reliabilityDoc(matrix, cancelTable, stamp)), 0o644))
		return
	}
	doc, err := os.ReadFile("RELIABILITY.md")
	require.NoError(t, err)
	for _, part := range []struct{ name, table string }{{"matrix", matrix}, {"cancel", cancelTable}} {
		got, ok := between(string(doc), "<!-- "+part.name+":begin -->\n", "<!-- "+part.name+":end -->")
		require.True(t, ok, "RELIABILITY.md lacks the %s markers", part.name)
		assert.Equal(t, part.table, got, "RELIABILITY.md's %s table is out of date: go test -run TestFaultMatrix -update-reliability .", part.name)
	}
	// The rest of the file is the test's text too, with the date and Go
	// version of its last generation.
	stamp, ok := between(string(doc), "\nGenerated ", ".\n")
	require.True(t, ok, "RELIABILITY.md lacks its \"Generated ...\" line")
	assert.Equal(t, reliabilityDoc(matrix, cancelTable, stamp), string(doc),
		"RELIABILITY.md is out of date: go test -run TestFaultMatrix -update-reliability .")
}

// runCell runs op once under fault with fast retries and asserts the
// cell's rules.
func runCell(t *testing.T, fault relFault, op relOp) relOutcome {
	opts := []chat.Option{relPolicy(time.Millisecond)}
	if fault.deadline > 0 {
		opts = append(opts, chat.WithTimeout(fault.deadline))
	}
	r := prepareCell(t, fault, op, fault.fault, opts...)
	err := r.call(t.Context(), op)
	out := relOutcome{err: err, attempts: r.attempts.Count(), applied: r.applied(op)}
	want := fault.expect(op)

	if err != nil {
		assert.False(t, errors.As(err, new(relPanic)), "no panic: %v", err)
		assert.NotContains(t, relErrorText(err), "untyped", "a typed error: %v", err)
	}
	assert.Equal(t, want.ok, err == nil, "succeeds: %v", err)
	assert.Equal(t, want.attempts, out.attempts, "attempts")
	assert.LessOrEqual(t, out.attempts, relRetries+1, "within the retry budget")
	if op.applied != nil {
		assert.Equal(t, want.applied, out.applied, "applied in chattest's state")
		assert.LessOrEqual(t, out.applied, 1, "a write is never applied twice")
	}

	// What each failure carries.
	var ce *chat.Error
	var ue *url.Error
	switch {
	case err == nil:
	case fault.refused:
		assert.ErrorAs(t, err, &ue)
		assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	case fault.deadline > 0:
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	case fault.fault.Kind == chattest.FaultDropBefore || fault.fault.Kind == chattest.FaultDropAfter:
		assert.ErrorAs(t, err, &ue, "no answer: a transport error")
		assert.False(t, errors.As(err, &ce), "no answer, so no API error")
	case fault.fault.Kind == chattest.FaultTruncate || fault.fault.Kind == chattest.FaultInvalidJSON:
		if assert.ErrorAs(t, err, &ce) {
			assert.Equal(t, 200, ce.StatusCode)
			if fault.fault.Kind == chattest.FaultTruncate {
				assert.ErrorContains(t, ce.Err, "INTERNAL_ERROR; received from peer", "the cause: the stream was reset")
			} else {
				var syntaxErr *json.SyntaxError
				assert.ErrorAs(t, ce.Err, &syntaxErr, "the cause: a body that is not JSON")
			}
			assert.Equal(t, 1, ce.Attempts)
		}
	default: // an error status
		status := fault.fault.Status
		if fault.fault.Kind == chattest.FaultHTML && status == 0 {
			status = http.StatusBadGateway // FaultHTML's default
		}
		if assert.ErrorAs(t, err, &ce) {
			assert.Equal(t, status, ce.StatusCode)
			assert.Equal(t, out.attempts, ce.Attempts)
		}
	}

	// The server saw every attempt the client made, except those the
	// deadline ended before they arrived.
	if !fault.refused && fault.deadline == 0 {
		assert.Equal(t, out.attempts, r.f.srv.RequestCount(op.route), "attempts the server saw")
	}

	// Every attempt of a call sends the same body; a send carries a muid,
	// the same in every attempt, and a stored message keeps it.
	if !fault.refused {
		var muids []string
		for _, req := range r.f.srv.Requests() {
			assert.Equal(t, r.f.srv.Requests()[0].Body, req.Body, "attempts send the same body")
			var body struct {
				MUID *string `json:"muid"`
			}
			if !op.idempotent && assert.NoError(t, json.Unmarshal([]byte(req.Body), &body)) && assert.NotNil(t, body.MUID, "a send carries a muid") {
				muids = append(muids, *body.MUID)
			}
		}
		if len(muids) > 0 {
			assert.NotEmpty(t, muids[0])
			r.f.countMessages(func(m chat.Message) bool {
				if m.Data.Text == relSendText || m.Data.Text == relReplyText {
					assert.Equal(t, muids[0], m.MUID, "the stored message keeps the muid sent")
				}
				return false
			})
		}
	}
	return out
}

// runCancels cancels op's context while the call waits: on the server
// (the fault preceded by a long delay), and, where the SDK retries, on the
// client (a long backoff, or the server's Retry-After). Each time the call
// must return context.Canceled at once, having applied nothing more.
func runCancels(t *testing.T, fault relFault, op relOp) relCancel {
	var out relCancel
	if !fault.refused {
		fc := fault.fault
		fc.Delay = relLongWait
		r := prepareCell(t, fault, op, fc, relPolicy(time.Millisecond))
		before := r.applied(op)
		cancelDuring(t, r, op, func() {
			require.NoError(t, r.f.srv.AwaitRequests(t.Context(), op.route, 1))
		})
		assert.Equal(t, before, r.applied(op), "a request dropped in the server's wait is not applied")
		assert.Equal(t, 1, r.attempts.Count())
		out.serverWait = "ends server wait"
	}
	if fault.retried(op) {
		fc := fault.fault
		wait := "ends backoff"
		if fc.Status == http.StatusTooManyRequests {
			fc.RetryAfter = relLongWait / 2 // within the default MaxServerWait
			wait = "ends Retry-After wait"
		}
		r := prepareCell(t, fault, op, fc, relPolicy(relLongWait))
		cancelDuring(t, r, op, func() {
			select {
			case <-r.attempts.Ended():
			case <-t.Context().Done():
			}
		})
		assert.Equal(t, 1, r.attempts.Count(), "no attempt after the cancel")
		if op.applied != nil {
			applied := 0
			if fc.Kind == chattest.FaultDropAfter {
				applied = 1
			}
			assert.Equal(t, applied, r.applied(op), "only the first attempt acted")
		}
		out.clientWait = wait
	}
	return out
}

// cancelDuring starts op, waits for arrived, cancels, and asserts that the
// call returns context.Canceled within relPrompt.
func cancelDuring(t *testing.T, r *relRun, op relOp, arrived func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.call(ctx, op) }()
	arrived()
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), relPrompt, "returns at once")
	case <-time.After(relPrompt):
		t.Errorf("the call did not return within %v of its cancellation", relPrompt)
		<-done // the test's servers close at cleanup and end it
	}
}

// relTable renders a markdown table with a row per fault and a column per
// operation.
func relTable(cell func(fi, oi int) string) string {
	var b strings.Builder
	b.WriteString("| Fault |")
	for _, op := range relOps {
		b.WriteString(" " + op.column + " |")
	}
	b.WriteString("\n|---|")
	for range relOps {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for fi, f := range relFaults {
		b.WriteString("| " + f.row + " |")
		for oi := range relOps {
			b.WriteString(" " + cell(fi, oi) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// between returns the text of s between the first begin and the first end
// after it.
func between(s, begin, end string) (string, bool) {
	_, rest, ok := strings.Cut(s, begin)
	if !ok {
		return "", false
	}
	in, _, ok := strings.Cut(rest, end)
	return in, ok
}

// reliabilityDoc is RELIABILITY.md around the two tables; stamp says when
// and with which Go it was generated.
func reliabilityDoc(matrix, cancelTable, stamp string) string {
	return strings.NewReplacer(
		"{{matrix}}", matrix,
		"{{cancel}}", cancelTable,
		"{{generated}}", stamp,
		"{{retries}}", fmt.Sprint(relRetries),
		"{{deadline}}", relDeadline.String(),
		"{{wait}}", relLongWait.String(),
		"{{prompt}}", relPrompt.String(),
		"{{hostile}}", hostileReliability(),
	).Replace(reliabilityTemplate)
}

const reliabilityTemplate = `# Reliability

What the SDK does when the network, a proxy or the service fails, proven by
tests anyone can run. The tables below are generated by TestFaultMatrix
(reliability_test.go), which sends real calls through the SDK to chattest
over HTTPS (HTTP/2) on loopback, with chattest's fault injection
(chattest.Server.Fail) breaking one attempt of each call:

    go test -run TestFaultMatrix -v .                      # run and print the matrix
    go test -run TestFaultMatrix -update-reliability .     # rewrite this file

` + "`go test .`" + ` fails when the tables no longer match what the SDK does.
Generated {{generated}}.

## Fault matrix

Each cell is one call, with {{retries}} retries and waits of a millisecond,
against a fresh chattest server whose fault applies to the call's first
attempt only (connection refused: to every attempt). Attempts are counted
by the client's transport, and match the server's request log; "applied" counts
in chattest's state how many times the write took effect: messages stored,
and the "edited" and "deleted" action messages the service stores for each
edit and delete. Each cell asserts:

- no panic, whatever the fault;
- a failed call returns a typed error: ` + "`*chat.Error`" + ` for any answer (with
  the status, the API's code when it sent one, and the attempts), or the
  transport's ` + "`*url.Error`" + ` when nothing was answered (with
  ` + "`errors.Is`" + ` matching ` + "`syscall.ECONNREFUSED`" + ` or ` + "`context.DeadlineExceeded`" + `);
- a GET recovers within the retry budget from every transient fault (a
  drop, 429, 500, 502, 503, 504, a gateway's HTML page, a 200 cut short or
  not JSON), and PUT and DELETE from those the service answered (429, 5xx,
  the HTML page);
- a write (POST, PUT, DELETE) the server may have acted on is never sent
  again, so never applied twice;
- every attempt of a call sends the same body (the same muid);
- the outcome is exactly the one the retry rules below predict.

The 5xx rows carry the API's JSON error; the HTML row is a gateway's
502 page. The 429 row waits the Retry-After second. The deadline row holds
the request on the server longer than the client's timeout
(` + "`chat.WithTimeout({{deadline}})`" + `).

<!-- matrix:begin -->
{{matrix}}<!-- matrix:end -->

## Cancellation

Each cell also runs twice more, cancelling the call's context while it
waits: during the server's wait (the same fault, held {{wait}} on the server
first), and, where the SDK retries, during the client's wait before the
next attempt (a backoff of {{wait}}, or a Retry-After of half that). Each
time the call returns ` + "`context.Canceled`" + ` within {{prompt}} of the cancel,
without another attempt, and nothing more is applied (the server drops a
request whose client left while it waited).

<!-- cancel:begin -->
{{cancel}}<!-- cancel:end -->

## The rules these prove

- A GET is retried on connection errors, on 429, 500, 502, 503 and 504,
  and on a 200 whose body is cut short or is not JSON, with exponential
  backoff and jitter (` + "`chat.WithRetryPolicy`" + `; by default 3 retries from
  250ms to 10s).
- PUT and DELETE are retried on 429, 500, 502, 503 and 504, which the
  service answered, and on connection errors only when no connection was
  obtained. Not when the connection broke after the request was sent:
  the service may have applied it, and a repeat would apply it again (an
  edit's action message and webhook event would repeat; a delete's repeat
  would be refused).
- POST and PATCH are retried only on 429 (the service refused the request
  without acting) and when no connection was obtained (connection
  refused). Never after a 5xx, a dropped connection or a timeout, where the
  service may have acted: the caller gets the error and decides.
- A Retry-After (seconds or an HTTP date) or X-Rate-Limit-Reset is
  honoured up to ` + "`RetryPolicy.MaxServerWait`" + ` (default 60s); a longer wait
  returns the 429 at once. A wait that would pass the context's deadline
  is not started.
- A write's 2xx whose body is cut short or is not JSON fails with a
  ` + "`*chat.Error`" + ` carrying the status and the cause (` + "`Err`" + `); it is not
  retried, since the service acted.
- ` + "`chat.WithTimeout`" + ` and the context's deadline bound the whole call,
  retries and waits included; cancelling the context ends any wait at once.

## Sending a message exactly once: muid

A message carries the reference's client-side unique id, ` + "`muid`" + `
(` + "`SendMessageRequest.MUID`" + `). When the caller leaves it empty, Send,
SendThread and SendAsBot set a random one on their own copy of the request
and send it in every attempt of the call, so the retries of one call carry
the same muid (the matrix checks it in its send cells). The caller's
request is not changed, so calling Send again with it sends a new muid: to
re-send safely after an error that leaves the outcome unknown (a
dropped connection, a cut-short answer, a 5xx or a timeout on a send: the
"fails … applied 1×" cells above), set the muid yourself and send the same
request again.

chattest treats a repeated muid from the same sender as the same message:
it answers 200 with the stored message, stores nothing and fires no
webhook event again; another sender's muid is another message, and a send
without a muid is never deduplicated (chattest/muid_test.go).

**Do not count on the service to deduplicate a repeated muid**: treat a
message re-sent after an unknown outcome as possibly delivered twice.

## What a caller should know

- A write whose answer was lost (a dropped connection after sending, a
  timeout, a 200 cut short) fails with the outcome unknown: the service
  may have applied it. Check the resource (or, for a send, re-send with
  the same muid) before treating it as not applied.

{{hostile}}`

// hostileReliability is RELIABILITY.md's section on the hostile-server
// test, written from its tables (TestFaultMatrix writes and checks the
// file).
func hostileReliability() string {
	code := func(items []string) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = "`" + it + "`"
		}
		return out
	}
	waits := func(ws []hostileWait) string {
		var out []string
		for _, w := range ws[1:] {
			if w.doc != "" {
				out = append(out, w.doc)
			} else {
				out = append(out, "`"+w.value(time.Time{})+"`")
			}
		}
		return strings.Join(out, ", ")
	}
	var calls, statuses, repeats []string
	for _, c := range hostileCalls {
		calls = append(calls, c.name)
	}
	for _, s := range hostileStatuses {
		statuses = append(statuses, strconv.Itoa(s))
	}
	for _, r := range []hostileResult{hostileIterPages, hostileIterCursor} {
		repeats = append(repeats, hostileRepeatNames[r]...)
	}
	bodies := []string{"the call's good answer", "no body"}
	for _, b := range []string{"null", "{}", `{"data":null}`, `{"data":{}}`, `{"data":[]}`} {
		bodies = append(bodies, "`"+b+"`")
	}
	bodies = append(bodies, "the good answer cut in half", "values of the wrong type", "numbers beyond every integer type",
		"the API's error object", "an HTML page", "a body beyond the client's limit", "in the fuzz target any bytes")
	var answers strings.Builder
	for _, item := range []string{
		"Calls: " + strings.Join(calls, ", ") + ".",
		"Statuses: " + strings.Join(statuses, ", ") + ".",
		"Retry-After: " + waits(hostileRetryAfters) + ".",
		"X-Rate-Limit-Reset: " + waits(hostileResets) + "; with X-Rate-Limit and X-Rate-Limit-Remaining of " +
			strings.Join(code(hostileRateLimits[:len(hostileRateLimits)-1]), ", ") + ".",
		"Location: " + strings.Join(hostileLocationNames[1:], "; ") + ".",
		"Content-Length: honest; half the body; beyond the body.",
		"Bodies: " + strings.Join(bodies, "; ") + ".",
		"Timestamps: " + strings.Join(code(hostileTimestamps), ", ") + ".",
		"Echoes: every credential the request carried (the API key, the management key and secret and their Basic " +
			"credential, the auth token in a path, the group, webhook and tenant passwords, the Twilio token, the Giphy key), " +
			strings.Join(hostileFormNames, ", ") + " or all of these, in the code, message, devMessage, source and details " +
			"(keys and values) of an error object, in the credential fields of a success, as a timestamp's value, " +
			"in an HTML page and in a Location.",
		"Iterators whose every page is the same full page: " + strings.Join(repeats, "; ") + ".",
	} {
		answers.WriteString(hostileListItem(item, 76))
	}
	total := 0
	var sections strings.Builder
	for _, s := range hostileTable() {
		total += len(s.scenarios)
		sections.WriteString(hostileListItem(fmt.Sprintf("%s: %d, %s", s.title, len(s.scenarios), s.test), 76))
	}
	return fmt.Sprintf(hostileReliabilityText, hostileSmallPolicy.MaxServerWait, hostileMaxBody>>10, answers.String(),
		hostileRequestCap, total, sections.String())
}

// hostileListItem is text as a markdown list item, wrapped at width.
func hostileListItem(text string, width int) string {
	var b strings.Builder
	line := "-"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != "-" {
			b.WriteString(line + "\n")
			line = " "
		}
		line += " " + w
	}
	return b.String() + line + "\n"
}

// hostileReliabilityText is the section hostileReliability fills in.
const hostileReliabilityText = `## Hostile servers

The hostile-server tests send calls through the SDK to a TLS server on
loopback whose every answer is generated (hostile_server_test.go), and
assert for each what the SDK promises whatever a server answers. Each
section of their table (below) is one test, in the file of the behaviour
it shows. FuzzHostileServer
generates further answers from its input; CI runs it for 10s, and
FUZZING.md has the longer command. Each client trusts the server's
certificate through ` + "`chat.WithHTTPClient`" + ` (not ` + "`WithInsecureLoopback`" + `),
retries twice with waits of milliseconds and a ` + "`MaxServerWait`" + ` of %[1]v (a
few scenarios: the zero-valued ` + "`RetryPolicy{MaxRetries: 2}`" + `, whose waits
are the defaults), and reads at most %[2]d KiB of a body.

%[3]s
Each scenario asserts, and a failure names the promise, the call and the
answer:

- no panic, in the call or in printing what it returned;
- no zero-valued success: a 2xx holding no data (no body, ` + "`null`" + `, a value
  that is not an object, no ` + "`data`" + ` or a null one; for one resource also
  ` + "`{}`" + ` or ` + "`[]`" + `) fails with a ` + "`*chat.Error`" + ` carrying that status (every
  call here returns something, a delete's confirmation included); a body
  cut short never succeeds; every entity of a bulk import is imported or
  carries an error;
- no credential, in any of the forms above, in the result, the error
  (` + "`Error()`" + `, its causes, ` + "`%%v %%+v %%#v %%s %%q %%x`" + `) or the client's debug log;
- the call returns within its bound: every request and every wait its
  policy allows, and slack; the servers answer at most %[4]d requests of a
  call;
- no request reaches the plain-http listener;
- an iterator ends; one whose pages repeat ends with
  ` + "`ErrPaginationStalled`" + ` and yields no item twice;
- no timestamp decodes to a time before 1970 from a positive or
  out-of-range value;
- one reading and one cap of server waits: an answer that is retried
  (429; 500, 502, 503, 504 to GET, PUT and DELETE) asking for a wait beyond
  ` + "`MaxServerWait`" + `, or one that cannot be read, gets its error at once, bulk
  imports included; one within the cap is retried until the budget is
  spent; and with the zero-valued policy attempts are at least the
  default backoff (or the server's wait) apart.

The table's %[5]d scenarios:

%[6]s
When the test was written it found, on the SDK of that day, every class
of defect issue 14 lists; those scenarios stay in the table as the
regression tests of the fixes:

1. Zero-valued success: a 200 with no body, ` + "`null`" + `, ` + "`{}`" + ` or
   ` + "`{\"data\":null}`" + `, and a 204, succeeded with a zero value in every call that
   returns something, the lists, iterators and bulk import included, as
   did a list's meta without data and a 200 carrying the API's error;
   ` + "`{\"data\":{}}`" + ` did in every call that returns one resource.
2. https downgrade: Users.Get followed a 301, 302, 303, 307 and 308 to
   plain http (also spelled ` + "`HTTP://localhost`" + `), as did Users.List,
   Users.All, Messages.All and AuthTokens.Get a 302; Groups.Update (with
   the group password), Notifications.UpdateTwilioProvider (with the Twilio token),
   management Webhooks.Update (with the webhook's password) and
   Users.Delete followed a 307 and a 308, sending their bodies again.
3. Echoed credentials: an error object echoing the request showed, in
   ` + "`Error()`" + ` and every verb, the API key (in code and source as sent, and in
   every field path-escaped, query-escaped or base64), the auth token of
   AuthTokens.Get, the group passwords of Groups.Create, Groups.Update and
   the bulk import, the Twilio token, the webhook's password, the tenant's
   password, the Giphy key, and the management key, secret and Basic
   credential. A credential where a timestamp belongs showed in the
   decoding error; a Location that is not a URL showed it in the error,
   its cause and the debug log; a 200 to the bulk import showed the group
   password in an entity's ` + "`ImportError`" + `.
4. Server waits: Retry-After of ` + "`99999999999999999999`" + `, ` + "`-1`" + `, ` + "`1.5`" + `, ` + "`soon`" + ` or a
   malformed date, and X-Rate-Limit-Reset of ` + "`99999999999999999999`" + `,
   ` + "`9223372036854775807`" + ` or ` + "`soon`" + `, were taken for no wait and retried; the bulk
   import slept whatever the 429 asked once the client had returned it (a
   second, then sent again; an hour: hung until cancelled) and retried on
   an unreadable reset; a management client given the zero-valued policy
   retried without waiting, and gave up at once on a Retry-After of 1
   that the defaults accept.
5. Iterators: Users.All looped until the servers stopped answering when its
   pages repeated, each of four ways; Messages.All did when its cursor
   moved on but its items repeated, and yielded the repeated items once
   more before stopping when its cursor repeated or alternated.
6. Timestamps: each value above decoded as -9223372036854775808 in every
   call that decodes one.

Nothing panicked, and no call outlasted its bound but the bulk import's.

Since then the fuzz target found: a GET whose 200 carried a Retry-After
date in the year 9999 and a Content-Length beyond its body was retried
for the cut body after waiting for that date, because the retry of an
unreadable 2xx took its wait from the answer's headers. A success or a
redirect now asks for no wait, and no wait is longer than
` + "`MaxServerWait`" + `; the input is kept in testdata.
`
