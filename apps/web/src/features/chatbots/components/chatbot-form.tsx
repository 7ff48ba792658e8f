import {
  MAX_AVATAR_LENGTH,
  MAX_CHATBOT_DESCRIPTION_LENGTH,
  MAX_CHATBOT_INSTRUCTIONS_LENGTH,
  MAX_CHATBOT_NAME_LENGTH,
  MAX_WELCOME_MESSAGE_LENGTH,
  type ChatbotInput,
} from '@courselens/contracts';
import { useEffect, useId } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { TextField } from '@/components/ui/text-field';
import { agentColor } from '@/lib/color';
import type { OrganizationIdInput } from '@/lib/query-keys';

import {
  chatbotFormResolver,
  toChatbotInput,
  type ChatbotFormValues,
  type FieldProblem,
} from './chatbot-form-model';
import { ChatPreview } from './chat-preview';
import { errorClassName, FormSection, TextAreaField } from '@/components/ui/form-fields';
import { KnowledgeSection } from './knowledge-section';
import { VariablesSection } from './variables-section';

export type ChatbotFormProps = {
  defaultValues: ChatbotFormValues;
  organizationId: OrganizationIdInput;
  submitLabel: string;
  /** Resolves when saved; returns the problems to show on fields (a 400 of the server) or nothing. */
  onSubmit: (input: ChatbotInput) => Promise<FieldProblem[] | void>;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
};

function LivePreview({ control }: { control: Control<ChatbotFormValues> }) {
  const [name, description, welcomeMessage, color, avatar, active] = useWatch({
    control,
    name: ['name', 'description', 'welcomeMessage', 'color', 'avatar', 'active'],
  });
  return (
    <ChatPreview
      name={name}
      description={description}
      welcomeMessage={welcomeMessage}
      color={color}
      avatar={avatar}
      active={active}
    />
  );
}

/**
 * The agent form: who it is, how it behaves, what it knows, what it asks
 * and how it looks, checked with the contract's rules as you save, with a
 * preview of the chat beside it.
 */
