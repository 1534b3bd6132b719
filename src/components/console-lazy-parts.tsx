import { lazy, Suspense, useEffect, type ComponentType, type Ref } from 'react';
import { onDemand } from '../core/base/on-demand.js';
import type { AgentApprovalCardProps } from './agent-approval-card.js';
import type { AgentCancelConfirmProps } from './agent-cancel-confirm.js';
import type { AgentErrorMessageProps } from './agent-error-message.js';
import type { AgentEventLogProps } from './agent-event-log.js';
import type { AgentInputFormProps } from './agent-input-form.js';
import type { AgentRunHistoryProps } from './agent-run-history.js';
import type { AgentRunOutputProps } from './agent-run-output.js';
import type { AgentThreadListProps } from './agent-thread-list.js';
import type { ConsoleThreadListProps } from './console-thread-list.js';
import type { ConsoleToolsProps } from './console-tools.js';
import { AlertIcon, RetryIcon } from './icons.js';

/** A part of the console whose module loads when the console first needs it. */
interface LazyPart<Props> {
  Part: ComponentType<Props>;
  /**
   * Starts loading the module (once), so the part is there when it first renders; resolves when
   * it is (a failed load is left to the part's first render, which throws it).
   */
  preload: () => Promise<void>;
}

/**
 * The console's parts that an agent's mode may never render: their modules load when the console
 * first needs them, so a page pays up front only for what every console shows. `preload` starts
 * the load as soon as the console knows the part may come (the agent loaded, `showEventLog` set,
 * a `threadStore` given); once loaded, the part renders in the same commit as the
 * rest, else nothing shows until it is (never a loading line). A part given `Unloaded` renders it
 * when its module cannot be loaded (a lost network) instead of throwing to the error boundary. A
 * server renders the form, the thread list and an error (they need no run): with a fallback of
 * nothing, streaming rendering waits for the module and sends the part, never a loading line, and
 * a page hydrating it keeps the server's HTML until the module is there (then hydrates it).
 */
export function lazyPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  displayName: string,
  Unloaded?: ComponentType<Props>,
): LazyPart<Props> {
  const preload = onDemand(() => load().then((component) => ({ default: component })));
  // A loaded module is handed over synchronously (React.lazy accepts a thenable that resolves
  // at once), so a part preloaded before its first render is there in that render.
  const Loaded = lazy(() => {
    const module = preload.loaded();
    if (module === undefined) {
      return Unloaded === undefined ? preload() : preload().catch(() => ({ default: Unloaded }));
    }
    const thenable = { then: (resolve: (value: typeof module) => void) => resolve(module) };
    return thenable as unknown as Promise<typeof module>;
  }) as unknown as ComponentType<Props>;
  function Part(props: Props) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  Part.displayName = displayName;
  return {
    Part,
    preload: () =>
      preload().then(
        () => undefined,
        () => undefined,
      ),
  };
}

/**
 * The explanation of an error: only a failed request shows it, so it loads when the first error
 * shows (a console whose requests all succeed never loads it). Until it is there the alert is not
 * either; when its module cannot be loaded (the network went with the run), the stand-in says the
 * error's own message, with the retry button.
 */
export const lazyErrorMessage = /* @__PURE__ */ lazyPart<AgentErrorMessageProps>(
  () => import('./agent-error-message.js').then((module) => module.AgentErrorMessage),
  'AgentErrorMessage',
  ErrorMessageUnloaded,
);

/**
 * The error's explanation when its module could not be loaded: the error's own message, in the
 * explanation's frame (its own markup, since the explanation's module is what did not load).
 */
