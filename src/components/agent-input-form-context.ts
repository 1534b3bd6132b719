import type { ReactNode } from 'react';
import type { FormField } from '../core/console/input-form.js';
import { createPartContext } from './part-helpers.js';

export interface FormContextValue {
  fields: readonly FormField[];
  getField: (name: string) => FormField | undefined;
  getValue: (field: FormField) => unknown;
  setValue: (field: FormField, value: unknown) => void;
  getError: (name: string) => string | undefined;
  disabled: boolean;
  submitLabel: ReactNode;
  registerControl: (name: string, element: HTMLElement | null) => void;
}

export interface FieldContextValue {
  field: FormField;
  controlId: string;
  descriptionId: string;
  messageId: string;
  error: string | undefined;
  describedBy: string | undefined;
  setShown: (part: 'description' | 'message', shown: boolean) => void;
}

export const [FormContext, useFormContext] =
  /* @__PURE__ */ createPartContext<FormContextValue>('AgentInputForm');
export const [FieldContext, useFieldContext] =
  /* @__PURE__ */ createPartContext<FieldContextValue>('AgentInputForm.Field');
