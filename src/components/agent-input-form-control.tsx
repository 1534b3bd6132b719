import {
  forwardRef,
  useCallback,
  type ChangeEvent,
  type ForwardedRef,
  type HTMLAttributes,
  type RefAttributes,
} from 'react';
import { isChecked, optionIndex, toDateTimeLocal } from '../core/console/input-form-validation.js';
import { useFieldContext, useFormContext } from './agent-input-form-context.js';
import { classNames, dataFlag, useComposedRefs, named } from './part-helpers.js';

/** Props of {@link AgentInputFormControl}. */
export interface AgentInputFormControlProps
  extends
    Omit<HTMLAttributes<HTMLElement>, 'onChange' | 'id' | 'defaultValue' | 'children'>,
    RefAttributes<HTMLElement> {
  /**
   * The control's placeholder (text, number and long-text controls).
   * @default undefined
   */
  placeholder?: string;
  /**
   * Rows of a long-text control.
   * @default 4
   */
  rows?: number;
  /**
   * The control's `autocomplete` hint.
   * @default undefined
   */
  autoComplete?: string;
}

/**
 * The control of a field, chosen by its kind: text input, textarea, number input, checkbox,
 * select, date or date-time input. Carries `aria-invalid` (only when invalid), `aria-describedby`
 * and `data-invalid`.
 *
 * @example
 * <AgentInputForm.Control className="input" />
 */
export const AgentInputFormControl = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentInputFormControlProps>(AgentInputFormControlRender),
  'AgentInputForm.Control',
);

function AgentInputFormControlRender(
  { className, rows = 4, ...rest }: AgentInputFormControlProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const form = useFormContext('AgentInputForm.Control');
  const { field, controlId, error, describedBy } = useFieldContext('AgentInputForm.Control');
  const { registerControl } = form;
  const name = field.name;
  const registerRef = useCallback(
    (element: HTMLElement | null) => {
      registerControl(name, element);
    },
    [registerControl, name],
  );
  const composedRef = useComposedRefs(ref, registerRef);
  const value = form.getValue(field);
  const invalid = error !== undefined;
  const common = {
    ...rest,
    ref: composedRef,
    id: controlId,
    name: field.name,
    className: classNames('ack-input-form__control', className),
    disabled: form.disabled,
    required: field.required,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
    'data-invalid': dataFlag(invalid),
    'data-kind': field.kind,
  };
  const onText = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    form.setValue(field, event.target.value);

  switch (field.kind) {
    case 'textarea':
      return <textarea {...common} rows={rows} value={asText(value)} onChange={onText} />;
    case 'number':
    case 'integer': {
      const minimum = field.schema['minimum'];
      const maximum = field.schema['maximum'];
      return (
        <input
          {...common}
          type="number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          step={field.kind === 'integer' ? 1 : 'any'}
          min={typeof minimum === 'number' ? minimum : undefined}
          max={typeof maximum === 'number' ? maximum : undefined}
          value={asText(value)}
          onChange={onText}
        />
      );
    }
    case 'boolean':
      return (
        <input
          {...common}
          type="checkbox"
          checked={isChecked(value)}
          onChange={(event) => form.setValue(field, event.target.checked)}
        />
      );
    case 'enum':
      if (field.options.length > 0) {
        const index = optionIndex(field, value);
        return (
          <select
            {...common}
            value={index === -1 ? '' : String(index)}
            onChange={(event) =>
              form.setValue(
                field,
                event.target.value === '' ? '' : field.options[Number(event.target.value)],
              )
            }
          >
            <option value="">{field.required ? 'Choose…' : '(none)'}</option>
            {field.options.map((option, optionPosition) => (
              <option key={optionPosition} value={String(optionPosition)}>
                {String(option)}
              </option>
            ))}
          </select>
        );
      }
      return <input {...common} type="text" value={asText(value)} onChange={onText} />;
    case 'date':
      return <input {...common} type="date" value={asText(value)} onChange={onText} />;
    case 'date-time':
      return (
        <input {...common} type="datetime-local" value={toDateTimeLocal(value)} onChange={onText} />
      );
    default:
      return <input {...common} type="text" value={asText(value)} onChange={onText} />;
  }
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
