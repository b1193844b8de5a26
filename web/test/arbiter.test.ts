// The arbiter's screen in headless Chromium against a real bridge-club of its own. The administrator
// makes the desk's and the arbiter's accounts on his screen; the desk seats four players at a table under the
// Alternative Club Laws, records their draw for partnerships with the table's cards (a redraw
// included) and starts a rubber played with physical cards, then records the auction
// and a lead out of turn as they happen at the table. The lead calls the arbiter at once (Club Law
// 13); his screen lists the call, shows the rectification options of Law 54 with their Laws, and he
// chooses for declarer, settles the call and records his ruling. The desk's page follows live. No
// page may show a card its viewer may not see: the desk (a spectator) the card led and, once the lead
// is accepted, dummy; the arbiter every hand, each in its own seat.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import type { Locator, Page } from "playwright-core";

import { cardsShown, DESK, makeStaffAccount, PHONE, registerAndArrive, shoot, signInStaff, suiteClub, waitForOrError } from "./browser.js";

const PLAYERS = ["north1", "east1", "south1", "west1"];
const SEATS = ["", "North", "East", "South", "West"];
/** The deal as the players dealt it, entered at the start so that the play can be recorded. */
const HANDS = ["AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "6543.876.876.876", "2.5432.5432.5432"];
const PBN = `N:${HANDS.join(" ")}`;

/** A hand's cards as the screens code them ("SA", "HT"), from its PBN (spades.hearts.diamonds.clubs). */
function cardsOf(seat: number): string[] {
  return HANDS[seat - 1].split(".").flatMap((ranks, i) => [...ranks].map((rank) => "SHDC"[i] + rank));
}

/** The seat `steps` places clockwise from `seat` (1 North .. 4 West). */
const clockwise = (seat: number, steps: number) => ((seat - 1 + steps) % 4) + 1;

describe("the arbiter's screen", () => {
  let desk: Page;
  let arbiter: Page;
  let table: Locator;
  let password = "";
  /** The side of the player who led out of turn. */
  let offendingSide = "";
  /** The dealer, who opened 1NT and declares. */
  let dealerSeat = 0;
  /** The card led out of turn, and dummy's hand. */
  let led = "";
  let dummy: string[] = [];

  const suite = suiteClub();

  /** Fails if `page` shows any card but `onTable`. */
  const onlyCardsOnTable = async (page: Page, onTable: string[], when: string) => {
    for (const { card } of await cardsShown(page)) assert.ok(onTable.includes(card), `${when}: ${card} is shown, which nobody may see`);
  };

  test("the administrator makes the desk's and the arbiter's accounts on his screen", async () => {
    const admin = await suite.browsers.newPage(DESK);
    await signInStaff(admin, suite.club.administrator.name, suite.club.administrator.password, "The room");
    const deskPassword = await makeStaffAccount(admin, "frontdesk", ["Desk"]);
    password = await makeStaffAccount(admin, "arbiter", ["Arbiter"]);
    await shoot(admin, "admin-staff-accounts");
    desk = await suite.browsers.newPage(DESK);
    await signInStaff(desk, "frontdesk", deskPassword, "The room");
  });

  test("the desk records a deal played with physical cards under the Club Laws", async () => {
    for (const id of PLAYERS) await registerAndArrive(desk, id);
    for (const id of PLAYERS) await desk.getByRole("checkbox", { name: id }).check();
    await desk.getByRole("checkbox", { name: /Alternative Club Laws/ }).check();
    await desk.getByRole("button", { name: "Open the table" }).click();
    table = desk.locator("section[data-table]").first();
    // The draw for partnerships, with the table's cards (Law 3): the first drawer takes two cards at
    // once, so his card does not count and he draws again; then the draw is complete.
    const drawForm = table.locator("form.physical-draw");
    await table.locator("details.draw-with-cards summary").click();
    const drawers = await drawForm.locator("fieldset[data-drawer]").evaluateAll((sets) => sets.map((f) => f.getAttribute("data-drawer") ?? ""));
    assert.equal(drawers.length, 4, `four draw: ${drawers.join(", ")}`);
    for (const [i, drawer] of drawers.entries()) await drawForm.getByLabel(`${drawer}'s card`).fill(["SA", "HK", "DQ", "CJ"][i]);
    await drawForm.getByRole("checkbox", { name: "Drew more than one card" }).first().check();
    await shoot(desk, "desk-physical-draw");
    await drawForm.getByRole("button", { name: "Record the cards drawn" }).click();
    await desk.getByRole("status").getByText(`To draw again: ${drawers[0]}`).waitFor();
    // The form turns into the redraw's: the others' fields go as the table's next step arrives.
    await drawForm.locator("fieldset[data-drawer]").nth(1).waitFor({ state: "detached" });
    await drawForm.locator(`fieldset[data-drawer='${drawers[0]}']`).waitFor();
    assert.equal(await drawForm.locator("fieldset[data-drawer]").count(), 1, "only he draws again");
    await drawForm.getByLabel(`${drawers[0]}'s card`).fill("S2");
    await drawForm.getByRole("button", { name: "Record the cards drawn" }).click();
    await desk.getByRole("status").getByText(/The draw is complete/).waitFor();

    // The rubber, with physical cards: the hands as dealt are entered, so that the play is recorded.
    // The desk mistypes them (a hand of three cards): the rubber starts, its first deal does not, and
    // the desk is told so in the server's words, then deals it again from the table's view.
    await table.getByRole("checkbox", { name: "Physical cards, recorded here" }).check();
    await table.getByLabel(/The hands as dealt/).fill(PBN.replace("AKQJ.", "AQJ."));
    await table.getByRole("button", { name: "Start the rubber" }).click();
    await desk.getByRole("alert").getByText(/Rubber 1 started at Table 1, but its first deal did not/).waitFor();
    await table.getByText(/^Rubber 1$/).waitFor();
    await table.locator("details.public-view summary").click();
    const deal1 = table.locator("form.desk-deal");
    await deal1.getByRole("heading", { name: /^Deal 1, dealt by / }).waitFor();
    assert.ok(await deal1.getByRole("checkbox", { name: "Physical cards, recorded here" }).isChecked(), "physical cards by default");
    await deal1.getByLabel(/The hands as dealt/).fill(PBN);
    await deal1.getByRole("button", { name: "Deal 1" }).click();
    await deal1.waitFor({ state: "detached" });
    // Highest card first dealer, seated North (Law 3): the spade ace's drawer was redrawn, so the heart king.
    assert.match((await table.textContent()) ?? "", new RegExp(`North ${drawers[1]}`));

    // The table's screen, with its recorder: the dealer (in turn) opens 1NT and the others pass.
    const recorder = table.getByTestId("recorder");
    await recorder.waitFor();
    const dealer = Number(await recorder.locator("select[name='recorder-seat']").inputValue());
    dealerSeat = dealer;
    for (const [i, call] of ["1N", "P", "P", "P"].entries()) {
      const seat = clockwise(dealer, i);
      await recorder.getByText(`${SEATS[seat]}'s call`).waitFor();
      await recorder.locator(`button[data-call='${call}']`).click();
    }
    await table.getByTestId("contract").getByText(`by ${SEATS[dealer]}`).waitFor();
    await shoot(desk, "desk-recorder");

    // Declarer's left-hand opponent is on lead; his partner leads instead.
    const offender = clockwise(dealer, 3);
    offendingSide = offender % 2 === 1 ? "North-South" : "East-West";
    led = cardsOf(offender)[0];
    dummy = cardsOf(clockwise(dealer, 2));
    await recorder.locator("select[name='recorder-seat']").selectOption(String(offender));
    await recorder.getByRole("group", { name: `${SEATS[offender]}'s card` }).waitFor();
    await onlyCardsOnTable(desk, [], "before the lead");
    await recorder.locator(`button[data-pick='${led}']`).click();
    // The Club Laws call the arbiter at once, and the table says so.
    await table.getByTestId("arbiter-called").waitFor();
    // The room's list of calls shows it as it arrives.
    await desk.getByTestId("arbiter-calls").locator("li[data-call-id]").first().waitFor();
    await onlyCardsOnTable(desk, [led], "after the lead");
  });

  test("the arbiter rules on the lead out of turn: declarer's options with their Laws, chosen for him", async () => {
    arbiter = await suite.browsers.newPage(PHONE);
    await signInStaff(arbiter, "arbiter", password, "Arbiter");
    const calls = arbiter.getByTestId("arbiter-calls");
    await calls.locator("li").first().waitFor();
    assert.equal(await calls.locator("li").count(), 1, "one call");
    const official = arbiter.getByTestId("official");
    const decision = official.locator("section.decision");
    await decision.waitFor();
    // Law 54: declarer may accept the lead (and become dummy, or face dummy), or have it withdrawn.
    const options = await decision.locator("li[data-option]").evaluateAll((items) => items.map((li) => li.getAttribute("data-option")));
    assert.ok(options.includes("accept_lead"), `options: ${options.join(", ")}`);
    assert.match((await decision.textContent()) ?? "", /Law 54/);
    // The arbiter sees every hand: all four are shown him, each in its own seat.
    const shown = await cardsShown(arbiter);
    for (const { card, hand } of shown) if (hand) assert.ok(cardsOf("NESW".indexOf(hand) + 1).includes(card), `${card} shown in ${hand}'s hand`);
    assert.equal(new Set(shown.map((c) => c.card)).size, 52, "the arbiter sees the whole deal");
    await shoot(arbiter, "arbiter-call");

    await decision.locator("li[data-option='accept_lead'] button").click();
    await decision.waitFor({ state: "detached" });
    const settle = official.locator("form[data-resolve]");
    await settle.getByLabel("What you explained or ruled").fill("Lead out of turn: declarer accepted it (Law 54)");
    await settle.getByRole("button", { name: "Settle the call" }).click();
    await calls.getByText("No table is calling.").waitFor();
    // The desk's page follows: the call is settled (its list empties) and the ace stays led.
    await desk.getByTestId("arbiter-calls").getByText("No table is calling.").waitFor();
    await table.getByTestId("arbiter-called").waitFor({ state: "detached" });
    await table.locator(`[data-card='${led}']`).first().waitFor();
    // The lead accepted, dummy is faced: the desk sees the card led and dummy, nothing else.
    await table.locator(`[data-card='${dummy[0]}']`).first().waitFor();
    await onlyCardsOnTable(desk, [led, ...dummy], "after the ruling");

    // The ruling recorded, for the players to appeal if they wish.
    const ruling = official.locator("details.ruling-form");
    await ruling.locator("summary").click();
    await ruling.getByLabel("The irregularity").fill("Opening lead out of turn");
    await ruling.getByLabel(/The Law applied/).fill("54A");
    await ruling.getByLabel("The facts found").fill("The lead was accepted by declarer");
    await ruling.getByLabel("The offending side").selectOption({ label: offendingSide });
    await ruling.getByRole("button", { name: "Record the ruling" }).click();
    await ruling.getByRole("status").getByText(/Ruling recorded/).waitFor();
    await shoot(arbiter, "arbiter-ruled");
  });

  test("the arbiter records unauthorised information the cards cannot show, under the Club Laws' own Law", async () => {
    const official = arbiter.getByTestId("official");
    const form = official.locator("details.irregularity-form");
    await form.locator("summary").click();
    await form.locator("select[name='irregularity-kind']").selectOption({ label: "Unauthorised information from partner (Law 16)" });
    const hesitated = clockwise(dealerSeat, 2);
    await form.locator("select[name='irregularity-offender']").selectOption(String(hesitated));
    await form.locator("select[name='irregularity-pointed-out-by']").selectOption(String(clockwise(dealerSeat, 1)));
    await form.getByLabel("In words").fill("Dummy's hesitation before passing 1NT");
    await form.getByRole("button", { name: "Record the irregularity" }).click();
    // The game service cites the Law of the code in force: the Alternative Club Laws' Law 16.
    await waitForOrError(arbiter, form.getByRole("status").getByText(/Recorded under .*16/));
    assert.match((await form.getByRole("status").textContent()) ?? "", /Club/);
    // Under the Club Laws every irregularity calls the arbiter (Club Law 13): the table says so, and he settles it.
    await table.getByTestId("arbiter-called").waitFor();
    await arbiter.getByTestId("arbiter-calls").locator("li[data-call-id]").first().waitFor();
    await desk.getByTestId("arbiter-calls").locator("li[data-call-id]").first().waitFor();
    const settle = official.locator("form[data-resolve]");
    await settle.getByLabel("What you explained or ruled").fill("Unauthorised information: play on, the score may be adjusted (Club Law 16)");
    await settle.getByRole("button", { name: "Settle the call" }).click();
    await arbiter.getByTestId("arbiter-calls").getByText("No table is calling.").waitFor();
    await desk.getByTestId("arbiter-calls").getByText("No table is calling.").waitFor();
    await table.getByTestId("arbiter-called").waitFor({ state: "detached" });
    await onlyCardsOnTable(desk, [led, ...dummy], "after the irregularity");
    await shoot(arbiter, "arbiter-irregularity");
  });
});
