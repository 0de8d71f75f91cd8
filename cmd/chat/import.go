package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

const importLong = `Import users, groups, members or messages from another chat system through the
Data Import API, keeping their ids and timestamps. Import them in that order:
users, then groups, members and messages, which name them.

FILE is JSON Lines (.jsonl, .ndjson, .json: one record per line, in the Data
Import API's shape, e.g. {"uid":"alice","name":"Alice","createdAt":1700000000})
or CSV (.csv) with a header row naming each column's field: a nested field by
its path (groupDetails.name, data.text); timestamps in Unix seconds or RFC 3339;
tags as a JSON array or comma-separated; metadata and other free-form fields as
JSON. --format overrides the extension.

The records go in requests of at most 50 and under the API's 1 MiB request
limit, paced at the endpoint's budget (--budget, 60 requests a minute by
default, the service's); a 429 is waited out. A checkpoint beside the file
(FILE.checkpoint) records how far the import got, in the file's order: run the
same command again after a kill, a crash or a network failure, and it resumes
there; records appended to the file after a complete import are imported by
the next run. A batch sent whose answer was lost is sent again: the service
answers that its entities exist, and they count as already present, never
imported twice. Records the service refuses, and those that cannot be read or
break its rules, go to FILE.errors.jsonl (readable by you alone, passwords
REDACTED), one JSON object a line with the line number, the API's code and
message, and the record. A record or line over 1 MiB is refused there and the
run goes on, so memory stays flat whatever the file holds.

Progress shows as a bar on a terminal, and as a line every --progress-interval
otherwise. The run ends with a summary on standard output (JSON with --json):
records imported, already present and refused. --dry-run reads and checks every
record without sending anything.

Exit status: 0 when every record is imported or already present, 3 when some
were refused, 1 when the import stopped on an error (run it again to resume),
2 for a usage error or a file that cannot be read, 130 when interrupted.`

// importOptions are the flags of the import command.
type importOptions struct {
	format      string
	dryRun      bool
	restart     bool
	budget      string
	concurrency int
	interval    time.Duration
}

