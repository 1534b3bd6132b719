import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ConversationMessage } from '../core/conversation/agent-conversation.js';

/** The editing of a USER message: its draft, and Save (which sends) and Cancel. */
export function useMessageEdit(
  message: ConversationMessage,
  onEdit: ((messageId: string, text: string) => void) | undefined,
) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.text);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  // Save and Cancel return focus to Edit, which renders again only after the editor is gone.
  const [refocusEdit, setRefocusEdit] = useState(false);
  useEffect(() => {
    if (!refocusEdit) return;
    editButtonRef.current?.focus();
    setRefocusEdit(false);
  }, [refocusEdit]);

  const start = () => {
    setDraft(message.text);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setDraft(message.text);
    setRefocusEdit(true);
  };
  const save = () => {
    if (draft.trim() === '') return;
    setEditing(false);
    setRefocusEdit(true);
    onEdit?.(message.id, draft);
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };
  return { editing, draft, setDraft, editButtonRef, start, cancel, save, handleKeyDown };
}

/** The editor of a USER message, in place of its text. */
export function MessageEditor({
  id,
  edit,
}: {
  id: string;
  edit: ReturnType<typeof useMessageEdit>;
}) {
  const { draft, setDraft, save, cancel, handleKeyDown } = edit;
  return (
    <div className="ack-thread__edit">
      <label htmlFor={`${id}edit`} className="ack-thread__edit-label">
        Edit your message
      </label>
      <textarea
        id={`${id}edit`}
        className="ack-thread__edit-input"
        value={draft}
        rows={3}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the person asked to edit: the text goes where they look
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="ack-thread__actions">
        <button
          type="button"
          className="ack-thread__save"
          onClick={save}
          disabled={draft.trim() === ''}
        >
          Save and send
        </button>
        <button type="button" className="ack-thread__cancel" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
