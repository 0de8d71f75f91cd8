package chat_test

import (
	"testing"
)

// TestHostileGoodAnswers runs every hostile-server call against its good
// answer: the baseline of the other hostile-server tests, each of whose
// promises it must keep. Every scenario asserts all of the promises of
// hostileEnv.check.
func TestHostileGoodAnswers(t *testing.T) { runHostile(t, hostileGoodAnswers()) }

// hostileGoodAnswers is TestHostileGoodAnswers's part of the hostile-server table.
func hostileGoodAnswers() hostileSection {
	s := hostileSection{title: "every call's good answer, the baseline", test: "TestHostileGoodAnswers (decode_test.go)"}
	add := s.add
	for _, c := range hostileCalls {
		add(hostileScenario{Call: c.name, Status: 200, Body: bodyOK})
	}
	return s
}

// TestHostileAnswersWithoutData answers every hostile-server call with a
// 2xx that holds no data or is cut short: the call fails with a
// *chat.Error, never a zero-valued success. Every scenario asserts all of
// the promises of hostileEnv.check.
func TestHostileAnswersWithoutData(t *testing.T) { runHostile(t, hostileAnswersWithoutData()) }

// hostileAnswersWithoutData is TestHostileAnswersWithoutData's part of the hostile-server table.
func hostileAnswersWithoutData() hostileSection {
	s := hostileSection{title: "zero-valued success (class 1): 2xx answers that hold no data or are cut short", test: "TestHostileAnswersWithoutData (decode_test.go)"}
	add := s.add
	for _, c := range hostileCalls {
		for _, b := range []hostileBody{bodyEmpty, bodyNull, bodyEmptyObject, bodyDataNull, bodyDataEmpty, bodyDataArray} {
			add(hostileScenario{Call: c.name, Status: 200, Body: b})
		}
		add(hostileScenario{Call: c.name, Status: 204, Body: bodyEmpty},
			hostileScenario{Call: c.name, Status: 201, Body: bodyOK, Length: lenShort, Variant: 0})
	}
	add(hostileScenario{Call: "Users.List", Status: 200, Body: bodyRaw, Raw: `{"meta":{"pagination":{"per_page":2}}}`},
		hostileScenario{Call: "Users.All", Status: 200, Body: bodyRaw, Raw: `{"meta":{"pagination":{"per_page":2}}}`},
		hostileScenario{Call: "Messages.All", Status: 200, Body: bodyRaw, Raw: `{"meta":{"current":{"limit":2,"count":0}}}`},
		hostileScenario{Call: "Users.Get", Status: 200, Body: bodyRaw, Raw: `{"error":{"code":"ERR_HOSTILE","message":"an error with a 200"}}`},
		hostileScenario{Call: "Users.Get", Status: 200, Body: bodyEmptyObject, Length: lenShort},
		hostileScenario{Call: "Users.Get", Status: 200, Body: bodyOK, Length: lenLong},
		hostileScenario{Call: "Messages.Send", Status: 200, Body: bodyOK, Length: lenLong},
		hostileScenario{Call: "Users.Delete", Status: 200, Body: bodyOK, Length: lenLong})
	return s
}

// TestHostileTimestampsNeverWrap answers hostile-server calls with out-of-
// range timestamps: none decodes to a time before 1970. Every scenario
// asserts all of the promises of hostileEnv.check.
func TestHostileTimestampsNeverWrap(t *testing.T) { runHostile(t, hostileWrappingTimestamps()) }

// hostileWrappingTimestamps is TestHostileTimestampsNeverWrap's part of the hostile-server table.
func hostileWrappingTimestamps() hostileSection {
	s := hostileSection{title: "timestamps that wrap (class 6): values out of range", test: "TestHostileTimestampsNeverWrap (decode_test.go)"}
	add := s.add
	for v := range hostileTimestamps {
		for _, name := range []string{"Users.Get", "Messages.Send", "Users.List", "Users.All", "Messages.All",
			"management Webhooks.Create", "management Tenants.Add", "DataImport.BulkImportGroups"} {
			add(hostileScenario{Call: name, Status: 200, Body: bodyTimestamps, Variant: v})
		}
	}
	return s
}

// TestHostileOtherAnswers answers a read, a write, a list and a management
// call with the other hostile answers: values of the wrong type, numbers
// beyond every integer type, truncated, oversized and HTML bodies, odd
// statuses and lying lengths. Every scenario asserts all of the promises of
// hostileEnv.check.
func TestHostileOtherAnswers(t *testing.T) { runHostile(t, hostileOtherAnswers()) }

// hostileOtherAnswers is TestHostileOtherAnswers's part of the hostile-server table.
func hostileOtherAnswers() hostileSection {
	s := hostileSection{title: "the other hostile answers, to a read, a write, a list and a management call", test: "TestHostileOtherAnswers (decode_test.go)"}
	add := s.add
	for _, name := range []string{"Users.Get", "Messages.SendThread", "Users.List", "management Tenants.Add"} {
		for v := range hostileWrongTypes {
			add(hostileScenario{Call: name, Status: 200, Body: bodyWrongTypes, Variant: v})
		}
		for v := range hostileHugeNumbers {
			add(hostileScenario{Call: name, Status: 200, Body: bodyHugeNumbers, Variant: v})
		}
		add(hostileScenario{Call: name, Status: 200, Body: bodyTruncated},
			hostileScenario{Call: name, Status: 200, Body: bodyTooLarge},
			hostileScenario{Call: name, Status: 200, Body: bodyHTML},
			hostileScenario{Call: name, Status: 299, Body: bodyOK},
			hostileScenario{Call: name, Status: 304, Body: bodyEmpty},
			hostileScenario{Call: name, Status: 999, Body: bodyAPIError},
			hostileScenario{Call: name, Status: 302, Body: bodyOK},
			hostileScenario{Call: name, Status: 404, Body: bodyAPIError, Length: lenLong},
			hostileScenario{Call: name, Status: 200, Body: bodyOK, Reset: 4, RetryAfter: 5})
	}
	return s
}