func (c *cli) importCmd() *cobra.Command {
	var o importOptions
	kinds := make([]string, len(importKinds))
	for i, k := range importKinds {
		kinds[i] = k.name
	}
	cmd := &cobra.Command{
		Use:   "import users|groups|members|messages FILE",
		Short: "Migrate users, groups, members or messages with the Data Import API, resumably",
		Long:  importLong,
		Args:  exactArgs(2),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return kinds, cobra.ShellCompDirectiveNoFileComp
			}
			if len(args) == 1 {
				return []string{"jsonl", "ndjson", "json", "csv"}, cobra.ShellCompDirectiveFilterFileExt
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := importKindNamed(args[0])
			if kind == nil {
				return usageErrorf("cannot import %q: give one of %s", args[0], strings.Join(kinds, ", "))
			}
			return c.runImport(cmd, kind, args[1], &o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "the file's format, jsonl or csv (default: from its extension)")
	f.BoolVar(&o.dryRun, "dry-run", false, "read and check every record, send nothing")
	f.BoolVar(&o.restart, "restart", false, "ignore the checkpoint and import the file from its start")
	f.StringVar(&o.budget, "budget", "60/1m", "the endpoint's budget: requests per window, e.g. 60/1m")
	f.IntVar(&o.concurrency, "concurrency", 0, "requests in flight at once (default 4; 1 for messages, which keep the file's order)")
	f.DurationVar(&o.interval, "progress-interval", 10*time.Second, "how often to print a progress line when standard error is not a terminal")
	return cmd
}

// parseBudget reads "N/WINDOW" (e.g. 60/1m, 60/s) or "N" (per minute).
func parseBudget(s string) (int, time.Duration, error) {
	n, per, found := strings.Cut(s, "/")
	budget, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || budget < 1 {
		return 0, 0, usageErrorf("--budget %q: want requests per window, e.g. 60/1m", s)
	}
	window := time.Minute
	if found {
		per = strings.TrimSpace(per)
		if per != "" && (per[0] < '0' || per[0] > '9') {
			per = "1" + per
		}
		if window, err = time.ParseDuration(per); err != nil || window <= 0 {
			return 0, 0, usageErrorf("--budget %q: the window must be a duration, e.g. 1m or 1s", s)
		}
	}
	return budget, window, nil
}

// errorLine is a refused record, as FILE.errors.jsonl holds it.
type errorLine struct {
	Line int64 `json:"line"`
	// Key is the record's id (uid, guid, <guid>_member_<uid>, muid).
	Key     string              `json:"key,omitempty"`
	Code    string              `json:"code,omitempty"`
	Message string              `json:"message"`
	Details map[string][]string `json:"details,omitempty"`
	// RefusedBy is "api" for a record the service refused, "chat" for one
	// this command refused before sending.
	RefusedBy string `json:"refusedBy"`
	// Record is the record as read (a CSV row as an object), or Text when
	// it is not JSON.
	Record json.RawMessage `json:"record,omitempty"`
	Text   string          `json:"text,omitempty"`
}

// parsed is a record read, decoded and checked.
type parsed struct {
	raw     rawRecord
	rec     any
	key     string
	refusal *errorLine // why it is refused before sending
}

// maxRecordShown is the most bytes of a refused record the errors file
// holds; a larger one shows its first maxPreview bytes as text.
const maxRecordShown = 16 << 10

// parse decodes and checks one record, with the SDK's Validate.
func (k *importKind) parse(raw rawRecord) parsed {
	p := parsed{raw: raw}
	refuse := func(msg string, details map[string][]string) parsed {
		p.refusal = &errorLine{Line: raw.line, Key: p.key, Code: k.formatCode, Message: msg, Details: details, RefusedBy: "chat"}
		p.refusal.show(raw.json)
		return p
	}
	if raw.err != nil {
		return refuse("the "+k.entity+" cannot be read: "+raw.err.Error(), fieldDetails(raw.err))
	}
	rec, err := k.decode(raw.json)
	if err != nil {
		return refuse("the "+k.entity+" cannot be read: "+err.Error(), fieldDetails(err))
	}
	p.rec, p.key = rec, k.key(rec)
	if err := k.validate(rec); err != nil {
		var ae *chat.ArgumentError
		if errors.As(err, &ae) {
			return refuse("the "+k.entity+" breaks the service's rules: "+ae.Name+" "+ae.Problem, map[string][]string{ae.Name: {ae.Problem}})
		}
		return refuse("the "+k.entity+" breaks the service's rules: "+err.Error(), nil)
	}
	return p
}

// show sets the record the line shows: raw as JSON, its credentials
// (a group's password) redacted, or as text when it is not JSON; the
// first maxPreview bytes when it is larger than maxRecordShown. Text that
// may hold a password is not shown.
func (l *errorLine) show(raw []byte) {
	if len(raw) <= maxRecordShown && json.Valid(raw) {
		l.Record = redactJSON(raw)
		return
	}
	text := string(raw[:min(len(raw), maxPreview)])
	if len(raw) > maxPreview {
		text += "..."
	}
	if strings.Contains(strings.ToLower(text), "password") {
		text = "(not shown: it may hold a password)"
	}
	l.Text = text
}

func fieldDetails(err error) map[string][]string {
	var fe fieldError
	if errors.As(err, &fe) {
		return map[string][]string{fe.field: {fe.msg}}
	}
	return nil
}

// refusedError carries a record refused before sending through the SDK's
// stream, which gives it back as the record's outcome.
type refusedError struct{ line *errorLine }

func (e refusedError) Error() string { return e.line.Message }

// importer is one run of an import.
type importer struct {
	c      *cli
	kind   *importKind
	path   string
	format string
	file   *os.File
	cpPath string
	// errPath is FILE.errors.jsonl, and errs that file open for writing.
	errPath string
	errs    *os.File
	cp      *checkpoint
	saver   *saver
	prog    *progress
	began   time.Time
	// requests is how many requests this run sent, and first and last
	// when the first and the last request were answered.
	requests    int64
	first, last time.Time
	// posted is the records of the last checkpoint handed to the saver.
	posted int64
	// rate is the budget in requests a second.
	rate float64
}

func (c *cli) runImport(cmd *cobra.Command, kind *importKind, path string, o *importOptions) error {
	format := o.format
	switch format {
	case "":
		var err error
		if format, err = formatOf(path); err != nil {
			return err
		}
	case formatJSONL, formatCSV:
	default:
		return usageErrorf("--format must be jsonl or csv")
	}
	budget, per, err := parseBudget(o.budget)
	if err != nil {
		return err
	}
	if o.concurrency < 0 {
		return usageErrorf("--concurrency must be at least 1")
	}
	conc := o.concurrency
	if conc == 0 {
		conc = kind.concurrency
	}
	if o.interval <= 0 {
		return usageErrorf("--progress-interval must be positive")
	}
	file, err := os.Open(path)
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return usageErrorf("%s is not a file", path)
	}
	im := &importer{c: c, kind: kind, path: path, format: format, file: file,
		cpPath: path + ".checkpoint", errPath: path + ".errors.jsonl", rate: float64(budget) / per.Seconds()}
	if o.dryRun {
		return im.dryRun()
	}

	// The pace: the endpoint's budget per window, kept by a limiter of
	// windows (the data import endpoints count as the standard class,
	// which this client uses for nothing else); the SDK's even pace is
	// lifted, so as not to slow the limiter's windows. A 429 is waited
	// out, however long the service asks: an import is not in a hurry.
	limiter := chat.NewRateLimiter(chat.RateLimits{Standard: budget, Per: per})
	policy := chat.DefaultRetryPolicy()
	policy.MaxServerWait = 15 * time.Minute
	client, err := c.chatClient(cmd, chat.WithLimiter(limiter), chat.WithRetryPolicy(policy))
	if err != nil {
		return err
	}
	defer client.CloseIdleConnections()
	if err := im.open(o.restart, client); err != nil {
		return err
	}
	defer im.errs.Close()
	if im.cp.Complete {
		if info.Size() <= im.cp.Offset {
			fmt.Fprintf(c.stderr, "chat: %s was imported completely (%s); --restart imports it again\n", path, im.cp.Updated.Format(time.RFC3339))
			return im.summary(nil)
		}
		fmt.Fprintf(c.stderr, "chat: %s has records after those imported (line %s): importing them\n", path, thousands(im.cp.Line))
		im.cp.Complete = false
	} else if im.cp.Records > 0 {
		fmt.Fprintf(c.stderr, "chat: resuming the import of %s: %s\n", path, im.cp.describe())
	}
	total, err := countRecords(path, format, kind)
	if err != nil {
		total = -1 // the import reports the problem where it meets it
	}
	im.prog = newProgress(c.stderr, c.errTerminal, o.interval, kind.name, total, im.cp.Records)
	im.began = time.Now()
	runErr := im.run(cmd.Context(), client, conc, math.MaxInt32)
	im.prog.finish(im.cp)
	return im.summary(runErr)
}

