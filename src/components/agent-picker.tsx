import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type KeyboardEvent,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { Agent } from '../core/wire/schemas.js';
import { useAgentSearch } from '../react/use-agent-search.js';
import type { AgentError } from '../core/wire/errors.js';
import { failureReason } from '../core/console/run-wording.js';
import { classNames, dataFlag, named } from './part-helpers.js';

/** Props of {@link AgentPicker}. */
export interface AgentPickerProps
  extends
    Omit<ComponentPropsWithoutRef<'div'>, 'onChange' | 'children'>,
    RefAttributes<HTMLDivElement> {
  /** Called with the agent the person chose (Enter on an option, or a click). */
  onChange: (agent: Agent) => void;
  /**
   * The id of the chosen agent: its option is marked selected.
   * @default undefined
   */
  value?: string | undefined;
  /**
   * The text field's label.
   * @default 'Agent'
   */
  label?: ReactNode;
  /**
   * The text field's placeholder.
   * @default 'Search agents by name'
   */
  placeholder?: string;
  /**
   * The text the field starts with (e.g. the chosen agent's name).
   * @default ''
   */
  defaultInputValue?: string;
  /**
   * How long typing must pause before a search is sent (ms).
   * @default 250
   */
  debounceMs?: number;
}

/**
 * A combobox to find and choose an agent by name (WAI-ARIA combobox pattern with a listbox popup):
 * typing searches (`useAgentSearch`, debounced); ArrowDown and ArrowUp move through the options
 * (ArrowDown opens the list), Enter chooses, Escape closes the list (and clears the text when it
 * is closed), Home and End jump. Focus stays in the text field: the highlighted option is named by
 * `aria-activedescendant`. Loading, empty and error states are said in a polite status line.
 * Carries `data-state` (`open`/`closed`); options carry `data-highlighted`.
 *
 * @example
 * const [agentId, setAgentId] = useState<string>();
 * <AgentPicker value={agentId} onChange={(agent) => setAgentId(agent.agent_id)} />
 */
export const AgentPicker = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentPickerProps>(AgentPickerRender),
  'AgentPicker',
);

function AgentPickerRender(
  {
    onChange,
    value,
    label = 'Agent',
    placeholder = 'Search agents by name',
    defaultInputValue = '',
    debounceMs = 250,
    className,
    ...rest
  }: AgentPickerProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const id = useId();
  const inputId = `${id}input`;
  const listId = `${id}list`;
  const optionId = (index: number) => `${id}option-${index}`;
  const [text, setText] = useState(defaultInputValue);
  const [open, setOpen] = useState(false);
  const [highlighted, setHighlighted] = useState(-1);
  const [chosenName, setChosenName] = useState<string | undefined>(undefined);
  // While the field shows the chosen agent's name, the list shows every agent, not just that one.
  const query = chosenName !== undefined && text === chosenName ? '' : text;
  const search = useAgentSearch(query, { debounceMs, enabled: open });
  // Only the list of what the field says now: a stale list would let Enter choose a wrong agent.
  const fresh = search.searchedName === query.trim() && !search.isPlaceholderData;
  const agents = fresh ? (search.data ?? []) : [];
  const listRef = useRef<HTMLUListElement>(null);

  const pending = open && (search.isPending || !fresh);
  const highlightedIndex = highlighted < agents.length ? highlighted : -1;

  useEffect(() => {
    if (!open || highlightedIndex < 0) return;
    listRef.current
      ?.querySelector<HTMLElement>(`[data-index="${highlightedIndex}"]`)
      ?.scrollIntoView?.({ block: 'nearest' });
  }, [open, highlightedIndex]);

  const choose = (agent: Agent) => {
    setText(agent.name);
    setChosenName(agent.name);
    setOpen(false);
    setHighlighted(-1);
    onChange(agent);
  };

  const move = (to: number) => {
    if (agents.length === 0) return;
    setHighlighted(Math.max(0, Math.min(agents.length - 1, to)));
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    handleComboboxKey(event, {
      open,
      text,
      agents,
      highlightedIndex,
      setOpen,
      setHighlighted,
      setText,
      move,
      choose,
    });
  const message = open ? pickerMessage(search.error, pending, agents.length, query) : '';

  return (
    <div
      ref={ref}
      className={classNames('ack-root', 'ack-picker', className)}
      data-state={open ? 'open' : 'closed'}
      data-busy={dataFlag(pending)}
      {...rest}
    >
      <label htmlFor={inputId} className="ack-picker__label">
        {label}
      </label>
      <div className="ack-picker__field">
        <input
          id={inputId}
          className="ack-picker__input"
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={
            open && highlightedIndex >= 0 ? optionId(highlightedIndex) : undefined
          }
          aria-describedby={`${id}message`}
          placeholder={placeholder}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setHighlighted(-1);
          }}
          onClick={() => setOpen(true)}
          onKeyDown={handleKeyDown}
          onBlur={() => {
            setOpen(false);
            setHighlighted(-1);
          }}
        />
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Agents"
          className="ack-picker__listbox"
          hidden={!open || agents.length === 0}
        >
          <AgentOptions
            agents={agents}
            value={value}
            highlightedIndex={highlightedIndex}
            optionId={optionId}
            choose={choose}
          />
        </ul>
      </div>
      <p
        id={`${id}message`}
        role="status"
        className="ack-picker__message"
        data-error={dataFlag(search.error !== null && open)}
      >
        {message}
      </p>
    </div>
  );
}

