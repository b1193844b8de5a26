// The generated TypeScript client against a real bridge-club, through grpc-web: the administrator
// signs in with the password the server printed on its first start and makes the desk's account,
// the desk signs in and registers players, each player signs in with a one-time code the desk
// issues him, a player reads the room and refreshes his tokens, a watch stream receives the event a
// later call causes and resumes after a break, refusals carry their google.rpc ErrorInfo (reason,
// and the Law a refusal under the Laws cites) in grpc-status-details-bin, as docs/errors.md says,
// and a member the desk signs out is refused. Every token comes from SignInService; none is minted.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { type Client, type Transport, createClient } from "@connectrpc/connect";

import { Role } from "../src/gen/bridgeclub/common/v1/auth_pb.js";
import { Seat } from "../src/gen/bridgeclub/common/v1/cards_pb.js";
import { Denomination, Vulnerability } from "../src/gen/bridgeclub/common/v1/contract_pb.js";
import { TableKind } from "../src/gen/bridgeclub/common/v1/table_pb.js";
import { PlayMode } from "../src/gen/bridgeclub/game/v1/deal_pb.js";
import { GameService } from "../src/gen/bridgeclub/game/v1/game_service_pb.js";
import { MembershipService, type WatchRoomResponse } from "../src/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { type SignedIn, SignInService } from "../src/gen/bridgeclub/membership/v1/signin_pb.js";
import { ScoringService } from "../src/gen/bridgeclub/scoring/v1/scoring_service_pb.js";
import { Code, ConnectError, clubTransport, errorDetails, resumable } from "../src/index.js";
import { Club } from "./server.js";

type Membership = Client<typeof MembershipService>;
type SignIn = Client<typeof SignInService>;

/** How long a test may wait on a watch stream for the events it expects. */
const STREAM_TIMEOUT_MS = 20_000;

/**
 * How long a revoked member's access token may still be accepted: a service re-reads the ended
 * sessions every second (docs/architecture.md, "Identity and roles"), bridge-club's own services
 * at once; the rest is room for a slow machine.
 */
const REVOCATION_BOUND_MS = 5_000;

/** Someone signed in: his current tokens, and a transport that presents the current access token. */
class Session {
  /** Presents `tokens.accessToken` as it is at each call, so a refresh takes effect at once. */
  readonly transport: Transport;

  constructor(
    /** The tokens of the last sign-in, redemption or refresh. */
    public tokens: SignedIn,
    baseUrl: string,
  ) {
    this.transport = clubTransport({ baseUrl, token: () => this.tokens.accessToken });
  }
}

/** The claims of a JWT, read without checking its signature (the server checks it). */
const claims = (jwt: string): Record<string, unknown> => {
  const parts = jwt.split(".");
  assert.equal(parts.length, 3, `not a JWT: ${jwt}`);
  return JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
};

