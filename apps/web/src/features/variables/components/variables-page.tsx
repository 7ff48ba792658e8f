import { ExportCsvButton } from '@/components/export-csv-button';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/lib/auth';

import { useVariables, variableListQuery } from '../api/get-variables';

import { useVariableFilters } from './use-variable-filters';
import { VariablesListView } from './variables-list-view';

/** `/variables`: every variable of the organization with its course, type, usage and active flag. */
export function VariablesPage() {
  const organizationId = useSession().currentOrganization?.id;
  const { params, status, updateList, setFilter } = useVariableFilters();
  const variables = useVariables(organizationId, params);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Variables · CourseLens</title>
      <PageHeader
        title="Variables"
        description="What your courses report about learners: how often, by how many, and whether it is in use."
        actions={
          <ExportCsvButton
            path="/variables/export"
            query={variableListQuery(params, false)}
            fileName="variables.csv"
          />
        }
      />
      <div className="mt-6">
        <VariablesListView
          organizationId={organizationId}
          params={params}
          status={status}
          updateList={updateList}
          setFilter={setFilter}
          data={variables.data}
          isPending={variables.isPending}
          isFetching={variables.isFetching}
          error={variables.error}
          isOrganizationWide
        />
      </div>
    </div>
  );
}
