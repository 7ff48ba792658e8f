import { LEARNER_VARIABLE_DEFAULT_SORT, LEARNER_VARIABLE_SORT_KEYS } from '@courselens/contracts';
import { SearchX, Variable } from 'lucide-react';
import { useParams } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { useSession } from '@/lib/auth';
import { useListParams } from '@/lib/use-list-params';

import { learnerVariablesPath, useLearnerVariables } from '../api/get-learner-variables';

import { LearnerChatbotValues } from './learner-chatbot-values';
import { LearnerLayout } from './learner-layout';
import { ListSection } from './list-section';
import { variableColumns } from './variable-columns';

/** `/learner/:learnerId/variables`: the latest value of every variable the learner has. */
export function LearnerVariablesPage() {
  const { learnerId = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useListParams(LEARNER_VARIABLE_SORT_KEYS, LEARNER_VARIABLE_DEFAULT_SORT);
  const variables = useLearnerVariables(session.currentOrganization?.id, learnerId, params);

  return (
    <LearnerLayout learnerId={learnerId} tab="variables" title="Variables">
      <ListSection
        caption="Variables of this learner"
        searchLabel="Search variables"
        searchPlaceholder="Search by variable name"
        columns={variableColumns(learnerId, { withCourse: true })}
        rowKey={(variable) => variable.variableId}
        params={params}
        onParamsChange={setParams}
        query={variables}
        exportPath={`${learnerVariablesPath(learnerId)}/export`}
        exportFileName="learner-variables.csv"
        noun="variables"
        emptySearch={
          <EmptyState icon={<SearchX />} title={`No variable matches “${params.q}”`}>
            Try part of the variable’s name or title.
          </EmptyState>
        }
        empty={
          <EmptyState icon={<Variable />} title="No variables yet">
            Values appear here when a course sets a variable for this learner.
          </EmptyState>
        }
      />
      <LearnerChatbotValues learnerId={learnerId} className="mt-10" />
    </LearnerLayout>
  );
}
