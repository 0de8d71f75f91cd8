package rest

import (
	"context"
	"errors"
	"strconv"
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

// numbers is a page-numbered list of n items, 0 to n-1, served by size
// a page; it counts the pages fetched.
type numbers struct {
	n, size int
	fetched []int
}

func (l *numbers) fetch(_ context.Context, page int) ([]int, *PageInfo, error) {
	l.fetched = append(l.fetched, page)
	var items []int
	for i := (page - 1) * l.size; i < min(page*l.size, l.n); i++ {
		items = append(items, i)
	}
	return items, &PageInfo{CurrentPage: page, PerPage: l.size}, nil
}

func collect(t *testing.T, seq func(func(*int, error) bool)) []int {
	t.Helper()
	var got []int
	for v, err := range seq {
		require.NoError(t, err)
		got = append(got, *v)
	}
	return got
}

func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func TestPages(t *testing.T) {
	ctx := context.Background()
	t.Run("a short last page ends the walk without another request", func(t *testing.T) {
		l := &numbers{n: 25, size: 10}
		assert.Equal(t, seq(0, 25), collect(t, Pages(ctx, 1, 10, 0, l.fetch)))
		assert.Equal(t, []int{1, 2, 3}, l.fetched)
	})
	t.Run("a full last page costs one empty page", func(t *testing.T) {
		l := &numbers{n: 20, size: 10}
		assert.Equal(t, seq(0, 20), collect(t, Pages(ctx, 1, 10, 0, l.fetch)))
		assert.Equal(t, []int{1, 2, 3}, l.fetched)
	})
	t.Run("total pages ends the walk", func(t *testing.T) {
		fetched := 0
		fetch := func(_ context.Context, page int) ([]int, *PageInfo, error) {
			fetched++
			return []int{page}, &PageInfo{CurrentPage: page, PerPage: 1, TotalPages: 3}, nil
		}
		assert.Equal(t, []int{1, 2, 3}, collect(t, Pages(ctx, 1, 0, 0, fetch)))
		assert.Equal(t, 3, fetched)
	})
	t.Run("a walk resumed from a page skips what was seen", func(t *testing.T) {
		l := &numbers{n: 25, size: 10}
		assert.Equal(t, seq(13, 25), collect(t, Pages(ctx, 2, 10, 3, l.fetch)))
		assert.Equal(t, []int{2, 3}, l.fetched)
	})
	t.Run("each range starts afresh", func(t *testing.T) {
		l := &numbers{n: 5, size: 10}
		it := Pages(ctx, 1, 10, 2, l.fetch)
		assert.Equal(t, seq(2, 5), collect(t, it))
		assert.Equal(t, seq(2, 5), collect(t, it))
	})
	t.Run("another page than the one asked for stalls", func(t *testing.T) {
		fetch := func(_ context.Context, page int) ([]int, *PageInfo, error) {
			return []int{page}, &PageInfo{CurrentPage: 1, PerPage: 1}, nil
		}
		var got []int
		var last error
		for v, err := range Pages(ctx, 1, 1, 0, fetch) {
			if err != nil {
				last = err
				break
			}
			got = append(got, *v)
		}
		assert.Equal(t, []int{1}, got)
		assert.ErrorIs(t, last, ErrPaginationStalled)
	})
	t.Run("an error is yielded and ends the walk", func(t *testing.T) {
		boom := errors.New("boom")
		fetch := func(_ context.Context, page int) ([]int, *PageInfo, error) { return nil, nil, boom }
		n := 0
		for _, err := range Pages(ctx, 1, 1, 0, fetch) {
			n++
			assert.ErrorIs(t, err, boom)
		}
		assert.Equal(t, 1, n)
	})
}

func TestCursors(t *testing.T) {
	ctx := context.Background()
	// The list holds 0..24; the position is the last item seen (-1: none).
	list := func(size int, fetched *int) func(context.Context, int) ([]int, int, bool, int, error) {
		return func(_ context.Context, at int) ([]int, int, bool, int, error) {
			*fetched++
			items := seq(at+1, min(at+1+size, 25))
			next := at
			if len(items) > 0 {
				next = items[len(items)-1]
			}
			return items, next, true, size, nil
		}
	}
	t.Run("a short last page ends the walk without another request", func(t *testing.T) {
		fetched := 0
		assert.Equal(t, seq(0, 25), collect(t, Cursors(ctx, -1, list(10, &fetched))))
		assert.Equal(t, 3, fetched)
	})
	t.Run("resumed from a position", func(t *testing.T) {
		fetched := 0
		assert.Equal(t, seq(18, 25), collect(t, Cursors(ctx, 17, list(10, &fetched))))
		assert.Equal(t, 1, fetched)
	})
	t.Run("a list that goes round in circles stalls", func(t *testing.T) {
		fetch := func(_ context.Context, at int) ([]int, int, bool, int, error) {
			return []int{at}, (at + 1) % 40, true, 1, nil
		}
		var last error
		n := 0
		for _, err := range Cursors(ctx, 0, fetch) {
			n++
			last = err
		}
		assert.ErrorIs(t, last, ErrPaginationStalled)
		assert.Greater(t, n, 40)
		assert.LessOrEqual(t, n, 4*40+2)
	})
}
