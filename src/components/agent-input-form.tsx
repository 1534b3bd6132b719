import {
  forwardRef,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type FormEvent,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { formFieldsFromSchema, type FormField } from '../core/console/input-form.js';
import {
  validateInputForm,
  type AgentInputFormValues,
} from '../core/console/input-form-validation.js';
import { FormContext, useFormContext, type FormContextValue } from './agent-input-form-context.js';
import {
  AgentInputFormControl,
  type AgentInputFormControlProps,
} from './agent-input-form-control.js';
import {
  AgentInputFormDescription,
  AgentInputFormField,
  AgentInputFormLabel,
  AgentInputFormMessage,
  type AgentInputFormDescriptionProps,
  type AgentInputFormFieldProps,
  type AgentInputFormLabelProps,
  type AgentInputFormMessageProps,
} from './agent-input-form-field.js';
import { initialFieldValue } from './input-form-controls.js';
import { PlayIcon } from './part-icons.js';
import { classNames, dataFlag, named } from './part-helpers.js';
import { useHydrated } from './use-hydrated.js';

export { AgentInputFormControl, type AgentInputFormControlProps };
export {
  AgentInputFormDescription,
  AgentInputFormField,
  AgentInputFormLabel,
  AgentInputFormMessage,
  type AgentInputFormDescriptionProps,
  type AgentInputFormFieldProps,
  type AgentInputFormLabelProps,
  type AgentInputFormMessageProps,
};

/** Props of {@link AgentInputForm} (also `AgentInputForm.Root`). */
export interface AgentInputFormProps
  extends
    Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'children' | 'defaultValue'>,
    RefAttributes<HTMLFormElement> {
  /**
   * The form's fields. Give either `fields` or `inputSchema`; `fields` wins when both are given.
   * @default formFieldsFromSchema(inputSchema)
   */
  fields?: readonly FormField[];
  /**
   * The agent's `input_schema` (JSON Schema), turned into fields with `formFieldsFromSchema`.
   * @default undefined
   */
  inputSchema?: unknown;
  /**
   * Called with the run's `input` when the form is submitted and valid: every field present (an
   * optional empty one as `""`), numbers parsed, date-times in UTC (`buildRunInput`). Never called
   * while `disabled` or invalid.
   */
  onSubmit: (input: Record<string, unknown>) => void;
  /**
   * The values, for a controlled form (pair with `onValuesChange`). A field absent from it shows
   * its default. Text, number and date controls hold strings; a checkbox a boolean; a select the
   * option's value.
   * @default undefined (uncontrolled)
   */
  values?: AgentInputFormValues;
  /**
   * Called with every field's value when one changes.
   * @default undefined
   */
  onValuesChange?: (values: AgentInputFormValues) => void;
  /**
   * The starting values of an uncontrolled form; a field absent from it starts with the schema's
   * `default`, else empty (a checkbox unchecked).
   * @default {}
   */
  defaultValues?: AgentInputFormValues;
  /**
   * Disables every control and the submit button (e.g. while a run is active). A form a server
   * rendered is disabled until the browser has hydrated it.
   * @default false
   */
  disabled?: boolean;
  /**
   * The submit button's label.
   * @default 'Run'
   */
  submitLabel?: ReactNode;
  /**
   * Change this value (e.g. a run counter) to reset the form: an uncontrolled form goes back to its
   * default values; validation messages are cleared in both modes. A `<button type="reset">` inside
   * the form does the same.
   * @default undefined
   */
  resetKey?: unknown;
  /**
   * Messages from outside, by field name (e.g. the fields an `AgentInputError` lists, or a
   * problem detail's `errors[]`), shown like validation messages. Validation messages win.
   * @default undefined
   */
  errors?: Readonly<Record<string, string>>;
  /**
   * More buttons for the action bar, after the submit button (`AgentConsole` puts Stop, Retry and
   * Clear there). Shown by the default layout; a custom layout places its own.
   * @default undefined
   */
  actions?: ReactNode;
  /**
   * A custom layout built from the parts (`AgentInputForm.Field`, `.Label`, `.Control`,
   * `.Description`, `.Message`, `.Submit`). Without children the form shows every field and a
   * submit button.
   * @default undefined
   */
  children?: ReactNode;
}

/**
 * A form for an agent started by an input form, built from its fields (or its `input_schema`).
 * Validates with zod (required, numbers, enum membership), ties messages to controls with
 * `aria-describedby`, moves focus to the first invalid control, and submits every field.
 *
 * Unstyled: state shows as `data-invalid`, `data-required`, `data-disabled`, `data-kind`; every
 * part takes `className`.
 *
 * @example
 * const { data: schemas } = useAgentSchemas(agentId);
 * const run = useAgentRunStream();
 * const active = activeRunStatuses.has(run.status);
 * <AgentInputForm
 *   inputSchema={schemas?.input_schema}
 *   disabled={active}
 *   onSubmit={(input) => run.start({ agentId, input })}
 * />
 *
 * @example
 * // A custom layout from the parts
 * <AgentInputForm fields={fields} onSubmit={send}>
 *   <AgentInputForm.Field name="topic" className="wide">
 *     <AgentInputForm.Label />
 *     <AgentInputForm.Control placeholder="What to research" />
 *     <AgentInputForm.Message />
 *   </AgentInputForm.Field>
 *   <AgentInputForm.Submit>Research</AgentInputForm.Submit>
 * </AgentInputForm>
 */
/** The form's root: without children it shows every field and a submit button. */
export const AgentInputFormRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLFormElement, AgentInputFormProps>(AgentInputFormRootRender),
  'AgentInputForm.Root',
);

