package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeUsers writes n users to dir/users.jsonl, the Data Import API's
// shape, one a line.
func writeUsers(t testing.TB, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, "users.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintf(w, `{"uid":"user-%06d","name":"User %d","createdAt":%d,"metadata":{"plan":"free"},"tags":["migrated"]}`+"\n", i, i, 1700000000+i)
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
	return path
}

// summaryOf decodes an import's --json summary.
func summaryOf(t testing.TB, r result) importSummary {
	t.Helper()
	var s importSummary
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &s), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	return s
}

func readCheckpoint(t testing.TB, path string) checkpoint {
	t.Helper()
	b, err := os.ReadFile(path + ".checkpoint")
	require.NoError(t, err)
	var cp checkpoint
	require.NoError(t, json.Unmarshal(b, &cp))
	return cp
}

// allUIDs lists the uids of every user of the fake.
func allUIDs(t testing.TB, f *fake) map[string]int {
	t.Helper()
	uids := map[string]int{}
	for u, err := range f.client(t).Users.All(t.Context(), &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 1000}}) {
		require.NoError(t, err)
		uids[u.UID]++
	}
	return uids
}

// status429 counts the import requests the fake refused for the budget.
func status429(f *fake, path string) int {
	n := 0
	for _, x := range f.rec.matching(http.MethodPost, path) {
		if x.status == http.StatusTooManyRequests {
			n++
		}
	}
	return n
}

var progressLine = regexp.MustCompile(`^chat: users: ([\d,]+)/`)

// TestImportKilledAndResumed migrates 100,000 users at a budget of 60
// requests a window, kills the command with SIGKILL halfway, and runs it
// again: the second run resumes from the checkpoint, and the app ends with
// each user exactly once, none refused.
func TestImportKilledAndResumed(t *testing.T) {
	const n = 100_000
	// A minute of the fake's lasts a second: 60 requests a second.
	f := newFake(t, chattest.WithDataImportLimit(60), chattest.WithFastClock(60))
	path := writeUsers(t, f.dir, n)
	args := []string{"import", "users", path, "--budget", "60/1s", "--progress-interval", "200ms"}

	cmd := exec.Command(chatBin, args...)
	cmd.Env = append(baseEnv(f.dir), f.env...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stderr)
	killedAt := -1
	for sc.Scan() {
		m := progressLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		done, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if done >= n/2 && killedAt < 0 {
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			killedAt = done
		}
	}
	err = cmd.Wait()
	require.EqualError(t, err, "signal: killed")
	first := readCheckpoint(t, path)
	t.Logf("killed after %d records; the checkpoint records %d (%d imported), %d requests",
		killedAt, first.Records, first.Imported, first.Requests)
	require.False(t, first.Complete)
	require.GreaterOrEqual(t, first.Records, int64(killedAt-maxUnsaved*chat.MaxImportEntities), "the checkpoint lags what was shown by at most maxUnsaved batches")
	require.Less(t, first.Records, int64(n))

	r := runMeasured(t, append(baseEnv(f.dir), f.env...), "", append(args, "--json")...)
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	s := summaryOf(t, r)
	t.Logf("resumed: %d imported, %d already present, %d requests in %.1fs at %.1f%% of the budget, peak memory %d MiB",
		s.Imported-first.Imported, s.AlreadyPresent, s.Requests, s.Seconds, 100*s.BudgetUsed, r.maxRSS>>20)
	assert.Contains(t, r.stderr, "chat: resuming the import of "+path)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(n), s.Records)
	assert.Equal(t, int64(0), s.Refused)
	assert.Equal(t, int64(n), s.Imported+s.AlreadyPresent, "every record imported once, or found present")
	// Only the batches sent after the checkpoint written are sent again:
	// at most the 8 a run holds at once and the 8 it may record ahead of
	// the checkpoint.
	assert.LessOrEqual(t, s.AlreadyPresent, int64((8+maxUnsaved)*chat.MaxImportEntities))

	uids := allUIDs(t, f)
	require.Len(t, uids, n)
	for i := range n {
		if uids[fmt.Sprintf("user-%06d", i)] != 1 {
			t.Fatalf("user-%06d is there %d times", i, uids[fmt.Sprintf("user-%06d", i)])
		}
	}
	errs, err := os.ReadFile(path + ".errors.jsonl")
	require.NoError(t, err)
	assert.Empty(t, errs)
	t.Logf("429s from the fake: %d of %d import requests", status429(f, "/v3/data_import/users"), len(f.rec.matching(http.MethodPost, "/v3/data_import/users")))
}

