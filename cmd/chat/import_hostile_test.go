package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/chattest"
)

// The import tried with files and conditions meant to break it.

func TestImportAppendedAfterACompleteRunImportsTheNewRecords(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 120)
	args := []string{"import", "users", path, "--budget", "6000", "--json"}
	s := summaryOf(t, f.ok(t, args...))
	require.True(t, s.Complete)
	require.Equal(t, int64(120), s.Imported)

	file, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = fmt.Fprintln(file, `{"uid":"late-1","name":"Late 1"}`+"\n"+`{"uid":"late-2","name":"Late 2"}`)
	require.NoError(t, err)
	require.NoError(t, file.Close())

	r := f.ok(t, args...)
	assert.Contains(t, r.stderr, "has records after those imported (line 120): importing them")
	s = summaryOf(t, r)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(122), s.Records)
	assert.Equal(t, int64(122), s.Imported)
	uids := allUIDs(t, f)
	assert.Equal(t, 1, uids["late-1"])
	assert.Equal(t, 1, uids["late-2"])

	r = f.ok(t, args...)
	assert.Contains(t, r.stderr, "was imported completely")
}

func TestImportCutsRequestsUnderTheRequestLimit(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := filepath.Join(f.dir, "messages.jsonl")
	var b strings.Builder
	text := strings.Repeat("x", 40_000)
	for i := range 60 {
		fmt.Fprintf(&b, `{"muid":"m%03d","sender":"ann","receiverType":"user","receiver":"ben","data":{"text":%q},"sentAt":%d,`+
			`"senderUserDetails":{"uid":"ann","name":"Ann"},"receiverUserDetails":{"uid":"ben","name":"Ben"}}`+"\n", i, text, 1700000000+i)
	}
	// And one message too large for any request: refused, the run goes on.
	fmt.Fprintf(&b, `{"muid":"huge","sender":"ann","receiverType":"user","receiver":"ben","data":{"text":%q},"sentAt":1700000100}`+"\n",
		strings.Repeat("y", 1<<20-100))
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))

	r := f.run(t, []string{"import", "messages", path, "--budget", "6000", "--json"})
	require.Equal(t, 3, r.code, "stderr: %s", r.stderr)
	s := summaryOf(t, r)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(60), s.Imported)
	assert.Equal(t, int64(1), s.Refused)
	assert.Equal(t, int64(3), s.Requests, "26 messages of 40,000 characters a request at most")
	for _, x := range f.rec.matching(http.MethodPost, "/v3/data_import/messages") {
		assert.Equal(t, http.StatusOK, x.status)
	}
	errs := errorLines(t, path)
	require.Len(t, errs, 1)
	assert.Equal(t, int64(61), errs[0].Line)
	assert.Equal(t, "chat", errs[0].RefusedBy)
	assert.Contains(t, errs[0].Message, "1048576", "too large for a request, or for a line")
}

// errorLines reads the errors file of the import of path.
func errorLines(t *testing.T, path string) []errorLine {
	t.Helper()
	b, err := os.ReadFile(path + ".errors.jsonl")
	require.NoError(t, err)
	var out []errorLine
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var e errorLine
		require.NoError(t, json.Unmarshal([]byte(l), &e), l)
		out = append(out, e)
	}
	return out
}

