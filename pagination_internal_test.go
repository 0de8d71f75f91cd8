package chat

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guardRun feeds positions to a stallGuard started at positions[0] and
// returns the index of the first one it calls a repeat, or -1.
func guardRun(positions []string) int {
	var g stallGuard[string]
	g.start(positions[0])
	for i, p := range positions[1:] {
		if g.repeated(p) {
			return i + 1
		}
	}
	return -1
}

// cycle is a tail of distinct positions, then a cycle of length n repeated
// until total positions.
func cycle(tail, n, total int) []string {
	out := make([]string, total)
	for i := range out {
		if i < tail {
			out[i] = "t" + strconv.Itoa(i)
		} else {
			out[i] = "c" + strconv.Itoa((i-tail)%n)
		}
	}
	return out
}

func TestStallGuard(t *testing.T) {
	t.Run("distinct positions never stall", func(t *testing.T) {
		positions := make([]string, 100_000)
		for i := range positions {
			positions[i] = strconv.Itoa(i)
		}
		assert.Equal(t, -1, guardRun(positions))
	})
	t.Run("a repeated or alternating cursor is caught at its first repeat", func(t *testing.T) {
		assert.Equal(t, 1, guardRun([]string{"a", "a"}), "the starting position")
		assert.Equal(t, 4, guardRun([]string{"a", "b", "c", "d", "d"}))
		assert.Equal(t, 4, guardRun([]string{"a", "b", "c", "d", "c", "d"}))
		for n := 1; n <= 16; n++ {
			assert.Equal(t, 100+n, guardRun(cycle(100, n, 1000)), "cycle of %d", n)
		}
	})
	t.Run("a long cycle is caught within two turns once the checkpoint is on it", func(t *testing.T) {
		for _, tc := range []struct{ tail, n int }{{0, 17}, {5, 40}, {300, 17}, {1000, 1000}, {3, 4096}} {
			at := guardRun(cycle(tc.tail, tc.n, 20*(tc.tail+tc.n)))
			require.Positive(t, at, "%+v", tc)
			// The checkpoint reaches the cycle after at most 2·tail
			// positions and then waits for at most 2·n more.
			assert.LessOrEqual(t, at, 2*tc.tail+4*tc.n+1, "%+v", tc)
		}
	})
}

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
