import type { MouseEvent } from 'react';
import type { DurableInteraction, DurableRunDecision } from '../core/wire/durable-run-schemas.js';
import { createPartContext } from './part-helpers.js';

/** What the engine is doing with the card's answer. */
export type AgentApprovalCardStatus = 'idle' | 'responding' | 'error';

export type Decision = DurableRunDecision['decision'];

/** What the parts of an {@link AgentApprovalCardRoot} share. */
export interface ApprovalContextValue {
  interactions: readonly DurableInteraction[];
  batchKey: string | undefined;
  /** More than one interaction: decisions are chosen, then one Submit sends them. */
  batch: boolean;
  decisions: Readonly<Record<string, Decision>>;
  /** Whether input counts yet (the arm delay after the batch appeared has passed). */
  armed: boolean;
  /** Sent, or being sent: the buttons wait. */
  locked: boolean;
  status: AgentApprovalCardStatus;
  error: unknown;
  changed: boolean;
  now: number;
  /** Why Submit cannot send, or undefined when it can. */
  blockedReason: string | undefined;
  reasonId: string;
  headingRef: (element: HTMLElement | null) => void;
  decide: (interactionId: string, decision: Decision, event: MouseEvent<HTMLButtonElement>) => void;
  submit: (event: MouseEvent<HTMLButtonElement>) => void;
  notePointerDown: () => void;
}

export const [ApprovalContext, useApprovalContext] =
  /* @__PURE__ */ createPartContext<ApprovalContextValue>('AgentApprovalCard');

interface ItemContextValue {
  interaction: DurableInteraction;
  nameId: string;
  expired: boolean;
}

export const [ItemContext, useItemContext] =
  /* @__PURE__ */ createPartContext<ItemContextValue>('AgentApprovalCard.Item');
