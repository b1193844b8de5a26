// A player's rulings: the arbiter's rulings on deals he played, each with the Laws it applied and
// the score it put in force, and where any appeal against it stands; a player of the deal may
// appeal a ruling with his grounds (the committee hears it), and withdraw his appeal until it is
// decided. It shows no card: a ruling's deal is read on the committee's screen, not here. Live from
// the appeals stream, which brings a player the notices about his own deals.

import { type Appeal, type AppealPolicy, AppealStatus } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeal_pb.js";
import type { Ruling } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { appeals, explain, idempotencyKey, scoring } from "./api.js";
import { decisionText, isOpen, lawText, moneyText, OUTCOME, RULING_KIND, SIDE_NAME, STATUS, when } from "./appeals.js";
import { useLive } from "./live.js";
import "./appeals.css";

/** The scorepad a ruling's deal is scored on, for a rubber or Chicago deal. */
export function scorepadOf(ruling: Ruling): string | undefined {
  const target = ruling.deal?.scoreTarget?.target;
  return target?.case === "scorepadDeal" ? target.value.scorepadId : undefined;
}

/** What the arbiter found and decided. */
export function RulingFacts({ ruling }: { ruling: Ruling }) {
  return (
    <dl class="facts" data-testid="ruling">
      <dt>Irregularity</dt>
      <dd>{ruling.irregularity}</dd>
      <dt>{ruling.laws.length === 1 ? "Law" : "Laws"}</dt>
      <dd>{ruling.laws.map(lawText).join("; ")}</dd>
      {ruling.facts && (
        <>
          <dt>Facts found</dt>
          <dd>{ruling.facts}</dd>
        </>
      )}
      <dt>Kind</dt>
      <dd>{RULING_KIND[ruling.kind] ?? "—"}</dd>
      {ruling.offendingSide ? (
        <>
          <dt>Offending side</dt>
          <dd>{SIDE_NAME[ruling.offendingSide]}</dd>
        </>
      ) : null}
      <dt>Decision</dt>
      <dd data-testid="ruling-decision">{decisionText(ruling.decision)}</dd>
      <dt>Ruled by</dt>
      <dd>
        {ruling.ruledBy.replace(/^staff:/, "")}, {when(ruling.ruledAt)}
      </dd>
    </dl>
  );
}

/** Where an appeal stands, as a party reads it. */
export function StatusChip({ appeal }: { appeal: Appeal }) {
  const text = STATUS[appeal.status] ?? "—";
  return <span class={`chip status-${text.toLowerCase()}`}>{text}</span>;
}

export function Rulings({ playerId }: { playerId: string }) {
  const [rulings, setRulings] = useState<Ruling[]>();
  const [filed, setFiled] = useState<Appeal[]>([]);
  // Each ruled deal's number on its scorepad, by deal id.
  const [numbers, setNumbers] = useState<Record<string, number>>({});
  const [policy, setPolicy] = useState<AppealPolicy>();
  const [error, setError] = useState<string>();
  const read = useCallback(async () => {
    try {
      const [ruled, appealed] = await Promise.all([appeals().listRulings({ playerId }), appeals().listAppeals({ playerId })]);
      setRulings(ruled.rulings);
      setFiled(appealed.appeals);
      const pads = [...new Set(ruled.rulings.map(scorepadOf).filter((id): id is string => id !== undefined))];
      const found: Record<string, number> = {};
      for (const scorepadId of pads) {
        const pad = (await scoring().getScorepad({ scorepadId })).scorepad;
        for (const deal of pad?.deals ?? []) found[deal.dealId] = deal.dealNumber;
      }
      setNumbers(found);
    } catch (e) {
      setError(explain(e));
    }
  }, [playerId]);
  useEffect(() => {
    void read();
    appeals()
      .getAppealPolicy({})
      .then((answer) => setPolicy(answer.policy))
      .catch(() => setPolicy(undefined));
  }, [read]);
  useLive(`appeals-${playerId}`, (after, signal) => appeals().watchAppeals({ afterSequence: after }, { signal }), () => void read());

  const act = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      await read();
    } catch (e) {
      setError(explain(e));
    }
  };

  if (!rulings || rulings.length === 0) {
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : null;
  }
  const deposit = policy?.procedure?.deposit;
  return (
    <section class="rulings" aria-labelledby="rulings-title" data-testid="rulings">
      <h2 id="rulings-title">Rulings on your deals</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {rulings.map((ruling) => {
        const number = numbers[ruling.deal?.dealId ?? ""];
        const against = filed.filter((a) => a.rulingId === ruling.rulingId);
        const played = ruling.deal?.players.some((p) => p.playerId === playerId) ?? false;
        // One appeal at a time: another only once the last was withdrawn.
        const pending = against.some((a) => a.status !== AppealStatus.WITHDRAWN);
        return (
          <article class="card ruling" key={ruling.rulingId} aria-labelledby={`ruling-${ruling.rulingId}`} data-ruling={ruling.rulingId}>
            <h3 id={`ruling-${ruling.rulingId}`}>{number ? `The ruling on deal ${number}` : "A ruling on your deal"}</h3>
            <RulingFacts ruling={ruling} />
            {against.map((appeal) => (
              <AppealState
                key={appeal.appealId}
                appeal={appeal}
                own={appeal.appellantPlayerId === playerId}
                onWithdraw={() =>
                  act(async () => {
                    await appeals().withdrawAppeal({ appealId: appeal.appealId, reason: "withdrawn by the appellant from his screen" });
                  })
                }
              />
            ))}
            {played && !pending && (
              <AppealForm
                policy={policy}
                onFile={(grounds) =>
                  act(async () => {
                    await appeals().fileAppeal({
                      idempotencyKey: idempotencyKey(),
                      rulingId: ruling.rulingId,
                      appellantPlayerId: playerId,
                      grounds,
                      deposit,
                    });
                  })
                }
              />
            )}
          </article>
        );
      })}
    </section>
  );
}

