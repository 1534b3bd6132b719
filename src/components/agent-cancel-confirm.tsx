import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type KeyboardEvent,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { classNames, named, useComposedRefs } from './part-helpers.js';

/** Props of {@link AgentCancelConfirm}. */
export interface AgentCancelConfirmProps
  extends
    Omit<ComponentPropsWithoutRef<'div'>, 'children' | 'title'>,
    RefAttributes<HTMLDivElement> {
  /** Called by "Cancel run": the run is cancelled at the service. */
  onConfirm: () => void;
  /** Called by "Keep running" (and Escape): nothing is sent. */
  onDismiss: () => void;
  /**
   * The question.
   * @default 'Cancel this run?'
   */
  title?: ReactNode;
  /**
   * What cancelling means.
   * @default 'The service stops it where it is: what it did so far stays done, and it cannot be resumed.'
   */
  description?: ReactNode;
}

/**
 * The confirm step before a durable run is cancelled (a durable run's Stop is a cancellation at
 * the service, which cannot be taken back): "Keep running" or "Cancel run", the safe choice first
 * as in Radix's alert dialog (Escape keeps it). It
 * takes focus when it appears, on "Keep running". Its `ref` is the `role="alertdialog"` element
 * (not modal: the page around it stays usable).
 *
 * @example
 * {confirming ? (
 *   <AgentCancelConfirm onConfirm={() => { setConfirming(false); chat.stop(); }} onDismiss={() => setConfirming(false)} />
 * ) : null}
 */
export const AgentCancelConfirm = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentCancelConfirmProps>(AgentCancelConfirmRender),
  'AgentCancelConfirm',
);

function AgentCancelConfirmRender(
  {
    onConfirm,
    onDismiss,
    title = 'Cancel this run?',
    description = 'The service stops it where it is: what it did so far stays done, and it cannot be resumed.',
    className,
    ...rest
  }: AgentCancelConfirmProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const id = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const composedRef = useComposedRefs(ref, rootRef);
  const dismissOnEscape = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onDismiss();
  };
  useEffect(() => {
    keepRef.current?.focus();
  }, []);
  return (
    <div
      ref={composedRef}
      role="alertdialog"
      aria-labelledby={`${id}title`}
      aria-describedby={`${id}description`}
      className={classNames('ack-root', 'ack-cancel-confirm', className)}
      {...rest}
    >
      <p id={`${id}title`} className="ack-cancel-confirm__title">
        {title}
      </p>
      <p id={`${id}description`} className="ack-cancel-confirm__description">
        {description}
      </p>
      <div className="ack-actions">
        <button ref={keepRef} type="button" onClick={onDismiss} onKeyDown={dismissOnEscape}>
          Keep running
        </button>
        <button type="button" data-variant="danger" onClick={onConfirm} onKeyDown={dismissOnEscape}>
          Cancel run
        </button>
      </div>
    </div>
  );
}