// open reads the checkpoint, or starts a new one (with --restart, or when
// there is none), and opens the errors file at the checkpoint's size.
func (im *importer) open(restart bool, client *chat.Client) error {
	cp, err := loadCheckpoint(im.cpPath)
	if err != nil {
		return err
	}
	switch {
	case cp == nil || restart:
		cp = &checkpoint{Version: checkpointVersion, Kind: im.kind.name, Format: im.format, App: client.AppID(), BaseURL: client.BaseURL()}
	case cp.Kind != im.kind.name || cp.Format != im.format:
		return usageErrorf("%s records an import of %s from %s, not of %s from %s: run the same import, or use --restart",
			im.cpPath, cp.Kind, cp.Format, im.kind.name, im.format)
	case cp.App != client.AppID() || cp.BaseURL != client.BaseURL():
		return usageErrorf("%s records an import into app %s at %s, not %s at %s: use --restart to import the file there from its start",
			im.cpPath, cp.App, cp.BaseURL, client.AppID(), client.BaseURL())
	default:
		ok, err := cp.matches(im.file)
		if err != nil {
			return err
		}
		if !ok {
			return usageErrorf("%s changed since %s was written (its first %s records are not the same): restore it, or use --restart to import it from its start",
				im.path, im.cpPath, thousands(cp.Records))
		}
	}
	im.cp = cp
	errs, err := openErrorsFile(im.errPath)
	if err != nil {
		return err
	}
	// What follows the checkpoint's size was written for records it does
	// not count: they are sent again.
	if err := errs.Truncate(cp.ErrorsSize); err != nil {
		errs.Close()
		return err
	}
	if _, err := errs.Seek(cp.ErrorsSize, io.SeekStart); err != nil {
		errs.Close()
		return err
	}
	im.errs = errs
	if cp.ErrorsSize == 0 && cp.Records == 0 {
		// A new import: the checkpoint exists from the start.
		return cp.save(im.cpPath, im.file)
	}
	return nil
}