function AppealState({ appeal, own, onWithdraw }: { appeal: Appeal; own: boolean; onWithdraw: () => void }) {
  const decision = appeal.decision;
  return (
    <div class="appeal-state" data-testid="appeal-state" data-status={STATUS[appeal.status]}>
      {/* Said aloud as the appeal moves on: filed, heard, decided. */}
      <p aria-live="polite">
        <StatusChip appeal={appeal} /> Appeal by {own ? "you" : appeal.appellantPlayerId}, filed {when(appeal.filedAt)}: “{appeal.grounds}”
      </p>
      {appeal.hearing && (
        <p>
          Heard {when(appeal.hearing.heardAt)} by {appeal.hearing.committeeMemberIds.map((m) => m.replace(/^staff:/, "")).join(", ")}.
        </p>
      )}
      {decision && (
        <>
          <p data-testid="appeal-outcome">
            <strong>{OUTCOME[decision.outcome] ?? "Decided"}</strong>
            {decision.newDecision ? `. ${decisionText(decision.newDecision)}.` : "."}
          </p>
          <p>The committee's reasons: {decision.reasons}</p>
          {decision.dissent && <p>Dissent: {decision.dissent}</p>}
        </>
      )}
      {appeal.status === AppealStatus.WITHDRAWN && appeal.withdrawalReason && <p>Withdrawn: {appeal.withdrawalReason}</p>}
      {own && isOpen(appeal) && (
        <button type="button" class="quiet small" onClick={onWithdraw}>
          Withdraw my appeal
        </button>
      )}
    </div>
  );
}

function AppealForm({ policy, onFile }: { policy?: AppealPolicy; onFile: (grounds: string) => void }) {
  const [open, setOpen] = useState(false);
  const [grounds, setGrounds] = useState("");
  const minutes = policy?.rubberTimeLimit ? Math.round(Number(policy.rubberTimeLimit.seconds) / 60) : undefined;
  const deposit = policy?.procedure?.deposit;
  return (
    <div class="appeal-form">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Appeal this ruling
      </button>
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onFile(grounds.trim());
            setGrounds("");
            setOpen(false);
          }}
        >
          <p class="hint">
            The club's appeals committee hears your appeal and may uphold, overrule or vary the ruling
            {minutes ? `; appeal within ${minutes} minutes of the ruling` : ""}
            {deposit ? `; a deposit of ${moneyText(deposit)} is lodged with it` : ""}.
          </p>
          <label>
            Your grounds
            <textarea name="grounds" rows={3} value={grounds} onInput={(e) => setGrounds(e.currentTarget.value)} required />
          </label>
          <button type="submit">File the appeal</button>
        </form>
      )}
    </div>
  );
}
