// Rulings, appeals and their decisions as the screens say them: a result, an adjusted score, the
// Laws cited, where an appeal stands, the steps of a score's audit trail, each in words a player or
// a committee member reads at a glance.

import { type Appeal, AppealOutcome, AppealStatus, SpeakerRole } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeal_pb.js";
import type { AuditEntry } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/events_pb.js";
import type { Money } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/procedure_pb.js";
import { type RulingDecision, RulingKind } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import type { Adjustment } from "@bridgeclub/client/gen/bridgeclub/common/v1/adjustment_pb.js";
import { Side } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { Doubling } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";
import type { LawCitation } from "@bridgeclub/client/gen/bridgeclub/common/v1/law_pb.js";
import type { DealResult } from "@bridgeclub/client/gen/bridgeclub/common/v1/result_pb.js";
import { ScoreVersionCause, type ScoreVersion } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/history_pb.js";
import type { Timestamp } from "@bufbuild/protobuf/wkt";

import { DENOMINATION_SYMBOL, SEAT_NAME } from "./cards.js";

/** A principal as people read it: a staff account without its prefix. */
export const who = (id: string) => id.replace(/^staff:/, "");

export const STATUS: Record<number, string> = {
  [AppealStatus.FILED]: "Filed",
  [AppealStatus.HEARD]: "Heard",
  [AppealStatus.DECIDED]: "Decided",
  [AppealStatus.WITHDRAWN]: "Withdrawn",
};

export const OUTCOME: Record<number, string> = {
  [AppealOutcome.UPHELD]: "Upheld: the ruling stands",
  [AppealOutcome.OVERRULED]: "Overruled",
  [AppealOutcome.VARIED]: "Varied",
};

export const SPEAKER_ROLE: Record<number, string> = {
  [SpeakerRole.APPELLANT_SIDE]: "appellant's side",
  [SpeakerRole.OTHER_SIDE]: "other side",
  [SpeakerRole.ARBITER]: "arbiter",
  [SpeakerRole.WITNESS]: "witness",
};

export const RULING_KIND: Record<number, string> = {
  [RulingKind.LAW]: "on a point of law",
  [RulingKind.FACT]: "on disputed facts",
  [RulingKind.JUDGEMENT]: "a judgement",
  [RulingKind.DISCIPLINARY]: "disciplinary (not open to appeal)",
};

export const SIDE_NAME: Record<number, string> = { [Side.NORTH_SOUTH]: "North–South", [Side.EAST_WEST]: "East–West" };

/** An appeal is open until it is decided or withdrawn. */
export function isOpen(appeal: Appeal): boolean {
  return appeal.status === AppealStatus.FILED || appeal.status === AppealStatus.HEARD;
}

/** "1NT doubled by South, 9 tricks", "passed out". */
export function resultText(result: DealResult | undefined): string {
  const outcome = result?.outcome;
  if (outcome?.case === "passedOut") return "passed out";
  if (outcome?.case !== "played") return "no result";
  const declared = outcome.value.contract;
  const bid = declared?.contract?.bid;
  const doubling = declared?.contract?.doubling === Doubling.DOUBLED ? " doubled" : declared?.contract?.doubling === Doubling.REDOUBLED ? " redoubled" : "";
  const contract = bid ? `${bid.level}${DENOMINATION_SYMBOL[bid.denomination]}${doubling}` : "?";
  const tricks = outcome.value.tricks;
  return `${contract} by ${SEAT_NAME[declared?.declarer ?? 0] ?? "?"}, ${tricks} ${tricks === 1 ? "trick" : "tricks"}`;
}

export function adjustmentText(adjustment: Adjustment | undefined): string {
  const kind = adjustment?.kind;
  switch (kind?.case) {
    case "assigned":
      return `assigned score: ${resultText(kind.value.result)}`;
    case "weighted":
      return `weighted score: ${kind.value.results.map((r) => `${resultText(r.result)} (${Number(r.weight?.basisPoints ?? 0) / 100}%)`).join("; ")}`;
    case "artificial":
      return "artificial adjusted score";
    case "split":
      return "split score";
    default:
      return "adjusted score";
  }
}

/** What a ruling or a committee's decision puts in force for the deal. */
export function decisionText(decision: RulingDecision | undefined): string {
  const d = decision?.decision;
  switch (d?.case) {
    case "resultStands":
      return "The table result stands";
    case "adjustedScore":
      return `Adjusted: ${adjustmentText(d.value)}`;
    case "rectification":
      return `Rectification: ${d.value.description}`;
    default:
      return "—";
  }
}

export function lawText(law: LawCitation): string {
  return law.text || `Law ${law.number}${law.section}`;
}

export function moneyText(money: Money): string {
  const amount = Number(money.amountMinorUnits) / 100;
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: money.currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${money.currency}`;
  }
}

export function when(at: Timestamp | undefined): string {
  if (!at) return "";
  return new Date(Number(at.seconds) * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

const CAUSE: Record<number, string> = {
  [ScoreVersionCause.RESULT_RECORDED]: "Result recorded",
  [ScoreVersionCause.CORRECTION]: "Score corrected",
  [ScoreVersionCause.ADJUSTMENT]: "Adjusted score applied",
  [ScoreVersionCause.APPEAL_DECISION]: "Score changed by the appeal's decision",
  [ScoreVersionCause.RECOMPUTED]: "Recomputed",
  [ScoreVersionCause.RUBBER_ENDED]: "Rubber ended",
  [ScoreVersionCause.NET_AGREED]: "Net score agreed",
  [ScoreVersionCause.PUBLISHED]: "Official score published",
  [ScoreVersionCause.FOULED_BOARD]: "Fouled board rescored",
};

/** A score version in one line: what made it and the result in force after it. */
export function scoreVersionText(version: ScoreVersion): string {
  const cause = CAUSE[version.cause] ?? "Score changed";
  const inForce = version.adjustment ? adjustmentText(version.adjustment) : version.result ? resultText(version.result) : "";
  return `${cause} (version ${version.version})${inForce ? `: ${inForce}` : ""}`;
}

/** One step of a score's audit trail, in words. */
export function auditText(entry: AuditEntry): string {
  const e = entry.entry;
  switch (e.case) {
    case "scoreVersion":
      return scoreVersionText(e.value);
    case "ruling":
      return `Ruling by ${who(e.value.ruledBy)}: ${e.value.irregularity}. ${decisionText(e.value.decision)} (${e.value.laws.map(lawText).join(", ")})`;
    case "appealFiled":
      return `Appeal filed by ${e.value.appellantPlayerId}: “${e.value.grounds}”`;
    case "appealHeard":
      return `Appeal heard by ${e.value.hearing?.committeeMemberIds.map(who).join(", ") ?? "the committee"}`;
    case "appealDecided":
      return `Appeal decided: ${OUTCOME[e.value.decision?.outcome ?? 0] ?? "decided"}`;
    case "appealWithdrawn":
      return `Appeal withdrawn${e.value.withdrawalReason ? `: ${e.value.withdrawalReason}` : ""}`;
    case "appealReviewed":
      return "Appeal reviewed by the Director in charge";
    case "appealTakenFurther":
      return `Appeal taken further, to ${e.value.furtherAppeal?.body ?? "the body the club names"}`;
    default:
      return "—";
  }
}
