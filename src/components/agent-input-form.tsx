import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type ComponentPropsWithoutRef,
  type FormEvent,
  type ForwardedRef,
  type HTMLAttributes,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { formFieldsFromSchema, type FormField } from '../core/console/input-form.js';
import {
  isChecked,
  optionIndex,
  toDateTimeLocal,
  validateInputForm,
  type AgentInputFormValues,
} from '../core/console/input-form-validation.js';
import { initialFieldValue } from './input-form-controls.js';
import { PlayIcon } from './icons.js';
import { classNames, createPartContext, dataFlag, useComposedRefs, named } from './part-helpers.js';
import { useHydrated } from './use-hydrated.js';

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

interface FormContextValue {
  fields: readonly FormField[];
  getField: (name: string) => FormField | undefined;
  getValue: (field: FormField) => unknown;
  setValue: (field: FormField, value: unknown) => void;
  getError: (name: string) => string | undefined;
  disabled: boolean;
  submitLabel: ReactNode;
  registerControl: (name: string, element: HTMLElement | null) => void;
}

interface FieldContextValue {
  field: FormField;
  controlId: string;
  descriptionId: string;
  messageId: string;
  error: string | undefined;
  describedBy: string | undefined;
  setShown: (part: 'description' | 'message', shown: boolean) => void;
}

const [FormContext, useFormContext] =
  /* @__PURE__ */ createPartContext<FormContextValue>('AgentInputForm');
const [FieldContext, useFieldContext] =
  /* @__PURE__ */ createPartContext<FieldContextValue>('AgentInputForm.Field');

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

/** Props of {@link AgentInputFormField}. */
export interface AgentInputFormFieldProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /** The name of the field (its key in `input_schema.properties`). */
  name: string;
  /**
   * The field's parts. Without children: label, control, description and message.
   * @default undefined
   */
  children?: ReactNode;
}

/**
 * One field of an {@link AgentInputForm}: provides the label, control, description and message
 * parts inside it. Renders nothing when the form has no field of that name (e.g. while the schema
 * loads). Carries `data-kind`, `data-invalid`, `data-required`, `data-disabled`.
 *
 * @example
 * <AgentInputForm.Field name="topic" />
 */
export const AgentInputFormField = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentInputFormFieldProps>(AgentInputFormFieldRender),
  'AgentInputForm.Field',
);

function AgentInputFormFieldRender(
  { name, children, className, ...rest }: AgentInputFormFieldProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const form = useFormContext('AgentInputForm.Field');
  const baseId = useId();
  const [shown, setShownState] = useState({ description: false, message: false });
  const setShown = useCallback((part: 'description' | 'message', value: boolean) => {
    setShownState((previous) =>
      previous[part] === value ? previous : { ...previous, [part]: value },
    );
  }, []);
  const field = form.getField(name);
  const error = form.getError(name);
  const controlId = `${baseId}control`;
  const descriptionId = `${baseId}description`;
  const messageId = `${baseId}message`;
  const describedBy = classNames(shown.description && descriptionId, shown.message && messageId);
  const context = useMemo<FieldContextValue | undefined>(
    () =>
      field && {
        field,
        controlId,
        descriptionId,
        messageId,
        error,
        describedBy,
        setShown,
      },
    [field, controlId, descriptionId, messageId, error, describedBy, setShown],
  );
  if (!field || !context) return null;
  return (
    <FieldContext.Provider value={context}>
      <div
        ref={ref}
        className={classNames('ack-input-form__field', className)}
        data-kind={field.kind}
        data-invalid={dataFlag(error !== undefined)}
        data-required={dataFlag(field.required)}
        data-disabled={dataFlag(form.disabled)}
        {...rest}
      >
        {children ??
          (field.kind === 'boolean' ? (
            <>
              <AgentInputFormControl />
              <AgentInputFormLabel />
              <AgentInputFormDescription />
              <AgentInputFormMessage />
            </>
          ) : (
            <>
              <AgentInputFormLabel />
              <AgentInputFormDescription />
              <AgentInputFormControl />
              <AgentInputFormMessage />
            </>
          ))}
      </div>
    </FieldContext.Provider>
  );
}

/** Props of {@link AgentInputFormLabel}. */
export interface AgentInputFormLabelProps
  extends ComponentPropsWithoutRef<'label'>, RefAttributes<HTMLLabelElement> {
  /**
   * The label text.
   * @default the field's `title`, else its name
   */
  children?: ReactNode;
}

