// The appeals committee's screen (staff with the committee role): the appeals filed, open ones
// first, and for the chosen appeal the ruling appealed, the deal record as the committee may read
// it, the hearing (the members who sit and the statements heard), the decision with each member's
// vote, the reasons and any dissent, the score change it made, the deal's scorepad, and the score's
// audit trail. Live from the appeals stream: every notice has the screen read the list and the
// chosen appeal again with the member's own token.

import { type Appeal, type AppealPolicy, AppealStatus } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeal_pb.js";
import type { AuditEntry } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/events_pb.js";
import type { Ruling } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import type { DealRecord } from "@bridgeclub/client/gen/bridgeclub/game/v1/record_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { appeals, explain, game, idempotencyKey, membership } from "./api.js";
import { auditText, decisionText, isOpen, moneyText, OUTCOME, SPEAKER_ROLE, scoreVersionText, STATUS, when, who } from "./appeals.js";
import { DecisionForm, type DecisionInit, HearingForm, type HearingInit } from "./committee-forms.js";
import { DealRecordView } from "./dealrecord.js";
import { SEAT_NAME } from "./cards.js";
import { useLive, useReadOrder } from "./live.js";
import { type Act, Notices, useAct } from "./notices.js";
import { RulingFacts, scorepadOf, StatusChip } from "./rulings.js";
import { Scorepad } from "./scorepad.js";
import { ScreenHeading } from "./table.js";
import "./appeals.css";


/** Open appeals first (filed, then heard), then the rest; newest first within each, as listed. */
function openFirst(list: Appeal[]): Appeal[] {
  const rank = (a: Appeal) => (a.status === AppealStatus.FILED ? 0 : a.status === AppealStatus.HEARD ? 1 : 2);
  return list.map((a, i) => [a, i] as const).sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j).map(([a]) => a);
}

