package chat

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWalkCursorStopsOnALongCycle ranges over a list whose server sends 40
// cursors and then starts again from the first: the range ends with
// ErrPaginationStalled instead of looping.
func TestWalkCursorStopsOnALongCycle(t *testing.T) {
	var fetched int
	fetch := func(_ context.Context, o *CursorOptions) (*Page[Message], error) {
		fetched++
		k, _ := strconv.Atoi(strings.TrimPrefix(o.ID, "p"))
		next := &Cursor{ID: "p" + strconv.Itoa((k+1)%40)}
		return &Page[Message]{Data: []Message{{ID: o.ID}}, Meta: PageMeta{Next: next}}, nil
	}
	var last error
	for _, err := range cursorIter(context.Background(), &CursorOptions{Limit: 1}, fetch) {
		last = err
	}
	assert.ErrorIs(t, last, ErrPaginationStalled)
	assert.Greater(t, fetched, 40, "every position once")
	assert.LessOrEqual(t, fetched, 4*40+1)
}

func TestResumeAt(t *testing.T) {
	tests := []struct {
		from       PageOptions
		done       int
		page, skip int
		perPage    int
	}{
		{PageOptions{}, 0, 1, 0, 100},
		{PageOptions{}, 250, 3, 50, 100},
		{PageOptions{PerPage: 10}, 10, 2, 0, 10},
		{PageOptions{PerPage: 10, Page: 3}, 4, 3, 4, 10},
		{PageOptions{PerPage: 10, Page: 3, skip: 4}, 7, 4, 1, 10}, // resumed twice
		{PageOptions{PerPage: 10}, -5, 1, 0, 10},
	}
	for _, tc := range tests {
		o := tc.from
		o.ResumeAt(tc.done)
		assert.Equal(t, PageOptions{PerPage: tc.perPage, Page: tc.page, skip: tc.skip}, o, "%+v after %d", tc.from, tc.done)
	}
}
