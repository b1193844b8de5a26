// The screens in headless Chromium against a real bridge-club: the desk signs in with the password
// the first start printed, registers four players as they arrive, gives each a sign-in code, opens a
// table and starts the rubber, using only its screen; four members, each on his own page signed in
// with his code, bid and play the whole first deal; the desk's page shows the scorepad the deal
// scored. After every action every page is checked for cards its viewer may not see: his own hand,
// dummy's once the opening lead is faced, and the cards played, nothing else. The test learns each
// hand only from that player's own page. The desk has a sixth member's code mailed to him through a
// mail server the test runs, and he signs in with the code read out of the mail. Screenshots of every screen at phone and desk widths go to
// target/screenshots/ ($SCREENSHOTS_DIR).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import type { Page } from "playwright-core";

import { Browsers, cardsShown, checkAccessible, DESK, followWhatNextToTheRubber, PHONE, shoot } from "./browser.js";
import { Club } from "./club.js";
import { SmtpSink } from "./smtp.js";

const PLAYERS = ["alice", "bob", "carol", "dave"];
/** Seat letters as the screens write them (data-viewer, data-hand). */
const PARTNER: Record<string, string> = { N: "S", S: "N", E: "W", W: "E" };
const SEAT_NAMES: Record<string, string> = { N: "North", E: "East", S: "South", W: "West" };

let club: Club;
let mail: SmtpSink;
let browsers: Browsers;
const newPage = (viewport: { width: number; height: number }) => browsers.newPage(viewport);

