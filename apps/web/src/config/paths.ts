/**
 * Every route path of the web app, defined once (spec section 2). Routes
 * register `path`; links call `href(...)`, so no URL string is typed twice.
 */

const enc = encodeURIComponent;

/** A report of a variable or question is shown three ways. */
export const reportViews = ['report', 'chart', 'leaders'] as const;
export type ReportView = (typeof reportViews)[number];

export const paths = {
  home: { path: '/', href: () => '/' },
  dashboard: { path: '/dashboard', href: () => '/dashboard' },
  features: { path: '/features', href: () => '/features' },
  solutions: { path: '/solutions', href: () => '/solutions' },
  pricing: { path: '/pricing', href: () => '/pricing' },
  subscribe: { path: '/subscribe', href: () => '/subscribe' },
  blog: {
    list: { path: '/blog', href: () => '/blog' },
    article: { path: '/blog/:id', href: (id: string) => `/blog/${enc(id)}` },
  },
  auth: {
    login: {
      path: '/login',
      /** `redirectTo` brings the visitor back to where they were after signing in. */
      href: (redirectTo?: string | null) => (redirectTo ? `/login?redirectTo=${enc(redirectTo)}` : '/login'),
    },
    signup: { path: '/signup', href: () => '/signup' },
    signupSuccess: { path: '/signup-success', href: () => '/signup-success' },
    teamSignup: {
      path: '/team-signup',
      href: (token?: string) => (token ? `/team-signup?token=${enc(token)}` : '/team-signup'),
    },
  },
  pipelines: {
    list: { path: '/pipelines', href: () => '/pipelines' },
    aiGenerator: { path: '/pipelines/ai-generator', href: () => '/pipelines/ai-generator' },
    editor: { path: '/pipeline/:id', href: (id: string) => `/pipeline/${enc(id)}` },
  },
  actions: {
    list: { path: '/actions', href: () => '/actions' },
    create: { path: '/actions/create', href: () => '/actions/create' },
    edit: { path: '/actions/edit/:id', href: (id: string) => `/actions/edit/${enc(id)}` },
  },
  variables: {
    list: { path: '/variables', href: () => '/variables' },
    report: {
      path: '/variables/:variable/:view',
      href: (variable: string, view: ReportView = 'report') => `/variables/${enc(variable)}/${view}`,
    },
    courseReport: {
      path: '/course/:courseId/variable/:variableName/:view',
      href: (courseId: string, variableName: string, view: ReportView = 'report') =>
        `/course/${enc(courseId)}/variable/${enc(variableName)}/${view}`,
    },
    chatbotReport: {
      path: '/chatbot/:variableName/:view',
      href: (variableName: string, view: ReportView = 'report') => `/chatbot/${enc(variableName)}/${view}`,
    },
    aiSummary: {
      path: '/variable/:variableId/:variableType/ai-summary',
      href: (variableId: string, variableType: string) =>
        `/variable/${enc(variableId)}/${enc(variableType)}/ai-summary`,
    },
    courseAiSummary: {
      path: '/course/:courseId/variable/:variableName/ai-summary',
      href: (courseId: string, variableName: string) =>
        `/course/${enc(courseId)}/variable/${enc(variableName)}/ai-summary`,
    },
    chatbotAiSummary: {
      path: '/chatbot/:variableName/ai-summary',
      href: (variableName: string) => `/chatbot/${enc(variableName)}/ai-summary`,
    },
  },
  chatbots: {
    list: { path: '/chatbots', href: () => '/chatbots' },
    create: { path: '/chatbots/create', href: () => '/chatbots/create' },
    edit: { path: '/chatbots/edit/:id', href: (id: string) => `/chatbots/edit/${enc(id)}` },
    chat: { path: '/chat/:id', href: (id: string) => `/chat/${enc(id)}` },
  },
  organization: {
    settings: { path: '/organization/settings', href: () => '/organization/settings' },
    create: { path: '/create-organization', href: () => '/create-organization' },
  },
  profile: { path: '/profile/update', href: () => '/profile/update' },
  billing: { path: '/billing', href: () => '/billing' },
  questions: {
    list: { path: '/questions', href: () => '/questions' },
    report: {
      path: '/questions/:id/:view',
      href: (id: string, view: ReportView = 'report') => `/questions/${enc(id)}/${view}`,
    },
  },
  learners: {
    list: { path: '/learners', href: () => '/learners' },
    courses: { path: '/learner/:learnerId/courses', href: (id: string) => `/learner/${enc(id)}/courses` },
    variables: {
      path: '/learner/:learnerId/variables',
      href: (id: string) => `/learner/${enc(id)}/variables`,
    },
    responses: {
      path: '/learner/:learnerId/responses',
      href: (id: string) => `/learner/${enc(id)}/responses`,
    },
    courseVariables: {
      path: '/learner/:learnerId/course/:courseId/variables',
      href: (learnerId: string, courseId: string) =>
        `/learner/${enc(learnerId)}/course/${enc(courseId)}/variables`,
    },
  },
  courses: {
    list: { path: '/courses', href: () => '/courses' },
    learners: { path: '/course/:courseId/learners', href: (id: string) => `/course/${enc(id)}/learners` },
    variables: { path: '/course/:courseId/variables', href: (id: string) => `/course/${enc(id)}/variables` },
    questions: { path: '/course/:courseId/questions', href: (id: string) => `/course/${enc(id)}/questions` },
    broadcasts: {
      path: '/courses/:courseId/broadcasts',
      href: (id: string, title?: string) =>
        `/courses/${enc(id)}/broadcasts${title ? `?title=${enc(title)}` : ''}`,
    },
  },
  customReports: {
    list: { path: '/custom-reports', href: () => '/custom-reports' },
    create: { path: '/custom-reports/create', href: () => '/custom-reports/create' },
    aiGenerator: { path: '/custom-reports/ai-generator', href: () => '/custom-reports/ai-generator' },
    edit: { path: '/custom-reports/edit/:id', href: (id: string) => `/custom-reports/edit/${enc(id)}` },
    view: { path: '/custom-reports/view/:id', href: (id: string) => `/custom-reports/view/${enc(id)}` },
    public: { path: '/public-reports/:token', href: (token: string) => `/public-reports/${enc(token)}` },
  },
  analytics: {
    overview: { path: '/analytics', href: () => '/analytics' },
    funnels: { path: '/analytics/funnels', href: () => '/analytics/funnels' },
    heatmaps: { path: '/analytics/heatmaps', href: () => '/analytics/heatmaps' },
    questions: { path: '/analytics/questions', href: () => '/analytics/questions' },
    learningPaths: { path: '/analytics/learning-paths', href: () => '/analytics/learning-paths' },
    insights: { path: '/analytics/insights', href: () => '/analytics/insights' },
    settings: { path: '/analytics/settings', href: () => '/analytics/settings' },
  },
  activity: { path: '/activity', href: () => '/activity' },
  shared: {
    courseVariable: {
      path: '/shared/course/:courseId/variable/:variableName/:view',
      href: (courseId: string, variableName: string, view: ReportView = 'report') =>
        `/shared/course/${enc(courseId)}/variable/${enc(variableName)}/${view}`,
    },
    chatbotVariable: {
      path: '/shared/chatbot/:variableName/:view',
      href: (variableName: string, view: ReportView = 'report') =>
        `/shared/chatbot/${enc(variableName)}/${view}`,
    },
    question: {
      path: '/shared/questions/:id/:view',
      href: (id: string, view: ReportView = 'report') => `/shared/questions/${enc(id)}/${view}`,
    },
  },
  /** Served by the API server (product docs and the API reference), not by the SPA. */
  docs: { path: '/docs/', href: () => '/docs/' },
  notFound: { path: '*' },
} as const;
