/**
 * Durable runs of the mock agent service (`execution_mode: 'DURABLE'`), on a clock tests drive.
 * Nothing runs in the background: a run's state is worked out from its timeline whenever it is
 * touched, so a run nobody reads stays as it was stored, and a GET is what applies an overdue
 * deadline, as the service documents.
 *
 * Framework-free and browser-safe: the node server and the msw handlers share it through the model.
 */
import type { MockProblem } from './mock-events.js';
import type {
  MockDurableApproval,
  MockDurableRunState,
  MockDurableScenario,
  MockDurableStats,
  MockDurableTurn,
} from './mock-agent-types.js';
import { isPlainObject } from './mock-platform-validation.js';

const minute = 60_000;
const activeStates = new Set(['QUEUED', 'RUNNING', 'CANCELLING']);

/** An answer of a durable operation: the JSON text of `{ run, request_id }`, or a problem. */
export type MockDurableAnswer =
  { ok: true; status: number; text: string } | { ok: false; status: number; problem: MockProblem };

interface PendingInteraction {
  interactionId: string;
  approval: MockDurableApproval;
  expiresAt: number | undefined;
}

interface TurnPlan {
  runningMs: number;
  chunks: string[];
  approvals: MockDurableApproval[] | undefined;
  fail: { code: string; message: string } | undefined;
}

/** A durable run as the mock keeps it (internal: tests read `stateOf`). */
export interface DurableRun {
  serial: number;
  runId: string;
  agentId: string;
  owner: string;
  scenario: MockDurableScenario;
  turns: TurnPlan[];
  createdAt: number;
  /** The current turn. */
  turn: number;
  /** When the current turn was accepted: its deadline counts from here. */
  turnAcceptedAt: number;
  /** When the current turn starts running (after the queue, for the first). */
  turnRunsAt: number;
  /** The text of the turns that ended, in order. */
  doneTexts: string[];
  paused: { at: number; pending: PendingInteraction[] } | undefined;
  final: { state: string; at: number; error?: { code: string; message: string } } | undefined;
  cancelRequestedAt: number | undefined;
  /** The key of the batch accepted last, until the run pauses again. */
  acceptedKey: string | undefined;
  respondAttempts: number;
  polls: number;
  toolsExecuted: number;
  updatedAt: number;
}

function emptyStats(): MockDurableStats {
  return { runsStarted: 0, toolsExecuted: 0, polls: 0, cancels: 0, responsesAccepted: 0 };
}

