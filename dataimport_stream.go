package chat

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
)

// MaxImportRequestBytes is the most bytes of JSON one data import request
// may carry: the API's limit on a request body, 1 MiB. The BulkImport and
// Stream methods cut their requests under it as well as at
// [MaxImportEntities], and refuse an entity too large for a request of its
// own.
const MaxImportRequestBytes = 1 << 20

// StreamResult is the outcome of one entity of a streamed import
// ([DataImportService.StreamUsers], ...).
type StreamResult[T any] struct {
	// BulkResult is the entity's outcome; its Index is the entity's place
	// in the stream, from 0.
	BulkResult[T]
	// Done is how many entities of the stream, from its start, are done
	// for good: imported, or refused by the SDK or the service. A run
	// started again over the same entities may skip that many. It is
	// Index+1, except for the entities of a request that failed, whose
	// outcome is unknown: there it stays at the request's first entity, so
	// that a run started again sends them again.
	Done int
}

// StreamUsers imports the users that users yields, however many, and
// yields one result per user, in the order given, as each request is
// answered. Memory stays flat whatever the count: the users are pulled
// only as requests have room for them, from the goroutine that ranges over
// the results, and none is kept once its result is yielded.
//
// Each request carries at most opts.BatchSize users (default
// [MaxImportEntities]) and at most [MaxImportRequestBytes] of JSON; a user
// whose uid repeats one of its request's starts the next request, as the
// service takes each id once per request. The requests are paced at
// opts.RequestsPerMinute (default [DefaultImportRequestsPerMinute], shared
// with the client's other imports to the same endpoint), with up to
// opts.Concurrency (default 1) in flight; the results still come in the
// order of the users. A request answered 429 is sent again once the wait
// the server asks for has passed, as [DataImportService.BulkImportUsers]
// does.
//
// A user paired with a non-nil error (one the caller could not read) gets
// that error as its result and is not sent. So is a user the SDK refuses:
// an empty uid, a user [ImportUser.Validate] refuses, or one whose JSON
// alone is too large for a request, with an [*ArgumentError] naming it
// (e.g. "users[3].name"). A user the service refuses gets an
// [*ImportError]. None of them stops the stream.
//
// A request that fails stops the stream, as one whose outcome is unknown
// (a 5xx, a lost connection, a 401, ctx ending): its users are yielded
// with its error ([ErrNotSent] wrapping it when it was never sent) and a
// Done that does not count them, then a zero result with the error ends
// the sequence. The users pulled after them are not yielded. Breaking out
// of the loop stops the import too, cancelling the requests in flight.
//
// API: POST /v3/data_import/users (onBehalfOf not supported)
func (s *DataImportService) StreamUsers(ctx context.Context, users iter.Seq2[ImportUser, error], opts *BulkOptions, reqOpts ...RequestOption) iter.Seq2[StreamResult[User], error] {
	return streamImport[ImportUser, User](ctx, s, &userImport, users, opts, 0, reqOpts)
}

// StreamGroups imports the groups that groups yields and yields one result
// per group, in the order given, as [DataImportService.StreamUsers] does
// for users.
//
// API: POST /v3/data_import/groups (onBehalfOf not supported)
func (s *DataImportService) StreamGroups(ctx context.Context, groups iter.Seq2[ImportGroup, error], opts *BulkOptions, reqOpts ...RequestOption) iter.Seq2[StreamResult[Group], error] {
	return streamImport[ImportGroup, Group](ctx, s, &groupImport, groups, opts, 0, reqOpts)
}

// StreamMembers imports the group memberships that members yields and
// yields one result per membership, in the order given, as
// [DataImportService.StreamUsers] does for users.
//
// API: POST /v3/data_import/members (onBehalfOf not supported)
func (s *DataImportService) StreamMembers(ctx context.Context, members iter.Seq2[ImportMember, error], opts *BulkOptions, reqOpts ...RequestOption) iter.Seq2[StreamResult[ImportedMember], error] {
	return streamImport[ImportMember, ImportedMember](ctx, s, &memberImport, members, opts, 0, reqOpts)
}

