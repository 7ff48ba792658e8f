import { COURSE_QUESTION_DEFAULT_SORT, QUESTION_SORT_KEYS } from '@courselens/contracts';
import { useParams } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { HeaderActions } from '@/components/header-actions';
import { useSession } from '@/lib/auth';

import { questionListQuery, useCourseQuestions } from '../api/get-questions';

import { QuestionsListView } from './questions-list-view';
import { useQuestionFilters } from './use-question-filters';

/**
 * `/course/:courseId/questions`: one course's questions in slide order with
 * their totals. The course layout draws the header (and says when the course
 * does not exist); the export goes into it.
 */
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

  return (
    <>
      <HeaderActions>
        <ExportCsvButton
          path={`/courses/${encodeURIComponent(courseId)}/questions/export`}
          query={questionListQuery(listParams, false)}
          fileName={fileName}
        />
      </HeaderActions>
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
    </>
  );
}