/** Text as chunks: an array as given, a string cut after each space. */
function chunksOf(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text.filter((chunk) => chunk !== '');
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function planTurn(turn: MockDurableTurn, fallbackText: string | undefined): TurnPlan {
  return {
    runningMs: Math.max(0, turn.runningMs ?? 2000),
    chunks: chunksOf(turn.text ?? fallbackText),
    approvals: turn.approvals && turn.approvals.length > 0 ? turn.approvals : undefined,
    fail: turn.fail,
  };
}

/** The durable runs of one service. */
export class MockDurableRuns {
  readonly #baseNow: () => number;
  readonly #runs = new Map<string, DurableRun>();
  /** Never reset: a run id from before a reset never names a new run. */
  #serial = 0;
  #offset = 0;
  stats: MockDurableStats = emptyStats();

  constructor(now: () => number = () => Date.now()) {
    this.#baseNow = now;
  }

  now(): number {
    return this.#baseNow() + this.#offset;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) takes ms >= 0');
    this.#offset += ms;
  }

  reset(): void {
    this.#runs.clear();
    this.#offset = 0;
    this.stats = emptyStats();
  }

  /** Starts a run; `text` is the agent's stream text (the first turn's default). */
  start(
    agentId: string,
    owner: string,
    scenario: MockDurableScenario,
    text: string,
    requestId: string,
  ): MockDurableAnswer {
    const now = this.now();
    const serial = ++this.#serial;
    const turns = (scenario.turns && scenario.turns.length > 0 ? scenario.turns : [{}]).map(
      (turn, index) => planTurn(turn, index === 0 ? text : undefined),
    );
    const queued = scenario.acceptAs === 'QUEUED' ? Math.max(0, scenario.queuedMs ?? 500) : 0;
    const run: DurableRun = {
      serial,
      runId: serial.toString(16).padStart(32, 'd'),
      agentId,
      owner,
      scenario,
      turns,
      createdAt: now,
      turn: 0,
      turnAcceptedAt: now,
      turnRunsAt: now + queued,
      doneTexts: [],
      paused: undefined,
      final: undefined,
      cancelRequestedAt: undefined,
      acceptedKey: undefined,
      respondAttempts: 0,
      polls: 0,
      toolsExecuted: 0,
      updatedAt: now,
    };
    this.#runs.set(run.runId, run);
    this.stats.runsStarted++;
    return this.#answer(run, 201, requestId, true);
  }

  /** The run, when `owner` may see it as a run of `agentId` (else the service answers 404). */
  find(runId: string, agentId: string, owner: string): DurableRun | undefined {
    const run = this.#runs.get(runId);
    return run !== undefined && run.agentId === agentId && run.owner === owner ? run : undefined;
  }

  /** GET: the timeline up to now, then the deadline of an active turn. */
  read(run: DurableRun, requestId: string): MockDurableAnswer {
    run.polls++;
    const now = this.now();
    this.#settle(run, now);
    const scenario = run.scenario;
    const deadline =
      run.turnAcceptedAt +
      (scenario.executionTimeoutMs ?? 30 * minute) +
      (scenario.graceMs ?? 10 * minute);
    if (run.final === undefined && run.paused === undefined && now > deadline) {
      run.doneTexts.push(this.#textAt(run, now));
      run.final = {
        state: scenario.expiredState ?? 'FAILED',
        at: now,
        error: {
          code: 'execution_deadline_exceeded',
          message: 'The run did not finish before its execution deadline.',
        },
      };
      run.updatedAt = now;
    }
    return this.#answer(run, 200, requestId);
  }

  cancel(run: DurableRun, requestId: string): MockDurableAnswer {
    const now = this.now();
    this.#settle(run, now);
    if (run.final !== undefined) return this.#answer(run, 200, requestId);
    if (run.paused !== undefined) {
      run.final = { state: 'CANCELLED', at: now };
      run.paused = undefined;
      run.updatedAt = now;
      this.stats.cancels++;
      return this.#answer(run, 200, requestId);
    }
    if (run.scenario.cancel?.registration === false) {
      return {
        ok: false,
        status: 409,
        problem: {
          code: 'conflict',
          detail: 'The active run has no cancellation registration and cannot be cancelled now.',
        },
      };
    }
    // The answer still shows the run as it was: a cancellation signal does not change it itself.
    const answer = this.#answer(run, 200, requestId);
    run.cancelRequestedAt ??= now;
    this.stats.cancels++;
    return answer;
  }

  respond(run: DurableRun, body: Record<string, unknown>, requestId: string): MockDurableAnswer {
    const now = this.now();
    this.#settle(run, now);
    const decisions = body['responses'] as { interaction_id: string; decision: string }[];
    const key = decisions
      .map((entry) => `${entry.interaction_id}\u0000${entry.decision}`)
      .sort()
      .join('\u0001');
    if (run.acceptedKey !== undefined && run.acceptedKey === key) {
      return this.#answer(run, 200, requestId);
    }
    const conflict = (detail: string): MockDurableAnswer => ({
      ok: false,
      status: 409,
      problem: { code: 'conflict', detail },
    });
    if (run.paused === undefined) return conflict('The run is not waiting for approvals.');
    run.respondAttempts++;
    if (run.respondAttempts === 1 && run.scenario.respondFaults?.includes('503-once') === true) {
      return {
        ok: false,
        status: 503,
        problem: {
          code: 'service_unavailable',
          detail: 'The decisions were not accepted: send the same batch again.',
        },
      };
    }
    const pending = run.paused.pending;
    const ids = decisions.map((entry) => entry.interaction_id);
    if (
      new Set(ids).size !== ids.length ||
      ids.length !== pending.length ||
      !pending.every((interaction) => ids.includes(interaction.interactionId))
    ) {
      return conflict(
        'The decisions must cover exactly the pending approvals, one decision per interaction.',
      );
    }
    if (
      pending.some(
        (interaction) => interaction.expiresAt !== undefined && now >= interaction.expiresAt,
      )
    ) {
      return conflict('An approval of the batch has expired.');
    }
    const approved = decisions.filter((entry) => entry.decision === 'APPROVE').length;
    run.toolsExecuted += approved;
    this.stats.toolsExecuted += approved;
    this.stats.responsesAccepted++;
    run.acceptedKey = key;
    run.paused = undefined;
    run.updatedAt = now;
    if (approved < decisions.length && run.scenario.onReject === 'fail') {
      run.final = {
        state: 'FAILED',
        at: now,
        error: { code: 'tool_rejected', message: 'A tool call was rejected.' },
      };
      return this.#answer(run, 200, requestId);
    }
    run.turn++;
    if (run.turns[run.turn] === undefined) run.turns.push(planTurn({ runningMs: 1000 }, undefined));
    run.turnAcceptedAt = now;
    run.turnRunsAt = now;
    return this.#answer(run, 200, requestId);
  }

  /** Introspection for tests. */
  stateOf(runId: string): MockDurableRunState | undefined {
    const run = this.#runs.get(runId);
    if (run === undefined) return undefined;
    return {
      runId: run.runId,
      agentId: run.agentId,
      state: this.#stateAt(run, this.now()),
      turn: run.turn,
      polls: run.polls,
      toolsExecuted: run.toolsExecuted,
      cancelRequestedAt: run.cancelRequestedAt,
    };
  }

  /** Moves a run along its timeline up to `now` (never applies the deadline: only GET does). */
  #settle(run: DurableRun, now: number): void {
    if (run.final !== undefined || run.paused !== undefined) return;
    const turn = run.turns[run.turn] as TurnPlan;
    const timeout = run.scenario.executionTimeoutMs ?? 30 * minute;
    const end = turn.runningMs <= timeout ? run.turnRunsAt + turn.runningMs : Infinity;
    const cancelledAt =
      run.cancelRequestedAt === undefined
        ? Infinity
        : run.cancelRequestedAt + Math.max(0, run.scenario.cancel?.cancellingMs ?? 1000);
    if (end <= now && end <= cancelledAt) {
      run.doneTexts.push(turn.chunks.join(''));
      run.updatedAt = end;
      if (turn.fail !== undefined) {
        run.final = { state: 'FAILED', at: end, error: turn.fail };
      } else if (turn.approvals !== undefined) {
        // A paused run becomes CANCELLED at once: a cancellation asked before the pause wins.
        if (run.cancelRequestedAt !== undefined) {
          run.final = { state: 'CANCELLED', at: end };
          return;
        }
        run.acceptedKey = undefined;
        run.paused = {
          at: end,
          pending: turn.approvals.map((approval, index) => ({
            interactionId: `call_${run.serial.toString(36)}t${run.turn}i${index}mock`,
            approval,
            expiresAt: approval.expiresInMs === undefined ? undefined : end + approval.expiresInMs,
          })),
        };
      } else {
        run.final = { state: 'SUCCEEDED', at: end };
      }
      return;
    }
    if (cancelledAt <= now) {
      run.doneTexts.push(this.#textAt(run, cancelledAt));
      run.final = { state: 'CANCELLED', at: cancelledAt };
      run.updatedAt = cancelledAt;
    }
  }

  /** The state stored now (the timeline applied, the deadline not). */
  #stateAt(run: DurableRun, now: number): string {
    this.#settle(run, now);
    if (run.final !== undefined) return run.final.state;
    if (run.paused !== undefined) return 'REQUIRES_INPUT';
    if (run.cancelRequestedAt !== undefined) return 'CANCELLING';
    return now < run.turnRunsAt ? 'QUEUED' : 'RUNNING';
  }

  /** The text written so far by the current turn; '' once it ended (its text is in doneTexts). */
  #currentText(run: DurableRun, now: number): string {
    if (run.final !== undefined || run.paused !== undefined) return '';
    return this.#textAt(run, now);
  }

  /** The text the current turn has written by `now`. */
  #textAt(run: DurableRun, now: number): string {
    const turn = run.turns[run.turn] as TurnPlan;
    return turn.chunks.slice(0, this.#chunksShown(run, now)).join('');
  }

  /** How many chunks of the current turn are written by `now`. */
  #chunksShown(run: DurableRun, now: number): number {
    const turn = run.turns[run.turn] as TurnPlan;
    if (turn.chunks.length === 0 || now < run.turnRunsAt) return 0;
    // The worker stops at the execution timeout: the text stops growing there.
    const elapsed = Math.min(now - run.turnRunsAt, run.scenario.executionTimeoutMs ?? 30 * minute);
    return turn.runningMs === 0
      ? turn.chunks.length
      : Math.min(
          turn.chunks.length,
          Math.floor((elapsed * turn.chunks.length) / Math.max(1, turn.runningMs)),
        );
  }

  /** The latest persisted activity: a transition, or the last chunk written while running. */
  #updatedAt(run: DurableRun, now: number): number {
    let latest = Math.max(run.updatedAt, run.final?.at ?? 0, run.cancelRequestedAt ?? 0);
    if (run.final === undefined && run.paused === undefined) {
      const turn = run.turns[run.turn] as TurnPlan;
      const shown = this.#chunksShown(run, now);
      if (shown > 0) {
        latest = Math.max(
          latest,
          run.turnRunsAt + Math.ceil((shown * turn.runningMs) / turn.chunks.length),
        );
      }
    }
    return latest;
  }

  #answer(run: DurableRun, status: number, requestId: string, first = false): MockDurableAnswer {
    const now = this.now();
    const state = this.#stateAt(run, now);
    const scenario = run.scenario;
    const current = this.#currentText(run, now);
    const texts =
      scenario.outputPerTurn === true
        ? [
            run.final === undefined && run.paused === undefined
              ? current
              : (run.doneTexts.at(-1) ?? ''),
          ]
        : [...run.doneTexts, current];
    const atEnd = scenario.output === 'at-end';
    const visible = atEnd && state !== 'SUCCEEDED' ? [] : texts.filter((text) => text !== '');
    const messages = visible.map((text) => ({
      role: 'GLEAN_AI',
      content: [{ type: 'text', text }],
    }));
    if (messages.length === 0 && state === 'REQUIRES_INPUT') {
      messages.push({ role: 'GLEAN_AI', content: [] });
    }
    const raw: string[] = [];
    const pending = (run.paused?.pending ?? []).map((interaction) => {
      const approval = interaction.approval;
      let args: unknown = approval.arguments ?? {};
      if (typeof args === 'string') {
        raw.push(args);
        args = `\u0000raw-arguments-${raw.length - 1}\u0000`;
      }
      return {
        interaction_id: interaction.interactionId,
        type: 'TOOL_APPROVAL',
        ...(approval.toolId === undefined ? {} : { tool_id: approval.toolId }),
        display_name: approval.displayName ?? 'Run tool',
        description: approval.description ?? 'The agent wants to run a tool.',
        arguments: args,
        ...(interaction.expiresAt === undefined
          ? {}
          : { expires_at: new Date(interaction.expiresAt).toISOString() }),
      };
    });
    const active = activeStates.has(state);
    const body = {
      run: {
        run_id: run.runId,
        agent_id: run.agentId,
        state,
        // The service was seen answering the 201 with milliseconds and later reads without.
        created_at: new Date(
          first ? run.createdAt : Math.floor(run.createdAt / 1000) * 1000,
        ).toISOString(),
        updated_at: new Date(this.#updatedAt(run, now)).toISOString(),
        ...(active
          ? {
              expires_at: new Date(
                run.turnAcceptedAt + (scenario.executionTimeoutMs ?? 30 * minute),
              ).toISOString(),
            }
          : {}),
        pending_interactions: pending,
        output: { messages },
        ...(run.final?.error === undefined ? {} : { error: run.final.error }),
      },
      request_id: requestId,
    };
    let text = JSON.stringify(body);
    raw.forEach((argumentsText, index) => {
      text = text.replace(
        JSON.stringify(`\u0000raw-arguments-${index}\u0000`),
        () => argumentsText,
      );
    });
    return { ok: true, status, text };
  }
}