// TestImportLostAnswerCountsAlreadyPresent drops the connection after the
// fake imported a batch: the command stops, and the run after it sends
// that batch again, which the service answers as already there.
func TestImportLostAnswerCountsAlreadyPresent(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 500) // 10 batches
	require.NoError(t, f.srv.Fail(chattest.Fault{Route: "POST /v3/data_import/users", Delay: time.Nanosecond, Times: 3}))
	require.NoError(t, f.srv.Fail(chattest.Fault{Route: "POST /v3/data_import/users", Kind: chattest.FaultDropAfter, Times: 1}))
	args := []string{"import", "users", path, "--budget", "6000/1m", "--concurrency", "1", "--json"}

	r := f.run(t, args)
	assert.Equal(t, 1, r.code, "stderr: %s", r.stderr)
	assert.Contains(t, r.stderr, "the import stopped")
	s := summaryOf(t, r)
	assert.False(t, s.Complete)
	assert.Equal(t, int64(150), s.Imported, "the three batches answered")
	assert.Len(t, allUIDs(t, f), 200, "the fourth was imported, its answer lost")

	r = f.run(t, args)
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	s = summaryOf(t, r)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(450), s.Imported)
	assert.Equal(t, int64(50), s.AlreadyPresent, "the batch whose answer was lost")
	assert.Len(t, allUIDs(t, f), 500)
}

// TestImportInterrupted stops on SIGINT with the checkpoint written and
// exit status 130; the next run finishes.
func TestImportInterrupted(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(60), chattest.WithFastClock(60))
	path := writeUsers(t, f.dir, 5000)
	args := []string{"import", "users", path, "--budget", "60/1s", "--progress-interval", "1ms"}
	cmd := exec.Command(chatBin, args...)
	cmd.Env = append(baseEnv(f.dir), f.env...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	var out bytes.Buffer
	cmd.Stdout = &out
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stderr)
	var rest []string
	interrupted := false
	for sc.Scan() {
		if progressLine.MatchString(sc.Text()) && !interrupted {
			// One SIGINT, as one Ctrl-C: the progress line the import
			// prints as it stops must not bring a second.
			cmd.Process.Signal(os.Interrupt)
			interrupted = true
		}
		rest = append(rest, sc.Text())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 130, exit.ExitCode(), "stderr: %s", strings.Join(rest, "\n"))
	assert.Contains(t, rest, "chat: interrupted")
	assert.Contains(t, out.String(), "run the same command to resume")
	cp := readCheckpoint(t, path)
	require.False(t, cp.Complete)

	r := f.run(t, append(args, "--json"))
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	s := summaryOf(t, r)
	assert.Equal(t, int64(5000), s.Imported+s.AlreadyPresent)
	assert.Len(t, allUIDs(t, f), 5000)
}