/**
 * The label of a field, tied to its control. A required field gets a `*` (hidden from assistive
 * technology, which hears the control's `required`).
 *
 * @example
 * <AgentInputForm.Label>Research topic</AgentInputForm.Label>
 */
export const AgentInputFormLabel = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLLabelElement, AgentInputFormLabelProps>(AgentInputFormLabelRender),
  'AgentInputForm.Label',
);

function AgentInputFormLabelRender(
  { children, className, ...rest }: AgentInputFormLabelProps,
  ref: ForwardedRef<HTMLLabelElement>,
) {
  const { field, controlId, error } = useFieldContext('AgentInputForm.Label');
  return (
    <label
      ref={ref}
      htmlFor={controlId}
      className={classNames('ack-input-form__label', className)}
      data-invalid={dataFlag(error !== undefined)}
      data-required={dataFlag(field.required)}
      {...rest}
    >
      {children ?? field.label}
      {field.required && field.kind !== 'boolean' ? (
        <span aria-hidden="true" className="ack-input-form__required">
          {' *'}
        </span>
      ) : null}
    </label>
  );
}

/** Props of {@link AgentInputFormDescription}. */
export interface AgentInputFormDescriptionProps
  extends ComponentPropsWithoutRef<'p'>, RefAttributes<HTMLParagraphElement> {
  /**
   * The description text.
   * @default the field's `description` (nothing is rendered without one)
   */
  children?: ReactNode;
}

/**
 * The field's description, referenced by the control's `aria-describedby`.
 *
 * @example
 * <AgentInputForm.Description />
 */
export const AgentInputFormDescription = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLParagraphElement, AgentInputFormDescriptionProps>(
    AgentInputFormDescriptionRender,
  ),
  'AgentInputForm.Description',
);

function AgentInputFormDescriptionRender(
  { children, className, ...rest }: AgentInputFormDescriptionProps,
  ref: ForwardedRef<HTMLParagraphElement>,
) {
  const { field, descriptionId, setShown } = useFieldContext('AgentInputForm.Description');
  const content = children ?? field.description;
  const showing = content !== undefined && content !== null && content !== '';
  useLayoutEffect(() => {
    if (!showing) return;
    setShown('description', true);
    return () => setShown('description', false);
  }, [showing, setShown]);
  if (!showing) return null;
  return (
    <p
      ref={ref}
      id={descriptionId}
      className={classNames('ack-input-form__description', className)}
      {...rest}
    >
      {content}
    </p>
  );
}

/** Props of {@link AgentInputFormMessage}. */
export interface AgentInputFormMessageProps
  extends ComponentPropsWithoutRef<'p'>, RefAttributes<HTMLParagraphElement> {
  /**
   * Replaces the validation message's text (shown only while the field is invalid).
   * @default the validation message
   */
  children?: ReactNode;
}

/**
 * The field's validation message, shown while it is invalid and referenced by the control's
 * `aria-describedby`.
 *
 * @example
 * <AgentInputForm.Message className="error" />
 */
export const AgentInputFormMessage = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLParagraphElement, AgentInputFormMessageProps>(
    AgentInputFormMessageRender,
  ),
  'AgentInputForm.Message',
);

function AgentInputFormMessageRender(
  { children, className, ...rest }: AgentInputFormMessageProps,
  ref: ForwardedRef<HTMLParagraphElement>,
) {
  const { error, messageId, setShown } = useFieldContext('AgentInputForm.Message');
  const showing = error !== undefined;
  useLayoutEffect(() => {
    if (!showing) return;
    setShown('message', true);
    return () => setShown('message', false);
  }, [showing, setShown]);
  if (!showing) return null;
  return (
    <p
      ref={ref}
      id={messageId}
      className={classNames('ack-input-form__message', className)}
      data-invalid=""
      {...rest}
    >
      {children ?? error}
    </p>
  );
}

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

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * The input form, assembled: every field of the schema and a submit button. Its parts, for a
 * layout of your own: `AgentInputForm.Root`, `.Field`, `.Label`, `.Control`, `.Description`,
 * `.Message`, `.Submit`; each also a named export (`AgentInputFormRoot`, `AgentInputFormField` …)
 * for server components, which cannot reach a part through a dot.
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