/**
 * The problem of a respond body that is not `{ run_id, responses: [{ interaction_id, decision }] }`
 * with decisions APPROVE or REJECT; undefined when it is one.
 */
export function invalidRespondBody(body: unknown): MockProblem | undefined {
  const invalid = (pointer: string, detail: string): MockProblem => ({
    code: 'invalid_request',
    detail,
    errors: [{ pointer, detail, code: 'invalid_parameter' }],
  });
  if (!isPlainObject(body)) return invalid('', 'The request body must be a JSON object.');
  if (typeof body['run_id'] !== 'string' || body['run_id'] === '') {
    return invalid('/run_id', 'run_id is required.');
  }
  const responses = body['responses'];
  if (!Array.isArray(responses) || responses.length === 0) {
    return invalid('/responses', 'responses must hold at least one decision.');
  }
  for (const [index, entry] of responses.entries()) {
    if (!isPlainObject(entry) || typeof entry['interaction_id'] !== 'string') {
      return invalid(`/responses/${index}/interaction_id`, 'interaction_id is required.');
    }
    if (entry['decision'] !== 'APPROVE' && entry['decision'] !== 'REJECT') {
      return invalid(`/responses/${index}/decision`, 'decision must be APPROVE or REJECT.');
    }
  }
  return undefined;
}

/** A key of the caller, so a run answers only the token that started it (never the token). */
export function ownerKey(authorization: string | null): string {
  if (authorization === null) return '';
  // cyrb53: a 53-bit hash, enough to tell tokens of a test apart.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < authorization.length; index++) {
    const code = authorization.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