// openErrorsFile opens the errors file at path for writing, readable by
// its owner alone (a refused record may hold personal data), refusing to
// write through a symbolic link or into anything but a regular file.
func openErrorsFile(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return nil, usageErrorf("%s is not a regular file (a symbolic link?): the import does not write through it; remove it", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return nil, usageErrorf("opening the errors file: %v", err)
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err == nil && info.Mode().Perm() != 0o600 {
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return nil, usageErrorf("opening the errors file: %v", err)
	}
	return f, nil
}

// pending is a record handed to the SDK's stream whose outcome has not
// come back yet.
type pending struct {
	line, end, endLine int64
	key                string
	raw                []byte     // to show when the service refuses it
	refusal            *errorLine // when refused before sending
}

// run streams the records of the file from the checkpoint through the
// SDK's import, up to conc requests in flight, at most perMinute (besides
// the client's limiter), and records
// each outcome in order. It returns nil once every record is done, else
// what stopped it: a failed request, a file that cannot be read further,
// or ctx's end.
func (im *importer) run(ctx context.Context, client *chat.Client, conc, perMinute int) error {
	src, err := openSource(im.file, im.format, im.kind, im.cp.Offset, im.cp.Line)
	if err != nil {
		return err
	}
	// The records between the reader and their outcome, in order: the
	// SDK pulls them from the loop below, and holds a few requests' worth.
	var queue []pending
	var readErr error
	recs := func(yield func(any, error) bool) {
		for {
			raw, err := src.next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = err
				}
				return
			}
			p := im.kind.parse(raw)
			q := pending{line: raw.line, end: raw.end, endLine: raw.endLine, key: p.key, refusal: p.refusal}
			var refused error
			if p.refusal != nil {
				refused = refusedError{p.refusal}
			} else {
				q.raw = raw.json
			}
			queue = append(queue, q)
			if !yield(p.rec, refused) {
				return
			}
		}
	}
	base := im.cp.Requests
	var postErr error
	opts := &chat.BulkOptions{Concurrency: conc, RequestsPerMinute: perMinute, RateLimitRetries: math.MaxInt32,
		Progress: func(p chat.BulkProgress) {
			now := time.Now()
			if im.first.IsZero() {
				im.first = now
			}
			im.last = now
			im.requests = int64(p.Requests)
			im.cp.Requests = base + im.requests
			// A request's records are all recorded: the checkpoint may
			// follow.
			postErr = cmp.Or(postErr, im.post())
		}}
	im.saver = newSaver(im)
	var stop error
	for o, err := range im.kind.stream(ctx, client.DataImport, recs, opts) {
		if err != nil {
			stop = err
			break
		}
		q := queue[0]
		queue = queue[1:]
		if o.done <= o.index {
			continue // a failed request's: the run stops, and the next sends it again
		}
		if err := cmp.Or(postErr, im.commit(q, o)); err != nil {
			stop = err
			break
		}
	}
	if err := im.post(); err != nil && stop == nil {
		stop = err
	}
	if err := im.saver.close(); err != nil && stop == nil {
		stop = fmt.Errorf("writing %s: %w", im.cpPath, err)
	}
	switch {
	case stop != nil:
		return stop
	case readErr != nil:
		return readErr
	case ctx.Err() != nil:
		return ctx.Err()
	}
	im.cp.Complete = true
	return im.cp.save(im.cpPath, im.file)
}

