// A finished deal's record as the game service gives it to an official (GetDealRecord): the four
// hands as dealt, the auction, the tricks as played, the claims and arbiter calls, and how the deal
// ended. It shows exactly the hands the record holds, each card with its data-card and each hand
// with its seat's data-hand, as the table does, so that the tests can check what it shows.

import { ClaimKind, ClaimStatus } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import { DealEnding } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import type { DealRecord } from "@bridgeclub/client/gen/bridgeclub/game/v1/record_pb.js";
import { Vulnerability } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";

import { resultText } from "./appeals.js";
import { AuctionGrid } from "./bidding.js";
import { type Card, SEAT_NAME, Seat } from "./cards.js";
import { CardFace, Hand } from "./hand.js";

const SEAT_LETTER: Record<number, string> = { [Seat.NORTH]: "N", [Seat.EAST]: "E", [Seat.SOUTH]: "S", [Seat.WEST]: "W" };

export const VULNERABLE: Record<number, string> = {
  [Vulnerability.NONE]: "neither side vulnerable",
  [Vulnerability.NORTH_SOUTH]: "North–South vulnerable",
  [Vulnerability.EAST_WEST]: "East–West vulnerable",
  [Vulnerability.BOTH]: "both sides vulnerable",
};

const ENDING: Record<number, string> = {
  [DealEnding.PLAYED_OUT]: "played out",
  [DealEnding.CLAIMED]: "ended by a claim",
  [DealEnding.CONCEDED]: "ended by a concession",
  [DealEnding.CLAIM_ADJUDICATED]: "claim adjudicated",
  [DealEnding.PASSED_OUT]: "passed out",
};

const CLAIM_STATUS: Record<number, string> = {
  [ClaimStatus.PENDING]: "pending",
  [ClaimStatus.ACCEPTED]: "accepted",
  [ClaimStatus.DISPUTED]: "disputed",
  [ClaimStatus.ADJUDICATED]: "adjudicated",
};

/** `Heading` is the level of the record's own parts (h4 under a section's h3). */
export function DealRecordView({ record, Heading = "h4" }: { record: DealRecord; Heading?: "h3" | "h4" }) {
  const setup = record.setup;
  const players = new Map(setup?.players.map((p) => [p.seat, p.playerId]));
  const hands: [Seat, "top" | "left" | "right" | "bottom", Card[] | undefined][] = [
    [Seat.NORTH, "top", record.deal?.north?.cards],
    [Seat.WEST, "left", record.deal?.west?.cards],
    [Seat.EAST, "right", record.deal?.east?.cards],
    [Seat.SOUTH, "bottom", record.deal?.south?.cards],
  ];
  const number = setup?.source.case === "rubber" ? setup.source.value.dealNumber : setup?.source.case === "board" ? setup.source.value.boardNumber : undefined;
  // Every trick with a card in it: a claim may end the play in the middle of one.
  const played = record.tricks.filter((t) => t.cards.length > 0);
  return (
    <div class="deal-record" data-deal={record.dealId}>
      <p class="record-facts">
        {number !== undefined && <strong>Deal {number}. </strong>}
        Dealer {SEAT_NAME[setup?.dealer ?? 0] ?? "?"}, {VULNERABLE[setup?.vulnerability ?? 0] ?? "vulnerability not given"}.{" "}
        <span data-testid="record-result">
          Result: {record.outcome?.result ? resultText(record.outcome.result) : "none yet"}
          {record.outcome?.ending ? ` (${ENDING[record.outcome.ending] ?? "ended"})` : ""}.
        </span>
      </p>
      {record.deal ? (
        <div class="record-hands">
          {hands.map(([seat, where, cards]) => (
            <div class={`record-seat ${where}`} key={seat}>
              <Heading class="seat-name">
                {SEAT_NAME[seat]}
                {players.get(seat) ? `, ${players.get(seat)}` : ""}
              </Heading>
              {cards && <Hand cards={cards} seatCode={SEAT_LETTER[seat]} label={`${SEAT_NAME[seat]}'s hand as dealt`} />}
            </div>
          ))}
        </div>
      ) : (
        <p>The hands were not entered for this deal.</p>
      )}
      <RecordAuction record={record} />
      {played.length > 0 && (
        <details class="tricks-played">
          <summary>The play ({played.length} {played.length === 1 ? "trick" : "tricks"})</summary>
          <ol>
            {played.map((trick) => (
              <li key={trick.number}>
                <span class="who">{SEAT_LETTER[trick.leader]}:</span>
                {trick.cards.map((c) => c.card && <CardFace card={c.card} key={c.seat} />)}
                <span class="who">{trick.cards.length === 4 ? `won by ${SEAT_NAME[trick.winner]}` : "not completed"}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
      {record.claims.length > 0 && (
        <ul class="record-list" aria-label="Claims and concessions">
          {record.claims.map((claim) => (
            <li key={claim.claimId}>
              {SEAT_NAME[claim.claimer]} {claim.kind === ClaimKind.CONCESSION ? "conceded" : "claimed"} {claim.tricks} of the {claim.tricksRemaining} tricks
              left{claim.statement ? `: “${claim.statement}”` : ""} ({CLAIM_STATUS[claim.status] ?? "answered"}).
            </li>
          ))}
        </ul>
      )}
      {record.arbiterCalls.length > 0 && (
        <ul class="record-list" aria-label="Arbiter calls">
          {record.arbiterCalls.map((call) => (
            <li key={call.arbiterCallId}>
              The arbiter was called{call.calledBySeat ? ` by ${SEAT_NAME[call.calledBySeat]}` : ""}
              {call.reason ? `: ${call.reason}` : ""}
              {call.resolution ? `. Resolved: ${call.resolution}` : ""}.
            </li>
          ))}
        </ul>
      )}
      {record.irregularities.length > 0 && (
        <ul class="record-list" aria-label="Irregularities">
          {record.irregularities.map((irregularity) => (
            <li key={irregularity.irregularityId}>
              Irregularity{irregularity.law?.text ? ` (${irregularity.law.text})` : ""}
              {irregularity.pointedOutBy ? `, pointed out by ${SEAT_NAME[irregularity.pointedOutBy]}` : ""}.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The auction as it was called. */
function RecordAuction({ record }: { record: DealRecord }) {
  if (record.auction.length === 0) return null;
  return <AuctionGrid dealer={record.setup?.dealer} auction={record.auction} />;
}