func TestImportCSVWithAStrayQuote(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := filepath.Join(f.dir, "users.csv")
	require.NoError(t, os.WriteFile(path, []byte("uid,name\n"+
		"ann,Ann\n"+
		"ben,\"Ben\n"+ // a quote that never closes
		"cid,Cid\n"+
		"dan,Da\"n\n"+ // a quote in an unquoted field
		"eve,\"Eve, \"\"E\"\"\"\n"+ // quoted, with commas and quotes doubled
		"fay,\"Fay\nof two lines\"\n"+
		"gus,Gus\n"), 0o644))
	r := f.run(t, []string{"import", "users", path, "--budget", "6000", "--json"})
	require.Equal(t, 3, r.code, "stderr: %s", r.stderr)
	s := summaryOf(t, r)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(5), s.Imported)
	assert.Equal(t, int64(2), s.Refused)
	errs := errorLines(t, path)
	require.Len(t, errs, 2)
	assert.Equal(t, int64(3), errs[0].Line)
	assert.Contains(t, errs[0].Message, "quote", "the quote opened on line 3 is closed on line 5, by another stray quote")
	assert.Equal(t, int64(5), errs[1].Line)
	assert.Contains(t, errs[1].Message, "a quote inside an unquoted field")
	uids := allUIDs(t, f)
	for _, uid := range []string{"ann", "cid", "eve", "fay", "gus"} {
		assert.Equal(t, 1, uids[uid], uid)
	}
	ben, err := f.client(t).Users.Get(t.Context(), "eve")
	require.NoError(t, err)
	assert.Equal(t, `Eve, "E"`, ben.Name)
}

// TestImportMemoryIsFlatWithHostileCSV reads a CSV with a stray quote
// near its start, and one whose one field is as large as the file: the
// peak memory stays that of a small file.
func TestImportMemoryIsFlatWithHostileCSV(t *testing.T) {
	const size = 24 << 20
	dir := t.TempDir()
	writeCSV := func(name string, body func(w *bufio.Writer)) string {
		path := filepath.Join(dir, name)
		file, err := os.Create(path)
		require.NoError(t, err)
		w := bufio.NewWriterSize(file, 1<<20)
		w.WriteString("uid,name\n")
		body(w)
		require.NoError(t, w.Flush())
		require.NoError(t, file.Close())
		return path
	}
	rows := func(w *bufio.Writer, from int) {
		for i, n := from, 0; n < size; i++ {
			m, _ := fmt.Fprintf(w, "user-%07d,\"User %d, of the import\"\n", i, i)
			n += m
		}
	}
	small := writeCSV("small.csv", func(w *bufio.Writer) { rows(w, 0) })
	stray := writeCSV("stray.csv", func(w *bufio.Writer) {
		w.WriteString("stray,\"Never closed\n")
		rows(w, 0)
	})
	huge := writeCSV("huge.csv", func(w *bufio.Writer) {
		w.WriteString("ann,Ann\nhuge,\"")
		for range size / 1024 {
			w.WriteString(strings.Repeat("h", 1023) + "\n")
		}
		w.WriteString("\"\nben,Ben\n")
	})
	env := append(baseEnv(dir), "GODEBUG=disablethp=1")
	measure := func(path string) result {
		r := runMeasured(t, env, "", "import", "users", path, "--dry-run", "--json")
		require.Equal(t, 3, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		return r
	}
	base := runMeasured(t, env, "", "import", "users", small, "--dry-run", "--json")
	require.Equal(t, 0, base.code, base.stderr)
	rs, rh := measure(stray), measure(huge)
	assert.Contains(t, rs.stderr, "line 2: ERR_IMPORT_INVALID_USER_FORMAT: the user cannot be read: a quoted field opened on this line does not close properly (a stray quote?)")
	assert.Contains(t, rh.stderr, "line 3: ERR_IMPORT_INVALID_USER_FORMAT: the user cannot be read: the record is longer than 1048576 bytes")
	var dry struct{ Records, Valid, Invalid int64 }
	require.NoError(t, json.Unmarshal([]byte(rh.stdout), &dry))
	assert.Equal(t, int64(2), dry.Valid, "ann and ben, around the huge record")
	require.NoError(t, json.Unmarshal([]byte(rs.stdout), &dry))
	assert.Equal(t, int64(1), dry.Invalid, "the stray quote costs its line alone")
	t.Logf("peak memory reading %d MiB of CSV: %d MiB a plain file, %d MiB with a stray quote, %d MiB with a %d MiB field",
		size>>20, base.maxRSS>>20, rs.maxRSS>>20, rh.maxRSS>>20, size>>20)
	assert.Less(t, rs.maxRSS, base.maxRSS+8<<20)
	assert.Less(t, rh.maxRSS, base.maxRSS+8<<20)
}

func TestImportErrorsFileIsPrivate(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := filepath.Join(f.dir, "groups.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(
		`{"guid":"vault","name":"Vault","type":"password","password":"hunter2-secret","tags":[`+strings.Repeat(`"t",`, 30)+`"t"]}`+"\n"+
			`{"guid":"club","name":"Club","type":"password","password":"open-sesame","owner":"ghost-owner"}`+"\n"), 0o644))

	t.Run("a symbolic link at its name is not written through", func(t *testing.T) {
		target := filepath.Join(f.dir, "elsewhere")
		require.NoError(t, os.WriteFile(target, []byte("keep\n"), 0o644))
		require.NoError(t, os.Symlink(target, path+".errors.jsonl"))
		r := f.run(t, []string{"import", "groups", path})
		assert.Equal(t, 2, r.code, "stderr: %s", r.stderr)
		assert.Contains(t, r.stderr, "not a regular file (a symbolic link?)")
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Equal(t, "keep\n", string(b))
		require.NoError(t, os.Remove(path+".errors.jsonl"))
		assert.NoFileExists(t, path+".checkpoint", "the import did not start")
	})

	t.Run("0600, passwords redacted", func(t *testing.T) {
		r := f.run(t, []string{"import", "groups", path, "--json"})
		require.Equal(t, 3, r.code, "stderr: %s", r.stderr)
		info, err := os.Stat(path + ".errors.jsonl")
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
		b, err := os.ReadFile(path + ".errors.jsonl")
		require.NoError(t, err)
		assert.NotContains(t, string(b), "hunter2-secret")
		assert.NotContains(t, string(b), "open-sesame")
		errs := errorLines(t, path)
		require.NotEmpty(t, errs)
		assert.Contains(t, string(errs[0].Record), `"password":"REDACTED"`)
	})
}

