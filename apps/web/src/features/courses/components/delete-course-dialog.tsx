import {
  COURSE_DELETION_CHOICES,
  COURSE_MESSAGES,
  courseDeletionErrorMessage,
  type CourseBody,
  type DeleteCourseOptions,
} from '@courselens/contracts';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { getSessionToken } from '@/lib/auth';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';

import { useDeleteCourse } from '../api/delete-course';

/**
 * The choices the dialog offers. Removing pipeline references is left out
 * while pipelines cannot be built in the app: offering to clean up what
 * nobody can have made would promise a feature that is not there yet. The
 * flag is still sent, false (spec section 7: it defaults to false).
 */
export const OFFERED_DELETION_CHOICES = COURSE_DELETION_CHOICES.filter(
  (choice) => choice.key !== 'removePipelineReferences',
);

const NO_CHOICES: DeleteCourseOptions = {
  keepLearnerData: false,
  deleteRelatedReports: false,
  removePipelineReferences: false,
};

/**
 * The message for a failed deletion (spec section 8): the server's own error
 * text, else 'Failed to delete course'; a 401 means the session is gone.
 */
export function deletionFailureMessage(error: unknown): string {
  if (!isApiError(error)) return COURSE_MESSAGES.deleteFailed;
  if (error.status === 401) return COURSE_MESSAGES.noSession;
  const body = error.body as { error?: unknown } | null | undefined;
  const serverText =
    typeof body === 'object' && body !== null && typeof body.error === 'string' ? body.error : null;
  return courseDeletionErrorMessage(serverText);
}

export type DeleteCourseDialogProps = {
  course: CourseBody | null;
  organizationId: string | null | undefined;
  onClose: () => void;
  onDeleted?: (course: CourseBody) => void;
};

/** Confirms a course deletion with its choices (see `OFFERED_DELETION_CHOICES`), all off by default. */
export function DeleteCourseDialog({ course, organizationId, onClose, onDeleted }: DeleteCourseDialogProps) {
  return (
    <Dialog
      open={course !== null}
      onClose={onClose}
      title="Delete course"
      description={
        course ? (
          <>
            Delete <span className="font-medium text-fg">“{course.courseTitle}”</span>? It disappears from
            every list; this cannot be undone.
          </>
        ) : null
      }
    >
      {course ? (
        <DeleteCourseForm
          key={course.id}
          course={course}
          organizationId={organizationId}
          onClose={onClose}
          onDeleted={onDeleted}
        />
      ) : null}
    </Dialog>
  );
}

type DeleteCourseFormProps = {
  course: CourseBody;
  organizationId: string | null | undefined;
  onClose: () => void;
  onDeleted: ((course: CourseBody) => void) | undefined;
};

function DeleteCourseForm({ course, organizationId, onClose, onDeleted }: DeleteCourseFormProps) {
  const [choices, setChoices] = useState<DeleteCourseOptions>(NO_CHOICES);
  const [failure, setFailure] = useState<string | null>(null);
  const deleteCourse = useDeleteCourse(organizationId);

  async function handleDelete() {
    setFailure(null);
    if (!getSessionToken()) {
      setFailure(COURSE_MESSAGES.noSession);
      toast.error(COURSE_MESSAGES.noSession);
      return;
    }
    try {
      await deleteCourse.mutateAsync({ courseId: course.id, ...choices });
      toast.success(`Course “${course.courseTitle}” deleted`);
      onDeleted?.(course);
      onClose();
    } catch (error) {
      const message = deletionFailureMessage(error);
      setFailure(message);
      toast.error(message);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      {!choices.keepLearnerData && course.views > 0 ? (
        <p className="flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-400/10 dark:text-amber-100 dark:ring-amber-400/25 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
          <AlertTriangle aria-hidden="true" />
          <span>
            {formatNumber(course.views)} course {course.views === 1 ? 'run' : 'runs'} of{' '}
            {formatNumber(course.learners)} {course.learners === 1 ? 'learner' : 'learners'} will be deleted
            with their values and responses.
          </span>
        </p>
      ) : null}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-sm font-medium text-fg">Choices</legend>
        {OFFERED_DELETION_CHOICES.map((choice) => (
          <div
            key={choice.key}
            className={cn(
              'flex gap-3 rounded-xl border border-line p-3 transition-colors hover:bg-surface-muted',
              'has-checked:border-brand-500 has-checked:bg-brand-50/60 dark:has-checked:bg-brand-400/10',
              'has-focus-visible:outline-2 has-focus-visible:outline-focus',
            )}
          >
            <input
              type="checkbox"
              id={`delete-course-${choice.key}`}
              name={choice.key}
              checked={choices[choice.key]}
              onChange={(event) => setChoices({ ...choices, [choice.key]: event.target.checked })}
              aria-describedby={`delete-course-${choice.key}-description`}
              className="mt-0.5 size-4 shrink-0 cursor-pointer accent-brand-600 focus:outline-none"
            />
            <div className="flex flex-col">
              <label
                htmlFor={`delete-course-${choice.key}`}
                className="cursor-pointer text-sm font-medium text-fg"
              >
                {choice.label}
              </label>
              <p id={`delete-course-${choice.key}-description`} className="text-sm text-fg-muted">
                {choice.description}
              </p>
            </div>
          </div>
        ))}
      </fieldset>
      {failure ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {failure}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void handleDelete()} isLoading={deleteCourse.isPending}>
          Delete course
        </Button>
      </div>
    </div>
  );
}
