// The dashboard's live update: when the server says something changed
// (a Server-Sent Event on "events"), fetch this page again and swap in its
// content. One fetch at a time; changes during a fetch cause one more.
"use strict";
(() => {
  const live = document.getElementById("live");
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const resp = await fetch(location.href, { cache: "no-store", headers: { Accept: "text/html" } });
        if (!resp.ok) {
          break;
        }
        const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
        const next = doc.getElementById("content");
        if (next) {
          document.getElementById("content").replaceWith(next);
        }
      } while (again);
    } catch (e) {
      live.dataset.state = "offline";
    } finally {
      busy = false;
    }
  }
  const events = new EventSource("events");
  // On each (re)connection, catch up with what changed while not listening.
  events.onopen = () => {
    live.dataset.state = "live";
    refresh();
  };
  events.onerror = () => {
    live.dataset.state = "offline";
  };
  events.onmessage = refresh;
})();
