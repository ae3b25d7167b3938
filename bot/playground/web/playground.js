// The playground's additions to SimCord's page (bot/playground/served.py serves them): the keys
// of the command box said under it, and SimCord's developer tools behind one button.

const KEYS = "Type / and pick a command (Enter or a click). Enter sends it. Options: Tab or a "
  + "click adds the one the list highlights (↑ ↓ or its first letters move there), then pick "
  + "its value the same way; Esc closes a list.";
const TOOLS = "SimCord's tools for a bot's developers: Refresh preview, Capture, Inspector, and "
  + "More (End preview session stops the playground). Playing needs none of them: the page "
  + "shows the bot's answers by itself.";

const composer = document.getElementById("channel-composer");
const keys = document.createElement("p");
keys.id = "composer-keys";
keys.className = "composer-keys";
keys.textContent = KEYS;
composer?.after(keys);

const tools = document.createElement("button");
tools.id = "developer-tools";
tools.type = "button";
tools.className = "toolbar-button";
tools.textContent = "Developer tools";
tools.title = TOOLS;
tools.setAttribute("aria-pressed", "false");
tools.addEventListener("click", () => {
  const shown = document.body.classList.toggle("show-developer-tools");
  tools.setAttribute("aria-pressed", String(shown));
});
document.getElementById("refresh")?.before(tools);
