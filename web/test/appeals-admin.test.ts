// The administrator's appeals screen in headless Chromium against a real bridge-club of its own: he
// publishes the club's appeal policy, puts a committee staff account and members on the roster
// (the server refusing a second chair and someone not on the register, in its own words), declares
// a conflict and withdraws it, and takes a member off; after a reload the page shows what the server
// keeps.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import type { Page } from "playwright-core";

import { DESK, makeStaffAccount, registerAndArrive, shoot, signInStaff, suiteClub, waitForOrError } from "./browser.js";

describe("the administrator's appeals screen", () => {
  let admin: Page;

  const suite = suiteClub();

  const roster = () => admin.getByRole("region", { name: "The committee's roster" });
  const conflicts = () => admin.getByRole("region", { name: "Conflicts" });

  /** Adds `member` to the roster with the form; `chair` ticks the chair's box. */
  const addToRoster = async (member: string, chair = false) => {
    await roster().locator("input[name=roster-member]").fill(member);
    if (chair) await roster().getByRole("checkbox", { name: "Chairs the committee" }).check();
    await roster().getByRole("button", { name: "Add to the roster" }).click();
  };

  test("the administrator publishes the appeal policy", async () => {
    admin = await suite.browsers.newPage(DESK);
    await signInStaff(admin, suite.club.administrator.name, suite.club.administrator.password, "The room");
    for (const id of ["ann", "bob", "cat", "dan"]) await registerAndArrive(admin, id);
    await makeStaffAccount(admin, "chair", ["Committee"]);

    await admin.getByRole("button", { name: "Appeals", exact: true }).click();
    await admin.getByRole("heading", { name: "Appeals administration" }).waitFor();
    const policy = admin.getByRole("region", { name: "The appeal policy" });
    await policy.getByRole("checkbox", { name: "Appeals are allowed" }).check();
    await policy.locator("input[name=policy-rubber-limit]").fill("30");
    await policy.locator("input[name=policy-duplicate-limit]").fill("30");
    await policy.locator("input[name=policy-size]").fill("3");
    await policy.locator("input[name=policy-deposit]").fill("10");
    await policy.locator("input[name=policy-currency]").fill("GBP");
    await policy.getByRole("button", { name: "Publish the policy" }).click();
    await waitForOrError(admin, admin.getByRole("status").filter({ hasText: "The appeal policy is published" }));
    // The summary is the policy as read back from the server after publishing.
    await admin.getByTestId("policy-summary").filter({ hasText: /appeals allowed; 3 members hear an appeal; deposit £10\.00/ }).waitFor();
  });

  test("he puts a committee account and members on the roster; the server refuses what the rules forbid", async () => {
    await addToRoster("staff:chair", true);
    await waitForOrError(admin, roster().locator("li[data-roster='staff:chair']").getByText("chair (chair)"));
    for (const member of ["ann", "bob"]) {
      await addToRoster(member);
      await waitForOrError(admin, roster().locator(`li[data-roster='${member}']`));
    }
    // One chair at a time.
    await addToRoster("cat", true);
    await admin.getByRole("alert").waitFor();
    assert.match((await admin.getByRole("alert").textContent()) ?? "", /chair/i);
    assert.equal(await roster().locator("li[data-roster='cat']").count(), 0);
    // Nobody off the register.
    await roster().getByRole("checkbox", { name: "Chairs the committee" }).uncheck();
    await addToRoster("nobody");
    await admin.getByRole("alert").getByText(/nobody/).waitFor();
    assert.equal(await roster().locator("li[data-roster]").count(), 3);
  });

  test("he declares a conflict and withdraws it, and takes a member off the roster", async () => {
    await conflicts().locator("select[name=conflict-member]").selectOption("ann");
    await conflicts().locator("select[name=conflict-kind]").selectOption("playerId");
    await conflicts().locator("input[name=conflict-subject]").fill("dan");
    await conflicts().locator("input[name=conflict-reason]").fill("Dan is her husband");
    await conflicts().getByRole("button", { name: "Declare the conflict" }).click();
    await waitForOrError(admin, conflicts().locator("li[data-conflict='ann']").getByText("ann does not hear appeals dan is a party to"));
    await shoot(admin, "admin-appeals");

    await conflicts().getByRole("button", { name: "Withdraw ann's conflict" }).click();
    await conflicts().getByText("No conflict is declared.").waitFor();
    await roster().getByRole("button", { name: "Remove bob" }).click();
    await roster().locator("li[data-roster='bob']").waitFor({ state: "detached" });

    // What the page shows is what the server keeps.
    await admin.reload();
    await admin.getByRole("button", { name: "Appeals", exact: true }).click();
    await roster().locator("li[data-roster='ann']").waitFor();
    const kept = await roster().locator("li[data-roster]").evaluateAll((items) => items.map((li) => li.getAttribute("data-roster")));
    assert.deepEqual(kept.sort(), ["ann", "staff:chair"]);
    await conflicts().getByText("No conflict is declared.").waitFor();
    assert.match((await admin.getByTestId("policy-summary").textContent()) ?? "", /3 members hear an appeal/);
  });
});
