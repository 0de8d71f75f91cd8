package chat_test

import (
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// TestBulkOptionsValidate holds BulkOptions.Validate to the checks the
// data import's bulk methods run before sending.
func TestBulkOptionsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "the defaults", Value: &chat.BulkOptions{}},
		{Name: "the largest batch", Value: &chat.BulkOptions{BatchSize: chat.MaxImportEntities, Concurrency: 4, RequestsPerMinute: 600}},
		{Name: "a batch too large", Value: &chat.BulkOptions{BatchSize: chat.MaxImportEntities + 1}, Field: "opts.BatchSize"},
		{Name: "a negative batch", Value: &chat.BulkOptions{BatchSize: -1}, Field: "opts.BatchSize"},
		{Name: "a negative pace", Value: &chat.BulkOptions{RequestsPerMinute: -1}, Field: "opts.RequestsPerMinute"},
		{Name: "a negative concurrency", Value: &chat.BulkOptions{Concurrency: -1}, Field: "opts.Concurrency"},
	})
}
