package chat

import (
	"context"
	"strconv"
	"strings"
)

// MemberToAdd is one user of [MembersService.BulkAdd].
type MemberToAdd struct {
	// UID is the user to add.
	UID string
	// Scope is the member's scope: [MemberAdmin], [MemberModerator] or
	// [MemberParticipant]; empty means participant.
	Scope MemberScope
}

// AddMemberError is the service's reason for not adding one user of
// [MembersService.BulkAdd]: the error of the user's entry in the answer.
// It matches the sentinel errors by its code, e.g. [ErrConflict] for
// ERR_ALREADY_JOINED and [ErrNotFound] for ERR_UID_NOT_FOUND.
type AddMemberError struct {
	// UID is the user not added.
	UID string
	// Code is the API's code, e.g. "ERR_ALREADY_JOINED"; empty when the
	// service gave none.
	Code string
	// Message is the service's text.
	Message string
}

// Error names the user, the code and the message.
func (e *AddMemberError) Error() string {
	s := "chat: user " + e.UID + " not added"
	if e.Code != "" {
		s += ": " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is reports whether e's code falls under one of the package's sentinel
// errors, as [Error.Is] does.
func (e *AddMemberError) Is(target error) bool { return target != nil && target == classOf(e.Code, 0) }

// BulkAdd adds any number of users to the group guid, with the scope each
// names, and returns one result per user, in the order given: the user's
// [MemberResult] as the service answered it, and an [*AddMemberError] when
// it was not added (ERR_ALREADY_JOINED for a member already, matching
// [ErrConflict]). It sends the users in calls of at most
// [MaxMembersPerCall] to [MembersService.Add], opts.Concurrency (default
// [DefaultBulkConcurrency]) calls at a time, at the pace of the client's
// [Limiter] if it has one ([WithLimiter]). With the [OnBehalfOf] option it
// acts as that user (an admin or moderator of the group).
//
// Users the SDK refuses (an empty UID, one that repeats an earlier user's,
// case-insensitively, or an unknown scope) get an [*ArgumentError] and are
// not sent. A call that fails gives its error to each of its users (the
// group does not exist: ERR_GUID_NOT_FOUND, matching [ErrNotFound]); the
// other calls go on, and the error is nil when every call was sent. A call
// is sent again only when the service did not process it (a 429, or a
// connection that failed before sending), so no user is added twice; when
// a call's outcome is unknown (a 5xx or a timeout), its users carry that
// error. A context that ends, or an answer 401, stops BulkAdd as it stops
// [UsersService.BulkCreate]: it returns at once with the results so far
// and that error, the users not sent carrying [ErrNotSent].
//
// API: POST /v3/groups/{guid}/members (onBehalfOf optional)
func (s *MembersService) BulkAdd(ctx context.Context, guid string, members []MemberToAdd, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[MemberResult], error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	if err := checkBulkOptions(opts); err != nil {
		return nil, err
	}
	results := make([]BulkResult[MemberResult], len(members))
	idx := make([]int, 0, len(members))
	seen := make(map[string]int, len(members))
	for i, m := range members {
		results[i] = BulkResult[MemberResult]{Index: i, Key: m.UID}
		err := uniqueID(seen, i, m.UID, "members")
		if err == nil {
			err = checkScope("members["+strconv.Itoa(i)+"].Scope", m.Scope)
		}
		if err != nil {
			results[i].Err = err
			continue
		}
		idx = append(idx, i)
	}
	var jobs [][]int
	for len(idx) > 0 {
		n := min(MaxMembersPerCall, len(idx))
		jobs, idx = append(jobs, idx[:n:n]), idx[n:]
	}
	return results, runBulk(ctx, opts, results, jobs, func(ctx context.Context, job []int) {
		var req AddMembersRequest
		for _, i := range job {
			switch members[i].Scope {
			case MemberAdmin:
				req.Admins = append(req.Admins, members[i].UID)
			case MemberModerator:
				req.Moderators = append(req.Moderators, members[i].UID)
			default:
				req.Participants = append(req.Participants, members[i].UID)
			}
		}
		resp, err := s.Add(ctx, guid, &req, reqOpts...)
		for _, i := range job {
			if err != nil {
				results[i].Err = err
				continue
			}
			results[i].Data, results[i].Err = memberOutcome(resp, members[i])
		}
	})
}

// memberOutcome finds m's entry in the answer to the call that added it.
func memberOutcome(resp *AddMembersResponse, m MemberToAdd) (*MemberResult, error) {
	list := resp.Participants
	switch m.Scope {
	case MemberAdmin:
		list = resp.Admins
	case MemberModerator:
		list = resp.Moderators
	}
	r, ok := list[m.UID]
	if !ok {
		// The service lower-cases uids; its answer may too.
		r, ok = list[strings.ToLower(m.UID)]
	}
	if !ok {
		return nil, &AddMemberError{UID: m.UID, Message: "the answer does not mention this user: whether it was added is unknown"}
	}
	if r.Success {
		return &r, nil
	}
	e := &AddMemberError{UID: m.UID, Message: r.Reason()}
	if r.Error != nil {
		e.Code = r.Error.Code
	}
	return &r, e
}
