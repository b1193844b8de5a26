// The sessions screen in headless Chromium against a real bridge-club of its own. The desk registers
// eight members and opens a pairs session at matchpoints with two boards, sends two tables round
// them (the director releasing one board early), enters the travellers' results; the director rates
// a fouled board in groups (Law 87B); the desk corrects a result (Law 79C); the director, on his own page, follows the standings live and
// rules on a result with an assigned score (Law 12C1), which the desk's page shows at once; the desk
// publishes the official score and exports the session as PBN and USEBIO files. The session has no
// hands: no page shows a card.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";

import type { Page } from "playwright-core";

import { cardsShown, DESK, makeStaffAccount, PHONE, registerAndArrive, shoot, signInStaff, suiteClub, waitForOrError } from "./browser.js";

const PAIRS = [
  ["Ann & Bob", "ann", "bob"],
  ["Cat & Dan", "cat", "dan"],
  ["Eve & Fred", "eve", "fred"],
  ["Gus & Hal", "gus", "hal"],
];
const NORTH = "1";
const SOUTH = "3";

describe("the duplicate sessions screen", () => {
  let desk: Page;
  let director: Page;

  const suite = suiteClub();

  /** The row of board `board`'s result between pairs `ns` and `ew` on `page`. */
  const row = (page: Page, board: number, ns: number, ew: number) => page.locator(`table[data-board="${board}"] tr[data-ns="${ns}"][data-ew="${ew}"]`);

  /**
   * Waits until `page` shows these standings (rank and score, by pair number), judged in the page
   * in one go, so that a change between reading the table and waiting for the next is not missed.
   */
  const standingsBecome = async (page: Page, expected: Record<string, string>) => {
    await page.waitForFunction((wanted) => {
      const rows = [...document.querySelectorAll('[data-testid="standings"] tbody tr')].map((tr) => {
        const cells = [...tr.children].map((cell) => cell.textContent?.trim() ?? "");
        return [tr.getAttribute("data-contestant") ?? "", `${cells[0]} ${(cells[2] ?? "").split(" ")[0]}`] as const;
      });
      return JSON.stringify(Object.fromEntries(rows)) === JSON.stringify(wanted);
    }, expected);
  };

  /** Fills a result's fields (`name` the form's prefix) as the desk types a traveller's line. */
  const typeResult = async (page: Page, name: string, contract: string, declarer: string, tricks: number) => {
    await page.locator(`input[name=${name}-contract]`).fill(contract);
    await page.locator(`select[name=${name}-declarer]`).selectOption(declarer);
    await page.locator(`input[name=${name}-tricks]`).fill(String(tricks));
  };

  test("the desk registers eight members and opens a pairs session with two boards", async () => {
    const admin = await suite.browsers.newPage(DESK);
    await signInStaff(admin, suite.club.administrator.name, suite.club.administrator.password, "The room");
    const deskPassword = await makeStaffAccount(admin, "frontdesk", ["Desk"]);
    const directorPassword = await makeStaffAccount(admin, "director", ["Arbiter"]);
    desk = await suite.browsers.newPage(DESK);
    await signInStaff(desk, "frontdesk", deskPassword, "The room");
    for (const [, ...ids] of PAIRS) for (const id of ids) await registerAndArrive(desk, id);

    await desk.getByRole("button", { name: "Sessions", exact: true }).click();
    await desk.getByRole("heading", { name: "Duplicate sessions" }).waitFor();
    await desk.getByText("New session").click();
    await desk.getByLabel("Session name").fill("Tuesday pairs");
    await desk.locator("select[name=session-method]").selectOption({ label: "Matchpoints" });
    await desk.getByLabel("Number of boards").fill("2");
    await desk.locator("textarea[name=session-contestants]").fill(PAIRS.map(([name, ...ids]) => `${name}: ${ids.join(", ")}`).join("\n"));
    await desk.getByRole("button", { name: "Create the session" }).click();
    await waitForOrError(desk, desk.getByRole("status").filter({ hasText: "Session Tuesday pairs is open: 2 boards, 4 contestants." }));
    await desk.getByRole("heading", { name: "Tuesday pairs" }).waitFor();
    await desk.getByText("No board has a result yet.").waitFor();

    director = await suite.browsers.newPage(PHONE);
    await signInStaff(director, "director", directorPassword, "Arbiter");
    await director.getByRole("button", { name: "Sessions", exact: true }).click();
    await director.getByRole("heading", { name: "Tuesday pairs" }).waitFor();
    await director.getByText("No result counts yet.").waitFor();
    await director.locator(".session .live.live").waitFor();
  });

  test("the desk sends the tables round the boards, and the director releases one early", async () => {
    const movement: [string, number, number, number][] = [
      ["A", 1, 1, 2],
      ["B", 1, 3, 4],
      ["A", 2, 3, 1],
      ["B", 2, 4, 2],
    ];
    for (const [table, board, ns, ew] of movement) {
      await desk.locator("input[name=movement-table]").fill(table);
      await desk.locator("select[name=movement-board]").selectOption(String(board));
      await desk.locator("select[name=movement-ns]").selectOption(String(ns));
      await desk.locator("select[name=movement-ew]").selectOption(String(ew));
      await desk.getByRole("button", { name: "Send the table to the board" }).click();
      await waitForOrError(desk, desk.locator(`li[data-movement-board="${board}"] li[data-table="${table}"]`));
    }
    assert.match((await desk.locator('li[data-movement-board="2"] li[data-table="B"]').textContent()) ?? "", /Gus & Hal \(North–South\) against Cat & Dan/);
    // The desk may not release a board; the director may (a table cannot play it, say).
    assert.equal(await desk.getByRole("button", { name: "Release board 2" }).count(), 0);
    await director.locator('li[data-movement-board="2"] li[data-table="B"]').waitFor();
    await director.getByRole("button", { name: "Release board 2" }).click();
    await waitForOrError(director, director.locator('li[data-movement-board="2"]').getByText("may be shown to everyone"));
    await desk.locator('li[data-movement-board="2"]').getByText("may be shown to everyone").waitFor();
    await desk.locator('li[data-movement-board="1"]').getByText("not yet shown").waitFor();
  });

  test("the desk enters the travellers and the director's page follows the standings live", async () => {
    // Board 1: nobody vulnerable; board 2: North-South vulnerable (Law 2).
    const lines: [number, number, number, string, string, number, string][] = [
      [1, 1, 2, "4S", NORTH, 10, "420"],
      [1, 3, 4, "4S", NORTH, 9, "-50"],
      [2, 3, 1, "3NT", SOUTH, 9, "600"],
      [2, 4, 2, "3NT", SOUTH, 10, "630"],
    ];
    for (const [board, ns, ew, contract, declarer, tricks, points] of lines) {
      await desk.locator("select[name=result-board]").selectOption(String(board));
      await desk.locator("select[name=result-ns]").selectOption(String(ns));
      await desk.locator("select[name=result-ew]").selectOption(String(ew));
      await typeResult(desk, "record", contract, declarer, tricks);
      await desk.getByRole("button", { name: "Enter the result" }).click();
      await waitForOrError(desk, row(desk, board, ns, ew));
      await row(director, board, ns, ew).locator("td.score").first().getByText(points, { exact: true }).waitFor();
    }
    // Each board's two results are compared: the better one takes the top in each direction.
    const expected = { "1": "1= 100.00%", "4": "1= 100.00%", "2": "3= 0.00%", "3": "3= 0.00%" };
    await standingsBecome(desk, expected);
    await standingsBecome(director, expected);
    await shoot(desk, "desk-session");
  });

  test("the director rates a fouled board in groups (Law 87B), and the standings follow", async () => {
    // Board 1 is released by itself once both tables sent to it have a result.
    await desk.locator('li[data-movement-board="1"]').getByText("may be shown to everyone").waitFor();
    await director.getByText("A fouled board (Law 87B)").click();
    await director.locator("select[name=fouled-board]").selectOption("1");
    // Eve & Fred's table played a changed form: each table is compared with its own form's alone.
    await director.locator("input[name=fouled-form-3]").fill("1");
    await director.locator("input[name=fouled-reason]").fill("Two cards were exchanged between the North and East hands");
    await director.getByRole("button", { name: "Rate the board in groups" }).click();
    await waitForOrError(director, director.getByRole("status").filter({ hasText: "Board 1 is rated in groups" }));
    // One table in each group: each scores 50% on board 1.
    const expected = { "1": "1= 75.00%", "4": "1= 75.00%", "2": "3= 25.00%", "3": "3= 25.00%" };
    await standingsBecome(desk, expected);
    await standingsBecome(director, expected);
    await desk.locator(".score-changes").getByText(/Fouled board rescored/).waitFor();
  });

  test("the desk corrects a traveller's result (Law 79C), and both pages rescore the board", async () => {
    await desk.getByText("Correct a result (Law 79C)").click();
    await desk.locator("select[name=correct-result]").selectOption({ label: "Board 1: Eve & Fred against Gus & Hal, 4♠ by North, 9 tricks" });
    await typeResult(desk, "correct", "4S", NORTH, 10);
    await desk.locator("input[name=correct-reason]").fill("The traveller showed nine tricks; the players agree declarer made ten");
    await desk.getByRole("button", { name: "Correct the result" }).click();
    await waitForOrError(desk, row(desk, 1, 3, 4).getByText("4♠ by North, 10 tricks"));
    await desk.locator(".score-changes").getByText(/Score corrected/).waitFor();
    const expected = { "1": "1= 75.00%", "4": "1= 75.00%", "2": "3= 25.00%", "3": "3= 25.00%" };
    await standingsBecome(desk, expected);
    await standingsBecome(director, expected);
  });

  test("the director rules on a result with an assigned score, and the desk's page shows it", async () => {
    await director.getByText("Rule on a result").click();
    await director.locator("select[name=ruling-result]").selectOption({ label: "Board 2: Gus & Hal against Cat & Dan, 3NT by South, 10 tricks" });
    await director.locator("input[name=session-ruling-irregularity]").fill("East's explanation of 2♣ was wrong");
    await director.locator("input[name=session-ruling-law]").fill("21B3");
    await director.locator("input[name=session-ruling-facts]").fill("Given the right explanation South would not have found the tenth trick");
    await director.locator("select[name=session-ruling-side]").selectOption({ label: "East–West" });
    await typeResult(director, "assigned", "3NT", SOUTH, 9);
    await director.getByRole("button", { name: "Record the ruling" }).click();
    await waitForOrError(director, director.getByRole("status").filter({ hasText: "Ruling recorded on board 2" }));
    await shoot(director, "director-session-ruling");

    await row(desk, 2, 4, 2).getByText("Assigned: 3NT by South, 9 tricks (at the table: 3NT by South, 10 tricks)").waitFor();
    await desk.locator(".score-changes").getByText(/Adjusted score applied/).waitFor();
    const even = { "1": "1= 50.00%", "2": "1= 50.00%", "3": "1= 50.00%", "4": "1= 50.00%" };
    await standingsBecome(desk, even);
    await standingsBecome(director, even);
  });

  test("the desk publishes the official score and exports the session as PBN and USEBIO", async () => {
    await desk.getByRole("button", { name: "Publish the official score" }).click();
    await desk.getByTestId("session-status").getByText(/Official score published/).waitFor();
    await director.getByTestId("session-status").getByText(/Official score published/).waitFor();
    assert.equal(await desk.getByRole("button", { name: "Enter the result" }).count(), 0, "no result is entered after publication");

    const saved = async (button: string) => {
      const [download] = await Promise.all([desk.waitForEvent("download"), desk.getByRole("button", { name: button }).click()]);
      return { name: download.suggestedFilename(), text: await readFile((await download.path()) ?? "", "utf8") };
    };
    const pbn = await saved("Export PBN");
    assert.equal(pbn.name, "Tuesday-pairs.pbn");
    assert.match(pbn.text, /^% PBN 2\.1/);
    assert.match(pbn.text, /\[Event "Tuesday pairs"\]/);
    assert.match(pbn.text, /\[Board "2"\]/);
    const usebio = await saved("Export USEBIO");
    assert.equal(usebio.name, "Tuesday-pairs.xml");
    assert.match(usebio.text, /<USEBIO Version="1\.2">/);
    for (const [name] of PAIRS) assert.ok(usebio.text.includes(`<PAIR_NAME>${name.replace("&", "&amp;")}</PAIR_NAME>`), `USEBIO names ${name}`);
    await shoot(desk, "desk-session-published");

    // The session was created without hands: neither page may show a card.
    assert.deepEqual(await cardsShown(desk), []);
    assert.deepEqual(await cardsShown(director), []);
  });
});