// commit records the outcome of one record: a refusal in the errors file,
// the counts and the record's end in the checkpoint.
func (im *importer) commit(q pending, o outcome) error {
	cp := im.cp
	line := q.refusal
	var ie *chat.ImportError
	var ae *chat.ArgumentError
	switch {
	case line != nil:
	case o.ok:
		cp.Imported++
	case errors.As(o.err, &ie) && slices.Contains(im.kind.present, ie.Code):
		cp.AlreadyPresent++
	case errors.As(o.err, &ae): // refused by the SDK as it made the request: too large for one
		line = &errorLine{Line: q.line, Key: q.key, Code: im.kind.formatCode, Message: "the " + im.kind.entity + " " + ae.Problem,
			RefusedBy: "chat"}
		line.show(q.raw)
	default:
		line = &errorLine{Line: q.line, Key: q.key, Message: o.err.Error(), RefusedBy: "api"}
		if ie != nil {
			line.Code, line.Message, line.Details = ie.Code, ie.Message, ie.Details
			if line.Message == "" {
				line.Message = ie.Error()
			}
		}
		line.show(q.raw)
	}
	if line != nil {
		j, err := json.Marshal(line)
		if err != nil {
			return err
		}
		if _, err := im.errs.Write(append(j, '\n')); err != nil {
			return fmt.Errorf("writing %s: %w", im.errPath, err)
		}
		cp.ErrorsSize += int64(len(j) + 1)
		cp.Refused++
	}
	cp.Records++
	cp.Offset, cp.Line = q.end, q.endLine
	im.prog.update(cp)
	if cp.Records-im.posted >= 2*chat.MaxImportEntities { // records refused in a row, no request among them
		return im.post()
	}
	return nil
}

// post hands the checkpoint as it stands to the saver: after each
// request's records, and after as many refused in a row.
func (im *importer) post() error {
	im.posted = im.cp.Records
	if err := im.saver.post(im.cp); err != nil {
		return fmt.Errorf("writing %s: %w", im.cpPath, err)
	}
	return nil
}

// maxUnsaved is how many requests' worth of records the import may record
// ahead of the checkpoint written: a kill then sends at most these again,
// besides those in flight.
const maxUnsaved = 8

// saver writes the checkpoint in the background, each time the latest
// state recorded, so that the import does not wait on the disk for every
// record. The errors file is synced first: the checkpoint never counts
// lines it may have lost.
type saver struct {
	im   *importer
	mu   sync.Mutex
	cond *sync.Cond
	// pending is the latest state not written yet; posted and saved are
	// the records counted by the last state recorded and the last written.
	pending       *checkpoint
	posted, saved int64
	closed        bool
	err           error
	done          chan struct{}
}

func newSaver(im *importer) *saver {
	s := &saver{im: im, done: make(chan struct{}), posted: im.cp.Records, saved: im.cp.Records}
	s.cond = sync.NewCond(&s.mu)
	go s.loop()
	return s
}

func (s *saver) loop() {
	defer close(s.done)
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for s.pending == nil && !s.closed {
			s.cond.Wait()
		}
		if s.pending == nil {
			return
		}
		cp := s.pending
		s.pending = nil
		s.mu.Unlock()
		err := s.im.errs.Sync()
		if err == nil {
			err = cp.save(s.im.cpPath, s.im.file)
		}
		s.mu.Lock()
		if err != nil && s.err == nil {
			s.err = err
		}
		s.saved = cp.Records
		s.cond.Broadcast()
	}
}

// post records a copy of cp to be written, and waits while more than
// maxUnsaved requests' worth of records are not written yet.
func (s *saver) post(cp *checkpoint) error {
	c := *cp
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posted = c.Records
	s.pending = &c
	s.cond.Broadcast()
	for s.err == nil && s.posted-s.saved > maxUnsaved*chat.MaxImportEntities {
		s.cond.Wait()
	}
	return s.err
}

// close writes what is pending and stops the saver.
func (s *saver) close() error {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	<-s.done
	return s.err
}

