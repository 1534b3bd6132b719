import { useRef, useState, type RefObject } from 'react';
import type { Agent } from '../core/wire/schemas.js';
import { AgentPicker } from './agent-picker.js';

/** The picker of the console, set up by the outer part (which survives a change of agent). */
export interface ConsolePicker {
  value: string | undefined;
  defaultInputValue: string;
  onChange: (agent: Agent) => void;
  /** Set when a choice remounts the console: the new picker takes focus back. */
  refocus: { current: boolean };
}

/**
 * The agent the console shows (the picked one, when the picker is shown, else `agentId`) and its
 * picker's setup (undefined when none is shown).
 */
export function useConsolePicker(
  givenAgentId: string | undefined,
  picker: boolean | undefined,
  onAgentChange: ((agent: Agent) => void) | undefined,
): { agentId: string | undefined; picker: ConsolePicker | undefined } {
  const [picked, setPicked] = useState<Agent | undefined>(undefined);
  const refocus = useRef(false);
  const showPicker = picker ?? givenAgentId === undefined;
  const agentId = (showPicker ? picked?.agent_id : undefined) ?? givenAgentId;
  if (!showPicker) return { agentId, picker: undefined };
  return {
    agentId,
    picker: {
      value: agentId,
      defaultInputValue: picked?.name ?? '',
      onChange: (agent) => {
        refocus.current = agent.agent_id !== agentId;
        setPicked(agent);
        onAgentChange?.(agent);
      },
      refocus,
    },
  };
}

/**
 * The console's picker. The console refocuses it after a choice remounted the console
 * (`usePickerRefocus` with `pickerRef`, in the console: its effect runs after every part's).
 */
export function ConsolePickerPart({
  picker,
  agentName,
  pickerRef,
}: {
  picker: ConsolePicker;
  /** The name of the agent shown, until the person picked one. */
  agentName: string | undefined;
  pickerRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <AgentPicker
      ref={pickerRef}
      className="ack-console__picker"
      value={picker.value}
      defaultInputValue={picker.defaultInputValue || (agentName ?? '')}
      onChange={picker.onChange}
    />
  );
}
