import { QueryClientProvider, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { activityQueryOptions } from '@/features/activity/api/get-activity';
import { activityActorsQueryOptions } from '@/features/activity/api/get-activity-actors';
import { aiSummaryQueryOptions } from '@/features/ai-summaries/api/get-ai-summary';
import { apiKeysQueryOptions } from '@/features/api-keys/api/get-api-keys';
import { chatSessionQueryOptions, chatSessionsQueryOptions } from '@/features/chatbots/api/get-chat-sessions';
import { chatbotQueryOptions } from '@/features/chatbots/api/get-chatbot';
import { chatbotInsightsQueryOptions } from '@/features/chatbots/api/get-chatbot-insights';
import { chatbotsQueryOptions } from '@/features/chatbots/api/get-chatbots';
import { useDeleteCourse } from '@/features/courses/api/delete-course';
import { broadcastsQueryOptions } from '@/features/courses/api/get-broadcasts';
import { courseQueryOptions } from '@/features/courses/api/get-course';
import { courseLearnersQueryOptions } from '@/features/courses/api/get-course-learners';
import { coursesQueryOptions } from '@/features/courses/api/get-courses';
import {
  publicReportQueryOptions,
  reportCatalogQueryOptions,
  reportDataQueryOptions,
  reportQueryOptions,
  reportsQueryOptions,
} from '@/features/custom-reports/api/custom-reports';
import { reportPreviewQueryOptions } from '@/features/custom-reports/api/preview-report';
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard';
import { failedJobsQueryOptions } from '@/features/jobs/api/get-failed-jobs';
import { learnerQueryOptions } from '@/features/learners/api/get-learner';
import { learnerChatbotVariablesQueryOptions } from '@/features/learners/api/get-learner-chatbot-variables';
import { learnerCoursesQueryOptions } from '@/features/learners/api/get-learner-courses';
import { learnerResponsesQueryOptions } from '@/features/learners/api/get-learner-responses';
import {
  learnerCourseVariablesQueryOptions,
  learnerVariablesQueryOptions,
} from '@/features/learners/api/get-learner-variables';
import { learnersQueryOptions } from '@/features/learners/api/get-learners';
import { questionReportQueryOptions } from '@/features/question-reports/api/get-question-report';
import { questionShareQueryOptions } from '@/features/question-reports/api/question-share';
import {
  courseQuestionsQueryOptions,
  questionCoursesQueryOptions,
  questionsQueryOptions,
} from '@/features/questions/api/get-questions';
import { invitationPreviewQueryOptions } from '@/features/team/api/get-invitation-preview';
import { invitationsQueryOptions } from '@/features/team/api/get-invitations';
import { membersQueryOptions } from '@/features/team/api/get-members';
import { variableChartQueryOptions } from '@/features/variable-reports/api/get-variable-chart';
import { variableReportQueryOptions } from '@/features/variable-reports/api/get-variable-report';
import { variableShareQueryOptions } from '@/features/variable-reports/api/variable-share';
import { variableCoursesQueryOptions } from '@/features/variables/api/get-variable-courses';
import { courseVariablesQueryOptions, variablesQueryOptions } from '@/features/variables/api/get-variables';
import { organizationKey } from '@/lib/query-keys';
import { createTestQueryClient, fetchedRequests, jsonResponse, stubFetch } from '@/testing/test-utils';

const COURSE_ID = '33333333-3333-4333-8333-333333333333';
const LEARNER_ID = '44444444-4444-4444-8444-444444444444';
const CHATBOT_ID = '55555555-5555-4555-8555-555555555555';
const list = { q: '', page: 1, order: 'asc' } as const;
const variableList = { ...list, sort: 'name' } as const;
const questionList = { ...list, sort: 'course', active: true } as const;

describe('query keys of the web app', () => {
  it('start every organization query at the organization root', () => {
    const keys: QueryKey[] = [
      coursesQueryOptions('o1', { ...list, sort: 'title' }).queryKey,
      courseQueryOptions('o1', COURSE_ID).queryKey,
      courseLearnersQueryOptions('o1', COURSE_ID, { ...list, sort: 'name' }).queryKey,
      broadcastsQueryOptions('o1', COURSE_ID, 1).queryKey,
      learnersQueryOptions('o1', { ...list, sort: 'name' }).queryKey,
      learnerQueryOptions('o1', LEARNER_ID).queryKey,
      learnerCoursesQueryOptions('o1', LEARNER_ID, { ...list, sort: 'course' }).queryKey,
      learnerVariablesQueryOptions('o1', LEARNER_ID, { ...list, sort: 'name' }).queryKey,
      learnerCourseVariablesQueryOptions('o1', LEARNER_ID, COURSE_ID, { ...list, sort: 'name' }).queryKey,
      learnerResponsesQueryOptions('o1', LEARNER_ID, { ...list, sort: 'answeredAt' }).queryKey,
      learnerChatbotVariablesQueryOptions('o1', LEARNER_ID).queryKey,
      variablesQueryOptions('o1', variableList).queryKey,
      courseVariablesQueryOptions('o1', COURSE_ID, variableList).queryKey,
      variableCoursesQueryOptions('o1').queryKey,
      questionsQueryOptions('o1', questionList).queryKey,
      courseQuestionsQueryOptions('o1', COURSE_ID, questionList).queryKey,
      questionCoursesQueryOptions('o1', true).queryKey,
      dashboardQueryOptions('o1', 30).queryKey,
      activityQueryOptions('o1', { page: 1, pageSize: 25 }).queryKey,
      activityActorsQueryOptions('o1').queryKey,
      reportsQueryOptions('o1', { q: '', page: 1 }).queryKey,
      reportQueryOptions('o1', 'r1').queryKey,
      reportDataQueryOptions('o1', 'r1').queryKey,
      reportCatalogQueryOptions('o1').queryKey,
      reportPreviewQueryOptions('o1', { items: [] }).queryKey,
      aiSummaryQueryOptions('o1', { kind: 'variable', variableId: 'v1' }).queryKey,
      variableReportQueryOptions(
        'o1',
        { kind: 'variable', source: 'course', name: 'score' },
        { ...list, sort: 'value' },
      ).queryKey,
      variableChartQueryOptions('o1', { kind: 'course_variable', courseId: COURSE_ID, name: 'score' }, {})
        .queryKey,
      variableShareQueryOptions('o1', 'v1').queryKey,
      questionReportQueryOptions('o1', { kind: 'question', id: 'q1' }, { ...list, sort: 'answeredAt' })
        .queryKey,
      questionShareQueryOptions('o1', 'q1').queryKey,
      apiKeysQueryOptions('o1').queryKey,
      membersQueryOptions('o1').queryKey,
      invitationsQueryOptions('o1').queryKey,
      failedJobsQueryOptions('o1').queryKey,
      chatbotsQueryOptions('o1', { ...list, sort: 'name' }).queryKey,
      chatbotQueryOptions('o1', CHATBOT_ID).queryKey,
      chatSessionsQueryOptions('o1', CHATBOT_ID, { ...list, sort: 'lastMessageAt', captured: null }).queryKey,
      chatSessionQueryOptions('o1', CHATBOT_ID, 's1').queryKey,
      chatbotInsightsQueryOptions('o1', CHATBOT_ID).queryKey,
    ];
    for (const key of keys) expect(key.slice(0, 2)).toEqual(organizationKey('o1'));
  });

  it('keep views read by a share token outside every organization', () => {
    const keys: QueryKey[] = [
      publicReportQueryOptions('t'.repeat(43)).queryKey,
      invitationPreviewQueryOptions('token').queryKey,
      variableReportQueryOptions(
        'o1',
        { kind: 'shared', source: 'course', courseId: COURSE_ID, name: 'score', token: 't' },
        { ...list, sort: 'value' },
      ).queryKey,
      questionReportQueryOptions(
        'o1',
        { kind: 'shared', id: 'q1', token: 't' },
        { ...list, sort: 'answeredAt' },
      ).queryKey,
    ];
    for (const key of keys) expect(key[0]).toBe('shared');
  });
});

describe('deleting a course', () => {
  it("refetches the organization's lists on screen, drops the course's own queries and marks the rest stale", async () => {
    const fetchMock = stubFetch((url, init) => {
      const { pathname } = new URL(url, 'http://x');
      if (init?.method === 'DELETE') return jsonResponse(200, { id: COURSE_ID, deleted: true });
      if (pathname === `/api/courses/${COURSE_ID}`) return jsonResponse(200, { id: COURSE_ID });
      if (pathname === '/api/variables')
        return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 25 });
      return jsonResponse(200, {});
    });
    const gets = (path: string) =>
      fetchedRequests(fetchMock).filter(
        ({ method, url }) => method === 'GET' && new URL(url, 'http://x').pathname === path,
      ).length;
    const queryClient = createTestQueryClient();
    // On screen: the variables list (it counts the course's variables) and the course's own header.
    const variables = new QueryObserver(queryClient, variablesQueryOptions('o1', variableList));
    const header = new QueryObserver(queryClient, courseQueryOptions('o1', COURSE_ID));
    const stopWatching = [variables.subscribe(() => {}), header.subscribe(() => {})];
    // Cached but not on screen: the dashboard; and another organization's variables.
    await queryClient.prefetchQuery(dashboardQueryOptions('o1', 30));
    queryClient.setQueryData(variablesQueryOptions('o2', variableList).queryKey, {
      items: [],
      total: 0,
      page: 1,
      pageSize: 25,
    });
    await waitFor(() => expect(gets('/api/variables')).toBe(1));
    await waitFor(() => expect(gets(`/api/courses/${COURSE_ID}`)).toBe(1));

    const { result } = renderHook(() => useDeleteCourse('o1'), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      ),
    });
    await act(() =>
      result.current.mutateAsync({
        courseId: COURSE_ID,
        keepLearnerData: false,
        deleteRelatedReports: false,
        removePipelineReferences: false,
      }),
    );

    expect(gets('/api/variables')).toBe(2);
    // The deleted course is not asked for again (it would answer 404).
    expect(gets(`/api/courses/${COURSE_ID}`)).toBe(1);
    expect(queryClient.getQueryState(courseQueryOptions('o1', COURSE_ID).queryKey)).toBeUndefined();
    expect(queryClient.getQueryState(dashboardQueryOptions('o1', 30).queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(variablesQueryOptions('o2', variableList).queryKey)?.isInvalidated).toBe(
      false,
    );
    for (const stop of stopWatching) stop();
  });
});
