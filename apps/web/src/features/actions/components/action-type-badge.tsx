import { ACTION_TYPE_LABELS, type ActionType } from '@courselens/contracts';
import { Bell, Globe, Mail, Megaphone, Variable, type LucideIcon } from 'lucide-react';

import { Badge } from '@/components/ui/badge';

export const ACTION_TYPE_ICONS: Record<ActionType, LucideIcon> = {
  webhook: Globe,
  email: Mail,
  broadcast: Megaphone,
  set_variable: Variable,
  notify_team: Bell,
};

export type ActionTypeBadgeProps = { type: ActionType };

/** The type of an action, with its icon. */
export function ActionTypeBadge({ type }: ActionTypeBadgeProps) {
  const Icon = ACTION_TYPE_ICONS[type];
  return (
    <Badge variant="brand" className="[&_svg]:size-3.5">
      <Icon aria-hidden="true" />
      {ACTION_TYPE_LABELS[type]}
    </Badge>
  );
}