export function ErrorMessageUnloaded({
  error,
  onRetry,
  retryLabel = 'Try again',
}: AgentErrorMessageProps) {
  return (
    <div role="alert" className="ack-root ack-error" data-kind={error.kind}>
      <AlertIcon />
      <div className="ack-error__body">
        <p className="ack-error__title">{error.message}</p>
        {onRetry ? (
          <div className="ack-actions">
            <button type="button" className="ack-error__retry" onClick={onRetry}>
              <RetryIcon />
              {retryLabel}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The developer's event log, only with `showEventLog`. */
export const lazyEventLog = /* @__PURE__ */ lazyPart<AgentEventLogProps>(
  () => import('./agent-event-log.js').then((module) => module.AgentEventLog),
  'AgentEventLog',
);

/** The form of an agent started by an input form (a server renders it). */
export const lazyInputForm = /* @__PURE__ */ lazyPart<AgentInputFormProps>(
  () => import('./agent-input-form.js').then((module) => module.AgentInputForm),
  'AgentInputForm',
);

/** The saved threads of a chat agent, only with a `threadStore` (a server renders it). */
export const lazyThreadList = /* @__PURE__ */ lazyPart<AgentThreadListProps>(
  () => import('./agent-thread-list.js').then((module) => module.AgentThreadList),
  'AgentThreadList',
);

/** A form agent's run history, shown once a run has ended. */
export const lazyRunHistory = /* @__PURE__ */ lazyPart<AgentRunHistoryProps>(
  () => import('./agent-run-history.js').then((module) => module.AgentRunHistory),
  'AgentRunHistory',
);

/**
 * The console's thread list with its threads (the store's list, `useAgentThreads`), around the
 * thread list part: only with a `threadStore` (a server renders it).
 */
export const lazyConsoleThreadList = /* @__PURE__ */ lazyPart<ConsoleThreadListProps>(
  () => import('./console-thread-list.js').then((module) => module.ConsoleThreadList),
  'ConsoleThreadList',
);

/** A form agent's output, shown once a run has started (a chat's answers are in the thread). */
export const lazyRunOutput = /* @__PURE__ */ lazyPart<AgentRunOutputProps>(
  () => import('./agent-run-output.js').then((module) => module.AgentRunOutput),
  'AgentRunOutput',
);

/**
 * The approvals a durable turn waits for: only a durable run asks for them, so a console whose
 * turns stream never loads it (unless a reload finds a durable turn in flight).
 */
export const lazyApprovalCard = /* @__PURE__ */ lazyPart<AgentApprovalCardProps>(
  () => import('./agent-approval-card.js').then((module) => module.AgentApprovalCard),
  'AgentApprovalCard',
);

/**
 * The confirm step before a durable turn is cancelled: only a durable run asks it (its code loads
 * once a turn has one). `confirmRef` is the step's `ref`.
 */
export const lazyCancelConfirm = /* @__PURE__ */ lazyPart<
  AgentCancelConfirmProps & { confirmRef: Ref<HTMLDivElement> }
>(
  () =>
    import('./agent-cancel-confirm.js').then(
      ({ AgentCancelConfirm }) =>
        function ConsoleCancelConfirm({ confirmRef, ...props }) {
          return <AgentCancelConfirm ref={confirmRef} {...props} />;
        },
    ),
  'AgentCancelConfirm',
);

/**
 * The agent's tools, in its details: the part with its grouping and authorizations (or the app's
 * replacement given them), rendered with the agent's details in the browser.
 */
export const lazyTools = /* @__PURE__ */ lazyPart<ConsoleToolsProps>(
  () => import('./console-tools.js').then((module) => module.ConsoleTools),
  'AgentTools',
);

// A server renders the form, the thread list and an error: it loads them with the console, so
// that its first page has them in place too (one still loading when the console renders is
// streamed after the rest and put in place by a script; renderToString would leave it to the
// browser).
if (typeof document === 'undefined') {
  void lazyErrorMessage.preload();
  void lazyInputForm.preload();
  void lazyThreadList.preload();
  void lazyConsoleThreadList.preload();
}

/**
 * Starts loading the default parts the console may show: the event log with `showEventLog`, the
 * form, its output and the run history once the agent is one that takes a form (or may: its
 * schemas decide), the approval card when the turns are durable, the thread list and its threads
 * with a `threadStore` (the threads around a replaced list too; a server runs no effect: it loads
 * them with this module, above). The tools part needs no preload: it
 * renders (and so loads) with the agent's details, before its query is even sent.
 */
export function usePreloadedParts(needs: {
  eventLog: boolean;
  inputForm: boolean;
  runOutput: boolean;
  runHistory: boolean;
  approvalCard: boolean;
  threadList: boolean;
  threads: boolean;
}): void {
  const { eventLog, inputForm, runOutput, runHistory, approvalCard, threadList, threads } = needs;
  useEffect(() => {
    if (eventLog) void lazyEventLog.preload();
    if (inputForm) void lazyInputForm.preload();
    if (runOutput) void lazyRunOutput.preload();
    if (runHistory) void lazyRunHistory.preload();
    if (approvalCard) void lazyApprovalCard.preload();
    if (threadList) void lazyThreadList.preload();
    if (threads) void lazyConsoleThreadList.preload();
  }, [eventLog, inputForm, runOutput, runHistory, approvalCard, threadList, threads]);
}
