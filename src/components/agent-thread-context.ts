import type { ReactNode, RefObject } from 'react';
import type {
  ConversationMessage,
  ConversationStatus,
  MessageVersion,
} from '../core/conversation/agent-conversation.js';
import type { AgentError } from '../core/wire/errors.js';
import { createPartContext } from './part-helpers.js';

/** What the parts of an {@link AgentThreadRoot} share. */
export interface ThreadContextValue {
  messages: readonly ConversationMessage[];
  status: ConversationStatus;
  agentName: string;
  userName: string;
  onRetry: (() => void) | undefined;
  onEdit: ((messageId: string, text: string) => void) | undefined;
  onRegenerate: ((answerId: string) => void) | undefined;
  versions: ReadonlyMap<string, MessageVersion>;
  onShowVersion: ((messageId: string) => void) | undefined;
  onSelect: ((messageId: string) => void) | undefined;
  canSelect: ((message: ConversationMessage) => boolean) | undefined;
  selectedId: string | undefined;
  reconnectReason: AgentError | undefined;
  nextAttemptAt: number | undefined;
  renderText: ((text: string) => ReactNode) | undefined;
  /** Index of the first message shown; the ones before it wait behind "Show earlier messages". */
  shownFrom: number;
  /** How many earlier messages the next "Show earlier messages" reveals. */
  earlierPageSize: number;
  /** Reveals the next page of earlier messages. */
  showEarlier: () => void;
  /** The scrolling element ({@link AgentThreadViewport} registers it), `null` without one. */
  scrollElement: RefObject<HTMLElement | null>;
}

export const [ThreadContext, useThreadContext] =
  /* @__PURE__ */ createPartContext<ThreadContextValue>('AgentThreadRoot');
