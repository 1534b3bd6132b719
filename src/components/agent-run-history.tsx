import {
  forwardRef,
  useId,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type RefAttributes,
} from 'react';
import type { FormField } from '../core/console/input-form.js';
import type { RunHistoryEntry } from '../core/stream/run-history.js';
import { classNames, named } from './part-helpers.js';

/** Props of {@link AgentRunHistory}. */
export interface AgentRunHistoryProps
  extends Omit<ComponentPropsWithoutRef<'section'>, 'children'>, RefAttributes<HTMLElement> {
  /** The runs, newest first (`useAgentRunHistory(stream)`). */
  entries: readonly RunHistoryEntry[];
  /**
   * The agent's form fields: inputs are shown in their order with their labels (other keys after).
   * @default [] (the input's own keys)
   */
  fields?: readonly FormField[];
  /**
   * Called by "Run again" with the entry (e.g. to fill the form with its input). No button without it.
   * @default undefined
   */
  onRunAgain?: (entry: RunHistoryEntry) => void;
  /**
   * Disables "Run again" (e.g. while a run is active).
   * @default false
   */
  disabled?: boolean;
  /**
   * The heading's text.
   * @default 'Run history'
   */
  label?: string;
  /**
   * The heading's level.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

const statusText: Record<RunHistoryEntry['status'], string> = {
  done: 'Done',
  error: 'Failed',
  aborted: 'Stopped',
};

/**
 * The runs of a form agent, newest first: each with every input field as it was sent, the output
 * (as text), the status and timings, and "Run again". Each run carries `data-status`. Its `ref` is
 * the `<section>`.
 *
 * @example
 * const history = useAgentRunHistory(run.stream);
 * <AgentRunHistory entries={history} fields={fields} onRunAgain={(entry) => fill(entry.input)} />
 */
export const AgentRunHistory = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentRunHistoryProps>(AgentRunHistoryRender),
  'AgentRunHistory',
);

function AgentRunHistoryRender(
  {
    entries,
    fields = [],
    onRunAgain,
    disabled = false,
    label = 'Run history',
    headingLevel = 3,
    className,
    ...rest
  }: AgentRunHistoryProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const id = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <section
      ref={ref}
      aria-labelledby={`${id}title`}
      className={classNames('ack-root', 'ack-run-history', className)}
      {...rest}
    >
      <Heading id={`${id}title`} className="ack-run-history__title">
        {label}
      </Heading>
      {entries.length === 0 ? (
        <p className="ack-run-history__empty">No runs yet.</p>
      ) : (
        <ol className="ack-run-history__runs">
          {entries.map((entry, index) => {
            const number = entries.length - index;
            const titleId = `${id}run-${entry.id}`;
            return (
              <li
                key={entry.id}
                aria-labelledby={titleId}
                className="ack-run-history__run"
                data-status={entry.status}
              >
                <p id={titleId} className="ack-run-history__run-title">
                  {`Run ${number}: ${statusText[entry.status]}`}
                  {entry.startedAt !== undefined ? `, started ${formatTime(entry.startedAt)}` : ''}
                </p>
                <p className="ack-run-history__timings">{timingsText(entry)}</p>
                <dl className="ack-run-history__input">
                  {inputRows(entry.input, fields).map(([name, labelText, value]) => (
                    <div key={name} className="ack-run-history__field">
                      <dt>{labelText}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
                {entry.error ? (
                  <p className="ack-run-history__error">{entry.error.message}</p>
                ) : null}
                <div className="ack-run-history__output">
                  {entry.text === '' ? 'No output.' : entry.text}
                </div>
                {onRunAgain ? (
                  <button
                    type="button"
                    className="ack-run-history__again"
                    aria-label={`Run again with the input of run ${number}`}
                    aria-disabled={disabled}
                    onClick={() => {
                      if (!disabled) onRunAgain(entry);
                    }}
                  >
                    Run again
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function inputRows(
  input: Record<string, unknown> | undefined,
  fields: readonly FormField[],
): [string, string, string][] {
  if (input === undefined) return [];
  const rows: [string, string, string][] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    if (!Object.hasOwn(input, field.name)) continue;
    seen.add(field.name);
    rows.push([field.name, field.label, formatValue(input[field.name])]);
  }
  for (const [name, value] of Object.entries(input)) {
    if (!seen.has(name)) rows.push([name, name, formatValue(value)]);
  }
  return rows;
}

function formatValue(value: unknown): string {
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString();
}

function timingsText(entry: RunHistoryEntry): string {
  const parts: string[] = [];
  if (entry.startedAt !== undefined && entry.firstEventAt !== undefined) {
    parts.push(`first event after ${seconds(entry.firstEventAt - entry.startedAt)}`);
  }
  if (entry.startedAt !== undefined && entry.endedAt !== undefined) {
    parts.push(`took ${seconds(entry.endedAt - entry.startedAt)}`);
  }
  if (entry.attempts > 1) parts.push(`${entry.attempts} attempts`);
  if (entry.restarts > 0) parts.push(`restarted ${entry.restarts}×`);
  return parts.length === 0
    ? 'No timings.'
    : `${parts.join(', ')}.`.replace(/^./, (c) => c.toUpperCase());
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
