package chat

import (
	"net/url"
)

// Region is the data region an app lives in. It selects the API host.
type Region string

// The regions the service runs in.
const (
	RegionUS Region = "us" // United States (the default)
	RegionEU Region = "eu" // Europe
	RegionIN Region = "in" // India
)

// apiVersion is the version prefix of every chat and calls path; it is added
// here and nowhere else.
const apiVersion = "/v3"

func (r Region) valid() bool {
	return r == RegionUS || r == RegionEU || r == RegionIN
}

// hostURL returns https://{appID}.{kind}-{region}.cometchat.io with the
// version prefix. appID and region must have been validated.
func hostURL(appID string, kind string, r Region) *url.URL {
	return &url.URL{Scheme: "https", Host: appID + "." + kind + "-" + string(r) + ".cometchat.io", Path: apiVersion}
}

// validAppID reports why appID cannot be one DNS label, or "".
func validAppID(appID string) string {
	switch {
	case appID == "":
		return "must not be empty"
	case len(appID) > 63:
		return "must be at most 63 characters"
	case appID[0] == '-' || appID[len(appID)-1] == '-':
		return "must not start or end with a hyphen"
	}
	for i := 0; i < len(appID); i++ {
		c := appID[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return "may only contain letters, digits and hyphens"
		}
	}
	return ""
}
