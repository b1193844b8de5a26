// The generated TypeScript client against a real bridge-club, through grpc-web: the desk registers
// players, a player arrives and reads the room, a watch stream receives the event a later call
// causes and resumes after a break, and refusals carry their google.rpc ErrorInfo (reason, and the
// Law a refusal under the Laws cites) in grpc-status-details-bin, as docs/errors.md says.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { type Client, type Transport, createClient } from "@connectrpc/connect";

import { Seat } from "../src/gen/bridgeclub/common/v1/cards_pb.js";
import { Denomination, Vulnerability } from "../src/gen/bridgeclub/common/v1/contract_pb.js";
import { TableKind } from "../src/gen/bridgeclub/common/v1/table_pb.js";
import { PlayMode } from "../src/gen/bridgeclub/game/v1/deal_pb.js";
import { GameService } from "../src/gen/bridgeclub/game/v1/game_service_pb.js";
import { MembershipService, type WatchRoomResponse } from "../src/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { ScoringService } from "../src/gen/bridgeclub/scoring/v1/scoring_service_pb.js";
import { Code, ConnectError, clubTransport, errorDetails, resumable } from "../src/index.js";
import { Club } from "./server.js";

type Membership = Client<typeof MembershipService>;

/** How long a test may wait on a watch stream for the events it expects. */
const STREAM_TIMEOUT_MS = 20_000;

describe("the TypeScript client through grpc-web", () => {
  let club: Club;
  let desk: Membership;
  const players = ["alice", "bob", "carol", "dave", "erin"] as const;
  const as: Partial<Record<(typeof players)[number], Membership>> = {};
  const player = (id: (typeof players)[number]): Membership => as[id] ?? assert.fail(`no client for ${id}`);

  /** A grpc-web transport presenting a token for `subject` with `roles`. */
  const transport = async (subject: string, ...roles: string[]): Promise<Transport> => {
    const token = await club.token(subject, ...roles);
    return clubTransport({ baseUrl: club.baseUrl, token: () => token });
  };

  /** A membership client for `subject` with `roles`. */
  const membership = async (subject: string, ...roles: string[]): Promise<Membership> =>
    createClient(MembershipService, await transport(subject, ...roles));

  /** Calls `call`, which must fail; its error. */
  const refusal = async (call: () => Promise<unknown>): Promise<ConnectError> => {
    try {
      await call();
    } catch (error) {
      return ConnectError.from(error);
    }
    return assert.fail("the call succeeded; a refusal was expected");
  };

  before(async () => {
    club = await Club.start();
    desk = await membership("front-desk", "desk");
    for (const id of players) as[id] = await membership(id, "player");
  });

  after(async () => {
    await club?.stop();
  });

  test("the desk registers the players and a player reads the room", async () => {
    for (const id of players) {
      const { player } = await desk.registerPlayer({ playerId: id, name: `Player ${id}`, idempotencyKey: `register-${id}` });
      assert.equal(player?.playerId, id);
      assert.equal(player?.active, true);
    }
    const { players: register } = await player("alice").listPlayers({});
    assert.deepEqual(register.map((p) => p.playerId).sort(), [...players].sort());

    const { presence } = await player("alice").arriveInRoom({ playerId: "alice" });
    assert.equal(presence?.playerId, "alice");
    const { present } = await player("alice").listPresentPlayers({});
    assert.deepEqual(present.map((p) => p.playerId), ["alice"]);
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
    assert.equal(unauthenticated.code, Code.Unauthenticated, unauthenticated.message);
    assert.equal(errorDetails(unauthenticated).reason, "UNAUTHENTICATED");

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
    const pads = createClient(ScoringService, await transport("front-desk", "desk"));
    const { scorepad } = await pads.createScorepad({ rubberId });
    const scorepadId = scorepad?.scorepadId ?? assert.fail("CreateScorepad answered no pad");
    const deskGame = createClient(GameService, await transport("front-desk", "desk"));
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
    const bob = createClient(GameService, await transport("bob", "player"));
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
});