// importSummary is the summary --json prints.
type importSummary struct {
	Kind           string  `json:"kind"`
	File           string  `json:"file"`
	Complete       bool    `json:"complete"`
	Records        int64   `json:"records"`
	Imported       int64   `json:"imported"`
	AlreadyPresent int64   `json:"alreadyPresent"`
	Refused        int64   `json:"refused"`
	ErrorsFile     string  `json:"errorsFile,omitempty"`
	Requests       int64   `json:"requests"`
	Seconds        float64 `json:"seconds"`
	// BudgetUsed is the pace of this run's requests, between the first
	// answer and the last, over the budget: 0.97 is 97%. It is left out
	// for runs of fewer than 10 requests.
	BudgetUsed float64 `json:"budgetUsed,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// summary prints what the import did and returns the command's error for
// runErr: nil, or an exit status of 3 when records were refused.
func (im *importer) summary(runErr error) error {
	cp := im.cp
	s := importSummary{Kind: im.kind.name, File: im.path, Complete: cp.Complete, Records: cp.Records, Imported: cp.Imported,
		AlreadyPresent: cp.AlreadyPresent, Refused: cp.Refused, Requests: im.requests}
	if cp.Refused > 0 {
		s.ErrorsFile = im.errPath
	}
	if !im.began.IsZero() && !im.last.IsZero() {
		s.Seconds = im.last.Sub(im.began).Seconds()
	}
	if span := im.last.Sub(im.first).Seconds(); im.requests >= 10 && span > 0 {
		s.BudgetUsed = math.Round(float64(im.requests-1)/span/im.rate*1000) / 1000
	}
	if runErr != nil {
		s.Error = runErr.Error()
	}
	if im.c.jsonOut {
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(im.c.stdout, "%s\n", b); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
		if err := im.c.stdout.Flush(); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	} else {
		state := "complete"
		if !cp.Complete {
			state = "stopped at line " + thousands(cp.Line) + ": " + advice(runErr)
		}
		t := newTable(im.c.stdout, im.kind.name+" from "+im.path, state)
		t.row("records", thousands(cp.Records))
		t.row("imported", thousands(cp.Imported))
		t.row("already present", thousands(cp.AlreadyPresent))
		refused := thousands(cp.Refused)
		if cp.Refused > 0 {
			refused += " (" + im.errPath + ")"
		}
		t.row("refused", refused)
		if im.requests > 0 {
			req := fmt.Sprintf("%s in %s this run", thousands(im.requests), time.Duration(s.Seconds*float64(time.Second)).Round(time.Millisecond))
			if s.BudgetUsed > 0 {
				req += fmt.Sprintf(", at %.1f%% of the budget", 100*s.BudgetUsed)
			}
			t.row("requests", req)
		}
		if err := t.flush(); err != nil {
			return err
		}
		if err := im.c.stdout.Flush(); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		return runErr
	case runErr != nil:
		var ue *usageError
		if errors.As(runErr, &ue) {
			return runErr
		}
		return fmt.Errorf("the import stopped: %w (%s)", runErr, advice(runErr))
	case cp.Refused > 0:
		return &exitError{code: exitRefused, err: fmt.Errorf("%s records refused: see %s", thousands(cp.Refused), im.errPath)}
	}
	return nil
}

// advice says how to go on after the import stopped on err.
func advice(err error) string {
	switch {
	case errors.Is(err, chat.ErrUnauthorized):
		return "the app ID or API key was refused: fix the credentials (chat config, $CHAT_API_KEY), then run the same command, which resumes here"
	case errors.Is(err, chat.ErrForbidden):
		return "the API key may not import: use one with full access, then run the same command, which resumes here"
	}
	return "run the same command to resume"
}

// dryRun reads and checks every record, and reports those the import
// would refuse before sending.
func (im *importer) dryRun() error {
	src, err := openSource(im.file, im.format, im.kind, 0, 0)
	if err != nil {
		return err
	}
	const shown = 1000
	var records, invalid int64
	for {
		raw, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		records++
		p := im.kind.parse(raw)
		if p.refusal == nil {
			continue
		}
		invalid++
		if invalid <= shown {
			fmt.Fprintf(im.c.stderr, "line %d: %s: %s\n", p.refusal.Line, p.refusal.Code, p.refusal.Message)
		}
	}
	if invalid > shown {
		fmt.Fprintf(im.c.stderr, "... and %s more\n", thousands(invalid-shown))
	}
	if im.c.jsonOut {
		b, _ := json.MarshalIndent(map[string]any{"kind": im.kind.name, "file": im.path, "records": records, "valid": records - invalid, "invalid": invalid}, "", "  ")
		fmt.Fprintf(im.c.stdout, "%s\n", b)
	} else {
		fmt.Fprintf(im.c.stdout, "dry run: %s %s in %s: %s valid, %s invalid; nothing was sent\n",
			thousands(records), im.kind.name, im.path, thousands(records-invalid), thousands(invalid))
	}
	if invalid > 0 {
		return &exitError{code: exitRefused, err: fmt.Errorf("%s records would be refused", thousands(invalid))}
	}
	return nil
}

// countRecords counts the records of the file, for the progress bar.
func countRecords(path, format string, kind *importKind) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	src, err := openSource(f, format, kind, 0, 0)
	if err != nil {
		return 0, err
	}
	var n int64
	for {
		_, err := src.next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}