export function ChatbotForm({
  defaultValues,
  organizationId,
  submitLabel,
  onSubmit,
  onCancel,
  onDirtyChange,
}: ChatbotFormProps) {
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty, submitCount },
  } = useForm<ChatbotFormValues>({ resolver: chatbotFormResolver, defaultValues });
  const colorId = useId();
  const activeHintId = useId();
  const [instructions, welcomeMessage, description] = useWatch({
    control,
    name: ['instructions', 'welcomeMessage', 'description'],
  });
  const hasErrors = Object.keys(errors).length > 0;

  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  async function handleValid(values: ChatbotFormValues) {
    const problems = await onSubmit(toChatbotInput(values));
    for (const problem of problems ?? []) {
      setError(problem.field as 'root', { type: 'server', message: problem.message }, { shouldFocus: true });
    }
  }

  return (
    <form
      noValidate
      aria-label="Agent settings"
      onSubmit={(event) => void handleSubmit(handleValid)(event)}
      className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start"
    >
      <div className="flex min-w-0 flex-col gap-6">
        <FormSection title="Basics">
          <TextField
            label="Name"
            autoComplete="off"
            maxLength={MAX_CHATBOT_NAME_LENGTH}
            placeholder="Agent name"
            error={errors.name?.message}
            {...register('name')}
          />
          <TextAreaField
            label="Description"
            labelAside="Optional"
            rows={2}
            placeholder="What the agent is for, shown under its name"
            counter={{ length: description.length, max: MAX_CHATBOT_DESCRIPTION_LENGTH }}
            error={errors.description?.message}
            {...register('description')}
          />
          <Controller
            control={control}
            name="active"
            render={({ field }) => (
              <div className="flex items-center justify-between gap-4 rounded-xl border border-line p-3">
                <div className="flex flex-col gap-0.5 text-sm">
                  <span className="font-medium text-fg">Active</span>
                  <span id={activeHintId} className="text-fg-muted">
                    {field.value
                      ? 'Learners can chat with the agent.'
                      : 'Switched off: the chat page says so and takes no messages.'}
                  </span>
                </div>
                <Switch
                  label="Active"
                  checked={field.value}
                  onChange={field.onChange}
                  describedBy={activeHintId}
                />
              </div>
            )}
          />
        </FormSection>

        <FormSection title="Behaviour" description="How the agent speaks and what it does.">
          <TextAreaField
            label="Instructions"
            rows={8}
            placeholder="Who the agent is, what it helps learners with and what it refuses"
            hint="Say who the agent is (its persona and tone), what it helps learners with, and what it must refuse."
            counter={{ length: instructions.length, max: MAX_CHATBOT_INSTRUCTIONS_LENGTH }}
            error={errors.instructions?.message}
            {...register('instructions')}
          />
          <TextAreaField
            label="Welcome message"
            labelAside="Optional"
            rows={3}
            placeholder="The first message learners read"
            hint="The agent’s first message when a conversation opens."
            counter={{ length: welcomeMessage.length, max: MAX_WELCOME_MESSAGE_LENGTH }}
            error={errors.welcomeMessage?.message}
            {...register('welcomeMessage')}
          />
        </FormSection>

        <KnowledgeSection
          control={control}
          register={register}
          errors={errors}
          organizationId={organizationId}
        />

        <VariablesSection
          control={control}
          register={register}
          errors={errors}
          organizationId={organizationId}
        />

        <FormSection title="Appearance" description="How the agent shows on the chat page and in the bubble.">
          <Controller
            control={control}
            name="color"
            render={({ field }) => (
              <div className="flex flex-col gap-1.5">
                <label htmlFor={colorId} className="text-sm font-medium text-fg">
                  Colour
                </label>
                <div className="flex items-start gap-2">
                  <input
                    type="color"
                    aria-label="Pick a colour"
                    value={agentColor(field.value)}
                    onChange={(event) => field.onChange(event.target.value)}
                    className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line-strong bg-surface p-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
                  />
                  <div className="min-w-0 flex-1 sm:max-w-40">
                    <input
                      id={colorId}
                      ref={field.ref}
                      name={field.name}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      autoComplete="off"
                      spellCheck={false}
                      placeholder="Hex colour"
                      aria-invalid={errors.color ? true : undefined}
                      aria-describedby={errors.color ? `${colorId}-error` : undefined}
                      className="block h-10 w-full rounded-lg border border-line-strong bg-surface px-3 font-mono text-sm text-fg shadow-xs focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-focus aria-invalid:border-rose-500 dark:aria-invalid:border-rose-400"
                    />
                  </div>
                </div>
                {errors.color?.message ? (
                  <p id={`${colorId}-error`} className={errorClassName}>
                    {errors.color.message}
                  </p>
                ) : null}
              </div>
            )}
          />
          <TextField
            label="Avatar"
            labelAside="Optional"
            autoComplete="off"
            maxLength={MAX_AVATAR_LENGTH}
            placeholder="An emoji or initials"
            hint={`Up to ${MAX_AVATAR_LENGTH} characters, such as an emoji or initials. Empty: the name’s first letter.`}
            className="sm:max-w-40"
            error={errors.avatar?.message}
            {...register('avatar')}
          />
          {/* Narrow screens have no column beside the form: the preview sits with the settings it shows. */}
          <div className="lg:hidden">
            <LivePreview control={control} />
          </div>
        </FormSection>

        {errors.root?.message ? (
          <p role="alert" className={errorClassName}>
            {errors.root.message}
          </p>
        ) : null}
        {hasErrors && submitCount > 0 && !errors.root ? (
          <p role="alert" className={errorClassName}>
            Some fields need a change: they are marked in red.
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" isLoading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </div>
      <aside className="hidden min-w-0 flex-col gap-6 lg:sticky lg:top-6 lg:flex">
        <LivePreview control={control} />
      </aside>
    </form>
  );
}
