import serverPackage from '../../package.json' with { type: 'json' };

/** The version reported by /api/health (the server package's version). */
export const appVersion: string = serverPackage.version;