describe("the TypeScript client through grpc-web", () => {
  let club: Club;
  /** SignInService without a token: SignIn, RedeemCode and Refresh need none. */
  let signIn: SignIn;
  const players = ["alice", "bob", "carol", "dave", "erin"] as const;
  type Player = (typeof players)[number];
  const sessions: Partial<Record<"admin" | "desk" | Player, Session>> = {};
  const session = (who: "admin" | "desk" | Player): Session => sessions[who] ?? assert.fail(`${who} is not signed in`);
  const as: Partial<Record<Player, Membership>> = {};
  const player = (id: Player): Membership => as[id] ?? assert.fail(`no client for ${id}`);
  let desk: Membership;

  /** Calls `call`, which must fail; its error. */
  const refusal = async (call: () => Promise<unknown>): Promise<ConnectError> => {
    try {
      await call();
    } catch (error) {
      return ConnectError.from(error);
    }
    return assert.fail("the call succeeded; a refusal was expected");
  };

  /** Asserts that `error` is UNAUTHENTICATED with the reason UNAUTHENTICATED. */
  const assertUnauthenticated = (error: ConnectError) => {
    assert.equal(error.code, Code.Unauthenticated, error.message);
    assert.equal(errorDetails(error).reason, "UNAUTHENTICATED", JSON.stringify(errorDetails(error)));
  };

  before(async () => {
    club = await Club.start();
    signIn = createClient(SignInService, clubTransport({ baseUrl: club.baseUrl }));
  });

  after(async () => {
    await club?.stop();
  });

  test("the administrator signs in with the password printed at first start and makes the desk's account", async () => {
    const { name, password } = club.administrator;
    assert.equal(name, "admin");

    // A wrong password, or an account that does not exist, is refused alike.
    const wrong = await refusal(() => signIn.signIn({ name, password: `${password}-wrong` }));
    assertUnauthenticated(wrong);
    const nobody = await refusal(() => signIn.signIn({ name: "nobody", password }));
    assertUnauthenticated(nobody);
    assert.equal(nobody.rawMessage, wrong.rawMessage, "the refusal must not tell whether the account exists");

    const admin = (await signIn.signIn({ name, password })).signedIn ?? assert.fail("SignIn answered no tokens");
    assert.equal(admin.subject, "staff:admin");
    assert.deepEqual(admin.roles, [Role.ADMIN]);
    assert.equal(claims(admin.accessToken).sub, "staff:admin");
    assert.ok(admin.refreshToken, "no refresh token");
    sessions.admin = new Session(admin, club.baseUrl);

    // The administrator makes the desk's account; the server generates its password.
    const accounts = createClient(SignInService, session("admin").transport);
    const created = await accounts.createAccount({ name: "desk", roles: [Role.DESK] });
    assert.equal(created.account?.name, "desk");
    assert.deepEqual(created.account?.roles, [Role.DESK]);
    assert.ok(created.generatedPassword.length >= 10, "no generated password");
    const { accounts: listed } = await accounts.listAccounts({});
    assert.deepEqual(listed.map((a) => a.name), ["admin", "desk"]);

    const signedIn = await signIn.signIn({ name: "desk", password: created.generatedPassword });
    const deskTokens = signedIn.signedIn ?? assert.fail("SignIn answered no tokens");
    assert.equal(deskTokens.subject, "staff:desk");
    assert.deepEqual(deskTokens.roles, [Role.DESK]);
    sessions.desk = new Session(deskTokens, club.baseUrl);
    desk = createClient(MembershipService, session("desk").transport);

    // The desk makes no accounts.
    const denied = await refusal(() =>
      createClient(SignInService, session("desk").transport).createAccount({ name: "arbiter", roles: [Role.ARBITER] }),
    );
    assert.equal(denied.code, Code.PermissionDenied, denied.message);
    assert.equal(errorDetails(denied).reason, "PERMISSION_DENIED");
  });

  test("the desk registers the players and each signs in with a code the desk issues him", async () => {
    const codes = createClient(SignInService, session("desk").transport);
    for (const id of players) {
      const { player } = await desk.registerPlayer({ playerId: id, name: `Player ${id}`, idempotencyKey: `register-${id}` });
      assert.equal(player?.playerId, id);
      assert.equal(player?.active, true);

      const issued = await codes.issueSignInCode({ playerId: id });
      assert.equal(issued.playerId, id);
      assert.match(issued.code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4,}$/);
      // On his phone: the code as he types it, in lower case (dashes and case do not matter).
      const redeemed = (await signIn.redeemCode({ code: issued.code.toLowerCase() })).signedIn;
      const tokens = redeemed ?? assert.fail("RedeemCode answered no tokens");
      assert.equal(tokens.subject, id);
      assert.deepEqual(tokens.roles, [Role.PLAYER]);
      assert.equal(claims(tokens.accessToken).sub, id, "the access token speaks for his player id");
      sessions[id] = new Session(tokens, club.baseUrl);
      as[id] = createClient(MembershipService, session(id).transport);

      // A code works once.
      assertUnauthenticated(await refusal(() => signIn.redeemCode({ code: issued.code })));
    }
    // A code for someone not on the register is not issued.
    const unknown = await refusal(() => codes.issueSignInCode({ playerId: "zoe" }));
    assert.equal(unknown.code, Code.NotFound, unknown.message);
    assert.equal(errorDetails(unknown).reason, "NOT_FOUND");
  });

  test("a player reads the room", async () => {
    const { players: register } = await player("alice").listPlayers({});
    assert.deepEqual(register.map((p) => p.playerId).sort(), [...players].sort());

    const { presence } = await player("alice").arriveInRoom({ playerId: "alice" });
    assert.equal(presence?.playerId, "alice");
    const { present } = await player("alice").listPresentPlayers({});
    assert.deepEqual(present.map((p) => p.playerId), ["alice"]);
  });

  test("a refresh gives new tokens that work", async () => {
    const before = session("alice").tokens;
    // An access token's times count whole seconds: refresh in a later second than Alice's sign-in,
    // so that her new access token differs from the old one.
    const issued = Number(claims(before.accessToken).iat);
    while (Math.floor(Date.now() / 1000) <= issued) await new Promise((resolve) => setTimeout(resolve, 50));
    const refreshed = (await signIn.refresh({ refreshToken: before.refreshToken })).signedIn;
    const tokens = refreshed ?? assert.fail("Refresh answered no tokens");
    assert.notEqual(tokens.accessToken, before.accessToken);
    assert.notEqual(tokens.refreshToken, before.refreshToken);
    assert.equal(tokens.sessionId, before.sessionId, "a refresh goes on with the same session");
    assert.equal(tokens.subject, "alice");
    assert.deepEqual(tokens.roles, [Role.PLAYER]);
    const [now, then] = [claims(tokens.accessToken), claims(before.accessToken)];
    assert.equal(now.sub, "alice");
    assert.equal(now.sid, before.sessionId);
    assert.ok(Number(now.exp) > Number(then.exp), "the new access token expires later");
    assert.equal(tokens.accessExpiresAt?.seconds, BigInt(Number(now.exp)));
    // Alice's client presents the new access token from now on, in every later test.
    session("alice").tokens = tokens;
    const { present } = await player("alice").listPresentPlayers({});
    assert.deepEqual(present.map((p) => p.playerId), ["alice"]);
    const { player: herself } = await player("alice").getPlayer({ playerId: "alice" });
    assert.equal(herself?.playerId, "alice");

    // The desk's session refreshes alike.
    const deskTokens = (await signIn.refresh({ refreshToken: session("desk").tokens.refreshToken })).signedIn;
    session("desk").tokens = deskTokens ?? assert.fail("Refresh answered no tokens");
    assert.equal(session("desk").tokens.subject, "staff:desk");
    await desk.listPresentPlayers({});
  });

  let seen = 0n;

  test("a watch stream receives the event a later call causes", { timeout: STREAM_TIMEOUT_MS }, async () => {
    const controller = new AbortController();
    const stream = player("bob").watchRoom({}, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    const next = async (): Promise<WatchRoomResponse> => {
      for (;;) {
        const { value, done } = await iterator.next();
        assert.ok(!done, "the stream ended");
        if (value.event) return value;
      }
    };
    try {
      // Without after_sequence the stream starts with the room as it stands.
      const first = await next();
      assert.equal(first.event?.event.case, "snapshot", `first: ${first.event?.event.case}`);
      const snapshot = first.event?.event.case === "snapshot" ? first.event.event.value : assert.fail();
      assert.deepEqual(snapshot.present.map((p) => p.playerId), ["alice"]);
      const atSnapshot = first.event?.sequence ?? assert.fail();

      // Bob arrives: the open stream gets it, numbered next.
      await player("bob").arriveInRoom({ playerId: "bob" });
      const arrival = await next();
      assert.equal(arrival.event?.event.case, "playerArrived");
      assert.equal(arrival.event?.event.case === "playerArrived" && arrival.event.event.value.playerId, "bob");
      assert.equal(arrival.event?.sequence, atSnapshot + 1n);
      seen = arrival.event.sequence;
    } finally {
      controller.abort();
      await iterator.return?.();
    }
  });

  test("a watch resumes after a break from the last sequence it saw", { timeout: STREAM_TIMEOUT_MS }, async () => {
    assert.ok(seen > 0n, "the test before saw no event");
    // Carol arrives while nobody watches: resuming after the last sequence seen finds her first.
    await player("carol").arriveInRoom({ playerId: "carol" });

    const opened: (bigint | undefined)[] = [];
    const arrivals: string[] = [];
    const sequences: bigint[] = [];
    const controller = new AbortController();
    // The first connection breaks (UNAVAILABLE, as a server that lost its live feed ends it) after
    // its first event; the watch opens again after that event's sequence.
    const open = (afterSequence: bigint | undefined, signal: AbortSignal) => {
      opened.push(afterSequence);
      const stream = player("dave").watchRoom({ afterSequence }, { signal });
      if (opened.length > 1) return stream;
      return (async function* () {
        for await (const response of stream) {
          yield response;
          if (response.event) throw new ConnectError("connection lost", Code.Unavailable);
        }
      })();
    };
    try {
      for await (const response of resumable(open, { after: seen, signal: controller.signal, retryDelayMs: 10 })) {
        const event = response.event ?? assert.fail("resumable yielded a heartbeat");
        assert.notEqual(event.event.case, "snapshot", "a resumed stream sends no snapshot");
        sequences.push(event.sequence);
        if (event.event.case === "playerArrived") arrivals.push(event.event.value.playerId);
        // Dave arrives once Carol's arrival is seen: after the break, the stream carries it.
        if (arrivals.length === 1 && arrivals[0] === "carol") await player("dave").arriveInRoom({ playerId: "dave" });
        if (arrivals.includes("dave")) break;
      }
    } finally {
      controller.abort();
    }
    assert.deepEqual(arrivals, ["carol", "dave"]);
    assert.equal(opened.length, 2, `opened after ${opened.join(", ")}`);
    assert.equal(opened[0], seen);
    assert.equal(opened[1], seen + 1n);
    // Every event once, in order: no gap, nothing twice.
    sequences.forEach((sequence, i) => assert.equal(sequence, sequences[0] + BigInt(i)));
    assert.equal(sequences[0], seen + 1n);
  });

  test("a refusal under the Rules for Club Procedure carries its reason and the rule", async () => {
    // Erin is on the register but not in the room: no table is opened with her (rule C).
    const error = await refusal(() =>
      desk.openTable({
        name: "Table 1",
        kind: TableKind.RUBBER,
        applicantPlayerIds: ["alice", "bob", "carol", "dave", "erin"],
        idempotencyKey: "open-1",
      }),
    );
    assert.equal(error.code, Code.FailedPrecondition, error.message);
    const details = errorDetails(error);
    assert.equal(details.reason, "LAW_FORBIDS", JSON.stringify(details));
    assert.equal(details.law, "rule C of the Rules for Club Procedure");
    assert.equal(details.metadata["law_code"], "LAW_CODE_CLUB_PROCEDURE");
    assert.equal(details.metadata["law_number"], "3");
    assert.match(details.message, /erin is not in the room/);
    assert.equal(details.retryDelayMs, undefined, "retrying what the Laws refuse is useless");
    // The header older clients read says the same.
    assert.equal(error.metadata.get("x-bridge-law"), details.law);

    // Nothing was opened.
    const { tables } = await desk.listTables({});
    assert.deepEqual(tables, []);
  });

  test("a malformed request names the field at fault", async () => {
    const error = await refusal(() => desk.registerPlayer({ playerId: "x".repeat(300), name: "Too long" }));
    assert.equal(error.code, Code.InvalidArgument, error.message);
    const details = errorDetails(error);
    assert.equal(details.reason, "FIELD_INVALID", JSON.stringify(details));
    assert.deepEqual(
      details.fieldViolations.map((v) => v.field),
      ["player_id"],
    );
  });

  test("a player may act only for himself, and a call needs a token", async () => {
    const error = await refusal(() => player("alice").arriveInRoom({ playerId: "erin" }));
    assert.equal(error.code, Code.PermissionDenied, error.message);
    assert.equal(errorDetails(error).reason, "PERMISSION_DENIED");

    const anonymous = createClient(MembershipService, clubTransport({ baseUrl: club.baseUrl }));
    const unauthenticated = await refusal(() => anonymous.listPresentPlayers({}));
    assertUnauthenticated(unauthenticated);

    // Nobody arrived for Erin.
    const { present } = await desk.listPresentPlayers({});
    assert.deepEqual(present.map((p) => p.playerId), ["alice", "bob", "carol", "dave"]);
  });

  test("a call out of turn at a digital table is refused under the Laws, naming the Law", async () => {
    // The four present players open a table and start a rubber: Alice and Carol against Bob and
    // Dave, Alice (North) deals first; the rubber's pad, then its first deal, dealt by the server.
    const { table } = await desk.openTable({
      name: "Table 1",
      kind: TableKind.RUBBER,
      applicantPlayerIds: ["alice", "bob", "carol", "dave"],
      serverDraw: true,
      idempotencyKey: "open-2",
    });
    const tableId = table?.tableId ?? assert.fail("OpenTable answered no table");
    const seats: [Seat, string][] = [
      [Seat.NORTH, "alice"],
      [Seat.EAST, "bob"],
      [Seat.SOUTH, "carol"],
      [Seat.WEST, "dave"],
    ];
    const seated = seats.map(([seat, playerId]) => ({ seat, playerId }));
    const { rubber } = await desk.startRubber({
      tableId,
      agreedPartnerships: { partnerPlayerIds: ["alice", "carol"], firstDealerPlayerId: "alice" },
      seatChoices: seated,
    });
    const rubberId = rubber?.rubberId ?? assert.fail("StartRubber answered no rubber");
    const pads = createClient(ScoringService, session("desk").transport);
    const { scorepad } = await pads.createScorepad({ rubberId });
    const scorepadId = scorepad?.scorepadId ?? assert.fail("CreateScorepad answered no pad");
    const deskGame = createClient(GameService, session("desk").transport);
    const idle = (await deskGame.getTableState({ tableId })).view ?? assert.fail("no table view");
    const { view } = await deskGame.startDeal({
      tableId,
      expectedVersion: idle.version,
      idempotencyKey: "deal-1",
      setup: {
        source: { case: "rubber", value: { rubberId, scorepadId, dealNumber: 1 } },
        kind: TableKind.RUBBER,
        mode: PlayMode.DIGITAL,
        players: seated,
        dealer: Seat.NORTH,
        vulnerability: Vulnerability.NONE,
      },
    });
    const dealt = view ?? assert.fail("StartDeal answered no view");
    assert.equal(dealt.nextToAct, Seat.NORTH);

    // Bob, East, bids 1H at North's turn, from his own app.
    const bob = createClient(GameService, session("bob").transport);
    const error = await refusal(() =>
      bob.makeCall({
        tableId,
        expectedVersion: dealt.version,
        idempotencyKey: "call-1",
        seat: Seat.EAST,
        call: { kind: { case: "bid", value: { level: 1, denomination: Denomination.HEARTS } } },
      }),
    );
    assert.equal(error.code, Code.FailedPrecondition, error.message);
    const details = errorDetails(error);
    assert.equal(details.reason, "LAW_FORBIDS", JSON.stringify(details));
    assert.match(details.law ?? "", /^Law 17\b.* of the Laws of Rubber Bridge$/);
    assert.equal(details.metadata["law_code"], "LAW_CODE_RUBBER");
    assert.equal(details.metadata["law_number"], "17");
    assert.equal(error.metadata.get("x-bridge-law"), details.law);

    // The state is as it was.
    const now = (await bob.getTableState({ tableId })).view ?? assert.fail("no table view");
    assert.equal(now.version, dealt.version);
    assert.deepEqual(now.auction, []);
  });

  test("a refresh token presented twice ends its session", async () => {
    // Someone copied Carol's refresh token: she refreshes, then the copy is presented.
    const copied = session("carol").tokens.refreshToken;
    const refreshed = (await signIn.refresh({ refreshToken: copied })).signedIn ?? assert.fail("no tokens");
    assertUnauthenticated(await refusal(() => signIn.refresh({ refreshToken: copied })));
    // Neither holder keeps the session: her newest refresh token is refused too.
    assertUnauthenticated(await refusal(() => signIn.refresh({ refreshToken: refreshed.refreshToken })));
  });

  test("a member the desk signs out is refused", async () => {
    // Erin's phone is lost: the desk ends her sessions.
    const erin = session("erin").tokens;
    await player("erin").listPresentPlayers({});
    const { sessionsRevoked } = await createClient(SignInService, session("desk").transport).revokeMemberSessions({
      playerId: "erin",
    });
    assert.equal(sessionsRevoked, 1);

    // Her refresh token is refused at once ...
    assertUnauthenticated(await refusal(() => signIn.refresh({ refreshToken: erin.refreshToken })));
    // ... and her access token within the revocation bound.
    const deadline = Date.now() + REVOCATION_BOUND_MS;
    let refused: ConnectError | undefined;
    while (refused === undefined) {
      try {
        await player("erin").listPresentPlayers({});
        assert.ok(Date.now() < deadline, `erin's access token still works ${REVOCATION_BOUND_MS} ms after revocation`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      } catch (error) {
        refused = ConnectError.from(error);
      }
    }
    assertUnauthenticated(refused);

    // The others are still signed in.
    const { present } = await player("alice").listPresentPlayers({});
    assert.ok(present.some((p) => p.playerId === "alice"));
  });
});
