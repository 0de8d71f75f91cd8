// Package e2e holds the end-to-end tests that drive chattest from outside the
// Go SDK, as users do: a headless browser on chattest's dashboard; the
// platform's official JavaScript client SDK under Node against cmd/chattest
// and in a browser, in examples/localproduct; and an app on the official
// React UI Kit (uikit/, bundled with esbuild) in a browser against
// cmd/chattest.
//
// It is a module of its own so that the browser driver and the other test
// tools it needs never become dependencies of the SDK. The tests need
// Chromium, Node and npm; .ci/run installs what is missing and runs them with
// CHAT_E2E=1, under which a missing tool fails a test instead of skipping it.
package e2e
