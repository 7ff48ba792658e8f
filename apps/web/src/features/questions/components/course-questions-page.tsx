import { COURSE_QUESTION_DEFAULT_SORT, QUESTION_SORT_KEYS } from '@courselens/contracts';
import { useParams } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

import { questionListQuery, useCourseQuestions } from '../api/get-questions';

import { CourseNotFoundMessage, CourseSubPageHeader } from './course-sub-page-header';
import { QuestionsListView } from './questions-list-view';
import { useQuestionFilters } from './use-question-filters';

/** `/course/:courseId/questions`: one course's questions in slide order with their totals. */
export function CourseQuestionsPage() {
  const courseId = useParams().courseId ?? '';
  const organizationId = useSession().currentOrganization?.id;
  const { params, updateList, setFilter } = useQuestionFilters(
    QUESTION_SORT_KEYS,
    COURSE_QUESTION_DEFAULT_SORT,
  );
  const listParams = { ...params, courseId: undefined };
  const questions = useCourseQuestions(organizationId, courseId, listParams);
  const course = questions.data?.course;
  const fileName = `${(course?.courseTitle ?? 'course').replace(/[^\w.-]+/g, '-')}-questions.csv`;

  if (isApiError(questions.error) && questions.error.status === 404) return <CourseNotFoundMessage />;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${course ? `${course.courseTitle} · ` : ''}Questions · CourseLens`}</title>
      <CourseSubPageHeader
        courseId={courseId}
        course={course}
        actions={
          <ExportCsvButton
            path={`/courses/${encodeURIComponent(courseId)}/questions/export`}
            query={questionListQuery(listParams, false)}
            fileName={fileName}
          />
        }
      />
      <div className="mt-6">
        <QuestionsListView
          organizationId={organizationId}
          params={listParams}
          updateList={updateList}
          setFilter={setFilter}
          data={questions.data}
          isPending={questions.isPending}
          isFetching={questions.isFetching}
          error={questions.error}
          isOrganizationWide={false}
        />
      </div>
    </div>
  );
}
