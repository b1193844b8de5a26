// The draw for precedence when a table opens (Rules for Club Procedure, rule C), made with the
// table's cards and recorded on the desk's screen, in headless Chromium against a real
// bridge-club. Set up from Node (what screens.test.ts does through the screens): four members play
// a rubber at another table and come back to the room, and a newcomer arrives. The five apply
// together: the newcomer, who has not played, ranks first; the four who have played rank equal, so
// a draw orders them for the places of the first rubber. The desk records the cards; one drawer
// took two cards at once, the server refuses the draw as incomplete naming him, the desk adds his
// card drawn again, and the table opens with the draw's order.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { clubTransport, createClient } from "@bridgeclub/client";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { MembershipService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { RubberStatus } from "@bridgeclub/client/gen/bridgeclub/membership/v1/rubber_pb.js";
import { SignInService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/signin_pb.js";

import { DESK, shoot, signInStaff, suiteClub, waitForOrError } from "./browser.js";

const PLAYED = ["pam", "quin", "rex", "sue"];
const NEWCOMER = "ned";

describe("the draw for precedence when a table opens", () => {
  const suite = suiteClub();

  before(async () => {
    const signIn = createClient(SignInService, clubTransport({ baseUrl: suite.club.baseUrl }));
    const token = (await signIn.signIn({ name: suite.club.administrator.name, password: suite.club.administrator.password })).signedIn?.accessToken ?? "";
    const desk = createClient(MembershipService, clubTransport({ baseUrl: suite.club.baseUrl, token: () => token }));
    for (const playerId of [...PLAYED, NEWCOMER]) {
      await desk.registerPlayer({ playerId, name: playerId, idempotencyKey: `register-${playerId}` });
      if (playerId !== NEWCOMER) await desk.arriveInRoom({ playerId });
    }
    const { table } = await desk.openTable({ name: "Table 9", kind: TableKind.RUBBER, applicantPlayerIds: PLAYED, serverDraw: true, idempotencyKey: "open-9" });
    const tableId = table?.tableId ?? assert.fail("no table");
    const { rubber } = await desk.startRubber({ tableId, serverDraw: true });
    await desk.endRubber({ tableId, rubberId: rubber?.rubberId ?? assert.fail("no rubber"), status: RubberStatus.FINISHED });
    // They leave the room and come back: no longer at a table, and they have played.
    for (const playerId of PLAYED) {
      await desk.leaveRoom({ playerId });
      await desk.arriveInRoom({ playerId });
    }
    await desk.arriveInRoom({ playerId: NEWCOMER });
  });

  test("the desk records the cards, a redraw included, and the table opens in the draw's order", async () => {
    const page = await suite.browsers.newPage(DESK);
    await signInStaff(page, suite.club.administrator.name, suite.club.administrator.password, "The room");
    const form = page.locator("form[aria-labelledby='open-title']");
    await form.getByLabel("Table name").fill("Table 2");
    for (const id of [...PLAYED, NEWCOMER]) await form.getByRole("checkbox", { name: id, exact: true }).check();
    const draw = form.getByTestId("precedence-draw");
    await draw.waitFor();
    // The newcomer, who has not played, does not draw: the four who have played do.
    const summary = (await draw.locator(".summary").textContent()) ?? "";
    for (const id of PLAYED) assert.ok(summary.includes(id), `${id} draws: ${summary}`);
    assert.ok(!summary.includes(NEWCOMER), `${NEWCOMER} does not draw: ${summary}`);

    await draw.getByRole("checkbox", { name: /Drawn with the table's cards/ }).check();
    const cards = ["SA", "HK", "DQ", "CJ"];
    for (const [i, id] of PLAYED.entries()) await draw.getByLabel(`${id}'s card`).fill(cards[i]);
    // Quin took two cards at once: his card does not count (Law 3), and he must draw again.
    await draw.locator("fieldset[data-drawer='quin']").getByRole("checkbox", { name: "Drew more than one card" }).check();
    await shoot(page, "desk-precedence-draw");
    await form.getByRole("button", { name: "Open the table" }).click();
    await page.getByRole("alert").getByText(/not complete: quin must still draw/).waitFor();
    assert.equal(await page.locator("section[data-table]").count(), 0, "no table opens with an incomplete draw");

    await draw.locator("select[name=precedence-redrawer]").selectOption("quin");
    await draw.getByRole("button", { name: "Add his card drawn again" }).click();
    await draw.getByLabel("quin's card").last().fill("S2");
    await form.getByRole("button", { name: "Open the table" }).click();
    // Highest card first: Pam's ace, Rex's queen, Sue's jack, then Quin's two.
    await waitForOrError(page, page.getByRole("status").filter({ hasText: "Table 2 is open. The draw for precedence: pam, rex, sue, quin." }));
    const card = page.locator("section[data-table]").first();
    await card.getByText(/pam/).first().waitFor();
    const facts = (await card.locator("dl.facts").textContent()) ?? "";
    for (const id of [...PLAYED, NEWCOMER]) assert.ok(facts.includes(id), `${id} is a member: ${facts}`);
  });
});