// StreamMessages imports the messages that messages yields and yields one
// result per message, in the order given, as
// [DataImportService.StreamUsers] does for users. Keep opts.Concurrency
// at 1 (the default) so that the requests go in the order of the
// messages: give them in chronological order, as the service asks.
//
// API: POST /v3/data_import/messages (onBehalfOf not supported)
func (s *DataImportService) StreamMessages(ctx context.Context, messages iter.Seq2[ImportMessage, error], opts *BulkOptions, reqOpts ...RequestOption) iter.Seq2[StreamResult[Message], error] {
	return streamImport[ImportMessage, Message](ctx, s, &messageImport, messages, opts, 0, reqOpts)
}

// importBody builds the body of one import request,
// {"<prop>":{"<key>":<entity>,...}}, as the entities come.
type importBody struct {
	buf  bytes.Buffer
	keys []string
	// secrets are the credentials the entities carry (group passwords),
	// scrubbed from every error and answer text.
	secrets []Secret
}

// envelopeBytes is the size of an import body's envelope around its
// entities, for prop.
func envelopeBytes(prop string) int { return len(`{"":{}}`) + len(prop) }

// encodeEntry encodes the entity v under key as the body holds it, comma
// excluded.
func encodeEntry(key string, v any) ([]byte, error) {
	k, err := encodeJSON(key)
	if err != nil {
		return nil, err
	}
	e, err := encodeJSON(v)
	if err != nil {
		return nil, err
	}
	return append(append(k, ':'), e...), nil
}

// add appends an entry made by encodeEntry for the entity v.
func (b *importBody) add(key string, entry []byte, v any) {
	for _, s := range redact.SecretsIn(v) {
		b.secrets = append(b.secrets, Secret(s))
	}
	if len(b.keys) > 0 {
		b.buf.WriteByte(',')
	}
	b.buf.Write(entry)
	b.keys = append(b.keys, key)
}

// size is the body's size for the endpoint prop.
func (b *importBody) size(prop string) int { return envelopeBytes(prop) + b.buf.Len() }

// sizeWith is the body's size with one more entry of n bytes.
func (b *importBody) sizeWith(prop string, n int) int {
	if len(b.keys) > 0 {
		n++ // the comma
	}
	return b.size(prop) + n
}

// raw returns the body to send.
func (b *importBody) raw(prop string) *rest.RawBody {
	data := make([]byte, 0, b.size(prop))
	data = append(append(append(data, `{"`...), prop...), `":{`...)
	data = append(append(data, b.buf.Bytes()...), "}}"...)
	return &rest.RawBody{ContentType: "application/json", Data: data}
}

// streamBatch is one request of a streamed import: the entities of the
// stream from first to first+n, those refused before sending among them.
type streamBatch[Out any] struct {
	first   int
	keys    []string // every entity's key ("" when it has none)
	refused []error  // every entity's refusal; nil for those sent
	body    importBody
	norm    map[string]bool // the keys sent, as the service compares them

	// Filled once answered.
	got      []BulkResult[Out] // the entities sent, in order
	err      error
	attempts int
	done     bool
}

// streamRun is one streamed import in progress.
type streamRun[In, Out any] struct {
	s       *DataImportService
	sp      *importSpec[In]
	batch   int
	pacer   *rate.Limiter
	retries int
	reqOpts []RequestOption
	failed  atomic.Bool // a request failed: no other is sent
}

