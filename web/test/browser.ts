// What every browser test needs: Chromium with a page per person (each in a context of its own, so
// sessions do not mix), screenshots at phone and desk widths with an accessibility check of each,
// the cards a page shows, signing staff in, and the desk's "what next" until a rubber starts.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

import { after, before } from "node:test";

import { Club, target } from "./club.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = process.env.SCREENSHOTS_DIR ?? join(target, "screenshots");
export const PHONE = { width: 390, height: 844 };
export const DESK = { width: 1280, height: 800 };

/** A headless Chromium whose pages open `club`'s screens. */
export class Browsers {
  readonly contexts: BrowserContext[] = [];
  private constructor(
    private readonly browser: Browser,
    private readonly club: Club,
  ) {}

  static async launch(club: Club): Promise<Browsers> {
    mkdirSync(SHOTS, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
    return new Browsers(browser, club);
  }

  /** A page of its own (its own session storage), at the club's address. */
  async newPage(viewport: { width: number; height: number }): Promise<Page> {
    const context = await this.browser.newContext({ viewport, deviceScaleFactor: 1 });
    this.contexts.push(context);
    const page = await context.newPage();
    // Generous: CI machines are slow while other builds run; every wait ends as soon as its condition holds.
    page.setDefaultTimeout(60_000);
    page.on("pageerror", (error) => console.error("page error:", error.message));
    // A screen's own warnings (a read it gave up on), not the network's noise while a server restarts.
    page.on("console", (message) => {
      const text = message.text();
      if (message.type() !== "warning" && message.type() !== "error") return;
      if (text.startsWith("Failed to load resource") || text.startsWith("watch ended")) return;
      console.error(`page ${message.type()}:`, text);
    });
    await page.goto(this.club.baseUrl);
    return page;
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => {});
    await this.browser.close();
  }
}

/**
 * A club of its own and Chromium for the suite (call inside `describe`): started before its tests,
 * stopped after them. `settings` go to the club's environment.
 */
export function suiteClub(settings: NodeJS.ProcessEnv = {}): { club: Club; browsers: Browsers } {
  const suite = {} as { club: Club; browsers: Browsers };
  before(async () => {
    suite.club = await Club.start(settings);
    suite.browsers = await Browsers.launch(suite.club);
  });
  after(async () => {
    await suite.browsers?.close();
    await suite.club?.stop();
  });
  return suite;
}

/** Signs a staff account in on the sign-in screen, and waits for `heading`. */
export async function signInStaff(page: Page, name: string, password: string, heading: string) {
  await page.getByRole("heading", { name: "Staff" }).waitFor();
  await page.getByLabel("Account").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: heading, exact: true }).waitFor();
}

/**
 * Makes a staff account with `roles` (the checkboxes' names: "Desk", "Arbiter", ...) on the
 * administrator's screen; returns the password it was given.
 */
export async function makeStaffAccount(admin: Page, name: string, roles: string[]): Promise<string> {
  const accounts = admin.getByRole("region", { name: "Staff accounts" });
  await accounts.getByLabel("Account name").fill(name);
  for (const role of roles) await accounts.getByRole("checkbox", { name: role, exact: true }).check();
  await accounts.getByRole("button", { name: "Create the account" }).click();
  for (const role of roles) await accounts.locator(`li[data-account='${name}'] .state`).getByText(role.toLowerCase(), { exact: true }).waitFor();
  const password = ((await admin.getByTestId("new-password").filter({ hasText: name }).locator("output").textContent()) ?? "").trim();
  assert.ok(password.length >= 10, `a generated password for ${name}: ${password}`);
  return password;
}

/** The desk registers a member with the room's form, and he is marked present. */
export async function registerAndArrive(desk: Page, id: string, name = id) {
  await desk.getByLabel("Player id").fill(id);
  await desk.getByLabel("Name", { exact: true }).fill(name);
  await desk.getByRole("button", { name: "Register and arrive" }).click();
  await desk.locator(`li[data-player="${id}"]`).getByText("present").waitFor();
}

/**
 * Waits until `page` shows `expected`; fails at once, in the screen's words, if the page shows an
 * error instead (an action refused by the server).
 */
export async function waitForOrError(page: Page, expected: Locator) {
  const alert = page.locator("p[role=alert]");
  await expected.or(alert).first().waitFor();
  if ((await expected.count()) === 0) throw new Error(`the page says: ${await alert.first().textContent()}`);
}

const AXE = createRequire(import.meta.url).resolve("axe-core");

/**
 * Fails on what axe-core finds serious or critical on the page as it stands: missing labels and
 * names, contrast below WCAG AA, invalid ARIA. (Lesser findings, such as the order of heading
 * levels, are printed.)
 */
export async function checkAccessible(page: Page, name: string) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document);
    return results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const grave = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of violations.filter((v) => !grave.includes(v))) console.log(`${name}: ${v.impact} ${v.id}: ${v.help} (${v.targets.join(", ")})`);
  assert.deepEqual(grave, [], `${name}: accessibility violations`);
}

/**
 * A screenshot of `page` at phone and desk widths, back at its own width afterwards; each screen
 * shot is checked for accessibility at both widths too.
 */
/**
 * Presses the desk's "what next" buttons for the table `card` shows until the rubber starts: a
 * draw when the rules call for one, then "Start the rubber". Each step's button is pressed once,
 * and the next looked for only once the step shown has changed.
 */
export async function followWhatNextToTheRubber(desk: Page, card: Locator, beforeStart?: () => Promise<void>) {
  const nextStep = card.getByTestId("next-step");
  for (;;) {
    const step = card.getByRole("button", { name: /^(Draw \(server\)|Start the rubber)$/ });
    await step.waitFor();
    const label = (await step.textContent()) ?? "";
    const said = await nextStep.textContent();
    if (label.includes("Start the rubber")) await beforeStart?.();
    await card.getByRole("button", { name: label, exact: true }).click();
    if (label.includes("Start the rubber")) return;
    await desk.waitForFunction(
      ([selector, before]) => document.querySelector(selector)?.textContent !== before,
      [`section[data-table] [data-testid="next-step"]`, said] as const,
    );
  }
}

export async function shoot(page: Page, name: string) {
  const own = page.viewportSize() ?? PHONE;
  for (const [width, size] of [["phone", PHONE], ["desk", DESK]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    await checkAccessible(page, `${name} (${width})`);
  }
  await page.setViewportSize(own);
}

/** Every card code the page shows, wherever (data-card), with the hand it is shown in, if any. */
export async function cardsShown(page: Page): Promise<{ card: string; hand: string | null }[]> {
  return page.locator("[data-card]").evaluateAll((elements) =>
    elements.map((e) => ({ card: e.getAttribute("data-card") ?? "", hand: e.closest("[data-hand]")?.getAttribute("data-hand") ?? null })),
  );
}
