package chat

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// MetricsService reports the app's usage (call minutes, active and
// concurrent users over a period) and its message metrics (messages and
// receipts in 5-minute buckets). Usage is tracked per monthly billing
// cycle; for usage across the apps of a multi-tenant account see the
// management API's usage report. Get it from [Client.Metrics].
type MetricsService struct{ c *caller }

// UsageOptions is the period [MetricsService.Usage] reports on. Both bounds
// are required.
type UsageOptions struct {
	// FromDate is the start of the period (Unix seconds); required.
	FromDate Timestamp `url:"fromDate"`
	// ToDate is the end of the period (Unix seconds); required, not before
	// FromDate.
	ToDate Timestamp `url:"toDate"`
}

// UsageMetrics is the app's usage over a period.
type UsageMetrics struct {
	// Metrics are the totals of the period.
	Metrics UsageCounts `json:"metrics"`
	// TimeRange is the period, as the service echoes it.
	TimeRange UsageTimeRange `json:"time_range"`
}

// UsageCounts are the totals of [UsageMetrics]. Minutes are float64 so
// that fractional minutes, as the Calls API reports them, decode too.
type UsageCounts struct {
	// AudioMinutes is the audio call minutes of the period.
	AudioMinutes float64 `json:"audio_minutes"`
	// VideoMinutes is the video call minutes of the period.
	VideoMinutes float64 `json:"video_minutes"`
	// RecordedMinutes is the call recording minutes of the period.
	RecordedMinutes float64 `json:"recorded_minutes"`
	// ActiveUsers is how many users were active in the period.
	ActiveUsers int `json:"active_users"`
	// ConcurrentUsers is the peak of users connected at once.
	ConcurrentUsers int `json:"concurrent_users"`
}

// UsageTimeRange is the period of [UsageMetrics] as the service sends it.
// The query is in Unix seconds, but the answer may be in milliseconds
// (1630164253000); the values are kept as sent, and [UsageTimeRange.From]
// and [UsageTimeRange.To] read either unit.
type UsageTimeRange struct {
	// FromDate is the start of the period, in the unit the service sent.
	FromDate int64 `json:"fromDate"`
	// ToDate is the end of the period, in the unit the service sent.
	ToDate int64 `json:"toDate"`
}

// From is FromDate as a time.Time: a value of 13 digits or more is read as
// Unix milliseconds, a smaller one as seconds; zero is the zero time.
func (r UsageTimeRange) From() time.Time { return unixSecondsOrMillis(r.FromDate) }

// To is ToDate as a time.Time, read as [UsageTimeRange.From] reads
// FromDate.
func (r UsageTimeRange) To() time.Time { return unixSecondsOrMillis(r.ToDate) }

// unixSecondsOrMillis reads n as Unix milliseconds from 10^12 (which, as
// seconds, would be more than 30,000 years away) and as seconds below.
func unixSecondsOrMillis(n int64) time.Time {
	switch {
	case n == 0:
		return time.Time{}
	case n >= 1e12 || n <= -1e12:
		return time.UnixMilli(n)
	}
	return time.Unix(n, 0)
}

// Validate checks o as [MetricsService.Usage] does before sending:
// FromDate and ToDate set, ToDate not before FromDate. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (o *UsageOptions) Validate() error {
	switch {
	case o.FromDate <= 0:
		return newArgError("opts.FromDate", "must be set")
	case o.ToDate <= 0:
		return newArgError("opts.ToDate", "must be set")
	case o.ToDate < o.FromDate:
		return newArgError("opts.ToDate", "must not be before opts.FromDate")
	}
	return nil
}

// Usage returns the app's usage between opts.FromDate and opts.ToDate:
// call minutes, active and concurrent users.
//
// API: GET /v3/stats (onBehalfOf not supported)
func (s *MetricsService) Usage(ctx context.Context, opts *UsageOptions, reqOpts ...RequestOption) (*UsageMetrics, error) {
	if opts == nil {
		return nil, newArgError("opts", "must not be nil")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return do[UsageMetrics](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"stats"}, Query: opts}, reqOpts)
}

// MessageMetrics counts the messages sent and the receipts received in
// 5-minute buckets. Its times are strings of Unix milliseconds on the wire
// ("1682676600000"); read them with [MessageMetrics.Start] and
// [MessageMetrics.End]. The period is the last hour; the API takes no
// parameter to choose another.
type MessageMetrics struct {
	// StartTime is the start of the period, in Unix milliseconds, as sent.
	StartTime string `json:"startTime"`
	// EndTime is the end of the period, in Unix milliseconds, as sent.
	EndTime string `json:"endTime"`
	// AppID is the app measured.
	AppID string `json:"appId"`
	// DataPoints are the 5-minute buckets of the period, oldest first.
	DataPoints []MessageDataPoint `json:"dataPoints"`
}

// Start is StartTime as a time.Time (zero when absent or not a number).
func (m *MessageMetrics) Start() time.Time { return unixMillisText(m.StartTime) }

// End is EndTime as a time.Time (zero when absent or not a number).
func (m *MessageMetrics) End() time.Time { return unixMillisText(m.EndTime) }

// MessageDataPoint is one 5-minute bucket of [MessageMetrics].
type MessageDataPoint struct {
	// MessagesSent is how many messages were sent in the bucket.
	MessagesSent int `json:"messagesSent"`
	// ReadReceipts is how many read receipts were received.
	ReadReceipts int `json:"readReceipts"`
	// DeliveryReceipts is how many delivery receipts were received.
	DeliveryReceipts int `json:"deliveryReceipts"`
	// StartTime is the start of the bucket, in Unix milliseconds, as sent.
	StartTime string `json:"startTime"`
	// EndTime is the end of the bucket, in Unix milliseconds, as sent.
	EndTime string `json:"endTime"`
}

// Start is StartTime as a time.Time (zero when absent or not a number).
func (p *MessageDataPoint) Start() time.Time { return unixMillisText(p.StartTime) }

// End is EndTime as a time.Time (zero when absent or not a number).
func (p *MessageDataPoint) End() time.Time { return unixMillisText(p.EndTime) }

// unixMillisText reads a string of Unix milliseconds.
func unixMillisText(s string) time.Time {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n == 0 {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

// Messages returns the app's message metrics: messages sent and read and
// delivery receipts received, in 5-minute buckets.
//
// API: GET /v3/stats/messages (onBehalfOf not supported)
func (s *MetricsService) Messages(ctx context.Context, opts ...RequestOption) (*MessageMetrics, error) {
	return do[MessageMetrics](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"stats", "messages"}}, opts)
}