func TestImportRefusedRecordsGoToTheErrorsFile(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	f.ok(t, "users", "create", "taken", "--name", "Taken")
	path := filepath.Join(f.dir, "users.jsonl")
	lines := []string{
		`{"uid":"ann","name":"Ann"}`,
		`{"uid":"taken","name":"Taken again"}`,
		`{"uid":"bad uid","name":"Bad"}`,
		``,
		`{"uid":"rolled","name":"Rolled","role":"no-such-role"}`,
		`not json`,
		`{"uid":"typo","name":"Typo","avtar":"x"}`,
		`{"uid":"ben","name":"Ben"}`,
	}
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))

	dry := f.run(t, []string{"import", "users", path, "--dry-run"})
	assert.Equal(t, 3, dry.code)
	assert.Contains(t, dry.stdout, "7 users in "+path+": 4 valid, 3 invalid; nothing was sent")
	assert.Contains(t, dry.stderr, "line 3: ERR_IMPORT_INVALID_USER_FORMAT: the user breaks the service's rules: uid may hold only letters a-z, digits, - and _")
	assert.Empty(t, f.rec.matching(http.MethodPost, "/v3/data_import/users"), "a dry run sends nothing")
	assert.NoFileExists(t, path+".checkpoint")

	r := f.run(t, []string{"import", "users", path, "--json"})
	assert.Equal(t, 3, r.code, "stderr: %s", r.stderr)
	s := summaryOf(t, r)
	assert.Equal(t, importSummary{Kind: "users", File: path, Complete: true, Records: 7, Imported: 2, AlreadyPresent: 1, Refused: 4,
		ErrorsFile: path + ".errors.jsonl", Requests: 1, Seconds: s.Seconds}, s)

	b, err := os.ReadFile(path + ".errors.jsonl")
	require.NoError(t, err)
	var got []errorLine
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e errorLine
		require.NoError(t, json.Unmarshal([]byte(l), &e), l)
		got = append(got, e)
	}
	require.Len(t, got, 4)
	assert.Equal(t, []int64{3, 5, 6, 7}, []int64{got[0].Line, got[1].Line, got[2].Line, got[3].Line})
	assert.Equal(t, "chat", got[0].RefusedBy)
	assert.Equal(t, "api", got[1].RefusedBy, "the role is the service's to check")
	assert.Equal(t, "ERR_IMPORT_INVALID_USER_FORMAT", got[1].Code)
	assert.Equal(t, "rolled", got[1].Key)
	assert.JSONEq(t, lines[4], string(got[1].Record))
	assert.Equal(t, "not json", got[2].Text)
	assert.Equal(t, map[string][]string{"avtar": {"is not a field of the record"}}, got[3].Details)

	uids := allUIDs(t, f)
	assert.Equal(t, map[string]int{"taken": 1, "ann": 1, "ben": 1}, uids)
}

func TestImportCSV(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	users := filepath.Join(f.dir, "users.csv")
	require.NoError(t, os.WriteFile(users, []byte("uid,name,createdAt,tags,metadata\n"+
		"ann,Ann,2024-05-01T09:30:00Z,\"a, b\",\"{\"\"plan\"\":\"\"pro\"\"}\"\n"+
		"ben,\"Ben, Jr.\",1714555800,\"[\"\"x\"\"]\",\n"), 0o644))
	f.ok(t, "import", "users", users, "--budget", "6000")

	members := filepath.Join(f.dir, "members.csv")
	require.NoError(t, os.WriteFile(members, []byte("guid,uid,scope,joinedAt,groupDetails.guid,groupDetails.name,groupDetails.type,groupDetails.createdAt\n"+
		"club,ann,admin,1714555900,club,Club,public,1714555000\n"+
		"club,ben,,1714556000,club,Club,public,1714555000\n"), 0o644))
	f.ok(t, "import", "members", members, "--budget", "6000")

	u, err := f.client(t).Users.Get(t.Context(), "ann")
	require.NoError(t, err)
	assert.Equal(t, chat.Timestamp(1714555800), u.CreatedAt)
	assert.Equal(t, map[string]any{"plan": "pro"}, u.Metadata)
	ben, err := f.client(t).Users.Get(t.Context(), "ben")
	require.NoError(t, err)
	assert.Equal(t, "Ben, Jr.", ben.Name)

	var scopes = map[string]chat.MemberScope{}
	for m, err := range f.client(t).Members.All(t.Context(), "club", nil) {
		require.NoError(t, err)
		scopes[m.UID] = m.Scope
	}
	assert.Equal(t, map[string]chat.MemberScope{"ann": chat.MemberAdmin, "ben": chat.MemberParticipant}, scopes)

	bad := filepath.Join(f.dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("uid,nickname\nann,A\n"), 0o644))
	r := f.run(t, []string{"import", "users", bad})
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `the CSV column "nickname" is not a field of a user`)
}

