// The Activity's page: the handshake with the Discord client, then the user signed in through the
// bot's server (Discord's OAuth2 code exchanged there for a token), then who and where.
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { type StringKey } from "./strings";
import { View, type Values } from "./view";

/** The bot's route that exchanges Discord's code for an access token (Discord proxies it). */
const TOKEN_URL = "/api/activity/token";

/** A step that failed in a way the page explains with one of its texts. */
class Failure extends Error {
  constructor(
    readonly key: StringKey,
    readonly values: Values = {},
  ) {
    super(key);
  }
}

/** The application's id, which the bot's server writes into the page's <meta> (null: not set). */
function applicationId(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="discord-client-id"]');
  const content = meta?.content ?? "";
  return /^\d+$/.test(content) ? content : null;
}

/** Discord's one-time code, exchanged by the bot's server for the user's access token. */
async function exchange(code: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(TOKEN_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
  } catch {
    throw new Failure("tokenUnreachable");
  }
  if (!response.ok) throw new Failure("tokenFailed", { status: response.status });
  const body: unknown = await response.json().catch(() => null);
  const token = (body as { access_token?: unknown } | null)?.access_token;
  if (typeof token !== "string" || token === "") throw new Failure("tokenInvalid");
  return token;
}

/** Authorize, exchange the code, authenticate: the user's name as Discord shows it. */
async function signIn(sdk: DiscordSDK, clientId: string, view: View): Promise<string> {
  view.step("authorizing", "authorizing");
  let code: string;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
  } catch {
    throw new Failure("authorizeFailed");
  }
  view.step("signing-in", "signingIn");
  const accessToken = await exchange(code);
  try {
    const { user } = await sdk.commands.authenticate({ access_token: accessToken });
    return user.global_name || user.username;
  } catch {
    throw new Failure("authenticateFailed");
  }
}

async function start(): Promise<void> {
  const view = new View(document);
  const clientId = applicationId();
  if (clientId === null) {
    view.fail("notConfigured", {}, false);
    return;
  }
  // Outside Discord's frame (no parent, or no frame_id in the query) there is nobody to talk to.
  let sdk: DiscordSDK;
  try {
    if (window.parent === window && !window.opener) throw new Error("not framed");
    sdk = new DiscordSDK(clientId);
  } catch {
    view.fail("notInDiscord", {}, false);
    return;
  }
  view.place(sdk.instanceId, sdk.channelId);
  view.step("connecting", "connecting");
  await sdk.ready();
  const attempt = async (): Promise<void> => {
    try {
      view.signedIn(await signIn(sdk, clientId, view));
    } catch (error) {
      if (error instanceof Failure) {
        view.fail(error.key, error.values, true);
      } else {
        console.error(error);
        view.fail("unexpected", {}, true);
      }
    }
  };
  view.onRetry(attempt);
  await attempt();
}

void start();
