import { useRef, useState } from 'react';
import type { Agent } from '../core/wire/schemas.js';
import { AgentPicker } from './agent-picker.js';
import { usePickerRefocus } from './console-focus.js';

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

/** The console's picker, which takes focus back after a choice remounted the console. */
export function ConsolePickerPart({
  picker,
  agentName,
}: {
  picker: ConsolePicker;
  /** The name of the agent shown, until the person picked one. */
  agentName: string | undefined;
}) {
  const pickerRef = useRef<HTMLDivElement>(null);
  usePickerRefocus(picker.refocus, pickerRef);
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
