/**
 * Messages of the learning data (courses, learners, variables, questions),
 * shared by the server and the web app. The spec's own texts are verbatim.
 */
export const LEARNING_MESSAGES = {
  courseNotFound: 'Course not found',
  learnerNotFound: 'Learner not found',
  variableNotFound: 'Variable not found',
  questionNotFound: 'Question not found',
} as const;
