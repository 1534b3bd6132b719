import type { FormField } from '../core/console/input-form.js';
import type { AgentInputFormValues } from '../core/console/input-form-validation.js';

/** The value a field's control starts with: `defaultValues`, else the schema's `default`. */
export function initialFieldValue(
  field: FormField,
  defaultValues: Readonly<AgentInputFormValues> | undefined,
): unknown {
  if (defaultValues !== undefined && Object.hasOwn(defaultValues, field.name)) {
    return defaultValues[field.name];
  }
  if (field.defaultValue !== undefined) return field.defaultValue;
  return field.kind === 'boolean' ? false : '';
}