describe("the screens", () => {
  let desk: Page;
  const pages = new Map<string, Page>(); // by player id
  const codes = new Map<string, string>();

  before(async () => {
    // The club's mail server: the test's own, which keeps every mail for the test to read.
    mail = await SmtpSink.start();
    club = await Club.start({
      BRIDGE_MAIL__HOST: "127.0.0.1",
      BRIDGE_MAIL__PORT: String(mail.port),
      BRIDGE_MAIL__TLS: "none",
      BRIDGE_MAIL__FROM: "Riverside Bridge Club <desk@club.example>",
      BRIDGE_MAIL__CLUB_NAME: "Riverside Bridge Club",
    });
    browsers = await Browsers.launch(club);
  });

  after(async () => {
    await browsers?.close();
    await club?.stop();
    await mail?.close();
  });

  test("the desk seats four players from their arrival to the first rubber, on its screen alone", async () => {
    desk = await newPage(DESK);
    await desk.getByRole("heading", { name: "Staff" }).waitFor();
    await shoot(desk, "sign-in");
    await desk.getByLabel("Account").fill(club.administrator.name);
    await desk.getByLabel("Password").fill(club.administrator.password);
    await desk.getByRole("button", { name: "Sign in", exact: true }).click();
    await desk.getByRole("heading", { name: "The room" }).waitFor();

    for (const id of PLAYERS) {
      await desk.getByLabel("Player id").fill(id);
      await desk.getByLabel("Name", { exact: true }).fill(id[0].toUpperCase() + id.slice(1));
      await desk.getByRole("button", { name: "Register and arrive" }).click();
      await desk.locator(`li[data-player="${id}"]`).getByText("present").waitFor();
    }
    for (const id of PLAYERS) {
      await desk.locator(`li[data-player="${id}"]`).getByRole("button", { name: /Sign-in code/ }).click();
      const code = (await desk.locator(`output[data-code-for="${id}"]`).textContent())?.trim() ?? "";
      assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4,}$/);
      codes.set(id, code);
    }
    await shoot(desk, "desk-room");

    for (const id of PLAYERS) await desk.getByRole("checkbox", { name: id }).check();
    await desk.getByRole("button", { name: "Open the table" }).click();
    const card = desk.locator("section[data-table]").first();
    await card.waitFor();
    await shoot(desk, "desk-table-open");

    // The table's "what next" until the rubber can start.
    await followWhatNextToTheRubber(desk, card);
    await card.getByText(/^Rubber 1$/).waitFor();
    assert.match((await card.textContent()) ?? "", /North \w+, East \w+, South \w+, West \w+/);
    await card.getByTestId("scorepad").waitFor();
    await shoot(desk, "desk-rubber");

    // Each member signs in on his own phone with the code the desk gave him; his table opens.
    for (const id of PLAYERS) {
      const page = await newPage(PHONE);
      if (id === "alice") {
        // With the keyboard alone: the code's field comes first, and Enter signs in.
        await page.keyboard.press("Tab");
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "code");
        await page.keyboard.type(codes.get(id)!);
        await page.keyboard.press("Enter");
      } else {
        await page.getByLabel("Code from the desk").fill(codes.get(id)!.toLowerCase());
        await page.getByRole("button", { name: "Sign in with the code" }).click();
      }
      await page.locator("section.table-screen[data-phase='Auction']").waitFor();
      pages.set(id, page);
    }
  });

  /** Each player's seat (N, E, S, W), from his own page. */
  const seatOf = new Map<string, string>();

  const versionOf = async (page: Page) => BigInt((await page.locator("section.table-screen").first().getAttribute("data-version")) ?? "0");
  /** Waits until every page shows the table at `version` or later. */
  const everyPageAt = async (version: bigint) => {
    for (const page of [...pages.values(), desk]) {
      await page.waitForFunction(
        (v) => [...document.querySelectorAll("section.table-screen")].some((s) => BigInt(s.getAttribute("data-version") || "0") >= BigInt(v)),
        version.toString(),
      );
    }
  };
  /** Clicks `button` on `page`, then waits until every page shows the table as the click left it. */
  const actAndSync = async (page: Page, button: ReturnType<Page["locator"]>) => {
    const before = await versionOf(page);
    await button.click();
    await everyPageAt(before + 1n);
  };
  /** The one page with an enabled `selector` now. */
  const whoseTurn = async (selector: string): Promise<[string, Page]> => {
    const found: [string, Page][] = [];
    for (const [id, page] of pages) if ((await page.locator(selector).count()) > 0) found.push([id, page]);
    assert.equal(found.length, 1, `${found.length} pages may act (${selector})`);
    return found[0];
  };

  /**
   * One deal through the four players' pages: the first to call of `side` (NS or EW; anyone's
   * without) bids `contract` and every other call is a pass; then cards are played, each by whoever
   * may play it, until `claimAfter` cards, when declarer claims the rest and both defenders accept
   * (or all 52 are played). Every page is checked after every action. Returns declarer's seat.
   */
  async function playDeal(name: string, claimAfter = 52, contract = "1N", side?: string): Promise<string> {
    // Each hand, as its own player's page shows it; nobody else's page is asked.
    const hands = new Map<string, Set<string>>(); // by seat letter
    for (const [id, page] of pages) {
      const seat = (await page.locator("section.table-screen").getAttribute("data-viewer")) ?? "";
      assert.match(seat, /^[NESW]$/, `${id} has no seat`);
      seatOf.set(id, seat);
      const own = (await cardsShown(page)).filter((c) => c.hand === seat).map((c) => c.card);
      assert.equal(own.length, 13, `${id} sees ${own.length} cards of his own`);
      hands.set(seat, new Set(own));
    }
    assert.equal(new Set([...hands.values()].flatMap((h) => [...h])).size, 52, "the four hands are one deck");

    const played = new Set<string>();
    let dummy: string | undefined;
    /**
     * Hands everyone may see: dummy's once the opening lead is faced, a claimer's (Law 68), and every
     * hand once a rubber deal is over.
     */
    const faced = new Set<string>();
    /** Fails if any page shows a card its viewer may not see now. */
    const checkEveryPage = async (when: string) => {
      const viewers: [string, Page][] = [...[...pages].map(([id, page]) => [seatOf.get(id)!, page] as [string, Page]), ["desk", desk]];
      for (const [viewer, page] of viewers) {
        for (const { card, hand } of await cardsShown(page)) {
          const own = hands.get(viewer)?.has(card) ?? false;
          const onTable = [...faced].some((seat) => hands.get(seat)!.has(card));
          assert.ok(own || onTable || played.has(card), `${name}, ${when}: ${viewer} is shown ${card}, which he may not see`);
          if (hand !== null) assert.ok(hands.get(hand)?.has(card), `${name}, ${when}: ${card} shown in ${hand}'s hand is not his`);
        }
      }
    };
    await checkEveryPage("dealt");

    // The auction; only sufficient calls are offered.
    let opener: string | undefined;
    let page: Page;
    let passes = 0;
    while (passes < 3 || opener === undefined) {
      let id: string;
      [id, page] = await whoseTurn("button[data-call]:enabled");
      const seat = seatOf.get(id)!;
      if (opener === undefined && (side === undefined || side.includes(seat))) {
        assert.equal(await page.locator("button[data-call='X']").isDisabled(), true, "nothing to double yet");
        if (contract === "1N") await shoot(page, `${name}-auction`);
        opener = id;
        dummy = PARTNER[seat];
        await actAndSync(page, page.locator(`button[data-call='${contract}']`));
        await checkEveryPage(contract);
      } else {
        if (opener !== undefined) {
          assert.equal(await page.locator("button[data-call='1C']").isDisabled(), true, `1C is not sufficient over ${contract}`);
          passes++;
        }
        await actAndSync(page, page.locator("button[data-call='P']"));
        await checkEveryPage(`a pass`);
      }
    }
    const declarer = seatOf.get(opener)!;
    const declarersPage = pages.get(opener)!;
    await declarersPage.getByTestId("contract").waitFor();

    // The play: whoever may play (declarer for dummy) plays his first playable card.
    for (let n = 0; n < claimAfter; n++) {
      [, page] = await whoseTurn("button[data-card]:enabled");
      const button = page.locator("button[data-card]:enabled").first();
      const card = (await button.getAttribute("data-card")) ?? "";
      played.add(card);
      if (n === 0) faced.add(dummy!);
      await actAndSync(page, button);
      await checkEveryPage(`card ${n + 1} (${card})`);
      if (n === 0) {
        // Dummy is faced for everyone once the opening lead is.
        for (const p of pages.values()) await p.locator(`[data-hand='${dummy}'] [data-card]`).first().waitFor();
        for (const [id, p] of pages) await shoot(p, `${name}-play-${seatOf.get(id)}`);
      }
    }
    if (claimAfter < 52) {
      // Declarer claims every trick left; each defender accepts on his own page.
      await declarersPage.getByText("Claim or concede tricks").click();
      await declarersPage.getByLabel("How you will play them").fill("my tricks are good");
      faced.add(declarer);
      await actAndSync(declarersPage, declarersPage.getByRole("button", { name: "Claim", exact: true }));
      await checkEveryPage("claimed");
      const defenders = [...pages].filter(([id]) => seatOf.get(id) !== declarer && seatOf.get(id) !== dummy);
      await shoot(defenders[0][1], `${name}-claim`);
      for (const [i, [, defender]] of defenders.entries()) {
        // The second acceptance ends the deal, and a rubber deal that is over is shown whole to
        // everyone at the table (the cards left in each hand; README, "Who sees what, when").
        if (i === defenders.length - 1) for (const seat of hands.keys()) faced.add(seat);
        await actAndSync(defender, defender.getByRole("button", { name: "Accept the claim" }));
        await checkEveryPage("claim answered");
      }
    }
    for (const p of pages.values()) await p.locator("section.table-screen[data-phase='Deal finished']").waitFor();
    if (name === "deal-1") {
      // The tricks as played, and the draw that seated the table, opened for the record.
      await declarersPage.getByText(/^Tricks played \(\d+\)$/).click();
      await declarersPage.locator("details.draws summary").click();
      await declarersPage.locator("details.draws li").first().waitFor();
    }
    await shoot(declarersPage, `${name}-finished`);
    await checkEveryPage("finished");
    return declarer;
  }

  test("four players bid and play a whole deal, each seeing only what he may", async () => {
    assert.equal(pages.size, 4, "the players are not seated");
    await playDeal("deal-1");

    // The result reaches the pad, and the desk's page shows it.
    const pad = desk.getByTestId("scorepad");
    await pad.getByText("1 deal recorded").waitFor();
    const totals = Number(await pad.getByTestId("total-ns").textContent()) + Number(await pad.getByTestId("total-ew").textContent());
    assert.ok(totals > 0, "the scorepad shows the deal's score");
    await shoot(desk, "desk-scorepad");
  });

  test("a player deals the next deal from the pad, and declarer's claim ends it", async () => {
    assert.equal(pages.size, 4, "the players are not seated");
    const first = [...pages.values()][0];
    await first.getByRole("button", { name: "Deal 2" }).click();
    for (const p of pages.values()) await p.locator("section.table-screen[data-phase='Auction']").waitFor();
    await playDeal("deal-2", 4);
    await desk.getByTestId("scorepad").getByText("2 deals recorded").waitFor();
    await shoot(desk, "desk-scorepad-2");
  });

  test("the screens open their streams again after the server restarts, and catch up", async () => {
    const [[, away], [, other]] = [...pages];
    const badge = (page: Page, text: RegExp) => page.locator("section.table-screen .live", { hasText: text }).waitFor();
    await club.restart(async () => {
      // Every stream broke with the server; each screen says so while it tries again.
      await badge(away, /reconnecting/);
      await desk.locator(".heading-row .live", { hasText: /reconnecting/ }).first().waitFor();
    });
    for (const page of pages.values()) await badge(page, /^live$/);
    // The next deal, dealt from one page, reaches every page through the reopened streams.
    await other.getByRole("button", { name: "Deal 3" }).click();
    for (const page of [...pages.values()]) await page.locator("section.table-screen[data-phase='Auction']").waitFor();
    assert.equal(await versionOf(away), await versionOf(other));
    await desk.getByTestId("scorepad").getByText("next: deal 3").waitFor();
    assert.equal(await away.locator("[data-hand] [data-card]").count(), 13, "he sees his new hand, and only it");
  });

  test("a fifth player arrives, signs in, and applies to the table from her phone", async () => {
    await desk.getByLabel("Player id").fill("erin");
    await desk.getByLabel("Name", { exact: true }).fill("Erin");
    await desk.getByRole("button", { name: "Register and arrive" }).click();
    const row = desk.locator(`li[data-player="erin"]`);
    await row.getByText("present").waitFor();
    await row.getByRole("button", { name: /Sign-in code/ }).click();
    const code = (await desk.locator(`output[data-code-for="erin"]`).textContent())?.trim() ?? "";
    // Read out, the code leaves the desk's screen (it would go by itself after two minutes).
    await row.getByRole("button", { name: "Hide Erin's code" }).click();
    assert.equal(await desk.locator(`output[data-code-for="erin"]`).count(), 0, "the code is hidden");

    const erin = await newPage(PHONE);
    await erin.getByLabel("Code from the desk").fill(code);
    await erin.getByRole("button", { name: "Sign in with the code" }).click();
    await erin.getByRole("heading", { name: "The room" }).waitFor();
    await erin.getByTestId("waiting").waitFor();
    await shoot(erin, "player-room");
    await erin.getByRole("button", { name: "Apply to Table 1" }).click();
    // A table of four that plays takes her at once (rule D): she is a member, sitting out the rubber.
    await erin.locator(".tables li").getByText(/erin/).waitFor();
    const card = desk.locator("section[data-table]");
    await card.locator("dd").first().getByText(/erin/).waitFor();
    await card.locator("dt", { hasText: "Sitting out" }).waitFor();
    assert.equal(await card.locator("dt:has-text('Sitting out') + dd").textContent(), "erin");
    await shoot(desk, "desk-fifth-member");
    // She is not at the table: her page shows no card, and she does not see the table's screen.
    assert.equal(await erin.locator("[data-card]").count(), 0, "a member sitting out is shown cards");
    assert.equal(await erin.locator("section.table-screen").count(), 0);
  });

  test("two grand slams win the rubber; the desk ends it, and the next rubber takes the fifth player in", async () => {
    // Deal 3 is dealt (the restart test dealt it): its dealer's side bids 7NT, claims every trick after
    // the opening lead and the defenders accept; then the same side again in deal 4: two games.
    const first = await playDeal("deal-3", 1, "7N");
    const side = "NS".includes(first) ? "NS" : "EW";
    await [...pages.values()][0].getByRole("button", { name: "Deal 4" }).click();
    for (const p of pages.values()) await p.locator("section.table-screen[data-phase='Auction']").waitFor();
    await playDeal("deal-4", 1, "7N", side);

    const card = desk.locator("section[data-table]");
    await card.getByTestId("scorepad").getByText(/the rubber is over/).waitFor();
    await shoot(desk, "desk-rubber-won");
    await card.getByRole("button", { name: "End the rubber" }).click();
    // Five members: the rules say who goes out and who comes in; the desk follows its what-next.
    await followWhatNextToTheRubber(desk, card);
    await card.getByText(/^Rubber 2$/).waitFor();
    await card.getByTestId("scorepad").getByText(/^0 deals recorded/).waitFor();
    assert.equal(await card.getByRole("button", { name: "End the rubber" }).count(), 0, "rubber 2 has only begun");
    await shoot(desk, "desk-rubber-2");

    // Erin sat out, so she plays (rule E): her page turns into her table, with her hand alone.
    const erin = browsers.contexts[browsers.contexts.length - 1].pages()[0];
    await erin.locator("section.table-screen[data-phase='Auction']").waitFor();
    const seat = (await erin.locator("section.table-screen").getAttribute("data-viewer")) ?? "";
    const shown = await cardsShown(erin);
    assert.equal(shown.length, 13, "erin sees her own hand and nothing else");
    assert.ok(shown.every((c) => c.hand === seat), "every card erin sees is in her own hand");
    await shoot(erin, "player-rubber-2");
    // One of the four went out: his page is the room again, with no card.
    let out = 0;
    for (const page of pages.values()) {
      await page.locator("section.table-screen[data-phase='Auction'], section.room").first().waitFor();
      if ((await page.locator("section.room").count()) > 0) {
        out++;
        assert.equal(await page.locator("[data-card]").count(), 0, "the player who went out is shown cards");
      }
    }
    assert.equal(out, 1, "one player goes out");

    // Erin calls the arbiter from her table: every page at the table says so.
    await erin.getByRole("button", { name: "Call the arbiter" }).click();
    for (const page of [erin, ...[...pages.values()].filter((p) => p !== erin)]) {
      if ((await page.locator("section.table-screen").count()) === 0) continue;
      await page.getByTestId("arbiter-called").getByText(`The arbiter is called by ${SEAT_NAMES[seat]}`).waitFor();
    }
    await desk.getByTestId("arbiter-called").waitFor({ state: "attached" });
    // The desk's room lists the call as it arrives, from the table's stream.
    await desk.getByTestId("arbiter-calls").locator("li[data-call-id]").getByText(/calls/).waitFor();
    await shoot(erin, "player-arbiter-called");
  });

  test("the desk has a member's sign-in code mailed to him, never sees it, and he signs in with it", async () => {
    await desk.getByLabel("Player id").fill("fay");
    await desk.getByLabel("Name", { exact: true }).fill("Fay");
    await desk.getByLabel("E-mail (optional)").fill("fay.jones@club.example");
    await desk.getByRole("button", { name: "Register and arrive" }).click();
    const row = desk.locator(`li[data-player="fay"]`);
    await row.getByText("present").waitFor();
    await row.getByRole("button", { name: "E-mail code to Fay" }).click();
    // The desk reads back where it went, masked, and is shown no code.
    const notice = desk.getByRole("status").filter({ hasText: /A sign-in code for Fay went to \S+@club\.example/ });
    await notice.waitFor();
    assert.ok(!(await notice.textContent())?.includes("fay.jones"), "the address is masked");
    assert.equal(await desk.locator(`output[data-code-for="fay"]`).count(), 0, "the desk sees a mailed code");
    await checkAccessible(desk, "desk-mailed-code");
    await shoot(desk, "desk-mailed-code");

    const mailed = await mail.next();
    assert.match(mailed, /^To: .*fay\.jones@club\.example/im);
    const code = /\b[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}\b/.exec(mailed.split("\r\n\r\n").slice(1).join("\n"))?.[0];
    assert.ok(code, `no code in the mail: ${mailed}`);
    const fay = await newPage(PHONE);
    await fay.getByLabel("Code from the desk").fill(code);
    await fay.getByRole("button", { name: "Sign in with the code" }).click();
    await fay.getByRole("heading", { name: "The room" }).waitFor();
  });
});
