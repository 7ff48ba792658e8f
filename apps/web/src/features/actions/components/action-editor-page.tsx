import {
  SAMPLE_ACTION_EVENT,
  type ActionBody,
  type ActionInput,
  type ActionType,
  type CreatedAction,
} from '@courselens/contracts';
import { ArrowLeft, KeyRound, RotateCcw, SearchX, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { PageMessage } from '@/components/page-message';
import { Button, buttonClassName } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';

import { useCreateAction } from '../api/create-action';
import { useAction } from '../api/get-action';
import { useCourseOptions } from '@/lib/course-options';
import { useRotateActionSecret } from '../api/rotate-action-secret';
import { useUpdateAction } from '../api/update-action';

import { ActionForm } from './action-form';
import { emptyFormValues, formValuesFromAction, serverErrorsOf } from './action-form-model';
import { ActionTypeBadge } from './action-type-badge';
import { DeleteActionDialog } from './delete-action-dialog';
import { SecretDialog } from './secret-dialog';
import { TestPanel } from './test-panel';

const pageClassName = 'mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8';

function BackToActions() {
  return (
    <Link
      to={paths.actions.list.href()}
      className="inline-flex items-center gap-1.5 self-start rounded text-sm text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-4"
    >
      <ArrowLeft aria-hidden="true" />
      Actions
    </Link>
  );
}

/** The event previews and tests use, as a reference beside the form. */
function SampleEventCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Sample event</CardTitle>
        <CardDescription>
          Previews and tests use this event. In a pipeline, the action gets the real one.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <pre
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
          tabIndex={0}
          aria-label="Sample event"
          className="max-h-80 overflow-auto rounded-lg bg-surface-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap text-fg focus-visible:outline-2 focus-visible:outline-focus"
        >
          {JSON.stringify(SAMPLE_ACTION_EVENT, null, 2)}
        </pre>
      </CardContent>
    </Card>
  );
}

/** Problems a 400 names on fields go on the fields; anything else is a toast. */
function handleSaveError(error: unknown, type: ActionType): { field: string; message: string }[] {
  if (isApiError(error) && error.status === 400 && error.issues.length > 0) {
    const problems = serverErrorsOf(type, error.issues);
    if (problems.some((problem) => problem.field !== 'root')) return problems;
  }
  toast.error(isApiError(error) ? error.message : 'The action could not be saved. Please try again.');
  return [];
}

/** `/actions/create`: the form; a webhook's signing secret is shown once after saving. */
export function CreateActionPage() {
  const organization = useSession().currentOrganization;
  const organizationId = organization?.id;
  const create = useCreateAction(organizationId);
  const courses = useCourseOptions(organizationId);
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedAction | null>(null);

  async function handleSubmit(input: ActionInput) {
    try {
      const action = await create.mutateAsync(input);
      toast.success(`Action “${action.name}” created`);
      if (action.secret) setCreated(action);
      else void navigate(paths.actions.edit.href(action.id));
      return [];
    } catch (error) {
      return handleSaveError(error, input.config.type);
    }
  }

  return (
    <div className={pageClassName}>
      <title>Create action · CourseLens</title>
      <BackToActions />
      <PageHeader title="Create action" description="A reusable step your pipelines can run." />
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <ActionForm
          defaultValues={emptyFormValues()}
          isEditing={false}
          organizationName={organization?.name ?? null}
          courses={courses.data}
          submitLabel="Create action"
          onSubmit={handleSubmit}
          onCancel={() => void navigate(paths.actions.list.href())}
        />
        <aside className="flex min-w-0 flex-col gap-6">
          <SampleEventCard />
        </aside>
      </div>
      <SecretDialog
        secret={created?.secret ?? null}
        actionName={created?.name ?? ''}
        onDone={() => {
          if (created) void navigate(paths.actions.edit.href(created.id));
          setCreated(null);
        }}
      />
    </div>
  );
}

