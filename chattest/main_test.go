package chattest_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/chattest/internal/fake"
)

// TestMain fails the package's tests when a goroutine is still running
// after they end: no test, client call or fake server may leave one
// behind. It also checks the records of every change the tests make
// (fake.CheckRecords): a change whose records miss what it changed, which
// a data directory would lose, fails the package. Benchmarks, which the
// check would measure, run without it.
func TestMain(m *testing.M) {
	flag.Parse()
	fake.CheckRecords = checkRecordsInTests && flag.Lookup("test.bench").Value.String() == ""
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if f := fake.RecordsCheckFailures(); len(f) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: %d changes' records miss what they changed:\n%s\n", len(f), strings.Join(f, "\n\n"))
			code = 1
		}
		os.Exit(code)
	}))
}

// Close returns promptly with deliveries in flight (one held by its
// receiver, more queued behind it) and a request held by a Fault.Delay,
// settles every delivery, fails the held call, and leaves no goroutine
// behind.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	arrived := make(chan struct{}, 10)
	release := make(chan struct{})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	var once sync.Once
	stopReceiver := func() { once.Do(func() { close(release); recv.Close() }) }
	defer stopReceiver()

	srv := chattest.NewServer()
	seed(srv, "alice", "bob")
	hookTo(t, srv, "slow", recv.URL, "message_sent")
	client := srv.Client(chat.WithoutRetries())
	for _, text := range []string{"one", "two", "three"} {
		_, err := client.Messages.Send(t.Context(), toUser("bob", text), chat.OnBehalfOf("alice"))
		require.NoError(t, err)
	}
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the first delivery never reached the receiver")
	}

	require.NoError(t, srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour}))
	held := make(chan error, 1)
	go func() {
		_, err := client.Users.Get(context.Background(), "alice")
		held <- err
	}()
	require.NoError(t, srv.AwaitRequests(t.Context(), getUser, 1))

	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for a delivery or a held request")
	}
	select {
	case err := <-held:
		// Dropped without an answer: the body cut short or the stream
		// reset, as the close and the request race.
		var ue *url.Error
		if assert.ErrorAs(t, err, &ue, "the held request was dropped") {
			assert.Equal(t, "Get", ue.Op)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the held call did not return")
	}
	deliveries := srv.Deliveries()
	require.Len(t, deliveries, 3)
	for _, d := range deliveries {
		assert.Equal(t, chattest.DeliveryFailed, d.State)
		assert.ErrorIs(t, d.Err, chattest.ErrDeliveryStopped)
	}

	stopReceiver()
	goleak.VerifyNone(t, opt)
}