export function Committee({ memberId }: { memberId: string }) {
  const [list, setList] = useState<Appeal[]>();
  const [rulings, setRulings] = useState<Map<string, Ruling>>(new Map());
  const [policy, setPolicy] = useState<AppealPolicy>();
  const [chosen, setChosen] = useState<string>();
  const [loadError, setLoadError] = useState<string>();
  // Counts the reads, so that the chosen appeal is read again after every notice.
  const [generation, setGeneration] = useState(0);
  const order = useReadOrder();
  const read = useCallback(async () => {
    const mine = order.begin();
    try {
      const [listed, ruled] = await Promise.all([appeals().listAppeals({}), appeals().listRulings({})]);
      if (!order.latest(mine)) return;
      setList(openFirst(listed.appeals));
      setRulings(new Map(ruled.rulings.map((r) => [r.rulingId, r])));
      setGeneration((n) => n + 1);
    } catch (e) {
      setLoadError(explain(e));
    }
  }, []);
  useEffect(() => {
    void read();
    appeals()
      .getAppealPolicy({})
      .then((answer) => setPolicy(answer.policy))
      .catch((e) => setLoadError(explain(e)));
  }, [read]);
  const live = useLive("appeals", (after, signal) => appeals().watchAppeals({ afterSequence: after }, { signal }), () => void read());

  const { error: actError, notice, setNotice, act } = useAct(read);
  const error = actError ?? loadError;

  // Until one is chosen, the first open appeal (or the newest).
  const shown = chosen ?? list?.find(isOpen)?.appealId ?? list?.[0]?.appealId;
  return (
    <div class="committee">
      <ScreenHeading title={<h1>Appeals committee</h1>} live={live} error={error} />
      <Notices notice={notice} />
      <div class="committee-grid">
        <section class="card appeal-list" aria-labelledby="appeals-title">
          <h2 id="appeals-title">Appeals filed</h2>
          {list?.length === 0 && <p>No appeal has been filed.</p>}
          <ul>
            {list?.map((appeal) => {
              const ruling = rulings.get(appeal.rulingId);
              return (
                <li key={appeal.appealId}>
                  <button
                    type="button"
                    class="appeal-item"
                    data-appeal={appeal.appealId}
                    aria-current={appeal.appealId === shown ? "true" : undefined}
                    onClick={() => {
                      setChosen(appeal.appealId);
                      setNotice(undefined);
                    }}
                  >
                    <StatusChip appeal={appeal} /> Appeal by {appeal.appellantPlayerId}
                    <small>
                      {ruling ? `${ruling.irregularity}; ` : ""}filed {when(appeal.filedAt)}
                    </small>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
        {shown ? (
          <AppealCase key={shown} appealId={shown} memberId={memberId} policy={policy} generation={generation} act={act} />
        ) : (
          list && <p>When a player appeals a ruling, the appeal is shown here.</p>
        )}
      </div>
    </div>
  );
}

/** One appeal, read again whenever `generation` changes. */
function AppealCase({
  appealId,
  memberId,
  policy,
  generation,
  act,
}: {
  appealId: string;
  memberId: string;
  policy?: AppealPolicy;
  generation: number;
  act: Act;
}) {
  const [appeal, setAppeal] = useState<Appeal>();
  const [ruling, setRuling] = useState<Ruling>();
  const [record, setRecord] = useState<DealRecord>();
  const [recordError, setRecordError] = useState<string>();
  const [audit, setAudit] = useState<AuditEntry[]>();
  const [tableName, setTableName] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    (async () => {
      try {
        const answer = await appeals().getAppeal({ appealId });
        if (!current) return;
        setAppeal(answer.appeal);
        setRuling(answer.ruling);
        setError(undefined);
        const deal = answer.ruling?.deal;
        const target = deal?.scoreTarget;
        const [trail, table] = await Promise.all([
          target ? appeals().getScoreAudit({ target }) : undefined,
          deal?.tableId ? membership().getTable({ tableId: deal.tableId }).catch(() => undefined) : undefined,
        ]);
        if (!current) return;
        setAudit(trail?.entries);
        setTableName(table?.table?.name);
        if (deal?.dealId) {
          // A finished deal's record; the game service says so when the committee may not read it.
          await game()
            .getDealRecord({ dealId: deal.dealId })
            .then((read) => current && (setRecord(read.record), setRecordError(undefined)))
            .catch((e) => current && setRecordError(explain(e)));
        }
      } catch (e) {
        if (current) setError(explain(e));
      }
    })();
    return () => {
      current = false;
    };
  }, [appealId, generation]);

  if (!appeal || !ruling) {
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p>Reading the appeal…</p>
    );
  }
  const scorepadId = scorepadOf(ruling);
  const decision = appeal.decision;
  const hear = (hearing: HearingInit) =>
    act(async () => {
      await appeals().hearAppeal({ appealId, expectedVersion: appeal.version, hearing });
      return "The hearing is recorded.";
    });
  const decide = (request: DecisionInit) =>
    act(async () => {
      const decided = (await appeals().decideAppeal({ ...request, appealId, idempotencyKey: idempotencyKey() })).appeal;
      const changed = decided?.decision?.scoreVersions.length ?? 0;
      return `The decision is recorded${changed > 0 ? "; the score is changed" : ""}.`;
    });
  const printNotice = () =>
    act(async () => {
      const { html } = await appeals().getDecisionNotice({ appealId });
      window.open(URL.createObjectURL(new Blob([html], { type: "text/html" })), "_blank", "noopener");
    });

  return (
    <section class="appeal-case" aria-labelledby="case-title" data-appeal={appeal.appealId} data-status={STATUS[appeal.status]}>
      <h2 id="case-title">
        Appeal by {appeal.appellantPlayerId}
        {tableName ? ` at ${tableName}` : ""}
      </h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <p class="case-status">
        <StatusChip appeal={appeal} /> Filed {when(appeal.filedAt)}
        {appeal.deadline ? ` (time limit ${when(appeal.deadline)})` : ""}.
      </p>
      <dl class="facts">
        <dt>Grounds</dt>
        <dd data-testid="grounds">“{appeal.grounds}”</dd>
        {appeal.concurringPlayerIds.length > 0 && (
          <>
            <dt>Concurring</dt>
            <dd>{appeal.concurringPlayerIds.join(", ")}</dd>
          </>
        )}
        {appeal.deposit?.amount && (
          <>
            <dt>Deposit</dt>
            <dd>{moneyText(appeal.deposit.amount)}</dd>
          </>
        )}
        <dt>Players</dt>
        <dd>{ruling.deal?.players.map((p) => `${SEAT_NAME[p.seat]} ${p.playerId}`).join(", ")}</dd>
      </dl>

      <section class="card" aria-labelledby="ruling-title">
        <h3 id="ruling-title">The ruling appealed</h3>
        <RulingFacts ruling={ruling} />
        {appeal.rulingInForceId && appeal.rulingInForceId !== ruling.rulingId && (
          <p class="notice">The Director in charge's review put another ruling in force: the committee hears that one.</p>
        )}
      </section>

      <section class="card" aria-labelledby="record-title" data-testid="deal-record">
        <h3 id="record-title">The deal record</h3>
        {record ? (
          <DealRecordView record={record} />
        ) : recordError ? (
          <p class="error">{recordError}</p>
        ) : ruling.deal?.dealId ? (
          <p>Reading the deal…</p>
        ) : (
          <p>The ruling names no deal of the game service.</p>
        )}
      </section>

      <section class="card" aria-labelledby="hearing-title" data-testid="hearing">
        <h3 id="hearing-title">The hearing</h3>
        {appeal.hearing ? (
          <>
            <dl class="facts">
              <dt>Members sitting</dt>
              <dd>{appeal.hearing.committeeMemberIds.map(who).join(", ")}</dd>
              <dt>Heard</dt>
              <dd>{when(appeal.hearing.heardAt)}</dd>
              {appeal.hearing.notes && (
                <>
                  <dt>Notes</dt>
                  <dd>{appeal.hearing.notes}</dd>
                </>
              )}
            </dl>
            {appeal.hearing.statements.length > 0 && (
              <ol class="statements" aria-label="Statements heard">
                {appeal.hearing.statements.map((s, i) => (
                  <li key={i}>
                    <strong>{who(s.speaker)}</strong> ({SPEAKER_ROLE[s.role] ?? "speaker"}): “{s.text}”
                  </li>
                ))}
              </ol>
            )}
          </>
        ) : appeal.status === AppealStatus.FILED ? (
          <HearingForm ruling={ruling} memberId={memberId} size={policy?.committeeSize || 3} onHear={hear} />
        ) : (
          <p>Not heard: the appeal is {STATUS[appeal.status]?.toLowerCase()}.</p>
        )}
      </section>

      <section class="card" aria-labelledby="decision-title" data-testid="decision">
        <h3 id="decision-title">The decision</h3>
        {decision ? (
          <>
            <p class="outcome" data-testid="outcome">
              <strong>{OUTCOME[decision.outcome] ?? "Decided"}</strong>
              {decision.newDecision ? `. ${decisionText(decision.newDecision)}.` : "."}
            </p>
            <table class="votes">
              <caption>Votes</caption>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Vote</th>
                </tr>
              </thead>
              <tbody>
                {decision.committeeMemberIds.map((m) => (
                  <tr key={m} data-member={m}>
                    <td>{who(m)}</td>
                    <td>{decision.dissentingMemberIds.includes(m) ? "Against" : "For"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl class="facts">
              <dt>Reasons</dt>
              <dd data-testid="reasons">{decision.reasons}</dd>
              {decision.dissent && (
                <>
                  <dt>Dissent</dt>
                  <dd data-testid="dissent">{decision.dissent}</dd>
                </>
              )}
              <dt>Decided</dt>
              <dd>{when(decision.decidedAt)}</dd>
              {appeal.deposit?.amount && (
                <>
                  <dt>Deposit</dt>
                  <dd>{decision.lackedMerit ? "retained: the appeal lacked merit" : "returned"}</dd>
                </>
              )}
            </dl>
            <h4>The score change</h4>
            {decision.scoreVersions.length > 0 ? (
              <ul class="record-list" data-testid="score-change">
                {decision.scoreVersions.map((v) => (
                  <li key={String(v.version)}>{scoreVersionText(v)}</li>
                ))}
              </ul>
            ) : (
              <p data-testid="score-change">No score changed: the score in force stands.</p>
            )}
            <button type="button" class="quiet" onClick={printNotice}>
              Open the decision notice
            </button>
          </>
        ) : appeal.status === AppealStatus.HEARD ? (
          <DecisionForm appeal={appeal} ruling={ruling} record={record} memberId={memberId} onDecide={decide} />
        ) : (
          <p>{appeal.status === AppealStatus.FILED ? "The committee decides once it has heard the appeal." : `The appeal is ${STATUS[appeal.status]?.toLowerCase()}.`}</p>
        )}
      </section>

      {scorepadId && <Scorepad key={scorepadId} scorepadId={scorepadId} />}

      <section class="card" aria-labelledby="audit-title">
        <h3 id="audit-title">The audit trail</h3>
        {audit === undefined ? (
          <p>Reading the score's history…</p>
        ) : (
          <ol class="audit" data-testid="audit">
            {audit.map((entry, i) => (
              <li key={i}>
                <span class="when">{when(entry.occurredAt)}</span> <span class="actor">{who(entry.actor)}</span> {auditText(entry)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
