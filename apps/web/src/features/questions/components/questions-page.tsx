import { QUESTION_DEFAULT_SORT, QUESTION_SORT_KEYS } from '@courselens/contracts';

import { ExportCsvButton } from '@/components/export-csv-button';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/lib/auth';

import { questionListQuery, useQuestions } from '../api/get-questions';

import { QuestionsListView } from './questions-list-view';
import { useQuestionFilters } from './use-question-filters';

/** `/questions`: the organization's active questions with responses and correct rate. */
export function QuestionsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const { params, updateList, setFilter } = useQuestionFilters(QUESTION_SORT_KEYS, QUESTION_DEFAULT_SORT);
  const questions = useQuestions(organizationId, params);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Questions · CourseLens</title>
      <PageHeader
        title="Questions"
        description="Every quiz question of your courses: how often it is answered, and how often correctly."
        actions={
          <ExportCsvButton
            path="/questions/export"
            query={questionListQuery(params, false)}
            fileName="questions.csv"
          />
        }
      />
      <div className="mt-6">
        <QuestionsListView
          organizationId={organizationId}
          params={params}
          updateList={updateList}
          setFilter={setFilter}
          data={questions.data}
          isPending={questions.isPending}
          isFetching={questions.isFetching}
          error={questions.error}
          isOrganizationWide
        />
      </div>
    </div>
  );
}
