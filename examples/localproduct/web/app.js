// The web app of the local product: it asks the backend to log its user in
// (the backend mints an auth token with the Go SDK), logs in with the
// platform's official JavaScript client SDK, and chats live with the other
// user. Each message has a button that asks the backend to reply in its
// thread on the user's behalf.
const user = new URLSearchParams(location.search).get('user') || 'alice';
const $ = (id) => document.getElementById(id);
let session; // what /api/login answered

async function api(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) throw new Error(out.error);
  return out;
}

// show adds a message to the list, once.
function show(m) {
  const id = String(m.getId());
  if (document.querySelector(`#messages li[data-id="${id}"]`)) return;
  const li = document.createElement('li');
  li.dataset.id = id;
  const sender = m.getSender().getUid();
  li.className = (sender === session.uid ? 'mine' : '') + (m.getParentMessageId() ? ' reply' : '');
  li.textContent = `${sender}: ${m.getText()}`;
  if (!m.getParentMessageId()) {
    const button = document.createElement('button');
    button.textContent = 'Reply from the backend';
    // The reply comes back live, to both users, as any message does.
    button.onclick = () => api('/api/reply', { user: session.uid, parentId: id }).catch(fail);
    li.append(button);
  }
  $('messages').append(li);
}

function fail(e) {
  $('status').textContent = `Error: ${e.message || e.code || e}`;
}

async function main() {
  session = await api('/api/login', { user });
  $('me').textContent = session.uid;
  $('peer').textContent = session.peer;
  // Session storage keeps each tab's login its own: alice and bob can chat
  // in two tabs of one browser.
  const settings = new CometChat.AppSettingsBuilder().setRegion('us').setStorageMode(CometChat.StorageMode.SESSION)
    .overrideClientHost(`${session.host}/v3.0`).overrideAdminHost(`${session.host}/v3.0`).build();
  await CometChat.init(session.appId, settings);
  await CometChat.login(session.authToken);
  CometChat.addMessageListener('app', new CometChat.MessageListener({ onTextMessageReceived: show }));
  const history = await new CometChat.MessagesRequestBuilder().setUID(session.peer).setLimit(50).build().fetchPrevious();
  history.filter((m) => m.getText).sort((a, b) => a.getId() - b.getId()).forEach(show);
  $('compose').onsubmit = async (e) => {
    e.preventDefault();
    const text = $('text').value;
    $('text').value = '';
    show(await CometChat.sendMessage(new CometChat.TextMessage(session.peer, text, 'user')));
  };
  $('status').textContent = 'Online';
  $('status').className = 'ready';
}

main().catch(fail);