func TestImportDamagedCheckpoint(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 10)
	f.ok(t, "import", "users", path, "--budget", "6000")
	cp := readCheckpoint(t, path)
	cp.Offset = -5
	b, err := json.Marshal(cp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path+".checkpoint", b, 0o600))
	r := f.run(t, []string{"import", "users", path})
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, path+".checkpoint is damaged (its offset cannot be right): remove it, or run with --restart")
	assert.NotContains(t, r.stderr, "panic")
}

func TestImportSummaryThatCannotBeWrittenFails(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 10)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	require.NoError(t, err)
	defer full.Close()
	cmd := exec.Command(chatBin, "import", "users", path, "--budget", "6000", "--json")
	cmd.Env = append(baseEnv(f.dir), f.env...)
	cmd.Stdout = full
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	require.Error(t, err, "a summary lost is a failure")
	assert.Contains(t, stderr.String(), "writing the summary")
}

func TestImportWaitsOutRateLimits(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 100)
	// More 429s in a row than the client's retries (3).
	require.NoError(t, f.srv.Fail(chattest.Fault{Route: "POST /v3/data_import/users", Kind: chattest.FaultStatus, Status: http.StatusTooManyRequests,
		RetryAfter: time.Second, Times: 5}))
	r := f.run(t, []string{"import", "users", path, "--budget", "6000", "--concurrency", "1", "--json"})
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	s := summaryOf(t, r)
	assert.True(t, s.Complete)
	assert.Equal(t, int64(100), s.Imported)
	assert.Equal(t, 5, status429(f, "/v3/data_import/users"))
}

func TestImportWrongKeyAdvisesFixingTheCredentials(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	path := writeUsers(t, f.dir, 10)
	r := f.run(t, []string{"import", "users", path}, "CHAT_API_KEY=wrong-key")
	assert.Equal(t, 1, r.code, "stderr: %s", r.stderr)
	assert.Contains(t, r.stdout, "fix the credentials")
	assert.NotContains(t, r.stdout, "run the same command to resume")
	assert.Contains(t, r.stderr, "fix the credentials")
}
