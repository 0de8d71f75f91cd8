package webhook_test

import (
	"encoding/json"
	"os"
	"regexp"
	"sync"
	"testing"

	"github.com/chatrest/chat/webhook"
)

// The payloads of every trigger are the reference's examples
// (payloadsFile, built from the fields platform reference §14.4 lists for
// each, with the types it shows: string numbers where it says so), which
// chattest's webhook contract compares the fake's deliveries with too.
// They drive the decoding table and seed the fuzz target.

const payloadsFile = "../testdata/reference/webhook-payloads.json"

// placeholderKey is an object keyed by uid in the reference's payloads,
// which key it by the placeholder "<uid>"; its submatch is the uid.
var placeholderKey = regexp.MustCompile(`"<uid>":\{"uid":"([^"]+)"`)

// payloads are the reference's payloads by trigger, their objects keyed by
// uid as deliveries key them.
var payloads = sync.OnceValues(func() (map[webhook.Trigger]string, error) {
	raw, err := os.ReadFile(payloadsFile)
	if err != nil {
		return nil, err
	}
	var byTrigger map[webhook.Trigger]json.RawMessage
	if err := json.Unmarshal(raw, &byTrigger); err != nil {
		return nil, err
	}
	out := make(map[webhook.Trigger]string, len(byTrigger))
	for trigger, data := range byTrigger {
		out[trigger] = placeholderKey.ReplaceAllString(string(data), `"$1":{"uid":"$1"`)
	}
	return out, nil
})

// payload returns the reference's payload of trigger.
func payload(tb testing.TB, trigger webhook.Trigger) string {
	tb.Helper()
	all, err := payloads()
	if err != nil {
		tb.Fatalf("reading %s: %v", payloadsFile, err)
	}
	data, ok := all[trigger]
	if !ok {
		tb.Fatalf("%s has no payload of %s", payloadsFile, trigger)
	}
	return data
}

// envelope returns the body of a delivery of trigger with data.
func envelope(trigger webhook.Trigger, data string) string {
	typ := ""
	switch trigger {
	case webhook.TriggerCallInitiated, webhook.TriggerCallStarted, webhook.TriggerCallParticipantJoined,
		webhook.TriggerCallParticipantLeft, webhook.TriggerCallEnded:
		typ = `,"type":"call"`
	case webhook.TriggerMeetingStarted, webhook.TriggerMeetingParticipantJoined,
		webhook.TriggerMeetingParticipantLeft, webhook.TriggerMeetingEnded:
		typ = `,"type":"meet"`
	}
	return `{"trigger":"` + string(trigger) + `","data":` + data + `,"appId":"app-1","region":"us","webhook":"hook-1"` + typ + `}`
}
