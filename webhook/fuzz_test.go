package webhook_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatrest/chat/webhook"
)

// FuzzDecode feeds Decode arbitrary bodies, starting from a delivery of
// every trigger and the deliveries the service made (testdata/service).
// It must never panic; a body it accepts is valid JSON, and the event it
// returns keeps that body's envelope and trigger, and encodes again.
func FuzzDecode(f *testing.F) {
	for _, tc := range decodeCases() {
		f.Add([]byte(envelope(tc.trigger, payload(f, tc.trigger))))
	}
	files, err := filepath.Glob(filepath.Join("testdata", "service", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no deliveries of the service: %v", err)
	}
	for _, file := range files {
		f.Add(serviceDelivery(f, strings.TrimSuffix(filepath.Base(file), ".json")))
	}
	for _, seed := range []string{
		envelope("poll_created", `{"x":[1,{"y":null}]}`),
		`{"trigger":"message_sent","data":{"message":{"data":{"entities":{"on":{"entity":"x","entityType":"message"}}}}}}`,
		`{"trigger":"message_edited","data":{"message":{"category":"action","data":{"entities":{"on":{"entity":null,"entityType":"message"},"by":{"entity":[],"entityType":"user"}}}}}}`,
		`{"trigger":"recording_generated","data":{"duration":"NaN","startTime":"1e400"}}`,
		`{"trigger":"after_feed_item_read","data":{"readAt":"99999999999999999999","sentAt":-1e30}}`,
		`{"trigger":"group_created","data":{"members":{"a":"b"}}}`,
		`{"trigger":7,"data":{}}`,
		`{}`, `null`, `[]`, `"`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := webhook.Decode(body)
		if err != nil {
			if ev != nil {
				t.Fatalf("an event with an error: %T", ev)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		env := ev.Envelope()
		if env == nil {
			t.Fatalf("%T without its envelope", ev)
		}
		if string(ev.Trigger()) != env.Trigger || env.Trigger == "" {
			t.Fatalf("trigger %q, envelope's %q", ev.Trigger(), env.Trigger)
		}
		if _, unknown := ev.(*webhook.UnknownEvent); unknown == ev.Trigger().Known() {
			t.Fatalf("%s decoded to %T", ev.Trigger(), ev)
		}
		// What decodes encodes again, the envelope with what it does not
		// model.
		if _, err := json.Marshal(ev); err != nil {
			t.Fatalf("encoding %T: %v", ev, err)
		}
		if _, err := json.Marshal(env); err != nil {
			t.Fatalf("encoding the envelope: %v", err)
		}
	})
}
