import {
  forwardRef,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import {
  FieldContext,
  useFieldContext,
  useFormContext,
  type FieldContextValue,
} from './agent-input-form-context.js';
import { AgentInputFormControl } from './agent-input-form-control.js';
import { classNames, dataFlag, named } from './part-helpers.js';

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