interface AgentOptionsProps {
  agents: readonly Agent[];
  value: string | undefined;
  highlightedIndex: number;
  optionId: (index: number) => string;
  choose: (agent: Agent) => void;
}

/** The options of the listbox, one per agent found. */
function AgentOptions({ agents, value, highlightedIndex, optionId, choose }: AgentOptionsProps) {
  return agents.map((agent, index) => (
    // The keyboard works on the combobox (aria-activedescendant), never on an option.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <li
      key={agent.agent_id}
      id={optionId(index)}
      role="option"
      aria-selected={agent.agent_id === value}
      data-index={index}
      data-highlighted={dataFlag(index === highlightedIndex)}
      className="ack-picker__option"
      // Keeps focus in the text field (a click would blur it and close the list first).
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => choose(agent)}
    >
      <span className="ack-picker__option-name">{agent.name}</span>
      {agent.description ? (
        <span className="ack-picker__option-description">{agent.description}</span>
      ) : null}
    </li>
  ));
}

/** What the combobox's keys act on. */
interface ComboboxKeyState {
  open: boolean;
  text: string;
  agents: readonly Agent[];
  highlightedIndex: number;
  setOpen: (open: boolean) => void;
  setHighlighted: (index: number) => void;
  setText: (text: string) => void;
  move: (to: number) => void;
  choose: (agent: Agent) => void;
}

/** The combobox's keys: arrows, Home and End move, Enter chooses, Escape closes then clears. */
function handleComboboxKey(
  event: KeyboardEvent<HTMLInputElement>,
  {
    open,
    text,
    agents,
    highlightedIndex,
    setOpen,
    setHighlighted,
    setText,
    move,
    choose,
  }: ComboboxKeyState,
) {
  switch (event.key) {
    case 'ArrowDown':
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setHighlighted(0);
      } else move(highlightedIndex + 1);
      break;
    case 'ArrowUp':
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setHighlighted(agents.length - 1);
      } else move(highlightedIndex <= 0 ? 0 : highlightedIndex - 1);
      break;
    case 'Home':
      if (open && agents.length > 0) {
        event.preventDefault();
        move(0);
      }
      break;
    case 'End':
      if (open && agents.length > 0) {
        event.preventDefault();
        move(agents.length - 1);
      }
      break;
    case 'Enter': {
      const agent = open ? agents[highlightedIndex] : undefined;
      if (agent) {
        event.preventDefault();
        choose(agent);
      }
      break;
    }
    case 'Escape':
      if (open) {
        event.preventDefault();
        setOpen(false);
        setHighlighted(-1);
      } else if (text !== '') {
        event.preventDefault();
        setText('');
      }
      break;
    default:
      break;
  }
}

/** The status line under the field while the list is open. */
function pickerMessage(
  error: AgentError | null,
  pending: boolean,
  found: number,
  query: string,
): string {
  if (error) return `Could not search: ${failureReason(error)}`;
  if (pending) return 'Searching…';
  if (found === 0) {
    return query.trim() === '' ? 'No agents.' : `No agent matches “${query.trim()}”.`;
  }
  return `${found === 1 ? '1 agent' : `${found} agents`}.`;
}
