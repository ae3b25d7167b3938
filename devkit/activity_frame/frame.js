// A simulated Discord client around an Activity: it embeds the Activity's page in an iframe with
// the query Discord gives it and answers the Embedded App SDK's postMessage protocol (opcodes
// HANDSHAKE 0, FRAME 1, CLOSE 2): READY after the handshake, then the commands AUTHORIZE,
// AUTHENTICATE and CAPTURE_LOG; any other command is answered with Discord's INVALID_COMMAND.
// Its setup is its own query (devkit/activity_frame/server.py, FrameSetup). Everything it sees
// and says is in window.discordFrame.log, for tests to read.

const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;
// Discord's codes (the SDK's RPCCloseCodes and RPCErrorCodes).
const CLOSE_INVALID_CLIENT_ID = 4000;
const ERROR_INVALID_COMMAND = 4002;
const ERROR_INVALID_CLIENT_ID = 4007;
const ERROR_INVALID_TOKEN = 4009;
const OAUTH2_ERROR = 5000;

const setup = Object.fromEntries(new URLSearchParams(location.search));
const frameId = setup.frame_id;
const state = { log: [], console: [], handshake: null, closed: null };
window.discordFrame = state;

const query = new URLSearchParams({
  frame_id: frameId,
  instance_id: setup.instance_id,
  platform: setup.platform,
});
for (const name of ["guild_id", "channel_id", "location_id", "custom_id", "referrer_id"]) {
  if (setup[name]) query.set(name, setup[name]);
}
const iframe = document.createElement("iframe");
iframe.name = "activity";
iframe.title = "Activity";
iframe.allow = "autoplay; encrypted-media; clipboard-write";
iframe.src = `${setup.activity}?${query}`;
document.body.append(iframe);

const user = {
  id: setup.user_id,
  username: setup.username,
  discriminator: "0",
  global_name: setup.global_name || null,
  avatar: null,
  public_flags: 0,
};

function send(event, message) {
  state.log.push({ from: "discord", message });
  event.source.postMessage(message, event.origin);
}

function reply(event, command, data) {
  send(event, [FRAME, { cmd: command.cmd, evt: null, nonce: command.nonce, data }]);
}

function refuse(event, command, code, text) {
  send(event, [
    FRAME,
    { cmd: command.cmd, evt: "ERROR", nonce: command.nonce, data: { code, message: text } },
  ]);
}

function handshake(event, payload) {
  state.handshake = payload;
  if (payload.client_id !== setup.client_id || payload.frame_id !== frameId) {
    send(event, [CLOSE, { code: CLOSE_INVALID_CLIENT_ID, message: "Invalid Client ID" }]);
    return;
  }
  send(event, [
    FRAME,
    {
      cmd: "DISPATCH",
      evt: "READY",
      nonce: null,
      data: {
        v: 1,
        config: {
          cdn_host: "cdn.discordapp.com",
          api_endpoint: "//discord.com/api",
          environment: "production",
        },
        user: { id: user.id, username: user.username, discriminator: user.discriminator },
      },
    },
  ]);
}

function command(event, payload) {
  const args = payload.args ?? {};
  switch (payload.cmd) {
    case "AUTHORIZE":
      if (args.client_id !== setup.client_id) {
        return refuse(event, payload, ERROR_INVALID_CLIENT_ID, "Invalid Client ID");
      }
      if (setup.authorize === "deny") {
        return refuse(event, payload, OAUTH2_ERROR, "The user declined");
      }
      return reply(event, payload, { code: setup.code });
    case "AUTHENTICATE":
      if (args.access_token !== setup.access_token) {
        return refuse(event, payload, ERROR_INVALID_TOKEN, "Invalid token");
      }
      return reply(event, payload, {
        access_token: args.access_token,
        user,
        scopes: ["identify"],
        expires: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
        application: { id: setup.client_id, name: "tictactoe", description: "", icon: null },
      });
    case "CAPTURE_LOG":
      state.console.push(args);
      return reply(event, payload, null);
    default:
      return refuse(event, payload, ERROR_INVALID_COMMAND, `${payload.cmd} is not simulated`);
  }
}

window.addEventListener("message", (event) => {
  if (event.source !== iframe.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  state.log.push({ from: "activity", message: event.data });
  if (opcode === HANDSHAKE) handshake(event, payload);
  else if (opcode === FRAME) command(event, payload);
  else if (opcode === CLOSE) state.closed = payload;
});
