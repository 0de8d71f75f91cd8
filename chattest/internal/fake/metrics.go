package fake

import (
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/chatrest/chat"
)

// The metrics are computed from the state when asked; nothing is stored
// for them.

const (
	// metricsBucket is the length of a message metrics data point.
	metricsBucket = 5 * time.Minute
	// metricsWindow is the period message metrics cover: the last hour
	// (12 data points).
	metricsWindow = time.Hour
)

func metricsRoutes() []route {
	return []route{
		{pattern: "GET /v3/stats", reach: appOnly, handle: (*state).usageMetrics},
		{pattern: "GET /v3/stats/messages", reach: appOnly, handle: (*state).messageMetrics},
	}
}

// GET /v3/stats
//
// fromDate and toDate (Unix seconds) are required, toDate not before
// fromDate; the period includes both. The fake computes:
//   - audio_minutes, video_minutes: the calls' minutes of the calls started
//     in the period (Server.AddCall);
//   - recorded_minutes: the minutes of the recordings started in the
//     period;
//   - active_users: the users who were active in the period: their
//     lastActiveAt, a message they sent, or a call they joined;
//   - concurrent_users: the most call participants joined at one moment
//     of the period (the fake has no connections; calls are its only
//     presence).
//
// Minutes are rounded up to whole minutes, answered as integers.
// time_range echoes the period in milliseconds (see CHOICES.md).
func (st *state) usageMetrics(c *call) (any, error) {
	p := c.params()
	from, hasFrom := p.timestamp("fromDate")
	to, hasTo := p.timestamp("toDate")
	if !hasFrom && p.str("fromDate") == "" {
		p.v.add("fromDate", "The fromDate field is required.")
	}
	if !hasTo && p.str("toDate") == "" {
		p.v.add("toDate", "The toDate field is required.")
	}
	if hasFrom && hasTo && to < from {
		p.v.add("toDate", "The toDate must be a date after or equal to fromDate.")
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	in := func(t int64) bool { return t != 0 && from <= t && t <= to }

	var audio, video, recorded float64
	active := map[string]bool{}
	for _, r := range st.calls {
		cl := &r.c
		if in(int64(cl.StartedAt)) {
			audio += cl.TotalAudioMinutes
			video += cl.TotalVideoMinutes
		}
		for _, rec := range cl.Recordings {
			start := rec.StartTime
			if start == 0 {
				start = cl.StartedAt
			}
			if in(int64(start)) {
				recorded += rec.Duration
			}
		}
		for _, pt := range cl.Participants {
			if in(int64(pt.JoinedAt)) {
				active[pt.UID] = true
			}
		}
	}
	for _, m := range st.messages {
		if m.m.Category != chat.CategoryAction && in(int64(m.m.SentAt)) {
			active[m.m.Sender] = true
		}
	}
	for uid, u := range st.users {
		if in(int64(u.u.LastActiveAt)) {
			active[uid] = true
		}
	}
	users := 0
	for uid := range active {
		if st.users[uid] != nil {
			users++
		}
	}
	return data(chat.UsageMetrics{
		Metrics: chat.UsageCounts{
			AudioMinutes: wholeMinutes(audio), VideoMinutes: wholeMinutes(video), RecordedMinutes: wholeMinutes(recorded),
			ActiveUsers: users, ConcurrentUsers: st.peakParticipants(from, to, c.timestamp()),
		},
		TimeRange: chat.UsageTimeRange{FromDate: from * 1000, ToDate: to * 1000},
	}), nil
}

// wholeMinutes rounds m up to a whole number of minutes, ignoring the
// rounding noise of adding fractions.
func wholeMinutes(m float64) float64 { return math.Ceil(m - 1e-9) }

// peakParticipants is the most call participants joined at one moment
// between from and to. A participant who has not left is in the call until
// it ends, or until now while it goes on.
func (st *state) peakParticipants(from, to int64, now chat.Timestamp) int {
	type edge struct {
		at    int64
		delta int
	}
	var edges []edge
	for _, r := range st.calls {
		for i := range r.c.Participants {
			pt := &r.c.Participants[i]
			if pt.JoinedAt == 0 {
				continue
			}
			left := int64(LeftAt(&r.c, pt))
			if left == 0 {
				left = int64(now)
			}
			start, end := max(int64(pt.JoinedAt), from), min(left, to)
			if start > end {
				continue
			}
			edges = append(edges, edge{start, 1}, edge{end, -1})
		}
	}
	// At equal times, joins come first: a participant who leaves when
	// another joins was there with them.
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].delta > edges[j].delta
	})
	peak, n := 0, 0
	for _, e := range edges {
		n += e.delta
		peak = max(peak, n)
	}
	return peak
}

// GET /v3/stats/messages
//
// No parameter; the fake covers the last hour: 12 buckets of 5 minutes
// aligned to the clock, the last
// one holding the request's time. messagesSent counts the stored messages
// (action messages excepted, thread replies and deleted messages included)
// by the time they were sent. The fake stores read and delivered marks per
// user and conversation, not the time of each receipt: readReceipts and
// deliveryReceipts count, for each message of a conversation, the users
// other than its sender whose read (or delivered) mark covers it, in the
// bucket of the message's sent time. A read message counts as delivered
// too, as the service sends both receipts.
func (st *state) messageMetrics(c *call) (any, error) {
	end := c.now.Truncate(metricsBucket).Add(metricsBucket)
	start := end.Add(-metricsWindow)
	points := make([]chat.MessageDataPoint, metricsWindow/metricsBucket)
	for i := range points {
		from := start.Add(time.Duration(i) * metricsBucket)
		points[i].StartTime = millisText(from)
		points[i].EndTime = millisText(from.Add(metricsBucket))
	}
	bucket := func(sentAt chat.Timestamp) *chat.MessageDataPoint {
		t := sentAt.Time()
		if sentAt == 0 || t.Before(start) || !t.Before(end) {
			return nil
		}
		return &points[t.Sub(start)/metricsBucket]
	}
	for _, m := range st.messages {
		if m.m.Category == chat.CategoryAction {
			continue
		}
		if p := bucket(m.m.SentAt); p != nil {
			p.MessagesSent++
		}
	}
	for k, cu := range st.convMarks {
		cv := st.conv(k.id)
		if cv == nil {
			continue
		}
		for _, m := range cv.msgs {
			if m.m.Category == chat.CategoryAction || m.m.Sender == k.owner || m.id > cu.deliveredUpTo && m.id > cu.readUpTo {
				continue
			}
			p := bucket(m.m.SentAt)
			if p == nil {
				continue
			}
			p.DeliveryReceipts++
			if m.id <= cu.readUpTo {
				p.ReadReceipts++
			}
		}
	}
	return data(chat.MessageMetrics{StartTime: millisText(start), EndTime: millisText(end), AppID: st.appID, DataPoints: points}), nil
}

// millisText is t in Unix milliseconds, as a string.
func millisText(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
