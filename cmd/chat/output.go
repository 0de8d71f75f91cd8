package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// answerData returns the "data" member of an answer's body, or the whole
// body when it is not an object with one.
func answerData(body []byte) []byte {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &env) == nil && len(env.Data) > 0 {
		return env.Data
	}
	return bytes.TrimSpace(body)
}

// printJSON writes raw JSON indented, followed by a line break. Indenting
// changes only the space between tokens: keys, their order and every value
// stay as the API wrote them.
func printJSON(w io.Writer, raw []byte, prefix string) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, prefix, "  "); err != nil {
		return fmt.Errorf("the API's answer is not JSON: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// showOne makes a call that returns one value and prints it: with --json
// the data of the API's answer, else a table of cols of it.
func showOne[T any](c *cli, cmd *cobra.Command, call func(ctx context.Context) (*T, error), cols []column) error {
	var last lastAnswer
	if _, err := call(withAnswers(cmd.Context(), last.record)); err != nil {
		return err
	}
	data, err := last.data()
	if err != nil {
		return err
	}
	data = redactJSON(data, c.hidden...)
	if !c.jsonOut {
		return c.fieldsTable(cols, data)
	}
	if err := printJSON(c.stdout, data, ""); err != nil {
		return err
	}
	_, err = io.WriteString(c.stdout, "\n")
	return err
}

// showList walks a list and prints at most limit items (0: all): with
// --json one JSON array of the items as the API answered them, page after
// page, else a table with a row per item.
func showList[T any](c *cli, cmd *cobra.Command, limit int, walk func(ctx context.Context) iter.Seq2[*T, error], headers []string, row func(v *T) []string) error {
	// The items of each page as answered, in order: the walk yields the
	// same items, decoded.
	var queue []json.RawMessage
	ctx := withAnswers(cmd.Context(), func(body []byte) {
		var items []json.RawMessage
		if json.Unmarshal(answerData(body), &items) == nil {
			queue = append(queue, items...)
		}
	})
	if limit < 0 {
		return usageErrorf("--limit must not be negative")
	}
	// With --json the array opens with its first item (or closes empty at
	// the end): a list whose first page fails prints nothing on stdout.
	var t *table
	if !c.jsonOut {
		t = newTable(c.stdout, headers...)
	}
	n := 0
	for v, err := range walk(ctx) {
		if err != nil {
			return err
		}
		if c.jsonOut {
			raw := json.RawMessage(nil)
			if len(queue) > 0 {
				raw, queue = queue[0], queue[1:]
			} else if raw, err = json.Marshal(v); err != nil {
				return err
			}
			sep := ",\n  "
			if n == 0 {
				sep = "[\n  "
			}
			if _, err := io.WriteString(c.stdout, sep); err != nil {
				return err
			}
			if err := printJSON(c.stdout, redactJSON(raw, c.hidden...), "  "); err != nil {
				return err
			}
		} else {
			t.row(row(v)...)
		}
		if n++; limit > 0 && n >= limit {
			break
		}
	}
	if c.jsonOut {
		end := "[]\n"
		if n > 0 {
			end = "\n]\n"
		}
		_, err := io.WriteString(c.stdout, end)
		return err
	}
	return t.flush()
}

// perPage is the page size to ask for when at most limit items are shown.
func perPage(limit int) int {
	if limit > 0 && limit < 100 {
		return limit
	}
	return 100
}

// table prints aligned columns.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, headers ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)}
	t.row(headers...)
	return t
}

// row adds a row; control characters in a cell (which could move the
// cursor or change a terminal's state) show as the Unicode replacement
// character.
func (t *table) row(cells ...string) {
	for i, c := range cells {
		if i > 0 {
			io.WriteString(t.tw, "\t")
		}
		io.WriteString(t.tw, cell(c))
	}
	io.WriteString(t.tw, "\n")
}

func (t *table) flush() error { return t.tw.Flush() }

func cell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// when formats a timestamp in UTC, RFC 3339; "" when unset.
func when(t chat.Timestamp) string {
	if t == 0 {
		return ""
	}
	return t.Time().UTC().Format("2006-01-02T15:04:05Z")
}

// yesNo shows a bool in a table.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func itoa(n int) string { return strconv.Itoa(n) }