func TestImportMessagesInOrder(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := filepath.Join(f.dir, "messages.jsonl")
	var b strings.Builder
	for i := range 120 {
		fmt.Fprintf(&b, `{"muid":"m%03d","sender":"ann","receiverType":"user","receiver":"ben","data":{"text":"message %d"},"sentAt":%d,`+
			`"senderUserDetails":{"uid":"ann","name":"Ann"},"receiverUserDetails":{"uid":"ben","name":"Ben"}}`+"\n", i, i, 1700000000+i)
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	s := summaryOf(t, f.ok(t, "import", "messages", path, "--json", "--budget", "6000"))
	assert.Equal(t, int64(120), s.Imported)
	assert.Equal(t, int64(3), s.Requests)

	var texts []string
	for m, err := range f.client(t).Messages.AllUserMessages(t.Context(), "ben", &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 100}}, chat.OnBehalfOf("ann")) {
		require.NoError(t, err)
		texts = append(texts, m.Data.Text)
	}
	require.Len(t, texts, 120)
	for i, text := range texts {
		require.Equal(t, fmt.Sprintf("message %d", i), text, "ids follow the file's order")
	}

	// Run again: complete, nothing sent.
	f.rec.reset()
	r := f.ok(t, "import", "messages", path)
	assert.Contains(t, r.stderr, "was imported completely")
	assert.Empty(t, f.rec.matching(http.MethodPost, "/v3/data_import/messages"))
	// Another app's checkpoint is not resumed.
	r = f.run(t, []string{"import", "messages", path}, "CHAT_APP_ID=other-app")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "records an import into app "+f.srv.AppID()+" at "+f.url+"/v3, not other-app at "+f.url+"/v3: use --restart")
	// With --restart every message is found present.
	s = summaryOf(t, f.ok(t, "import", "messages", path, "--restart", "--json", "--budget", "6000"))
	assert.Equal(t, int64(120), s.AlreadyPresent)
}

func TestImportRefusesAChangedFile(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 120)
	require.NoError(t, f.srv.Fail(chattest.Fault{Route: "POST /v3/data_import/users", Delay: time.Nanosecond, Times: 1}))
	require.NoError(t, f.srv.Fail(chattest.Fault{Route: "POST /v3/data_import/users", Kind: chattest.FaultStatus, Status: http.StatusServiceUnavailable, Times: 5}))
	r := f.run(t, []string{"import", "users", path, "--concurrency", "1", "--budget", "6000"})
	require.Equal(t, 1, r.code, "stderr: %s", r.stderr)
	assert.Contains(t, r.stderr, "503")
	f.srv.ClearFaults()

	other := writeUsers(t, t.TempDir(), 200)
	b, err := os.ReadFile(other)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, bytes.Replace(b, []byte("user-000003"), []byte("user-999999"), 1), 0o644))
	r = f.run(t, []string{"import", "users", path})
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "changed since")

	// A file appended to resumes.
	require.NoError(t, os.WriteFile(path, b, 0o644))
	r = f.run(t, []string{"import", "users", path, "--json", "--budget", "6000"})
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.Equal(t, int64(200), summaryOf(t, r).Imported, "50 before the failure, 150 after")
	assert.Len(t, allUIDs(t, f), 200)
}

// TestImportMemoryIsFlat imports a file 10 times larger with the same
// peak memory: the command holds a few batches, never the file.
func TestImportMemoryIsFlat(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	small := writeUsers(t, t.TempDir(), 5_000)
	large := writeUsers(t, t.TempDir(), 50_000)
	// Without huge pages: with them, a process's resident memory grows in
	// 2 MiB steps as the kernel collapses pages in the background, with
	// how long it ran rather than with what it holds.
	env := append(append(baseEnv(f.dir), f.env...), "GODEBUG=disablethp=1")
	rs := runMeasured(t, env, "", "import", "users", small, "--budget", "1000000/1m", "--json")
	require.Equal(t, 0, rs.code, rs.stderr)
	f.rec.reset()
	rl := runMeasured(t, env, "", "import", "users", large, "--budget", "1000000/1m", "--json")
	require.Equal(t, 0, rl.code, rl.stderr)
	assert.Equal(t, int64(45_000), summaryOf(t, rl).Imported, "the first 5,000 were there")
	info, err := os.Stat(large)
	require.NoError(t, err)
	t.Logf("peak memory: %d MiB importing 5,000 users, %d MiB importing 50,000 (%d MiB of JSON Lines)", rs.maxRSS>>20, rl.maxRSS>>20, info.Size()>>20)
	assert.Less(t, rl.maxRSS, rs.maxRSS+8<<20, "memory grows with the file")
}
