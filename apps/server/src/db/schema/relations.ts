import { relations } from 'drizzle-orm';
import { activityEvents } from './activity';
import { apiKeys } from './api-keys';
import { authAccounts, authSessions, authUsers } from './auth';
import {
  chatMessages,
  chatSessions,
  chatbotVariableMappings,
  chatbotVariables,
  chatbots,
  learnerChatbotVariableValues,
} from './chatbots';
import { broadcasts, courseRuns, courses } from './courses';
import { learners } from './learners';
import { invitations, organizations, userOrganizations, users } from './organizations';
import { pipelines } from './pipelines';
import { courseRunQuestions, questions } from './questions';
import { customReportItems, customReports } from './reports';
import { sharedViews } from './shared-views';
import { courseVariableMappings, learnerVariableValues, variables } from './variables';

// Relations for Drizzle's relational query API (`db.query.courses.findMany({ with: ... })`).
// Kept apart from the tables so the domain files import each other in one direction only.

export const authUsersRelations = relations(authUsers, ({ many, one }) => ({
  sessions: many(authSessions),
  accounts: many(authAccounts),
  profile: one(users, { fields: [authUsers.id], references: [users.userId] }),
  memberships: many(userOrganizations),
}));

export const authSessionsRelations = relations(authSessions, ({ one }) => ({
  user: one(authUsers, { fields: [authSessions.userId], references: [authUsers.id] }),
}));

export const authAccountsRelations = relations(authAccounts, ({ one }) => ({
  user: one(authUsers, { fields: [authAccounts.userId], references: [authUsers.id] }),
}));

export const organizationsRelations = relations(organizations, ({ many, one }) => ({
  owner: one(authUsers, { fields: [organizations.ownerId], references: [authUsers.id] }),
  memberships: many(userOrganizations),
  invitations: many(invitations),
  apiKeys: many(apiKeys),
  courses: many(courses),
  learners: many(learners),
  pipelines: many(pipelines),
  chatbots: many(chatbots),
  customReports: many(customReports),
  activity: many(activityEvents),
}));

export const usersRelations = relations(users, ({ one }) => ({
  authUser: one(authUsers, { fields: [users.userId], references: [authUsers.id] }),
  organization: one(organizations, { fields: [users.organizationId], references: [organizations.id] }),
}));

export const userOrganizationsRelations = relations(userOrganizations, ({ one }) => ({
  user: one(authUsers, { fields: [userOrganizations.userId], references: [authUsers.id] }),
  organization: one(organizations, {
    fields: [userOrganizations.organizationId],
    references: [organizations.id],
  }),
}));

export const invitationsRelations = relations(invitations, ({ one }) => ({
  organization: one(organizations, { fields: [invitations.organizationId], references: [organizations.id] }),
  inviter: one(authUsers, {
    fields: [invitations.inviterId],
    references: [authUsers.id],
    relationName: 'invitation_inviter',
  }),
  acceptedByUser: one(authUsers, {
    fields: [invitations.acceptedBy],
    references: [authUsers.id],
    relationName: 'invitation_accepted_by',
  }),
}));

export const apiKeysRelations = relations(apiKeys, ({ one }) => ({
  organization: one(organizations, { fields: [apiKeys.organizationId], references: [organizations.id] }),
  creator: one(authUsers, { fields: [apiKeys.createdBy], references: [authUsers.id] }),
}));

export const coursesRelations = relations(courses, ({ many, one }) => ({
  organization: one(organizations, { fields: [courses.organizationId], references: [organizations.id] }),
  runs: many(courseRuns),
  variables: many(variables),
  questions: many(questions),
  broadcasts: many(broadcasts),
}));

export const broadcastsRelations = relations(broadcasts, ({ one }) => ({
  course: one(courses, { fields: [broadcasts.courseId], references: [courses.id] }),
  author: one(authUsers, { fields: [broadcasts.authorId], references: [authUsers.id] }),
}));

export const learnersRelations = relations(learners, ({ many, one }) => ({
  organization: one(organizations, { fields: [learners.organizationId], references: [organizations.id] }),
  runs: many(courseRuns),
  values: many(learnerVariableValues),
  responses: many(courseRunQuestions),
}));

export const courseRunsRelations = relations(courseRuns, ({ many, one }) => ({
  course: one(courses, { fields: [courseRuns.courseId], references: [courses.id] }),
  learner: one(learners, { fields: [courseRuns.learnerId], references: [learners.id] }),
  values: many(learnerVariableValues),
  responses: many(courseRunQuestions),
}));

export const variablesRelations = relations(variables, ({ many, one }) => ({
  course: one(courses, { fields: [variables.courseId], references: [courses.id] }),
  values: many(learnerVariableValues),
}));

