package rest

import "net/url"

// ValidSegment reports whether s can be one path segment: not empty, "."
// or "..", which would change the path's shape.
func ValidSegment(s string) bool {
	return s != "" && s != "." && s != ".."
}

// EscapeSegment escapes s for use as exactly one path segment: no value
// can add a segment, a query or a fragment.
func EscapeSegment(s string) string {
	for i := 0; i < len(s); i++ {
		if !unreserved(s[i]) {
			return url.PathEscape(s)
		}
	}
	return s
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~'
}

// Required checks name/value pairs of required arguments and returns the
// name of the first one that is empty or a dot segment (which would change
// a path's shape) and what is wrong with it; "" when all are fine.
func Required(nameValues ...string) (name, problem string) {
	for i := 0; i+1 < len(nameValues); i += 2 {
		switch nameValues[i+1] {
		case "":
			return nameValues[i], "must not be empty"
		case ".", "..":
			return nameValues[i], `must not be "." or ".."`
		}
	}
	return "", ""
}
