import { useParams } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { HeaderActions } from '@/components/header-actions';
import { useSession } from '@/lib/auth';

import { useCourseVariables, variableListQuery } from '../api/get-variables';

import { useVariableFilters } from './use-variable-filters';
import { VariablesListView } from './variables-list-view';

/**
 * `/course/:courseId/variables`: one course's variables with usage, active
 * toggle and description. The course layout draws the header (and says when
 * the course does not exist); the export goes into it.
 */
export function CourseVariablesPage() {
  const courseId = useParams().courseId ?? '';
  const organizationId = useSession().currentOrganization?.id;
  const { params, status, updateList, setFilter } = useVariableFilters();
  const listParams = { ...params, courseId: undefined };
  const variables = useCourseVariables(organizationId, courseId, listParams);
  const course = variables.data?.course;
  const fileName = `${(course?.courseTitle ?? 'course').replace(/[^\w.-]+/g, '-')}-variables.csv`;

  return (
    <>
      <HeaderActions>
        <ExportCsvButton
          path={`/courses/${encodeURIComponent(courseId)}/variables/export`}
          query={variableListQuery(listParams, false)}
          fileName={fileName}
        />
      </HeaderActions>
      <VariablesListView
        organizationId={organizationId}
        params={listParams}
        status={status}
        updateList={updateList}
        setFilter={setFilter}
        data={variables.data}
        isPending={variables.isPending}
        isFetching={variables.isFetching}
        error={variables.error}
        isOrganizationWide={false}
      />
    </>
  );
}
