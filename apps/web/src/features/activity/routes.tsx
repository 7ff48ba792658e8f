import type { RouteObject } from 'react-router';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const activityRoutes: RouteObject[] = [];
