import type { MessageVersion } from '../core/conversation/agent-conversation.js';
import { visuallyHidden } from './part-helpers.js';

/** The words a version change is read in (the picker and the thread's announcer say it alike). */
export const versionText = (version: MessageVersion) =>
  `Version ${version.index + 1} of ${version.count}`;

/**
 * ‹ 1 / 2 › on a message that begins one of several versions: Previous and Next stay focusable at
 * the ends and while a turn runs (`aria-disabled`), so focus stays put as the version changes.
 */
export function VersionPicker({
  version,
  disabled,
  onShow,
}: {
  version: MessageVersion;
  disabled: boolean;
  onShow: (messageId: string) => void;
}) {
  const { index, ids } = version;
  const step = (by: number) => {
    const id = ids[index + by];
    if (!disabled && id !== undefined) onShow(id);
  };
  return (
    <div role="group" aria-label="Versions" className="ack-thread__versions">
      <button
        type="button"
        aria-label="Previous version"
        aria-disabled={disabled || index === 0}
        onClick={() => step(-1)}
      >
        ‹
      </button>
      <span aria-hidden="true" className="ack-thread__version">
        {index + 1} / {version.count}
      </span>
      <span style={visuallyHidden}>{versionText(version)}</span>
      <button
        type="button"
        aria-label="Next version"
        aria-disabled={disabled || index === ids.length - 1}
        onClick={() => step(1)}
      >
        ›
      </button>
    </div>
  );
}