function AgentInputFormRootRender(
  {
    fields: givenFields,
    inputSchema,
    onSubmit,
    values: controlledValues,
    onValuesChange,
    defaultValues,
    disabled: disabledProp = false,
    submitLabel = 'Run',
    resetKey,
    errors: externalErrors,
    actions,
    children,
    className,
    onReset,
    ...rest
  }: AgentInputFormProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  // A server-rendered form takes no input until hydrated: a click on Run would submit it natively
  // (every field in the page's URL), and what was typed would be lost when React takes it over.
  const hydrated = useHydrated();
  const disabled = disabledProp || !hydrated;
  const fields = useMemo(
    () => givenFields ?? formFieldsFromSchema(inputSchema),
    [givenFields, inputSchema],
  );
  const [localValues, setLocalValues] = useState<AgentInputFormValues>({});
  const [validationErrors, setValidationErrors] = useState<Record<string, string>>({});
  const [focusRequest, setFocusRequest] = useState(0);
  const [seenResetKey, setSeenResetKey] = useState(resetKey);
  const controls = useRef(new Map<string, HTMLElement>());

  if (!Object.is(seenResetKey, resetKey)) {
    setSeenResetKey(resetKey);
    setLocalValues({});
    setValidationErrors({});
  }

  const storedValues = controlledValues ?? localValues;
  const getValue = useCallback(
    (field: FormField) =>
      Object.hasOwn(storedValues, field.name)
        ? storedValues[field.name]
        : initialFieldValue(field, defaultValues),
    [storedValues, defaultValues],
  );
  const currentValues = useCallback(
    () => Object.fromEntries(fields.map((field) => [field.name, getValue(field)])),
    [fields, getValue],
  );

  const setValue = useCallback(
    (field: FormField, value: unknown) => {
      const next = { ...currentValues(), [field.name]: value };
      if (controlledValues === undefined) setLocalValues(next);
      onValuesChange?.(next);
      // A message already showing follows the value; new ones wait for the next submit.
      setValidationErrors((previous) => {
        const shown = ownValue(previous, field.name);
        if (shown === undefined) return previous;
        const result = validateInputForm([field], { [field.name]: value });
        const rest = { ...previous };
        delete rest[field.name];
        if (result.success) return rest;
        // A computed key defines an own property, even `__proto__` (an assignment would not).
        return { ...rest, [field.name]: ownValue(result.errors, field.name) ?? shown };
      });
    },
    [currentValues, controlledValues, onValuesChange],
  );

  useEffect(() => {
    if (focusRequest === 0) return;
    for (const field of fields) {
      const control = controls.current.get(field.name);
      if (control && control.getAttribute('aria-invalid') === 'true') {
        control.focus();
        return;
      }
    }
  }, [focusRequest, fields]);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    const result = validateInputForm(fields, currentValues());
    if (!result.success) {
      setValidationErrors(result.errors);
      setFocusRequest((count) => count + 1);
      return;
    }
    setValidationErrors({});
    onSubmit(result.input);
  };

  const handleReset = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (controlledValues === undefined) setLocalValues({});
    setValidationErrors({});
    onReset?.(event);
  };

  const context = useMemo<FormContextValue>(
    () => ({
      fields,
      getField: (name) => fields.find((field) => field.name === name),
      getValue,
      setValue,
      getError: (name) =>
        ownValue(validationErrors, name) ??
        (externalErrors === undefined ? undefined : ownValue(externalErrors, name)),
      disabled,
      submitLabel,
      registerControl: (name, element) => {
        if (element) controls.current.set(name, element);
        else controls.current.delete(name);
      },
    }),
    [fields, getValue, setValue, validationErrors, externalErrors, disabled, submitLabel],
  );

  const hasRequired = fields.some((field) => field.required && field.kind !== 'boolean');
  return (
    <FormContext.Provider value={context}>
      <form
        ref={ref}
        noValidate
        className={classNames('ack-root', 'ack-input-form', className)}
        data-disabled={dataFlag(disabled)}
        onSubmit={handleSubmit}
        onReset={handleReset}
        {...rest}
      >
        {children ?? (
          <>
            {hasRequired ? (
              <p className="ack-input-form__note">Fields marked * are required.</p>
            ) : null}
            {fields.map((field) => (
              <AgentInputFormField key={field.name} name={field.name} />
            ))}
            <div className="ack-actions">
              <AgentInputFormSubmit />
              {actions}
            </div>
          </>
        )}
      </form>
    </FormContext.Provider>
  );
}

