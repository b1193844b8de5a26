// The appeals committee's screens in headless Chromium against a real bridge-club of its own. What
// other screens already show is set up through the client from Node, with the administrator's and
// the players' own tokens: four players registered, a rubber started at a table, deal 1 played (North
// bids 1NT, East leads, declarer claims every trick and the defenders accept), the committee's and
// the arbiter's staff accounts, the committee's roster. Through the screens: the arbiter records
// his ruling on deal 1 (an assigned score of eleven tricks: a defender withdrew his acquiescence in
// the claim) on his screen, and deal 2 is dealt (from Node);
// declarer appeals the ruling from his phone, a committee member signs in at a desk-width page,
// reads the appeal, the ruling and the deal record, hears the appeal and decides it (varied to
// twelve tricks, one member dissenting), and sees the score change and the audit trail; both players'
// scorepads change. The server restarts: the screens open their appeals streams again, and a second
// ruling and appeal (on deal 2, still being played) reach them; the committee is refused that deal's
// record. Every page is checked for cards its viewer may not see after every step: a player at deal
// 2 his own hand of deal 2 alone; the committee deal 1's record, each card in the hand that held
// it, and nothing of deal 2. Screenshots at phone and desk widths, each checked with axe-core.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { clubTransport, createClient } from "@bridgeclub/client";
import { AppealsService } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeals_service_pb.js";
import { RulingKind } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import { Role } from "@bridgeclub/client/gen/bridgeclub/common/v1/auth_pb.js";
import { Seat } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { CallSchema, Denomination } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";
import { LawCode } from "@bridgeclub/client/gen/bridgeclub/common/v1/law_pb.js";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { DealPhase, PlayMode, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { GameService } from "@bridgeclub/client/gen/bridgeclub/game/v1/game_service_pb.js";
import { ClaimReply } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import { MembershipService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { SignInService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/signin_pb.js";
import { ScoringService } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scoring_service_pb.js";
import { create } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";

import { cardCode } from "../src/cards.js";
import { Browsers, cardsShown, DESK, PHONE, shoot, signInStaff } from "./browser.js";
import { Club } from "./club.js";

/** The rubber's four, North dealing first. */
const SEATS: [Seat, string, string][] = [
  [Seat.NORTH, "N", "nora"],
  [Seat.EAST, "E", "eddie"],
  [Seat.SOUTH, "S", "sam"],
  [Seat.WEST, "W", "wendy"],
];
/** The committee member who signs in: a staff account with the committee role alone. */
const CHAIR = "chair";
/** The two members who sit with him: players on the register, appointed to the roster. */
const MEMBERS = ["grace", "henry"];

let club: Club;
let browsers: Browsers;

/** The club's services with one person's token, from Node. */
function servicesFor(token: string) {
  const transport = clubTransport({ baseUrl: club.baseUrl, token: () => token });
  return {
    accounts: createClient(SignInService, transport),
    membership: createClient(MembershipService, transport),
    game: createClient(GameService, transport),
    scoring: createClient(ScoringService, transport),
    appeals: createClient(AppealsService, transport),
  };
}
type Services = ReturnType<typeof servicesFor>;

/** Asks `probe` again, a moment apart, until it answers something; the test waits for a state, not a time. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the appeals committee", () => {
  let admin: Services;
  let arbiter: Services;
  const players = new Map<string, Services>(); // by player id
  let chairPassword = "";
  let tableId = "";
  let scorepadId = "";
  /** Each seat's hand (card codes) in deals 1 and 2, as the server showed it to that seat's player. */
  const hands1 = new Map<string, Set<string>>();
  const hands2 = new Map<string, Set<string>>();
  /** The cards played in deal 1 before the claim ended it. */
  const played1 = new Set<string>();
  /** Pages by who looks: a player's id, or the committee. */
  const pages = new Map<string, Page>();

  const letterOf = (playerId: string) => SEATS.find(([, , p]) => p === playerId)![1];

  /** The table as `playerId` sees it now. */
  const viewOf = async (playerId: string): Promise<TableView> => (await players.get(playerId)!.game.getTableState({ tableId })).view ?? assert.fail("no table view");
  const ownHand = (view: TableView, letter: string) =>
    new Set(view.hands.find((h) => h.seat === SEATS.find(([, l]) => l === letter)![0])?.hand?.cards.map(cardCode) ?? []);

  /**
   * Fails if a page shows a card its viewer may not see now: a player at deal 2 his own hand of deal 2
   * and nothing else (no card of the ruled deal through his rulings); the committee deal 1's record,
   * every card in the hand that held it, and the one card played in it.
   */
  const checkEveryPage = async (when: string) => {
    for (const [viewer, page] of pages) {
      for (const { card, hand } of await cardsShown(page)) {
        if (viewer === "committee") {
          if (hand !== null) assert.ok(hands1.get(hand)?.has(card), `${when}: the committee is shown ${card} in ${hand}'s hand, which did not hold it in deal 1`);
          else assert.ok(played1.has(card), `${when}: the committee is shown ${card}, not played in deal 1`);
        } else {
          const own = letterOf(viewer);
          assert.equal(hand, own, `${when}: ${viewer} is shown ${card} outside his own hand`);
          assert.ok(hands2.get(own)!.has(card), `${when}: ${viewer} is shown ${card}, not in his hand of deal 2`);
        }
      }
    }
  };

  before(async () => {
    // The club hears appeals, with a committee of three (its published procedure, in its settings).
    club = await Club.start({ BRIDGE_APPEALS__APPEALS_ALLOWED: "true", BRIDGE_APPEALS__COMMITTEE_SIZE: "3" });
    browsers = await Browsers.launch(club);
    const signIn = createClient(SignInService, clubTransport({ baseUrl: club.baseUrl }));
    const staff = async (name: string, password: string) =>
      servicesFor((await signIn.signIn({ name, password })).signedIn?.accessToken ?? assert.fail(`${name} has no token`));
    admin = await staff(club.administrator.name, club.administrator.password);

    // The desk's part, which its screen does in screens.test.ts: the players registered and in the
    // room, a table opened, the rubber started (partners and seats agreed), its pad, each player
    // signed in with a code the desk issued.
    for (const [, , playerId] of SEATS) {
      await admin.membership.registerPlayer({ playerId, name: playerId[0].toUpperCase() + playerId.slice(1), idempotencyKey: `register-${playerId}` });
      await admin.membership.arriveInRoom({ playerId });
      const { code } = await admin.accounts.issueSignInCode({ playerId });
      players.set(playerId, servicesFor((await signIn.redeemCode({ code })).signedIn?.accessToken ?? assert.fail("no token")));
    }
    const { table } = await admin.membership.openTable({
      name: "Table 1",
      kind: TableKind.RUBBER,
      applicantPlayerIds: SEATS.map(([, , p]) => p),
      serverDraw: true,
      idempotencyKey: "open-table-1",
    });
    tableId = table?.tableId ?? assert.fail("no table");
    const seated = SEATS.map(([seat, , playerId]) => ({ seat, playerId }));
    const { rubber } = await admin.membership.startRubber({
      tableId,
      agreedPartnerships: { partnerPlayerIds: ["nora", "sam"], firstDealerPlayerId: "nora" },
      seatChoices: seated,
    });
    const rubberId = rubber?.rubberId ?? assert.fail("no rubber");
    scorepadId = (await admin.scoring.createScorepad({ rubberId })).scorepad?.scorepadId ?? assert.fail("no pad");
    const deal = async (dealNumber: number, by: string) => {
      const idle = await viewOf(by);
      await players.get(by)!.game.startDeal({
        tableId,
        expectedVersion: idle.version,
        idempotencyKey: `deal-${dealNumber}`,
        setup: { source: { case: "rubber", value: { rubberId, scorepadId, dealNumber } }, kind: TableKind.RUBBER, mode: PlayMode.DIGITAL },
      });
    };
    await deal(1, "nora");

    // Deal 1, as the players' screens play it: North opens 1NT and the others pass; East leads his
    // first card; declarer claims every trick, and each defender accepts.
    for (const [, letter, playerId] of SEATS) hands1.set(letter, ownHand(await viewOf(playerId), letter));
    for (let n = 0; n < 4; n++) {
      const view = await viewOf("nora");
      const seat = view.nextToAct;
      const call = n === 0 ? create(CallSchema, { kind: { case: "bid", value: { level: 1, denomination: Denomination.NO_TRUMP } } }) : create(CallSchema, { kind: { case: "pass", value: {} } });
      await players.get(SEATS.find(([s]) => s === seat)![2])!.game.makeCall({ tableId, expectedVersion: view.version, idempotencyKey: `call-${n}`, seat, call });
    }
    const lead = await viewOf("eddie");
    assert.equal(lead.contract?.declarer, Seat.NORTH, "North declares 1NT");
    const card = lead.hands.find((h) => h.seat === Seat.EAST)?.hand?.cards[0] ?? assert.fail("East holds no card");
    await players.get("eddie")!.game.playCard({ tableId, expectedVersion: lead.version, idempotencyKey: "lead", seat: Seat.EAST, card });
    played1.add(cardCode(card));
    const claimed = await players.get("nora")!.game.claim({
      tableId,
      expectedVersion: (await viewOf("nora")).version,
      idempotencyKey: "claim",
      claimer: Seat.NORTH,
      tricks: 13,
      statement: "all my tricks are good",
    });
    const claimId = claimed.view?.claim?.claimId ?? assert.fail("no claim");
    for (const [seat, defender] of [[Seat.EAST, "eddie"], [Seat.WEST, "wendy"]] as const) {
      const view = await viewOf(defender);
      await players.get(defender)!.game.respondToClaim({ tableId, expectedVersion: view.version, idempotencyKey: `answer-${defender}`, claimId, seat, reply: ClaimReply.ACCEPT });
    }
    assert.equal((await viewOf("nora")).phase, DealPhase.FINISHED, "the claim ends deal 1");
    // The arbiter rules once the result is on the pad.
    await until("deal 1's result on the pad", async () => (await admin.scoring.getScorepad({ scorepadId })).scorepad?.deals[0]?.dealId);

    // The administration's part: the committee's and the arbiter's staff accounts, and the roster
    // the committee sits from: the committee's account as `staff:<name>` (the roster asks membership
    // that it holds the committee role), and two players on the register.
    const created = await admin.accounts.createAccount({ name: CHAIR, roles: [Role.COMMITTEE] });
    chairPassword = created.generatedPassword;
    const arbiterAccount = await admin.accounts.createAccount({ name: "arbiter", roles: [Role.ARBITER] });
    for (const member of MEMBERS) {
      await admin.membership.registerPlayer({ playerId: member, name: member, idempotencyKey: `register-${member}` });
    }
    for (const member of [`staff:${CHAIR}`, ...MEMBERS]) {
      await admin.appeals.addRosterEntry({ memberId: member, chair: member === `staff:${CHAIR}`, idempotencyKey: `roster-${member}` });
    }

    // The arbiter's ruling on deal 1, on his screen: East withdrew his acquiescence in the claim,
    // and the arbiter assigns eleven tricks to declarer (Club Law 69).
    arbiter = await staff("arbiter", arbiterAccount.generatedPassword);
    const arbiterPage = await browsers.newPage(PHONE);
    await signInStaff(arbiterPage, "arbiter", arbiterAccount.generatedPassword, "Arbiter");
    const form = arbiterPage.locator("details.ruling-form");
    await form.locator("summary").click();
    await form.getByLabel("The irregularity").fill("East withdrew his acquiescence in declarer's claim of all thirteen tricks");
    await form.getByLabel(/The Law applied/).fill("69");
    await form.locator("select[name='ruling-code']").selectOption({ label: "Alternative Club Laws" });
    await form.getByLabel("The facts found").fill("declarer's statement did not say how he would play the clubs; the defenders could have won two tricks");
    await form.locator("select[name='ruling-kind']").selectOption({ label: "A judgement (an adjusted score, unauthorised information, a claim)" });
    await form.getByLabel("An assigned score").check();
    assert.equal(await form.getByLabel(/^Contract/).inputValue(), "1NT", "the contract played, offered");
    await form.locator("select[name='assigned-declarer']").selectOption({ label: "North" });
    await form.getByLabel("Tricks won by declarer's side").fill("11");
    await form.getByRole("button", { name: "Record the ruling" }).click();
    await form.getByRole("status").getByText(/Ruling recorded/).waitFor();
    await shoot(arbiterPage, "arbiter-assigned-score");
    await arbiterPage.context().close();

    // The rubber goes on: deal 2 is dealt, and each player learns his new hand.
    await deal(2, "nora");
    for (const [, letter, playerId] of SEATS) hands2.set(letter, ownHand(await viewOf(playerId), letter));
    assert.equal(new Set([...hands2.values()].flatMap((h) => [...h])).size, 52, "deal 2's four hands are one deck");
  });

  after(async () => {
    await browsers?.close();
    await club?.stop();
  });

  /** Signs `playerId` in on a phone with a fresh code from the desk, at his table. */
  const phoneOf = async (playerId: string) => {
    const { code } = await admin.accounts.issueSignInCode({ playerId });
    const page = await browsers.newPage(PHONE);
    await page.getByLabel("Code from the desk").fill(code);
    await page.getByRole("button", { name: "Sign in with the code" }).click();
    await page.locator("section.table-screen[data-phase='Auction']").waitFor();
    pages.set(playerId, page);
    return page;
  };
  const totals = async (page: Page) => {
    const pad = page.getByTestId("scorepad");
    return { ns: Number(await pad.getByTestId("total-ns").textContent()), ew: Number(await pad.getByTestId("total-ew").textContent()) };
  };
  let padBefore: { ns: number; ew: number };

  test("declarer reads the ruling on his phone and appeals it; the other side's page shows the appeal", async () => {
    const nora = await phoneOf("nora");
    const eddie = await phoneOf("eddie");
    for (const page of [nora, eddie]) {
      const ruling = page.getByTestId("rulings").locator("article[data-ruling]");
      await ruling.getByText("The ruling on deal 1").waitFor();
      await ruling.getByTestId("ruling-decision").getByText("Adjusted: assigned score: 1NT by North, 11 tricks").waitFor();
      await page.getByTestId("scorepad").getByText("1 deal recorded").waitFor();
    }
    await checkEveryPage("the players signed in");
    padBefore = await totals(nora);
    await shoot(nora, "player-ruling");

    // Declarer appeals, with his grounds, from his phone; the keyboard reaches the form.
    await nora.getByRole("button", { name: "Appeal this ruling" }).click();
    await nora.getByLabel("Your grounds").fill("the defenders could take one club trick at most; my line was clear");
    await nora.getByRole("button", { name: "File the appeal" }).click();
    await nora.locator("[data-testid='appeal-state'][data-status='Filed']").waitFor();
    assert.equal(await nora.getByRole("button", { name: "Appeal this ruling" }).count(), 0, "one appeal at a time");
    // The defenders' side reads it live, from the appeals stream.
    await eddie.locator("[data-testid='appeal-state'][data-status='Filed']").getByText("Appeal by nora").waitFor();
    assert.equal(await eddie.getByRole("button", { name: "Withdraw my appeal" }).count(), 0, "only the appellant withdraws");
    await checkEveryPage("the appeal filed");
    await shoot(nora, "player-appeal-filed");
  });

  test("a committee member hears and decides the appeal, and the players' scorepads change", async () => {
    const committee = await browsers.newPage(DESK);
    await signInStaff(committee, CHAIR, chairPassword, "Appeals committee");
    assert.equal(await committee.getByTestId("signed-in-as").textContent(), `${CHAIR} (committee)`);
    pages.set("committee", committee);
    await committee.locator(".heading-row .live", { hasText: /^live$/ }).waitFor();

    // The appeal filed, open, with its ruling and the whole record of deal 1.
    const item = committee.locator("button.appeal-item", { hasText: "Appeal by nora" });
    await item.locator(".chip.status-filed").waitFor();
    await item.click();
    const appeal = committee.locator("section.appeal-case[data-status='Filed']");
    await appeal.getByRole("heading", { name: "Appeal by nora at Table 1" }).waitFor();
    await appeal.getByTestId("grounds").getByText("my line was clear").waitFor();
    const ruling = appeal.getByTestId("ruling");
    await ruling.getByText("East withdrew his acquiescence").waitFor();
    await ruling.getByTestId("ruling-decision").getByText("1NT by North, 11 tricks").waitFor();
    const record = appeal.getByTestId("deal-record");
    await record.getByTestId("record-result").getByText("Result: 1NT by North, 13 tricks (ended by a claim)").waitFor();
    await record.locator("[data-hand='W'] [data-card]").nth(12).waitFor();
    const shown = await cardsShown(committee);
    assert.equal(shown.filter((c) => c.hand !== null).length, 52, "the committee reads all four hands of deal 1");
    for (const [letter, hand] of hands1) {
      assert.deepEqual(new Set(shown.filter((c) => c.hand === letter).map((c) => c.card)), hand, `${letter}'s hand as he held it`);
    }
    await checkEveryPage("the committee reads the appeal");
    await shoot(committee, "committee-appeal");

    // The hearing: the member signed in sits with two from the roster, and hears both sides.
    const hearing = appeal.getByTestId("hearing");
    // The roster is offered for the other seats: the member's own name is not among them.
    const offered = () => committee.locator("#roster-members option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    await committee.waitForFunction(() => document.querySelectorAll("#roster-members option").length > 0);
    assert.deepEqual((await offered()).sort(), [...MEMBERS].sort(), "the roster, without the member signed in");
    await hearing.getByLabel("Member 2 (from the roster)").fill(MEMBERS[0]);
    await hearing.getByLabel("Member 3 (from the roster)").fill(MEMBERS[1]);
    await hearing.getByLabel("Who spoke").fill("nora");
    await hearing.getByLabel("Speaking as").selectOption({ label: "appellant's side" });
    await hearing.getByLabel("What was said").fill("I would have cashed the clubs first; they had one club trick");
    await hearing.getByRole("button", { name: "Add the statement" }).click();
    await hearing.getByLabel("Who spoke").fill("eddie");
    await hearing.getByLabel("Speaking as").selectOption({ label: "other side" });
    await hearing.getByLabel("What was said").fill("declarer never mentioned the clubs; we had two tricks there");
    await hearing.getByRole("button", { name: "Add the statement" }).click();
    await hearing.getByRole("button", { name: "Record the hearing" }).click();
    const heard = committee.locator("section.appeal-case[data-status='Heard']");
    await heard.getByTestId("hearing").getByText(`${CHAIR}, ${MEMBERS.join(", ")}`).waitFor();
    await heard.getByTestId("hearing").getByText("we had two tricks there").waitFor();
    await committee.getByRole("status").filter({ hasText: "The hearing is recorded." }).waitFor();
    // The appellant's phone follows.
    await pages.get("nora")!.locator("[data-testid='appeal-state'][data-status='Heard']").waitFor();
    await checkEveryPage("the appeal heard");
    await shoot(committee, "committee-heard");

    // The decision: varied to twelve tricks, henry against, with the reasons and his dissent.
    const decision = heard.getByTestId("decision");
    await decision.getByLabel("Vary it").check();
    await decision.getByLabel("An assigned score").check();
    assert.equal(await decision.getByLabel("Declarer", { exact: true }).inputValue(), String(Seat.NORTH), "the form starts from the ruling's score");
    await decision.getByLabel("Tricks won by declarer's side").fill("12");
    await decision.getByRole("radiogroup", { name: "henry's vote" }).getByLabel("Against").check();
    await decision.getByLabel("The committee's reasons").fill("the defenders had one club trick, not two, on any normal line");
    await decision.getByLabel(/^The dissent/).fill("declarer's statement left both club tricks to the defenders");
    await shoot(committee, "committee-deciding");
    await decision.getByRole("button", { name: "Record the decision" }).click();

    const decided = committee.locator("section.appeal-case[data-status='Decided']");
    await decided.getByTestId("outcome").getByText("Varied. Adjusted: assigned score: 1NT by North, 12 tricks.").waitFor();
    const votes = decided.locator("table.votes");
    assert.equal(await votes.locator("tr[data-member='henry'] td").nth(1).textContent(), "Against");
    assert.equal(await votes.locator("tr[data-member='grace'] td").nth(1).textContent(), "For");
    assert.equal(await votes.locator(`tr[data-member='staff:${CHAIR}'] td`).nth(1).textContent(), "For");
    await decided.getByTestId("dissent").getByText("left both club tricks").waitFor();
    await decided.getByTestId("score-change").getByText(/appeal's decision .*1NT by North, 12 tricks/).waitFor();
    // The score's history, oldest first: the result, the ruling and its adjusted score, the appeal
    // filed, heard and decided, and the score the decision made.
    const audit = decided.getByTestId("audit");
    for (const step of ["Result recorded", "Ruling by arbiter: East withdrew", "Adjusted score applied", "Appeal filed by nora", "Appeal heard by", "Appeal decided: Varied", "Score changed by the appeal's decision"]) {
      await audit.getByText(step).first().waitFor();
    }
    const steps = await audit.locator("li").allTextContents();
    const at = (text: string) => steps.findIndex((s) => s.includes(text));
    assert.ok(at("Result recorded") < at("Ruling by") && at("Ruling by") < at("Appeal filed") && at("Appeal filed") < at("Appeal decided"), steps.join("\n"));
    await checkEveryPage("the appeal decided");
    await shoot(committee, "committee-decided");

    // Both players' pads: one more overtrick for North-South (30 above the line), East-West's as it was.
    for (const playerId of ["nora", "eddie"]) {
      const page = pages.get(playerId)!;
      await page.getByTestId("scorepad").getByTestId("total-ns").getByText(String(padBefore.ns + 30), { exact: true }).waitFor();
      assert.equal((await totals(page)).ew, padBefore.ew, `${playerId}'s pad: East-West's score stands`);
    }
    const nora = pages.get("nora")!;
    await nora.locator("[data-testid='appeal-state'][data-status='Decided']").getByTestId("appeal-outcome").getByText("Varied").waitFor();
    await checkEveryPage("the players' pads changed");
    await shoot(nora, "player-appeal-decided");
    await shoot(pages.get("eddie")!, "player-appeal-decided-other-side");
  });

  test("the screens open their appeals streams again after the server restarts, and catch up", async () => {
    const committee = pages.get("committee")!;
    const eddie = pages.get("eddie")!;
    await club.restart(async () => {
      await committee.locator(".heading-row .live", { hasText: /reconnecting/ }).waitFor();
    });
    await committee.locator(".heading-row .live", { hasText: /^live$/ }).waitFor();
    for (const playerId of ["nora", "eddie"]) await pages.get(playerId)!.locator("section.table-screen .live", { hasText: /^live$/ }).waitFor();

    // A ruling on deal 2 while it is played, the table result standing (through the API: the
    // arbiter's own test drives his screen):
    // East's phone shows it, he appeals, and the committee's list shows his appeal first, open.
    const deal2 = (await viewOf("eddie")).dealId;
    await arbiter.appeals.recordRuling({
      idempotencyKey: "ruling-deal-2",
      deal: { kind: TableKind.RUBBER, scoreTarget: { target: { case: "scorepadDeal", value: { scorepadId, dealId: deal2 } } } },
      irregularity: "South hesitated before passing; East asked for a ruling on unauthorised information",
      laws: [{ code: LawCode.CLUB, number: 16 }],
      facts: "the pause was not long enough to suggest anything",
      kind: RulingKind.JUDGEMENT,
      decision: { decision: { case: "resultStands", value: {} } },
      rightToAppealAdvised: true,
    });
    const ruling = eddie.locator("article[data-ruling]", { hasText: "South hesitated" });
    await ruling.getByRole("button", { name: "Appeal this ruling" }).click();
    await ruling.getByLabel("Your grounds").fill("the pause was long, and North acted on it");
    await ruling.getByRole("button", { name: "File the appeal" }).click();
    await ruling.locator("[data-testid='appeal-state'][data-status='Filed']").waitFor();
    const first = committee.locator("button.appeal-item").first();
    await first.getByText("Appeal by eddie").waitFor();
    await first.locator(".chip.status-filed").waitFor();
    await committee.locator("button.appeal-item", { hasText: "Appeal by nora" }).locator(".chip.status-decided").waitFor();
    await checkEveryPage("after the restart");
    await shoot(committee, "committee-two-appeals");

    // Deal 2 is still being played: its record is refused to the committee, and no card of it shows.
    await first.click();
    const open = committee.locator("section.appeal-case[data-status='Filed']");
    await open.getByRole("heading", { name: "Appeal by eddie at Table 1" }).waitFor();
    await open.getByTestId("deal-record").locator(".error").waitFor();
    assert.equal(await committee.locator("[data-card]").count(), 0, "the committee is shown cards of a deal in progress");
    await checkEveryPage("the committee reads an appeal on a deal in progress");
    await shoot(committee, "committee-deal-in-progress");
  });
});