// streamImport is the one pipeline of the bulk imports: it pulls entities
// from items, cuts them into requests, sends those with up to
// opts.Concurrency in flight, and yields the results in order. total is
// the number of entities, for Progress; 0 when unknown.
func streamImport[In, Out any](ctx context.Context, s *DataImportService, sp *importSpec[In], items iter.Seq2[In, error], o *BulkOptions, total int, reqOpts []RequestOption) iter.Seq2[StreamResult[Out], error] {
	return func(yield func(StreamResult[Out], error) bool) {
		var opt BulkOptions
		if o != nil {
			opt = *o
		}
		if err := opt.Validate(); err != nil {
			yield(StreamResult[Out]{}, err)
			return
		}
		retries := cmp.Or(opt.RateLimitRetries, defaultRateLimitRetries)
		run := &streamRun[In, Out]{s: s, sp: sp, batch: cmp.Or(opt.BatchSize, MaxImportEntities),
			pacer: s.pacer(sp.prop, opt.RequestsPerMinute), retries: max(retries, 0), reqOpts: reqOpts}
		conc := max(opt.Concurrency, 1)
		window := 2*conc + 2 // requests built and not yet yielded: memory stays flat

		ctx, cancel := context.WithCancel(ctx)
		// One pull may cut two requests: room for one more than window.
		todo := make(chan *streamBatch[Out], window+1)
		done := make(chan *streamBatch[Out], window+1)
		var wg sync.WaitGroup
		for range conc {
			wg.Go(func() {
				for b := range todo {
					run.send(ctx, b)
					done <- b
				}
			})
		}
		defer func() {
			cancel()
			close(todo)
			wg.Wait()
		}()

		next, stop := iter.Pull2(items)
		defer stop()
		prog := BulkProgress{Total: total}
		var queue []*streamBatch[Out]
		cur := &streamBatch[Out]{norm: map[string]bool{}}
		dispatch := func() {
			b := cur
			cur = &streamBatch[Out]{first: b.first + len(b.keys), norm: map[string]bool{}}
			queue = append(queue, b)
			if len(b.body.keys) == 0 {
				b.done = true
				return
			}
			todo <- b
		}
		index, exhausted := 0, false
		for {
			for !exhausted && !run.failed.Load() && len(queue) < window {
				item, readErr, ok := next()
				if !ok {
					exhausted = true
					if len(cur.keys) > 0 {
						dispatch()
					}
					break
				}
				key, entry, norm, wire, err := run.prepare(index, &item, readErr)
				if err == nil && len(cur.body.keys) > 0 && (len(cur.body.keys) == run.batch ||
					cur.body.sizeWith(sp.prop, len(entry)) > MaxImportRequestBytes || cur.norm[norm]) {
					dispatch()
				}
				cur.keys = append(cur.keys, key)
				cur.refused = append(cur.refused, err)
				if err == nil {
					cur.body.add(key, entry, wire)
					cur.norm[norm] = true
				}
				index++
				// A request holds at most batch entities, and as many
				// refused among them: entities refused in a row do not
				// pile up.
				if len(cur.body.keys) == run.batch || len(cur.keys) == 2*run.batch {
					dispatch()
				}
			}
			for len(queue) > 0 && queue[0].done {
				b := queue[0]
				queue = queue[1:]
				if !run.yieldBatch(b, &prog, opt.Progress, yield) {
					return
				}
				if b.err != nil {
					yield(StreamResult[Out]{}, b.err)
					return
				}
			}
			if len(queue) == 0 && (exhausted || run.failed.Load()) {
				return
			}
			if len(queue) < window && !exhausted && !run.failed.Load() {
				continue // room for another request
			}
			b := <-done
			b.done = true
		}
	}
}

// prepare checks the entity at index of the stream and encodes it as the
// body holds it. It returns its key, its entry, the key as the service
// compares keys, and the reason it is refused, if it is.
func (run *streamRun[In, Out]) prepare(index int, it *In, readErr error) (key string, entry []byte, norm string, wire any, err error) {
	sp := run.sp
	name := sp.prop + "[" + strconv.Itoa(index) + "]"
	key, missing := sp.key(it)
	switch {
	case readErr != nil:
		return key, nil, "", nil, readErr
	case missing != "":
		return "", nil, "", nil, newArgError(name+"."+missing, "must not be empty")
	}
	if err := sp.validate(it); err != nil {
		return key, nil, "", nil, withPrefix(name+".", err)
	}
	wire = sp.wire(it, key)
	if entry, err = encodeEntry(key, wire); err != nil {
		return key, nil, "", nil, newArgError(name, "cannot be encoded as JSON: "+err.Error())
	}
	if n := envelopeBytes(sp.prop) + len(entry); n > MaxImportRequestBytes {
		return key, nil, "", nil, newArgError(name, "encodes to "+strconv.Itoa(n)+" bytes of JSON in a request; a request takes at most "+
			strconv.Itoa(MaxImportRequestBytes))
	}
	norm = key
	if sp.fold {
		norm = strings.ToLower(key)
	}
	return key, entry, norm, wire, nil
}

