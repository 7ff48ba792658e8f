import { useParams } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

import { useCourseVariables, variableListQuery } from '../api/get-variables';

import { CourseNotFoundMessage, CourseSubPageHeader } from './course-sub-page-header';
import { useVariableFilters } from './use-variable-filters';
import { VariablesListView } from './variables-list-view';

/** `/course/:courseId/variables`: one course's variables with usage, active toggle and description. */
export function CourseVariablesPage() {
  const courseId = useParams().courseId ?? '';
  const organizationId = useSession().currentOrganization?.id;
  const { params, status, updateList, setFilter } = useVariableFilters();
  const listParams = { ...params, courseId: undefined };
  const variables = useCourseVariables(organizationId, courseId, listParams);
  const course = variables.data?.course;
  const fileName = `${(course?.courseTitle ?? 'course').replace(/[^\w.-]+/g, '-')}-variables.csv`;

  if (isApiError(variables.error) && variables.error.status === 404) return <CourseNotFoundMessage />;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${course ? `${course.courseTitle} · ` : ''}Variables · CourseLens`}</title>
      <CourseSubPageHeader
        courseId={courseId}
        course={course}
        actions={
          <ExportCsvButton
            path={`/courses/${encodeURIComponent(courseId)}/variables/export`}
            query={variableListQuery(listParams, false)}
            fileName={fileName}
          />
        }
      />
      <div className="mt-6">
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
      </div>
    </div>
  );
}