/** Props of {@link AgentInputFormSubmit}. */
export interface AgentInputFormSubmitProps
  extends ComponentPropsWithoutRef<'button'>, RefAttributes<HTMLButtonElement> {
  /**
   * The button's label.
   * @default the form's `submitLabel` ('Run')
   */
  children?: ReactNode;
}

/**
 * The submit button of an {@link AgentInputForm}; disabled (with `data-disabled`) while the form
 * is.
 *
 * @example
 * <AgentInputForm.Submit>Research</AgentInputForm.Submit>
 */
export const AgentInputFormSubmit = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLButtonElement, AgentInputFormSubmitProps>(
    AgentInputFormSubmitRender,
  ),
  'AgentInputForm.Submit',
);

function AgentInputFormSubmitRender(
  { children, className, disabled, ...rest }: AgentInputFormSubmitProps,
  ref: ForwardedRef<HTMLButtonElement>,
) {
  const form = useFormContext('AgentInputForm.Submit');
  const isDisabled = form.disabled || disabled === true;
  return (
    <button
      ref={ref}
      type="submit"
      className={classNames('ack-input-form__submit', className)}
      data-variant="primary"
      disabled={isDisabled}
      data-disabled={dataFlag(isDisabled)}
      {...rest}
    >
      {children ?? (
        <>
          <PlayIcon />
          {form.submitLabel}
        </>
      )}
    </button>
  );
}

/**
 * The input form, assembled: every field of the schema and a submit button. Its parts, for a
 * layout of your own: `AgentInputForm.Root`, `.Field`, `.Label`, `.Control`, `.Description`,
 * `.Message`, `.Submit` (compose them in a client component: a server component cannot reach a
 * part through a dot).
 */
export const AgentInputForm = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLFormElement, AgentInputFormProps>(
      function AgentInputFormRender(props, ref) {
        return <AgentInputFormRoot ref={ref} {...props} />;
      },
    ),
    'AgentInputForm',
  ),
  {
    Root: AgentInputFormRoot,
    Field: AgentInputFormField,
    Label: AgentInputFormLabel,
    Control: AgentInputFormControl,
    Description: AgentInputFormDescription,
    Message: AgentInputFormMessage,
    Submit: AgentInputFormSubmit,
  },
);

/** A field's entry in a table keyed by field names (the wire's): own keys only. */
function ownValue(table: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