export const learnerVariableValuesRelations = relations(learnerVariableValues, ({ one }) => ({
  variable: one(variables, { fields: [learnerVariableValues.variableId], references: [variables.id] }),
  learner: one(learners, { fields: [learnerVariableValues.learnerId], references: [learners.id] }),
  course: one(courses, { fields: [learnerVariableValues.courseId], references: [courses.id] }),
  courseRun: one(courseRuns, { fields: [learnerVariableValues.courseRunId], references: [courseRuns.id] }),
}));

export const courseVariableMappingsRelations = relations(courseVariableMappings, ({ one }) => ({
  course: one(courses, { fields: [courseVariableMappings.courseId], references: [courses.id] }),
  destination: one(variables, {
    fields: [courseVariableMappings.destinationVariableId],
    references: [variables.id],
  }),
}));

export const questionsRelations = relations(questions, ({ many, one }) => ({
  course: one(courses, { fields: [questions.courseId], references: [courses.id] }),
  responses: many(courseRunQuestions),
}));

export const courseRunQuestionsRelations = relations(courseRunQuestions, ({ one }) => ({
  question: one(questions, { fields: [courseRunQuestions.questionId], references: [questions.id] }),
  learner: one(learners, { fields: [courseRunQuestions.learnerId], references: [learners.id] }),
  course: one(courses, { fields: [courseRunQuestions.courseId], references: [courses.id] }),
  courseRun: one(courseRuns, { fields: [courseRunQuestions.courseRunId], references: [courseRuns.id] }),
}));

export const customReportsRelations = relations(customReports, ({ many, one }) => ({
  organization: one(organizations, {
    fields: [customReports.organizationId],
    references: [organizations.id],
  }),
  creator: one(authUsers, { fields: [customReports.createdBy], references: [authUsers.id] }),
  items: many(customReportItems),
}));

export const customReportItemsRelations = relations(customReportItems, ({ one }) => ({
  report: one(customReports, { fields: [customReportItems.reportId], references: [customReports.id] }),
}));

export const sharedViewsRelations = relations(sharedViews, ({ one }) => ({
  variable: one(variables, { fields: [sharedViews.variableId], references: [variables.id] }),
  question: one(questions, { fields: [sharedViews.questionId], references: [questions.id] }),
  chatbotVariable: one(chatbotVariables, {
    fields: [sharedViews.chatbotVariableId],
    references: [chatbotVariables.id],
  }),
}));

export const chatbotsRelations = relations(chatbots, ({ many, one }) => ({
  organization: one(organizations, { fields: [chatbots.organizationId], references: [organizations.id] }),
  variables: many(chatbotVariables),
  sessions: many(chatSessions),
}));

export const chatbotVariablesRelations = relations(chatbotVariables, ({ many, one }) => ({
  chatbot: one(chatbots, { fields: [chatbotVariables.chatbotId], references: [chatbots.id] }),
  values: many(learnerChatbotVariableValues),
  mappings: many(chatbotVariableMappings),
}));

export const learnerChatbotVariableValuesRelations = relations(learnerChatbotVariableValues, ({ one }) => ({
  chatbotVariable: one(chatbotVariables, {
    fields: [learnerChatbotVariableValues.chatbotVariableId],
    references: [chatbotVariables.id],
  }),
  learner: one(learners, { fields: [learnerChatbotVariableValues.learnerId], references: [learners.id] }),
  chatSession: one(chatSessions, {
    fields: [learnerChatbotVariableValues.chatSessionId],
    references: [chatSessions.id],
  }),
}));

export const chatSessionsRelations = relations(chatSessions, ({ many, one }) => ({
  chatbot: one(chatbots, { fields: [chatSessions.chatbotId], references: [chatbots.id] }),
  learner: one(learners, { fields: [chatSessions.learnerId], references: [learners.id] }),
  messages: many(chatMessages),
}));

export const chatMessagesRelations = relations(chatMessages, ({ one }) => ({
  session: one(chatSessions, { fields: [chatMessages.sessionId], references: [chatSessions.id] }),
}));

export const chatbotVariableMappingsRelations = relations(chatbotVariableMappings, ({ one }) => ({
  chatbotVariable: one(chatbotVariables, {
    fields: [chatbotVariableMappings.chatbotVariableId],
    references: [chatbotVariables.id],
  }),
  destination: one(variables, {
    fields: [chatbotVariableMappings.destinationVariableId],
    references: [variables.id],
  }),
}));

export const pipelinesRelations = relations(pipelines, ({ one }) => ({
  organization: one(organizations, { fields: [pipelines.organizationId], references: [organizations.id] }),
}));

export const activityEventsRelations = relations(activityEvents, ({ one }) => ({
  organization: one(organizations, {
    fields: [activityEvents.organizationId],
    references: [organizations.id],
  }),
  actor: one(authUsers, { fields: [activityEvents.actorUserId], references: [authUsers.id] }),
}));
