import { createContext, useContext, type Context } from 'react';

/** Joins class names, skipping empty ones: `classNames('ack-x', className)`. */
export function classNames(...names: (string | false | null | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

/** A `data-*` flag: present (empty string) when true, absent when false (Radix style). */
export function dataFlag(value: boolean | undefined): '' | undefined {
  return value ? '' : undefined;
}

/**
 * A context for the parts of a compound component, whose hook throws a message naming the part
 * and the root it must be used in.
 */
export function createPartContext<Value>(
  rootName: string,
): [Context<Value | undefined>, (partName: string) => Value] {
  const PartContext = createContext<Value | undefined>(undefined);
  PartContext.displayName = `${rootName}Context`;
  function usePartContext(partName: string): Value {
    const value = useContext(PartContext);
    if (value === undefined) {
      throw new Error(`<${partName}> must be used within <${rootName}>.`);
    }
    return value;
  }
  return [PartContext, usePartContext];
}

/** Styles that hide an element visually and keep it for assistive technology. */
export const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