function SigningSecretCard({
  action,
  organizationId,
}: {
  action: ActionBody;
  organizationId: string | undefined;
}) {
  const rotate = useRotateActionSecret(organizationId, action.id);
  const [isConfirming, setIsConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  async function handleRotate() {
    try {
      const rotated = await rotate.mutateAsync();
      setIsConfirming(false);
      setSecret(rotated.secret);
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The secret could not be rotated. Please try again.');
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-4 text-fg-muted" />
          Signing secret
        </CardTitle>
        <CardDescription>Receivers check each request’s signature with it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="font-mono text-sm text-fg" aria-label="Start of the signing secret">
          {action.secretHint}
        </p>
        <Button variant="outline" onClick={() => setIsConfirming(true)} className="self-start">
          <RotateCcw aria-hidden="true" />
          Rotate secret
        </Button>
      </CardContent>
      <Dialog
        open={isConfirming}
        onClose={() => setIsConfirming(false)}
        title="Rotate the signing secret?"
        description="A new secret is made and shown once. The current one stops signing at once: receivers need the new one."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setIsConfirming(false)}>
            Cancel
          </Button>
          <Button onClick={() => void handleRotate()} isLoading={rotate.isPending}>
            Rotate secret
          </Button>
        </div>
      </Dialog>
      <SecretDialog secret={secret} actionName={action.name} isRotation onDone={() => setSecret(null)} />
    </Card>
  );
}

function ActionFacts({ action }: { action: ActionBody }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Details</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-fg-muted">Type</dt>
          <dd>
            <ActionTypeBadge type={action.type} />
          </dd>
          <dt className="text-fg-muted">Used by</dt>
          <dd className="text-fg">
            {formatNumber(action.usedByPipelines)} {action.usedByPipelines === 1 ? 'pipeline' : 'pipelines'}
          </dd>
          <dt className="text-fg-muted">Created</dt>
          <dd className="text-fg">
            {formatDateTime(action.createdAt)}
            {action.createdByName ? <span className="text-fg-muted"> by {action.createdByName}</span> : null}
          </dd>
          <dt className="text-fg-muted">Updated</dt>
          <dd className="text-fg">{formatDateTime(action.updatedAt)}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}

/** `/actions/edit/:id`: the form filled in, the signing secret, "Send test", and delete. */
export function EditActionPage() {
  const { id = '' } = useParams();
  const organization = useSession().currentOrganization;
  const organizationId = organization?.id;
  const action = useAction(organizationId, id);
  const courses = useCourseOptions(organizationId);
  const update = useUpdateAction(organizationId);
  const navigate = useNavigate();
  const [isDirty, setIsDirty] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const handleDirtyChange = useCallback((dirty: boolean) => setIsDirty(dirty), []);

  if (action.isPending) {
    return (
      <div className={pageClassName}>
        <title>Edit action · CourseLens</title>
        <div className="flex justify-center py-20 text-accent">
          <Spinner label="Loading the action" />
        </div>
      </div>
    );
  }
  if (action.isError) {
    const isMissing = isApiError(action.error) && action.error.status === 404;
    return (
      <PageMessage
        icon={<SearchX />}
        title={isMissing ? 'Action not found' : 'The action could not be loaded'}
        actions={
          <Link to={paths.actions.list.href()} className={buttonClassName()}>
            Back to actions
          </Link>
        }
      >
        {isMissing
          ? 'It may have been deleted, or it belongs to another organization.'
          : action.error.message}
      </PageMessage>
    );
  }

  const saved = action.data;

  async function handleSubmit(input: ActionInput) {
    try {
      const updated = await update.mutateAsync({ actionId: saved.id, input });
      toast.success(`Action “${updated.name}” saved`);
      // The form starts again from what was saved (stored secrets stay stored).
      setIsDirty(false);
      return [];
    } catch (error) {
      return handleSaveError(error, input.config.type);
    }
  }

  return (
    <div className={pageClassName}>
      <title>{`${saved.name} · Actions · CourseLens`}</title>
      <BackToActions />
      <PageHeader
        title={saved.name}
        // A URL has no place to wrap: it may break anywhere rather than widen the page.
        description={<span className="break-all">{saved.target}</span>}
        actions={
          <Button variant="outline" onClick={() => setIsDeleting(true)}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        }
      />
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <div className="flex min-w-0 flex-col gap-6">
          <ActionForm
            // A new form after each save: stored secret headers show as stored again.
            key={saved.updatedAt}
            defaultValues={formValuesFromAction(saved)}
            isEditing
            organizationName={organization?.name ?? null}
            courses={courses.data}
            submitLabel="Save changes"
            onSubmit={handleSubmit}
            onCancel={() => void navigate(paths.actions.list.href())}
            onDirtyChange={handleDirtyChange}
          />
          <TestPanel actionId={saved.id} type={saved.type} hasUnsavedChanges={isDirty} />
        </div>
        <aside className="flex min-w-0 flex-col gap-6">
          <ActionFacts action={saved} />
          {saved.type === 'webhook' ? (
            <SigningSecretCard action={saved} organizationId={organizationId} />
          ) : null}
          <SampleEventCard />
        </aside>
      </div>
      <DeleteActionDialog
        action={isDeleting ? saved : null}
        organizationId={organizationId}
        onClose={() => setIsDeleting(false)}
        onDeleted={() => void navigate(paths.actions.list.href())}
      />
    </div>
  );
}
