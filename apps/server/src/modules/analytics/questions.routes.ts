import {
  questionAnalysisCoursesResponse,
  questionAnalysisQuery,
  questionAnalysisResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireTenant } from '../../plugins/tenant';
import { getQuestionAnalysis, listQuestionAnalysisCourses } from './questions.service';
import { recentAnalytics } from './recent-analytics';

const tags = ['analytics'];

/** Analytics: question analysis (Moodle's quiz statistics of a course's questions). Every member reads it. */
export const questionsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/analytics/questions',
    {
      schema: {
        tags,
        summary:
          "Quiz statistics of a course's questions: attempts, mean, median, sd, skewness, kurtosis, Cronbach's alpha, error ratio, standard error; per question facility, sd, guess score, weights, discrimination, efficiency, flags and answers",
        querystring: questionAnalysisQuery,
        response: { 200: questionAnalysisResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'questions', request.query, (scope) =>
        getQuestionAnalysis(db, scope, request.query),
      );
    },
  );

  app.get(
    '/api/analytics/questions/courses',
    {
      schema: {
        tags,
        summary: 'The courses question analysis offers, with their questions and whether they have answers',
        response: { 200: questionAnalysisCoursesResponse },
      },
    },
    async (request) => listQuestionAnalysisCourses(db, requireTenant(request).organizationId),
  );
};
