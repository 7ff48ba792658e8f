import { LEARNER_VARIABLE_DEFAULT_SORT, LEARNER_VARIABLE_SORT_KEYS } from '@courselens/contracts';
import { ChevronRight, SearchX, Variable } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useListParams } from '@/lib/use-list-params';

import { learnerVariablesPath, useLearnerCourseVariables } from '../api/get-learner-variables';

import { LearnerLayout } from './learner-layout';
import { ListSection } from './list-section';
import { variableColumns } from './variable-columns';

/** `/learner/:learnerId/course/:courseId/variables`: the learner’s latest values in one course. */
export function LearnerCourseVariablesPage() {
  const { learnerId = '', courseId = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useListParams(LEARNER_VARIABLE_SORT_KEYS, LEARNER_VARIABLE_DEFAULT_SORT);
  const variables = useLearnerCourseVariables(session.currentOrganization?.id, learnerId, courseId, params);
  const course = variables.data?.course;
  const isCourseMissing =
    variables.isError && isApiError(variables.error) && variables.error.message === 'Course not found';

  return (
    <LearnerLayout
      learnerId={learnerId}
      tab="courses"
      title={course ? course.courseTitle : 'Course variables'}
    >
      <nav aria-label="Breadcrumb" className="mb-4">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-fg-muted">
          <li>
            <Link
              to={paths.learners.courses.href(learnerId)}
              className="rounded hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-focus"
            >
              Courses
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li aria-current="page" className="font-medium text-fg">
            {course ? course.courseTitle : isCourseMissing ? 'Course not found' : '…'}
          </li>
        </ol>
      </nav>
      {isCourseMissing ? (
        <EmptyState
          icon={<Variable />}
          title="Course not found"
          action={
            <Link
              to={paths.learners.courses.href(learnerId)}
              className={buttonClassName({ variant: 'outline' })}
            >
              Back to the learner’s courses
            </Link>
          }
        >
          The course was deleted or belongs to another organization.
        </EmptyState>
      ) : (
        <>
          <h2 className="mb-4 text-lg font-semibold text-fg">
            Variables{course ? ` in ${course.courseTitle}` : ''}
          </h2>
          <ListSection
            caption={
              course ? `Variables of this learner in ${course.courseTitle}` : 'Variables of this learner'
            }
            searchLabel="Search variables"
            searchPlaceholder="Search by variable name"
            columns={variableColumns(learnerId, { withCourse: false })}
            rowKey={(variable) => variable.variableId}
            params={params}
            onParamsChange={setParams}
            query={variables}
            exportPath={`${learnerVariablesPath(learnerId, courseId)}/export`}
            exportFileName="learner-course-variables.csv"
            noun="variables"
            emptySearch={
              <EmptyState icon={<SearchX />} title={`No variable matches “${params.q}”`}>
                Try part of the variable’s name or title.
              </EmptyState>
            }
            empty={
              <EmptyState icon={<Variable />} title="No variables in this course yet">
                Values appear here when the course sets a variable for this learner.
              </EmptyState>
            }
          />
        </>
      )}
    </LearnerLayout>
  );
}
