import { createCourseInput, type CourseBody } from '@courselens/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClassName, TextField } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useCreateCourse } from '../api/create-course';
import { useUpdateCourse } from '../api/update-course';

type CourseFormValues = z.input<typeof createCourseInput>;
type CourseFormOutput = z.output<typeof createCourseInput>;

export type CourseFormDialogProps = {
  open: boolean;
  onClose: () => void;
  organizationId: string | null | undefined;
  /** The course to edit; without it the dialog creates one. */
  course?: CourseBody | null;
};

/** Creates or edits a course (title, external id, description) in a dialog. */
export function CourseFormDialog({ open, onClose, organizationId, course }: CourseFormDialogProps) {
  const isEditing = Boolean(course);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={isEditing ? 'Edit course' : 'Create a course'}
      description={
        isEditing
          ? 'Change how the course is named and identified.'
          : 'Courses also register themselves when they first send data with an ingest key.'
      }
    >
      {/* Keyed so each opening starts from the course's current values. */}
      <CourseForm
        key={course?.id ?? 'new'}
        organizationId={organizationId}
        course={course ?? null}
        onDone={onClose}
      />
    </Dialog>
  );
}

type CourseFormProps = {
  organizationId: string | null | undefined;
  course: CourseBody | null;
  onDone: () => void;
};

function CourseForm({ organizationId, course, onDone }: CourseFormProps) {
  const createCourse = useCreateCourse(organizationId);
  const updateCourse = useUpdateCourse(organizationId);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CourseFormValues, unknown, CourseFormOutput>({
    resolver: zodResolver(createCourseInput),
    defaultValues: {
      courseTitle: course?.courseTitle ?? '',
      externalCourseId: course?.externalCourseId ?? '',
      description: course?.description ?? '',
    },
  });

  async function handleValidSubmit(values: CourseFormOutput) {
    try {
      if (course) {
        await updateCourse.mutateAsync({ courseId: course.id, ...values });
        toast.success(`Course “${values.courseTitle}” saved`);
      } else {
        await createCourse.mutateAsync(values);
        toast.success(`Course “${values.courseTitle}” created`);
      }
      onDone();
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
      if (isApiError(error) && error.status === 409) {
        setError('externalCourseId', { type: 'server', message });
      } else if (isApiError(error) && error.status === 400 && /title/i.test(message)) {
        setError('courseTitle', { type: 'server', message });
      } else {
        toast.error(message);
      }
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(handleValidSubmit)(event)}
      className="flex flex-col gap-5"
    >
      <TextField
        label="Title"
        placeholder="Course title"
        autoComplete="off"
        data-autofocus
        error={errors.courseTitle?.message}
        {...register('courseTitle')}
      />
      <TextField
        label="External course ID"
        labelAside="Optional"
        placeholder="Course ID in your authoring tool"
        autoComplete="off"
        spellCheck={false}
        hint="The id your course sends with its data; unique among your courses."
        error={errors.externalCourseId?.message}
        {...register('externalCourseId')}
      />
      <div className="flex flex-col gap-1.5">
        <div className="flex items-baseline justify-between gap-2">
          <label htmlFor="course-description" className="text-sm font-medium text-fg">
            Description
          </label>
          <span className="text-xs text-fg-subtle">Optional</span>
        </div>
        <textarea
          id="course-description"
          rows={3}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? 'course-description-error' : undefined}
          className={cn(inputClassName, 'h-auto py-2')}
          {...register('description')}
        />
        {errors.description ? (
          <p id="course-description-error" className="text-sm text-rose-600 dark:text-rose-400">
            {errors.description.message}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {course ? 'Save changes' : 'Create course'}
        </Button>
      </div>
    </form>
  );
}
