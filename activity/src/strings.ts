// Every text the page shows, in English, in one table: a later change fills the same keys in the
// reader's language (the bot's catalogues, sent by its server). Placeholders are {name}, as in
// the bot's own messages (bot.i18n).
export const STRINGS = {
  title: "Tic-tac-toe",
  connecting: "Connecting to Discord…",
  authorizing: "Asking Discord who you are…",
  signingIn: "Signing in to the bot…",
  signedInAs: "Signed in as {name}",
  place: "Activity {instance} · channel {channel}",
  placeNoChannel: "Activity {instance}",
  boardLabel: "Board",
  boardPlaceholder: "The board will appear here.",
  notInDiscord: "This page runs inside Discord: start the Activity from a channel or a conversation.",
  notConfigured: "The Activity is not set up: its page does not name the bot's application.",
  authorizeFailed: "Discord did not tell the Activity who you are. Try again, and accept if Discord asks.",
  tokenFailed: "The bot's server did not sign you in (HTTP {status}). Try again in a moment.",
  tokenInvalid: "The bot's server answered without signing you in. Try again in a moment.",
  tokenUnreachable: "The bot's server could not be reached. Try again in a moment.",
  authenticateFailed: "Discord did not accept the bot's sign-in. Try again.",
  unexpected: "Something went wrong in the Activity. Try again.",
  retry: "Try again",
} as const;

export type StringKey = keyof typeof STRINGS;

/** The text of a key with its placeholders filled. */
export function t(key: StringKey, values: Record<string, string | number> = {}): string {
  return STRINGS[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
