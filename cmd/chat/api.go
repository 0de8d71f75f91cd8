package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// apiCmd sends any request to an API: what no command does yet.
func (c *cli) apiCmd() *cobra.Command {
	var (
		fa     fieldArgs
		method string
		which  string
		as     string
	)
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Send any request to the API, with the profile's credentials, and print the JSON answer",
		Long: `Send a request to PATH and print the JSON the API answers, with the credentials,
retries, rate limiting and redaction of every command.

PATH is relative to the API's address, e.g. /users/alice for
https://APP.api-REGION.cometchat.io/v3/users/alice; a query may follow it
(/users?perPage=5). Each segment is sent escaped, as given (%2F stays inside
its segment).

The API is told from PATH: /apps/... and /tenants go to the management API
(with the management key and secret), /calls/... to the calls API, anything
else to the app's chat API (with its API key); --api chat|calls|management
says it outright.

The method is GET, or POST when fields or --input are given; -X sets it.
Fields (-f key=value as text, -F key=value as JSON) make the JSON body, or the
query of a GET; --input FILE sends a file's JSON as the body. A DELETE asks
first on a terminal; without one it runs only with --yes.`,
		Example: `  chat api /users/alice
  chat api /users -f uid=alice -f name=Alice
  chat api -X PUT /users/alice -F metadata='{"plan":"pro"}'
  chat api /messages --as alice --input message.json
  chat api /apps/$APP/webhooks`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u, err := url.Parse(args[0])
			if err != nil || u.Scheme != "" || u.Host != "" {
				return usageErrorf("PATH %q: give a path below the API's address, e.g. /users/alice", args[0])
			}
			var segments []string
			for _, seg := range strings.Split(strings.Trim(u.EscapedPath(), "/"), "/") {
				if seg == "" {
					continue
				}
				s, err := url.PathUnescape(seg)
				if err != nil {
					return usageErrorf("PATH %q: %v", args[0], err)
				}
				segments = append(segments, s)
			}
			if len(segments) > 0 && segments[0] == "v3" {
				segments = segments[1:] // the address holds the version
			}
			if len(segments) == 0 {
				return usageErrorf("PATH %q names no resource", args[0])
			}
			a, err := apiOf(which, segments[0])
			if err != nil {
				return err
			}
			m := strings.ToUpper(method)
			if m == "" {
				m = http.MethodGet
				if fa.given() {
					m = http.MethodPost
				}
			}
			if !validMethod(m) {
				return usageErrorf("-X %s: give GET, POST, PUT, PATCH or DELETE", method)
			}
			if m == http.MethodDelete {
				if err := c.confirm(cmd, args); err != nil {
					return err
				}
			}
			req := &chat.Request{Method: m, Path: segments, OnBehalfOf: as}
			cmd.Annotations = map[string]string{annotMethod: m}
			q, err := buildQuery(cmd, &fa, nil, m == http.MethodGet)
			if err != nil {
				return err
			}
			for k, vs := range u.Query() {
				q[k] = append(vs, q[k]...)
			}
			if len(q) > 0 {
				req.Query = q
			}
			if m != http.MethodGet {
				if req.Body, err = buildBody(cmd, c.stdin, &fa, nil, nil); err != nil {
					return err
				}
			}
			var raw json.RawMessage
			if err := c.send(cmd, a, req, &raw); err != nil {
				return err
			}
			if len(raw) == 0 {
				return nil
			}
			if err := printJSON(c.stdout, redactJSON(raw, c.hidden...), ""); err != nil {
				return err
			}
			_, err = io.WriteString(c.stdout, "\n")
			return err
		},
	}
	f := cmd.Flags()
	f.StringVarP(&method, "method", "X", "", "the HTTP method (default GET, or POST with fields)")
	f.StringVar(&which, "api", "", "the API: chat, calls or management (default: told from PATH)")
	f.StringVar(&as, "as", "", "the user the call acts as (the onBehalfOf header)")
	f.BoolP("yes", "y", false, "send a DELETE without asking (needed without a terminal)")
	fa.add(cmd)
	return cmd
}

// apiOf returns the API named, or the one a path's first segment belongs
// to.
func apiOf(name, first string) (api, error) {
	switch name {
	case "chat":
		return apiChat, nil
	case "calls":
		return apiCalls, nil
	case "management", "mgmt":
		return apiMgmt, nil
	case "":
	default:
		return 0, usageErrorf("--api %s: give chat, calls or management", name)
	}
	switch first {
	case "apps", "tenants":
		return apiMgmt, nil
	case "calls":
		return apiCalls, nil
	}
	return apiChat, nil
}

func validMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}
