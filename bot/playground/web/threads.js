// The playground's channel list (bot/playground/channels.py answers it): #games with its threads
// under it, as Discord's sidebar shows them; a click opens one, and "Start a thread" starts one
// as the member the page is viewing as. It reads the list at /playground/channels and acts
// through the preview's action route.

const capability = window.location.hash.slice(1);
const EVERY = 1000; // ms between two looks at the list (the bot may start a thread any time)

const nav = document.createElement("nav");
nav.id = "playground-channels";
nav.className = "playground-channels";
nav.setAttribute("aria-label", "Channels and threads");
const list = document.createElement("ul");
const form = document.createElement("form");
form.className = "playground-new-thread";
const nameBox = document.createElement("input");
nameBox.id = "playground-thread-name";
nameBox.maxLength = 100;
nameBox.placeholder = "New thread's name";
nameBox.setAttribute("aria-label", "New thread's name");
const start = document.createElement("button");
start.type = "submit";
start.id = "playground-start-thread";
start.textContent = "Start a thread";
const said = document.createElement("span");
said.className = "playground-channels-said";
said.setAttribute("role", "status");
form.append(nameBox, start, said);
nav.append(list, form);
document.querySelector("#channel-layout .channel-header")?.before(nav);

let shown = "";

function headers() {
  const context = window.simcordPreview?.contextId;
  if (!capability || !context) return null;
  return { "X-Simcord-Capability": capability, "X-Simcord-Context": context };
}

// Open a channel or start a thread: one of the page's actions, under the playground's clock.
async function ask(body) {
  const auth = headers();
  if (!auth) return null;
  const response = await fetch("/api/action", {
    method: "POST",
    cache: "no-store",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) return null;
  const answer = await response.json();
  said.textContent = answer.error || "";
  if (Array.isArray(answer.channels)) show(answer.channels);
  return answer;
}

function show(channels) {
  const text = JSON.stringify(channels);
  if (text === shown) return;
  shown = text;
  list.replaceChildren(
    ...channels.map((channel) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = channel.thread ? "playground-thread" : "playground-channel";
      button.dataset.channelId = channel.id;
      button.textContent = (channel.thread ? "🧵 " : "# ") + channel.name;
      if (channel.archived) button.append(marker("archived"));
      if (channel.locked) button.append(marker("locked"));
      if (channel.open) button.setAttribute("aria-current", "page");
      button.addEventListener("click", () => ask({ kind: "playground_open", channel_id: channel.id }));
      item.append(button);
      return item;
    }),
  );
}

function marker(what) {
  const tag = document.createElement("span");
  tag.className = "playground-thread-state";
  tag.textContent = what;
  return tag;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = nameBox.value.trim();
  if (!name) return;
  void ask({ kind: "playground_thread", name }).then((answer) => {
    if (answer && !answer.error) nameBox.value = "";
  });
});

// The list: a read, like the page's state (it neither waits for nor moves the clock).
async function look() {
  try {
    const auth = headers();
    const response = auth && await fetch("/playground/channels", { cache: "no-store", headers: auth });
    if (response?.ok) show((await response.json()).channels);
  } catch {
    // The playground stopped, or a request failed: the next look tries again.
  } finally {
    setTimeout(look, EVERY);
  }
}
void look();
