import type { PipelineNodeType } from '@courselens/contracts';
import {
  BookOpen,
  Bot,
  CalendarClock,
  Combine,
  Funnel,
  GitBranch,
  Hourglass,
  MousePointerClick,
  Zap,
  type LucideIcon,
} from 'lucide-react';

export const NODE_ICONS: Record<PipelineNodeType, LucideIcon> = {
  course: BookOpen,
  chatbot: Bot,
  schedule: CalendarClock,
  manual: MousePointerClick,
  filter: Funnel,
  branch: GitBranch,
  delay: Hourglass,
  map_variables: Combine,
  action: Zap,
};

export type NodeCategory = 'source' | 'step' | 'action';

export function nodeCategory(type: PipelineNodeType): NodeCategory {
  if (type === 'action') return 'action';
  if (type === 'course' || type === 'chatbot' || type === 'schedule' || type === 'manual') return 'source';
  return 'step';
}

/** The icon tile of each kind: sources in brand colour, steps neutral, actions in amber. */
export const CATEGORY_TILE: Record<NodeCategory, string> = {
  source: 'bg-brand-50 text-brand-700 dark:bg-brand-400/15 dark:text-brand-200',
  step: 'bg-sky-50 text-sky-700 dark:bg-sky-400/15 dark:text-sky-200',
  action: 'bg-amber-50 text-amber-800 dark:bg-amber-400/15 dark:text-amber-200',
};

export const CATEGORY_LABELS: Record<NodeCategory, string> = {
  source: 'Sources',
  step: 'Steps',
  action: 'Action',
};
