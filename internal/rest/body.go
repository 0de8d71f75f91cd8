package rest

import (
	"bytes"
	"mime/multipart"
	"net/textproto"
	"strings"
)

// RawBody is a request body sent as it is, with its own Content-Type, for
// the few operations that take no JSON (multipart uploads). Its bytes are
// kept so that a retry sends them again.
type RawBody struct {
	ContentType string
	Data        []byte
}

// FormFile is one file part of a multipart body.
type FormFile struct {
	// Field is the form field name, e.g. "certificate".
	Field string
	// Filename is sent in the part's Content-Disposition.
	Filename string
	// ContentType of the part; empty sends application/octet-stream.
	ContentType string
	Content     []byte
}

// FormField is one plain value of a multipart body.
type FormField struct{ Name, Value string }

// Multipart builds a multipart/form-data body from fields (in order) and
// files.
func Multipart(fields []FormField, files ...FormFile) (*RawBody, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f.Name, f.Value); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", `form-data; name="`+quoteEscaper.Replace(f.Field)+`"; filename="`+quoteEscaper.Replace(f.Filename)+`"`)
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		pw, err := w.CreatePart(h)
		if err != nil {
			return nil, err
		}
		if _, err := pw.Write(f.Content); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return &RawBody{ContentType: w.FormDataContentType(), Data: buf.Bytes()}, nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")
