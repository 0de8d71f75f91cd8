package chat_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestMetricsWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Usage",
			Call: func(c *chat.Client) (any, error) {
				return c.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: 1630164253, ToDate: 1632842653})
			},
			Reply: `{"data":{"metrics":{"audio_minutes":12,"video_minutes":3.5,"recorded_minutes":0,"active_users":40,"concurrent_users":7},
				"time_range":{"fromDate":1630164253000,"toDate":1632842653000}}}`,
			Method: http.MethodGet, Path: "/v3/stats", Query: "fromDate=1630164253&toDate=1632842653",
			Want: &chat.UsageMetrics{
				Metrics:   chat.UsageCounts{AudioMinutes: 12, VideoMinutes: 3.5, ActiveUsers: 40, ConcurrentUsers: 7},
				TimeRange: chat.UsageTimeRange{FromDate: 1630164253000, ToDate: 1632842653000},
			},
		},
		{
			Name: "Usage with counts as strings",
			Call: func(c *chat.Client) (any, error) {
				return c.Metrics.Usage(ctx, &chat.UsageOptions{FromDate: 1, ToDate: 1})
			},
			Reply: `{"data":{"metrics":{"audio_minutes":"1","video_minutes":"2","recorded_minutes":"3","active_users":"4","concurrent_users":"5"},
				"time_range":{"fromDate":"1","toDate":"1"}}}`,
			Method: http.MethodGet, Path: "/v3/stats", Query: "fromDate=1&toDate=1",
			Want: &chat.UsageMetrics{
				Metrics:   chat.UsageCounts{AudioMinutes: 1, VideoMinutes: 2, RecordedMinutes: 3, ActiveUsers: 4, ConcurrentUsers: 5},
				TimeRange: chat.UsageTimeRange{FromDate: 1, ToDate: 1},
			},
		},
		{
			Name: "Messages",
			Call: func(c *chat.Client) (any, error) { return c.Metrics.Messages(ctx) },
			Reply: `{"data":{"startTime":"1682676600000","endTime":"1682680200000","dataPoints":[
				{"messagesSent":3,"readReceipts":1,"deliveryReceipts":2,"startTime":"1682676600000","endTime":"1682676900000"},
				{"messagesSent":0,"readReceipts":0,"deliveryReceipts":0,"startTime":1682676900000,"endTime":1682677200000}],"appId":"235391c94852dc7d"}}`,
			Method: http.MethodGet, Path: "/v3/stats/messages",
			Want: &chat.MessageMetrics{StartTime: "1682676600000", EndTime: "1682680200000", AppID: "235391c94852dc7d",
				DataPoints: []chat.MessageDataPoint{
					{MessagesSent: 3, ReadReceipts: 1, DeliveryReceipts: 2, StartTime: "1682676600000", EndTime: "1682676900000"},
					{StartTime: "1682676900000", EndTime: "1682677200000"},
				}},
		},
	})
}

func TestMetricsAccessors(t *testing.T) {
	ms := chat.UsageTimeRange{FromDate: 1630164253000, ToDate: 1632842653000}
	assert.Equal(t, time.Unix(1630164253, 0), ms.From(), "milliseconds, as in the reference's example")
	assert.Equal(t, time.Unix(1632842653, 0), ms.To())
	s := chat.UsageTimeRange{FromDate: 1630164253, ToDate: 1632842653}
	assert.Equal(t, time.Unix(1630164253, 0), s.From(), "seconds, as the query")
	assert.Equal(t, time.Unix(1632842653, 0), s.To())
	assert.True(t, chat.UsageTimeRange{}.From().IsZero())

	m := chat.MessageMetrics{StartTime: "1682676600000", EndTime: "1682680200000",
		DataPoints: []chat.MessageDataPoint{{StartTime: "1682676600000", EndTime: "1682676900000"}}}
	assert.Equal(t, time.UnixMilli(1682676600000), m.Start())
	assert.Equal(t, time.UnixMilli(1682680200000), m.End())
	assert.Equal(t, time.UnixMilli(1682676600000), m.DataPoints[0].Start())
	assert.Equal(t, 5*time.Minute, m.DataPoints[0].End().Sub(m.DataPoints[0].Start()))
	assert.True(t, (&chat.MessageMetrics{StartTime: "soon"}).Start().IsZero())
	assert.True(t, (&chat.MessageDataPoint{}).End().IsZero())
}

func TestMetricsArguments(t *testing.T) {
	ctx := context.Background()
	client, m := wiretest.Chat(t)
	for _, tt := range []struct {
		name, arg string
		opts      *chat.UsageOptions
	}{
		{"nil", "opts", nil},
		{"no FromDate", "opts.FromDate", &chat.UsageOptions{ToDate: 2}},
		{"no ToDate", "opts.ToDate", &chat.UsageOptions{FromDate: 2}},
		{"ToDate before FromDate", "opts.ToDate", &chat.UsageOptions{FromDate: 3, ToDate: 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.Metrics.Usage(ctx, tt.opts)
			wiretest.RequireArgError(t, err, tt.arg)
		})
	}
	assert.Zero(t, m.Calls(), "nothing sent")

	m.Reply(http.StatusForbidden, `{"error":{"code":"AUTH_ERR_NO_ACCESS","message":"no access"}}`)
	_, err := client.Metrics.Messages(ctx)
	assert.Equal(t, "AUTH_ERR_NO_ACCESS", wiretest.RequireAPIError(t, err).Code)
	assert.ErrorIs(t, err, chat.ErrUnauthorized)
}

// TestUsageValidate holds the Validate of the usage options to the checks
// their methods run before sending.
func TestUsageValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a range", Value: &chat.UsageOptions{FromDate: 1700000000, ToDate: 1700086400}},
		{Name: "a range of one instant", Value: &chat.UsageOptions{FromDate: 1700000000, ToDate: 1700000000}},
		{Name: "no start", Value: &chat.UsageOptions{ToDate: 1700086400}, Field: "opts.FromDate"},
		{Name: "no end", Value: &chat.UsageOptions{FromDate: 1700000000}, Field: "opts.ToDate"},
		{Name: "an end before the start", Value: &chat.UsageOptions{FromDate: 1700086400, ToDate: 1700000000}, Field: "opts.ToDate"},
	})
}