// send sends the entities of b in one request, unless another request
// failed or ctx ended first. The request goes through the client's one
// retry loop with the import's pace before every attempt and run.retries
// further retries of a 429 (the service did not process the request), each
// after the wait the server asks for, within the client's cap on server
// waits.
func (run *streamRun[In, Out]) send(ctx context.Context, b *streamBatch[Out]) {
	if err := ctx.Err(); err != nil || run.failed.Load() {
		if err == nil {
			err = context.Canceled
		}
		b.err = fmt.Errorf("%w: %w", ErrNotSent, err)
		run.failed.Store(true)
		return
	}
	b.got, b.err = postImport[Out](ctx, run.s.c, run.sp.prop, &b.body, run.reqOpts,
		engine.CallConfig{Pace: run.pacer, RateLimitRetries: run.retries, Attempts: &b.attempts})
	if b.err != nil {
		if b.attempts == 0 { // never sent: its pace or the context ended first
			b.err = fmt.Errorf("%w: %w", ErrNotSent, b.err)
		}
		run.failed.Store(true)
	}
}

// yieldBatch yields the results of the entities of b, in order, and
// reports progress; it returns false when the caller stopped.
func (run *streamRun[In, Out]) yieldBatch(b *streamBatch[Out], prog *BulkProgress, progress func(BulkProgress), yield func(StreamResult[Out], error) bool) bool {
	sent := 0
	prog.Requests += b.attempts
	for n, key := range b.keys {
		r := StreamResult[Out]{BulkResult: BulkResult[Out]{Index: b.first + n, Key: key}, Done: b.first + n + 1}
		switch {
		case b.refused[n] != nil:
			r.Err = b.refused[n]
			// An entity refused before sending is done, but for the
			// request's that failed.
			if b.err != nil {
				r.Done = b.first
			}
		case b.err != nil:
			r.Err, r.Done = b.err, b.first
			sent++
		default:
			r.BulkResult = b.got[sent]
			r.Index = b.first + n
			sent++
		}
		if r.Success {
			prog.Succeeded++
		} else {
			prog.Failed++
		}
		prog.Done++
		if !yield(r, nil) {
			return false
		}
	}
	if progress != nil && len(b.body.keys) > 0 {
		progress(*prog)
	}
	return true
}

// postImport sends body in one request to the import endpoint prop and
// returns the results of its entities, in the order of the body's keys.
func postImport[Out any](ctx context.Context, c *caller, prop string, body *importBody, opts []RequestOption, cfg engine.CallConfig) ([]BulkResult[Out], error) {
	call := &Request{Method: http.MethodPost, Path: []string{"data_import", prop}, Body: body.raw(prop), Secrets: body.secrets}
	answer, err := doWith[map[string]importEntry[Out]](ctx, c, call, cfg, opts)
	if err != nil {
		return nil, err
	}
	var scrub func(string) string // built on the first refused entity
	var folded map[string]string  // lower-cased key -> key of the answer, built on demand
	out := make([]BulkResult[Out], len(body.keys))
	for n, key := range body.keys {
		r := BulkResult[Out]{Index: n, Key: key}
		e, ok := (*answer)[key]
		if !ok {
			// The service lower-cases uids and guids; its answer may key
			// them so.
			if folded == nil {
				folded = make(map[string]string, len(*answer))
				for k := range *answer {
					folded[strings.ToLower(k)] = k
				}
			}
			var k string
			if k, ok = folded[strings.ToLower(key)]; ok {
				e = (*answer)[k]
			}
		}
		switch {
		case !ok:
			r.Err = ErrNoImportResult
		case e.Success:
			r.Success, r.Data = true, e.Data
		default:
			if scrub == nil {
				scrub = c.Scrubber(call)
			}
			r.Data = e.Data
			r.Err = parseImportError(e.Error).scrubbed(scrub)
		}
		out[n] = r
	}
	return out, nil
}
