// The page's elements and what each state shows in them; every text comes from the strings table.
import { t, type StringKey } from "./strings";

export type State = "connecting" | "authorizing" | "signing-in" | "signed-in" | "error";

export type Values = Record<string, string | number>;

export class View {
  private readonly main: HTMLElement;
  private readonly status: HTMLElement;
  private readonly who: HTMLElement;
  private readonly errorBox: HTMLElement;
  private readonly retry: HTMLButtonElement;

  constructor(private readonly page: Document) {
    this.main = this.element("activity");
    this.status = this.element("status");
    this.who = this.element("who");
    this.errorBox = this.element("error");
    this.retry = this.element("retry") as HTMLButtonElement;
    page.title = t("title");
    this.element("title").textContent = t("title");
    this.element("board").setAttribute("aria-label", t("boardLabel"));
    this.element("board-placeholder").textContent = t("boardPlaceholder");
    this.retry.textContent = t("retry");
  }

  /** A step under way: its text in the status line, any earlier error put away. */
  step(state: Exclude<State, "signed-in" | "error">, key: StringKey): void {
    this.main.dataset.state = state;
    this.status.textContent = t(key);
    this.status.hidden = false;
    this.errorBox.hidden = true;
  }

  /** Where the Activity runs: its instance, and the channel Discord named in the page's query. */
  place(instance: string, channel: string | null): void {
    this.element("place").textContent = channel
      ? t("place", { instance, channel })
      : t("placeNoChannel", { instance });
  }

  /** Signed in: who the user is. */
  signedIn(name: string): void {
    this.main.dataset.state = "signed-in";
    this.status.hidden = true;
    this.element("user-name").textContent = t("signedInAs", { name });
    this.who.hidden = false;
    performance.mark("activity-signed-in");
  }

  /** A step failed: what happened, and a button to try again where that can help. */
  fail(key: StringKey, values: Values, canRetry: boolean): void {
    this.main.dataset.state = "error";
    this.status.hidden = true;
    this.element("error-text").textContent = t(key, values);
    this.errorBox.hidden = false;
    this.retry.hidden = !canRetry;
    this.retry.disabled = false;
  }

  /** Run `again` when the user presses the button under an error (once at a time). */
  onRetry(again: () => Promise<void>): void {
    this.retry.addEventListener("click", () => {
      if (this.retry.disabled) return;
      this.retry.disabled = true;
      void again();
    });
  }

  private element(id: string): HTMLElement {
    const found = this.page.getElementById(id);
    if (found === null) throw new Error(`the page has no #${id}`);
    return found;
  }
}
