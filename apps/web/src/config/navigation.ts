import {
  Activity,
  BarChart3,
  BookOpen,
  BookText,
  House,
  Lightbulb,
  LogIn,
  Newspaper,
  Sparkles,
  Tag,
  UserPlus,
  Bot,
  CreditCard,
  FileChartColumn,
  GraduationCap,
  LayoutDashboard,
  LifeBuoy,
  ListChecks,
  Settings,
  Users,
  Variable,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

import { paths } from './paths';

export type NavigationItem = {
  label: string;
  href: string;
  /** `/docs/` is served by the API server: a plain link, not a router link. */
  isExternal?: boolean;
};

export type AppNavigationItem = NavigationItem & { icon: LucideIcon };

/** Visitor navigation, spec section 2: /features, /solutions, /pricing, /blog, /docs/, /login, /signup, and / as home. */
export const visitorNavigation: readonly AppNavigationItem[] = [
  { label: 'Home', href: paths.home.href(), icon: House },
  { label: 'Features', href: paths.features.href(), icon: Sparkles },
  { label: 'Solutions', href: paths.solutions.href(), icon: Lightbulb },
  { label: 'Pricing', href: paths.pricing.href(), icon: Tag },
  { label: 'Blog', href: paths.blog.list.href(), icon: Newspaper },
  { label: 'Docs', href: paths.docs.href(), icon: BookText, isExternal: true },
  { label: 'Sign in', href: paths.auth.login.href(), icon: LogIn },
  { label: 'Sign up', href: paths.auth.signup.href(), icon: UserPlus },
];

/**
 * Signed-in navigation, spec section 2 (paths) with the labels of section 1.
 * Profile is reached from the user block of the sidebar.
 */
export const appNavigation: readonly AppNavigationItem[] = [
  { label: 'Dashboard', href: paths.dashboard.href(), icon: LayoutDashboard },
  { label: 'Courses', href: paths.courses.list.href(), icon: BookOpen },
  { label: 'Learners', href: paths.learners.list.href(), icon: GraduationCap },
  { label: 'Custom AI Agents', href: paths.chatbots.list.href(), icon: Bot },
  { label: 'Pipelines', href: paths.pipelines.list.href(), icon: Workflow },
  { label: 'Variables', href: paths.variables.list.href(), icon: Variable },
  { label: 'Questions', href: paths.questions.list.href(), icon: ListChecks },
  { label: 'Reports', href: paths.customReports.list.href(), icon: FileChartColumn },
  { label: 'Analytics', href: paths.analytics.overview.href(), icon: BarChart3 },
  { label: 'Activity', href: paths.activity.href(), icon: Activity },
  { label: 'Settings', href: paths.organization.settings.href(), icon: Settings },
  { label: 'Billing', href: paths.billing.href(), icon: CreditCard },
  { label: 'Help', href: paths.docs.href(), icon: LifeBuoy, isExternal: true },
];

export const profileNavigation = { label: 'Profile', href: paths.profile.href(), icon: Users } as const;
