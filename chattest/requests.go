package chattest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/chatrest/chat/internal/redact"
)

// Redacted replaces every credential in the request log: API keys, auth
// tokens, the client API's jwts, push tokens, passwords, the passwords of
// URLs and providers' credentials, and the values of the credential
// headers (see [Request]). The dashboard shows it too.
const Redacted = redact.Redacted

// Request is one request as the server received it, for tests to assert
// what was sent: see [Server.Requests]. It never holds a credential, so
// printing a Request, or the log as JSON, shows no secret, whatever the
// request's Content-Type says and whether or not its body parses. These
// read [Redacted]:
//
//   - the values of the credential headers, whole: apikey, key, secret,
//     Authorization, Proxy-Authorization, Cookie, and those named as the
//     fields below are (authToken, X-Auth-Token, X-Api-Key, ...);
//   - by name, the path segments of {apiKey}, {authToken} and {pushToken},
//     and the values of the query parameters, JSON fields (at any depth;
//     under an object so named, all its strings and numbers), form fields
//     and multipart parts whose name says they hold a credential: its
//     words (its runs of letters and digits, in any letter case), joined,
//     end with password, passwd, pwd, passphrase, token, secret, secretKey,
//     apiKey, apiVideoKey, privateKey, p8Key, authKey, accessKey, appKey,
//     certificate, jwt, authorization or cookie, or its last word is key,
//     pass or auth (user[password], client_secret, x-api-key, metadata.key,
//     password2). These are the passwords of webhooks, tenants and groups, the
//     providers' credentials (basicAuthPassword, private_key, p8Key,
//     twilioAuthToken, sendGridApiKey, ...), push tokens (fcmToken,
//     deviceToken, voipToken), uploaded certificates and the client API's
//     jwts;
//   - the password of every URL with user info, wherever it is written
//     ("https://user:REDACTED@host/hook");
//   - in every other text (a JSON string, a form value, a part, a header, a
//     query value, a body that is none of JSON, a form or multipart), the
//     value written after such a name: "password": "v", password=v, token:
//     v (see below);
//   - by value, wherever it appears (path, query, headers, body; escaped
//     for a path, a query or JSON, or base64-encoded), every API key, auth
//     token and jwt the server has held or issued, the credentials of at
//     least 8 characters that requests carried under the names above (the
//     log hides them in later requests too), and the credentials the
//     request itself carries, when at least 4 characters long (a shorter
//     value is redacted only where its name says it is a credential, so
//     that a password "p" does not wipe every "p" of the log).
//
// A body is read for what it is, not for what its Content-Type says: as
// JSON when it is a JSON object or array, as a URL-encoded form when it
// parses as one, as multipart when it has the boundary its Content-Type
// gives, or a "--boundary" line first or before a part's headers; a JSON
// string, form value or part that is itself JSON, a form or multipart is
// read the same way. Any other text (a body cut short, JSON that does not
// parse, plain text) is scanned for a name that holds a credential
// followed by ":", "=" or "=>" and a value: a quoted value is redacted up
// to its closing quote, or to the end of the text if it has none; an
// object or array, to its closing bracket; a value after "=", to a "&" or
// the end of the line; a number after ":", where it ends; any other value
// after ":", to the end of the line; the text of an XML element so named,
// to the next "<"; the content of a part whose Content-Disposition line
// gives such a name, in a text shaped as a multipart body that could not
// be read as one. A text that would still show a credential once its
// percent, JSON or HTML escapes are decoded (pass%77ord=v) is not shown: a
// body then reads "[N bytes not shown: encoded text that may hold a
// credential]", any other text [Redacted]. A body, or a part, that is not
// UTF-8 text reads "[N bytes of binary data, not shown]", and a part in
// base64 or quoted-printable is shown only if, decoded, it has nothing to
// hide. Showing what is safe to show keeps the log useful for a body the
// server could not read, which is what one debugs; what may not be safe
// is not shown at all.
//
// A JSON body with a value redacted is shown re-encoded, its object keys
// sorted; a form, multipart body or text is shown as sent, with the
// redacted values replaced.
type Request struct {
	// Time is the server's clock ([WithClock]) when the request arrived.
	Time time.Time
	// Method is the request method, e.g. "POST".
	Method string
	// Path is the path as received, escaped, e.g. "/v3/users/a%2Fb".
	Path string
	// Route is the pattern of the route that served the request, e.g.
	// "POST /v3/messages/{id}/thread"; empty when no route matched (the
	// answer was 404 ERR_API_NOT_FOUND).
	Route string
	// Query is the decoded query string.
	Query url.Values
	// Header holds the request's headers.
	Header http.Header
	// Body is the request body, redacted (see above).
	Body string
	// Status is the status answered; 0 when nothing was answered: the
	// connection was dropped ([FaultDropBefore], [FaultDropAfter]), or the
	// client left or the server closed during a [Fault.Delay] (or, for a
	// moment, while the request is in progress).
	Status int
	// Fault is the fault applied to the request; the zero Fault when none
	// was.
	Fault Fault
}

// Requests returns the requests the server received since it started or
// since [Server.ResetRequests], oldest first: the most recent 10000 of them.
// The copies share nothing with the server. Credentials are redacted (see
// [Request]).
func (s *Server) Requests() []Request {
	entries := s.h.log.Requests()
	out := make([]Request, len(entries))
	for i, e := range entries {
		out[i] = Request{Time: e.Time, Method: e.Method, Path: e.Path, Route: e.Route, Query: e.Query,
			Header: e.Header, Body: e.Body, Status: e.Status, Fault: faultOf(e.Fault)}
	}
	return out
}

// ResetRequests empties the request log and sets the counts of
// [Server.RequestCount] to zero.
func (s *Server) ResetRequests() { s.h.log.Reset() }

// RequestCount returns how many requests of route arrived since the server
// started or since [Server.ResetRequests], each attempt of a retried call
// counted. route is a pattern the server registers, method included
// ("POST /v3/messages"), or "*" for every request; any other route has
// no requests and counts 0. Unlike [Server.Requests], the count has no
// limit.
func (s *Server) RequestCount(route string) int {
	route, err := s.h.core.Pattern(route)
	if err != nil {
		return 0
	}
	return s.h.log.Count(route)
}

// AwaitRequests waits until [Server.RequestCount] of route reaches n, e.g.
// for the request that a goroutine under test sends, and returns nil; or
// until ctx ends or the server closes, and returns an error. A request
// counts as soon as it arrives, before it is served. A route the server
// does not register is an error.
func (s *Server) AwaitRequests(ctx context.Context, route string, n int) error {
	route, err := s.h.core.Pattern(route)
	if err != nil {
		return fmt.Errorf("chattest: AwaitRequests: %w", err)
	}
	return s.h.log.Await(ctx, route, n, s.h.core.Closing())
}
